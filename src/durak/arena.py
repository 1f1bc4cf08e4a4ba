"""``durak arena``: bots play each other; durak rates with 95% intervals, ratings, JSON, a chart.

Seats rotate and deals are paired: every deal (a seed) is replayed once per rotation of
the line-up, so each bot sits in every seat with the very same cards, which takes most
of the luck of the deal out of the comparison. Games run on all cores.

    durak arena --bots ismcts:time=0.1 greedy --games 200
    durak arena --bots heuristic greedy greedy greedy --rules "perevodnoy(players=4)"

A bot spec is ``name`` or ``name:key=value,key=value`` (``ismcts:iterations=400,seed=3``).
With fewer specs than players the line-up repeats them round the table.

>>> r = run_match(Rules(), ["greedy", "random"], games=8, seed=1, jobs=1)
>>> r.games, sorted(e.name for e in r.entrants)
(8, ['greedy', 'random'])
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .bots import make
from .game import Game
from .rules import Rules, RulesError


# -- bot specs -----------------------------------------------------------------------
def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:time=0.1,seed=2"`` -> ``("ismcts", {"time": 0.1, "seed": 2})``.

    >>> parse_spec("ismcts:time=0.1,solver=off")
    ('ismcts', {'time': 0.1, 'solver': False})
    """
    name, _, rest = spec.partition(":")
    opts: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, val = item.partition("=")
        if not eq:
            raise ValueError(f"bot option {item!r} in {spec!r}: expected key=value")
        opts[key.strip()] = _value(val.strip())
    return name.strip(), opts


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("on", "true", "yes"):
        return True
    if low in ("off", "false", "no"):
        return False
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def make_bot(spec: str, seed: int) -> Any:
    """A fresh bot from its spec; ``seed`` is used unless the spec fixes one."""
    name, opts = parse_spec(spec)
    opts.setdefault("seed", seed)
    return make(name, **opts)


MAX_MOVES = 20_000  # bots that never end a deal are a bug to report, not a hang

# -- playing ---------------------------------------------------------------------------
def play_game(rules: Rules, seats: Sequence[str], deal_seed: int, bot_seed: int) -> Game:
    """One deal of ``rules`` with the bots ``seats[i]`` in seat ``i``; the finished game."""
    bots = [make_bot(spec, bot_seed * 7919 + i) for i, spec in enumerate(seats)]
    for b in bots:
        reset = getattr(b, "reset", None)
        if reset is not None:
            reset()
    watchers = [(i, b.observe) for i, b in enumerate(bots) if hasattr(b, "observe")]
    g = Game(rules.with_action_limit(), seed=deal_seed)  # bots only: a deal must end
    while not g.is_over:
        if len(g.history) > MAX_MOVES:
            raise RuntimeError(f"deal {deal_seed} with {list(seats)}: no end after {MAX_MOVES} "
                               "moves")
        s = g.to_act
        assert s is not None
        for i, observe in watchers:
            if i != s:
                observe(g.observation(i))
        g.apply(bots[s].choose(g.observation(s)))
    return g


def lineups(specs: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every rotation of the line-up (specs repeated round the table), without repeats."""
    base = [specs[i % len(specs)] for i in range(players)]
    out: list[tuple[str, ...]] = []
    for r in range(players):
        lu = tuple(base[(s + r) % players] for s in range(players))
        if lu not in out:
            out.append(lu)
    return out


def _play_deal(task: tuple[Rules, list[tuple[str, ...]], int, int]) -> list[dict[str, Any]]:
    rules, ups, deal, seed = task
    deal_seed = (seed * 1_000_003 + deal) % 2**63
    results = []
    for k, seats in enumerate(ups):
        t0 = time.perf_counter()
        g = play_game(rules, seats, deal_seed, deal_seed + k)
        o = g.outcome
        assert o is not None
        results.append({
            "deal": deal,
            "deal_seed": deal_seed,
            "seats": list(seats),
            "durak": o.durak,
            "draw": o.draw,
            "out_order": list(o.out_order),
            "moves": len(g.history),
            "seconds": round(time.perf_counter() - t0, 4),
        })
    return results


# -- statistics ------------------------------------------------------------------------
@dataclass
class Entrant:
    """One bot spec's totals over every seat it played."""

    name: str
    seat_games: int = 0
    durak: int = 0
    draws: int = 0
    durak_rate: float = 0.0
    durak_ci: tuple[float, float] = (0.0, 0.0)
    score: float = 0.0  # 1 not durak, 0.5 draw, 0 durak (the win rate in 2-player games)
    score_ci: tuple[float, float] = (0.0, 0.0)
    rating: float = 0.0
    per_deal: dict[int, list[float]] = field(default_factory=dict, repr=False)


@dataclass
class ArenaResult:
    rules: str
    specs: list[str]
    games: int
    seed: int
    seconds: float
    entrants: list[Entrant]
    records: list[dict[str, Any]]
    players: int = 2

    def table(self) -> str:
        """The results as a text table."""
        head = f"{'bot':<32} {'seat-games':>10}  {'durak rate [95% CI]':<24} " \
               f"{'score [95% CI]':<22} {'rating':>7}"
        lines = [head, "-" * len(head)]
        for e in sorted(self.entrants, key=lambda e: -e.rating):
            lo, hi = e.durak_ci
            slo, shi = e.score_ci
            lines.append(
                f"{e.name:<32} {e.seat_games:>10}  "
                f"{100 * e.durak_rate:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}]{'':<6} "
                f"{e.score:.3f} [{slo:.3f}, {shi:.3f}]  {e.rating:+7.0f}"
            )
        draws = sum(1 for r in self.records if r["draw"])
        lines.append(
            f"{self.games} games ({draws} draws), {self.rules}, {self.seconds:.1f} s; "
            "score: 1 not durak, 1/2 draw, 0 durak; ratings: Bradley-Terry on the Elo scale"
        )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        ents = []
        for e in self.entrants:
            d = asdict(e)
            d.pop("per_deal")
            ents.append(d)
        return {
            "rules": self.rules,
            "bots": self.specs,
            "games": self.games,
            "seed": self.seed,
            "seconds": round(self.seconds, 2),
            "players": self.players,
            "entrants": ents,
            "records": self.records,
        }


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def clustered_ci(per_deal: dict[int, list[float]], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and 95% interval of scores, with the games of one deal as one sample: the
    paired replays of a deal are not independent, so the deal is the unit."""
    means = [sum(v) / len(v) for v in per_deal.values() if v]
    weights = [len(v) for v in per_deal.values() if v]
    n = len(means)
    if n == 0:
        return (0.0, 0.0, 1.0)
    total = sum(weights)
    m = sum(x * w for x, w in zip(means, weights, strict=True)) / total
    if n == 1:
        return (m, 0.0, 1.0)
    var = sum(w * w * (x - m) ** 2 for x, w in zip(means, weights, strict=True)) / (total * total)
    var *= n / (n - 1)
    h = z * math.sqrt(var)
    return (m, max(0.0, m - h), min(1.0, m + h))


def bradley_terry(
    names: list[str], wins: dict[tuple[str, str], float], anchor: str | None = None
) -> dict[str, float]:
    """Ratings on the Elo scale (400 * log10 of strength) from pairwise wins
    ``wins[(a, b)]`` (a draw counts half to each), by the MM algorithm, with half a
    virtual win each way per pair so that a clean sweep stays finite. ``anchor`` rates 0."""
    k = len(names)
    if k < 2:
        return {n: 0.0 for n in names}
    w = {(a, b): wins.get((a, b), 0.0) + 0.5 for a in names for b in names if a != b}
    p = dict.fromkeys(names, 1.0)
    for _ in range(2000):
        new = {}
        for i in names:
            num = sum(w[(i, j)] for j in names if j != i)
            den = sum((w[(i, j)] + w[(j, i)]) / (p[i] + p[j]) for j in names if j != i)
            new[i] = num / den
        g = math.exp(sum(math.log(v) for v in new.values()) / k)
        new = {n: v / g for n, v in new.items()}
        done = max(abs(new[n] - p[n]) for n in names) < 1e-10
        p = new
        if done:
            break
    base = p[anchor] if anchor in p else min(p.values())
    return {n: 400 * math.log10(p[n] / base) for n in names}


def summarize(
    rules: Rules,
    specs: list[str],
    records: list[dict[str, Any]],
    seed: int,
    seconds: float,
    anchor: str | None = None,
) -> ArenaResult:
    names: list[str] = []
    for s in specs:
        if s not in names:
            names.append(s)
    ents = {n: Entrant(n) for n in names}
    wins: dict[tuple[str, str], float] = {}
    team = rules.team_of
    for r in records:
        seats = r["seats"]
        durak = r["durak"]
        for i, name in enumerate(seats):
            e = ents[name]
            e.seat_games += 1
            if r["draw"] or durak is None:
                e.draws += 1
                pts = 0.5
            elif team(durak) == team(i):
                pts = 0.0
                if durak == i:
                    e.durak += 1
            else:
                pts = 1.0
            e.per_deal.setdefault(r["deal"], []).append(pts)
        # Pairwise: everyone on the other side beats the durak; a draw is half each.
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if a == b or team(i) == team(j):
                    continue
                if r["draw"] or durak is None:
                    wins[(a, b)] = wins.get((a, b), 0.0) + 0.25  # each pair is met twice
                elif durak == j:
                    wins[(a, b)] = wins.get((a, b), 0.0) + 1.0
    if anchor is None:
        anchor = "greedy" if "greedy" in names else names[-1]
    ratings = bradley_terry(names, wins, anchor)
    for e in ents.values():
        e.durak_rate = e.durak / e.seat_games if e.seat_games else 0.0
        e.durak_ci = wilson(e.durak, e.seat_games)
        e.score, lo, hi = clustered_ci(e.per_deal)
        e.score_ci = (lo, hi)
        e.rating = ratings[e.name]
    return ArenaResult(str(rules), list(specs), len(records), seed, seconds,
                       list(ents.values()), records, rules.players)


# -- running -------------------------------------------------------------------------
def clock(seconds: float) -> str:
    """A duration as people read it: ``42 s``, ``3:07``, ``1:52:31``.

    >>> clock(4.26), clock(187), clock(6751.4)
    ('4.3 s', '3:07', '1:52:31')
    """
    if seconds < 60:
        return f"{seconds:.1f} s"
    m, s = divmod(int(round(seconds)), 60)
    return f"{m}:{s:02d}" if m < 60 else f"{m // 60}:{m % 60:02d}:{s:02d}"


class Progress:
    """A text progress bar on stderr (a new line every tenth when not a terminal)."""

    def __init__(self, total: int, enabled: bool = True) -> None:
        self.total = total
        self.done = 0
        self.start = time.perf_counter()
        self.enabled = enabled and total > 0
        self.tty = sys.stderr.isatty()
        self._last_tenth = -1

    def update(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        el = time.perf_counter() - self.start
        eta = el / self.done * (self.total - self.done) if self.done else 0.0
        frac = self.done / self.total
        bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
        text = f"[{bar}] {self.done}/{self.total} games  {clock(el)}  eta {clock(eta)}"
        if self.tty:
            sys.stderr.write("\r" + text + "\x1b[K")  # clear what a longer line left
            if self.done >= self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()
        elif int(10 * frac) > self._last_tenth:
            self._last_tenth = int(10 * frac)
            print(text, file=sys.stderr, flush=True)


def run_match(
    rules: Rules,
    specs: Sequence[str],
    games: int = 100,
    seed: int = 1,
    jobs: int | None = None,
    progress: bool = False,
    anchor: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play about ``games`` games (whole deals: rounded up to a multiple of the rotations)
    on ``jobs`` processes (default: every core) and summarize them."""
    specs = list(specs)
    for s in specs:
        make_bot(s, 0)  # fail early on a bad name or option
    ups = lineups(specs, rules.players)
    deals = max(1, math.ceil(games / len(ups)))
    tasks = [(rules, ups, d, seed) for d in range(deals)]
    jobs = jobs or os.cpu_count() or 1
    bar = Progress(deals * len(ups), progress)
    start = time.perf_counter()
    records: list[dict[str, Any]] = []

    def collect(res: list[dict[str, Any]]) -> None:
        records.extend(res)
        bar.update(len(res))
        if on_progress is not None:
            on_progress(len(res))

    if jobs <= 1 or deals == 1:
        for t in tasks:
            collect(_play_deal(t))
    else:
        ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
        with ctx.Pool(jobs) as pool:
            for res in pool.imap_unordered(_play_deal, tasks, chunksize=1):
                collect(res)
    records.sort(key=lambda r: (r["deal"], specs.index(r["seats"][0])))
    return summarize(rules, specs, records, seed, time.perf_counter() - start, anchor)


def chart(result: ArenaResult, path: str) -> None:
    """Write a PNG: durak rates with 95% intervals, and ratings."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ents = sorted(result.entrants, key=lambda e: -e.rating)
    names = [e.name for e in ents]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 1.2 + 0.6 * len(ents)))
    y = list(range(len(ents)))
    rates = [100 * e.durak_rate for e in ents]
    err = [
        [100 * (e.durak_rate - e.durak_ci[0]) for e in ents],
        [100 * (e.durak_ci[1] - e.durak_rate) for e in ents],
    ]
    ax1.barh(y, rates, xerr=err, color="#c0504d", capsize=4)
    ax1.set_yticks(y, names)
    ax1.invert_yaxis()
    ax1.set_xlabel("durak rate, % (95% interval)")
    # Par: everyone equally likely to be durak.
    ax1.axvline(100 / result.players, color="grey", ls="--", label="par")
    ax2.barh(y, [e.rating for e in ents], color="#4f81bd")
    ax2.set_yticks(y, [""] * len(ents))
    ax2.invert_yaxis()
    ax2.set_xlabel("rating (Bradley-Terry, Elo scale)")
    fig.suptitle(f"{result.rules}: {result.games} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# -- the command ---------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", nargs="+", default=["heuristic", "greedy"], metavar="SPEC",
                        help="bot specs, e.g. ismcts:time=0.1 greedy (repeated round the "
                             "table when fewer than players)")
    parser.add_argument("--rules", default="podkidnoy",
                        help='a preset with options, e.g. "perevodnoy(players=4)"')
    parser.add_argument("--games", type=int, default=200, help="games to play (about)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals")
    parser.add_argument("--jobs", type=int, default=0, help="processes (default: all cores)")
    parser.add_argument("--json", default="", metavar="FILE",
                        help="write the results here as JSON (default: not written)")
    parser.add_argument("--png", "--chart", default="", metavar="FILE",
                        help="draw a chart of the results here (default: not drawn)")
    parser.add_argument("--anchor", default=None, help="the bot rated 0 (default greedy)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    try:
        rules = Rules.parse(args.rules)
        result = run_match(rules, args.bots, games=args.games, seed=args.seed,
                           jobs=args.jobs or None, progress=not args.quiet, anchor=args.anchor)
    except (RulesError, ValueError, TypeError) as e:
        print(f"durak arena: {e}", file=sys.stderr)
        return 2
    print(result.table())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result.to_json(), f, indent=1)
        print(f"wrote {args.json}")
    if args.png:
        chart(result, args.png)
        print(f"wrote {args.png}")
    return 0
