"""The bots' strength: the ladder of levels, and level 5 against the pool.

    python benchmarks/bots/run.py ladder                 # each level against the one below
    python benchmarks/bots/run.py pool                   # level 5 against five, two variants
    python benchmarks/bots/run.py pool --share 0.25 --only expert   # a quarter of the deals
    python benchmarks/bots/run.py level6                 # level 6 against the pool
    python benchmarks/bots/run.py table FILE...          # the table of finished runs
    python benchmarks/bots/run.py paired BASE OTHER      # two runs of one match, deal by deal

Every match is the arena's (``durak.arena.run_match``: paired deals, each replayed with
the seats rotated) on one process, played into a run file under ``--out`` (default
``scratch/bots/``, which git ignores): a run that is stopped continues where it stopped
when started again, and ``--share`` plays the first part of each match's deals, so a
reduced run is the prefix of the full one and can be compared with it deal by deal
(``paired``). The table printed at the end is what ``benchmarks/bots/results.txt``
holds; ``table`` prints it again from run files or arena JSON files.

Score: 1 for not being the durak, 1/2 for a draw, 0 for the durak (in a two-player game
the win rate with draws as half), the first bot's; its 95% interval treats the games of
one deal as one sample. Budgets are rollout counts, not seconds, so a level plays the
same games on a busy machine (level 5 keeps a CPU cap of 0.5 s a move, which seldom binds).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Any

from durak.arena import run_match, summarize
from durak.dist import runlog
from durak.rules import Rules


@dataclass(frozen=True)
class Match:
    bots: tuple[str, ...]
    rules: str
    games: int
    seed: int

    @property
    def name(self) -> str:
        return f"{'-'.join(self.bots)}-{self.rules}"


POOL_GAMES = {"random": 100, "greedy": 200, "heuristic": 200, "level4": 200, "expert": 800}
MATCHES: dict[str, list[Match]] = {
    "ladder": [
        Match(("level2", "level1"), "podkidnoy", 1000, 7),
        Match(("level3", "level2"), "podkidnoy", 1000, 7),
        Match(("level4", "level3"), "podkidnoy", 400, 7),
        # The pool's deals (seed 41): the same games as the pool's level-4 row.
        Match(("level5", "level4"), "podkidnoy", 200, 41),
    ],
    "pool": [
        Match(("level5", opponent), rules, games, 41)
        for opponent, games in POOL_GAMES.items()
        for rules in ("podkidnoy", "perevodnoy")
    ],
    # issue 35: level 6 (the self-play network's look-ahead with the exact endgame) on the
    # pool's deals; run.py paired sets it beside level 5's run deal by deal
    "level6": [
        Match(("level6", opponent), rules, games, 41)
        for opponent, games in (
            ("expert", 800),
            ("level5", 200),
            ("heuristic", 200),
            ("greedy", 200),
        )
        for rules in ("podkidnoy", "perevodnoy")
    ]
    + [
        # with three experts (at four it plays level 5's moves), alone and in teams of two
        Match(("level6", "expert", "expert", "expert"), "podkidnoy(players=4)", 400, 41),
        Match(("level6", "expert", "expert", "expert"), "podkidnoy(players=4,teams=2x2)", 200, 41),
    ],
    # issue 46: level 6 at every table (the every-table network's look-ahead): one level 6
    # with the others level 5 (a level-6 side against a level-5 side in teams), then the
    # same against expert, 400 deals each with every seat rotation; then each 2-player
    # variant against expert, 800 games (the pool's size)
    "tables": [
        Match(("level6",) + (other,) * (n - 1), f"podkidnoy(players={n})", 400 * n, 43)
        for other in ("level5", "expert")
        for n in (3, 4, 6)
    ]
    + [
        Match(("level6", other), f"podkidnoy(players={n},teams={t})", 800, 43)
        for other in ("level5", "expert")
        for n, t in ((4, "2x2"), (6, "3x3"))
    ]
    + [
        Match(("level6", "expert"), rules, 800, 43)
        for rules in (
            "beskozyrny",
            "piki-pikami",
            "dvukhkozyrny",
            "podkidnoy(deck=24)",
            "podkidnoy(deck=52)",
            "pogonny",
        )
    ],
}


def load(path: str) -> tuple[Rules, list[str], int, list[dict[str, Any]]]:
    """(rules, bots, seed, records) of an arena JSON file or a run file (``--out``)."""
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    if runlog.MAGIC in first:
        log = runlog.read_path(path)
        h = log.header
        done = log.complete_deals()
        records = [r for d in sorted(done) for r in done[d]]
        return Rules.parse(h.rules), list(h.bots), h.seed, records
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return Rules.parse(data["rules"]), list(data["bots"]), int(data["seed"]), data["records"]


def row(path: str) -> str:
    """One line of the results table: the first bot's score, CPU time a move and durak
    rate (what counts with more than two players)."""
    rules, bots, seed, records = load(path)
    r = summarize(rules, bots, records, seed, 0.0)
    e = r.entrants[0]
    lo, hi = e.score_ci
    deals = len({rec["deal"] for rec in records})
    cpu = f"{1e3 * e.cpu_mean:6.1f} {1e3 * e.cpu_max:6.0f}" if e.moves else f"{'-':>13}"
    dlo, dhi = e.durak_ci
    return (
        f"{' vs '.join(bots):<26} {str(rules):<14} {seed:>4} {len(records):>6} {deals:>6}  "
        f"{e.score:.3f} [{lo:.3f}, {hi:.3f}]  {cpu}  "
        f"{100 * e.durak_rate:4.1f}% [{100 * dlo:4.1f}, {100 * dhi:4.1f}]"
    )


HEAD = (
    f"{'match':<26} {'rules':<14} {'seed':>4} {'games':>6} {'deals':>6}  "
    f"{'score [95%]':<21}  {'CPU ms a move':>13}  {'durak [95%]'}\n" + "-" * 119
)


def table(paths: list[str]) -> str:
    return "\n".join([HEAD, *(row(p) for p in paths)])


def per_deal(path: str) -> dict[int, float]:
    """The first bot's mean score in each deal of a run."""
    rules, bots, _, records = load(path)
    team = rules.team_of
    scores: dict[int, list[float]] = {}
    for rec in records:
        for seat, spec in enumerate(rec["seats"]):
            if spec != bots[0]:
                continue
            d = rec["durak"]
            v = 0.5 if rec["draw"] or d is None else (0.0 if team(d) == team(seat) else 1.0)
            scores.setdefault(int(rec["deal"]), []).append(v)
    return {d: sum(v) / len(v) for d, v in scores.items()}


def games(path: str) -> dict[tuple[int, tuple[str, ...]], tuple[int, Any]]:
    """Each game of a run by (deal, seats): its length and its durak."""
    return {
        (int(r["deal"]), tuple(r["seats"])): (int(r["moves"]), r["durak"]) for r in load(path)[3]
    }


def paired(base: str, other: str) -> str:
    """``other``'s score less ``base``'s over the deals both played, 95% interval by deal,
    and how many games of those deals went the same way (length and durak)."""
    a, b = per_deal(base), per_deal(other)
    ga, gb = games(base), games(other)
    both = [k for k in ga if k in gb]
    alike = sum(1 for k in both if ga[k] == gb[k])
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        return f"{other}: fewer than two deals in common with {base}"
    diffs = [b[d] - a[d] for d in common]
    m = sum(diffs) / len(diffs)
    var = sum((x - m) ** 2 for x in diffs) / (len(diffs) - 1)
    half = 1.96 * math.sqrt(var / len(diffs))
    mean_a = sum(a[d] for d in common) / len(common)
    mean_b = sum(b[d] for d in common) / len(common)
    return (
        f"{len(common)} deals in common: base {mean_a:.3f}, other {mean_b:.3f}, "
        f"difference {m:+.3f} ± {half:.3f} (95%); {alike} of {len(both)} games the same "
        "length and durak"
    )


def play(kind: str, out: str, share: float, only: str, jobs: int) -> list[str]:
    """Play (or continue) the matches of ``kind``; the run files written."""
    os.makedirs(out, exist_ok=True)
    paths = []
    for m in MATCHES[kind]:
        if only and not re.search(only, m.name):
            continue
        games = max(len(m.bots), math.ceil(m.games * share))
        path = os.path.join(out, f"{m.name}-seed{m.seed}.jsonl")
        print(f"{m.name}: {games} games -> {path}", file=sys.stderr, flush=True)
        run_match(Rules.parse(m.rules), m.bots, games, m.seed, jobs=jobs, out=path)
        paths.append(path)
        print(row(path), file=sys.stderr, flush=True)
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    for kind in MATCHES:
        p = sub.add_parser(kind, help=f"play the {kind}")
        p.add_argument("--out", default="scratch/bots", help="run files (default scratch/bots)")
        p.add_argument("--share", type=float, default=1.0, help="the first share of the deals")
        p.add_argument("--only", default="", help="matches whose name matches this pattern")
        p.add_argument("--jobs", type=int, default=1, help="processes a match (default 1)")
    t = sub.add_parser("table", help="the table of run files or arena JSON files")
    t.add_argument("files", nargs="+")
    p2 = sub.add_parser("paired", help="two runs of a match compared deal by deal")
    p2.add_argument("base")
    p2.add_argument("other", nargs="+")
    args = ap.parse_args(argv)
    if args.command == "table":
        print(table(args.files))
    elif args.command == "paired":
        for other in args.other:
            print(paired(args.base, other))
    else:
        print(table(play(args.command, args.out, args.share, args.only, args.jobs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
