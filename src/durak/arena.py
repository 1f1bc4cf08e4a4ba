"""``durak arena``: bots play each other; durak rates with 95% intervals, ratings, JSON, a chart.

Seats rotate and deals are paired: every deal (a seed) is replayed once per rotation of
the line-up, so each bot sits in every seat with the very same cards, which takes most
of the luck of the deal out of the comparison. Games run on all cores, or on a Ray
cluster (``--backend ray``); a run can be split into shards, written to a file as it goes,
continued after a stop and merged (docs/scale.md).

    durak arena --bots ismcts:time=0.1 greedy --games 200
    durak arena --bots heuristic greedy greedy greedy --rules "perevodnoy(players=4)"
    durak arena --bots heuristic greedy --games 20000 --shard 1/4 --out part-1.jsonl
    durak arena merge part-*.jsonl

A bot spec is ``name`` or ``name:key=value,key=value`` (``ismcts:iterations=400,seed=3``).
With fewer specs than players the line-up repeats them round the table.

>>> r = run_match(Rules(), ["greedy", "random"], games=8, seed=1, jobs=1)
>>> r.games, sorted(e.name for e in r.entrants)
(8, ['greedy', 'random'])
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .argtypes import at_least
from .bots import Bot, make, parse
from .dist import runlog
from .dist.executors import BACKENDS, Batcher, executor
from .errors import ArgumentError
from .game import Game
from .record import moves_text, replay_moves
from .rules import Rules, RulesError
from .seats import Clock, Seats

# -- bot specs -----------------------------------------------------------------------
# A bot spec is parsed by durak.bots.parse / durak.bots.make, the one parser of specs.


def make_bot(spec: str, seed: int) -> Bot:
    """A fresh bot from its spec; ``seed`` is used unless the spec fixes one."""
    name, opts = parse(spec)
    opts.setdefault("seed", seed)
    return make(name, **opts)


# -- playing ---------------------------------------------------------------------------
def play_game(
    rules: Rules,
    seats: Sequence[Any],
    deal_seed: int,
    bot_seed: int,
    clock: Clock | None = None,
) -> Game:
    """One deal of ``rules`` with the bots ``seats[i]`` in seat ``i``; the finished game.
    ``clock``, if given, gets per seat ``[moves, seconds, longest, CPU seconds, longest]``
    (:meth:`durak.seats.Seats.play`). A seat is a bot spec, or a bot object (self-play's
    policies) used as it is."""
    players = Seats(
        make_bot(spec, bot_seed * 7919 + i) if isinstance(spec, str) else spec
        for i, spec in enumerate(seats)
    )
    g = Game(rules.with_action_limit(), seed=deal_seed)  # bots only: a deal must end
    players.reset(g)
    return players.play(g, clock)


def lineups(specs: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every rotation of the line-up (specs repeated round the table), without repeats."""
    base = [specs[i % len(specs)] for i in range(players)]
    out: list[tuple[str, ...]] = []
    for r in range(players):
        lu = tuple(base[(s + r) % players] for s in range(players))
        if lu not in out:
            out.append(lu)
    return out


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal number ``deal`` of a match seeded ``seed``."""
    return (seed * 1_000_003 + deal) % 2**63


def _play_deal(task: tuple[Rules, list[tuple[str, ...]], int, int]) -> list[dict[str, Any]]:
    rules, ups, deal, seed = task
    ds = deal_seed(seed, deal)
    results = []
    for k, seats in enumerate(ups):
        t0 = time.perf_counter()
        clock = [[0, 0.0, 0.0, 0.0, 0.0] for _ in seats]
        g = play_game(rules, seats, ds, ds + k, clock)
        o = g.outcome
        assert o is not None
        results.append(
            {
                "deal": deal,
                "deal_seed": ds,
                "seats": list(seats),
                "durak": o.durak,
                "draw": o.draw,
                "out_order": list(o.out_order),
                "moves": len(g.history),
                # every action, seat by seat (record.moves_text): with the deal seed it
                # replays the game exactly (replay_game)
                "play": moves_text(g),
                "seconds": round(time.perf_counter() - t0, 4),
                # per seat: moves; seconds choosing them and the longest, wall clock and CPU
                "clock": [[int(c[0])] + [round(x, 5) for x in c[1:]] for c in clock],
            }
        )
    return results


def replay_game(rules: Rules, rec: dict[str, Any]) -> Game:
    """The game an arena record played (its ``deal_seed`` and ``play``), move by move.

    >>> r = run_match(Rules(), ["greedy", "random"], games=2, seed=1, jobs=1)
    >>> g = replay_game(Rules(), r.records[0])
    >>> g.is_over and len(g.history) == r.records[0]["moves"]
    True
    """
    g = Game(rules.with_action_limit(), seed=rec["deal_seed"])
    replay_moves(g, [rec["play"]])
    return g


def _play_deals(
    task: tuple[Rules, list[tuple[str, ...]], int, list[int]],
) -> list[list[dict[str, Any]]]:
    """A batch of deals (one task sent to a worker): the games of each deal."""
    rules, ups, seed, deals = task
    return [_play_deal((rules, ups, d, seed)) for d in deals]


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
    moves: int = 0
    sec_mean: float = 0.0  # seconds a move (wall clock), mean and longest
    sec_max: float = 0.0
    cpu_mean: float = 0.0  # the same in CPU seconds (what a busy machine does not inflate)
    cpu_max: float = 0.0
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
        head = (
            f"{'bot':<32} {'seat-games':>10}  {'durak rate [95% CI]':<24} "
            f"{'score [95% CI]':<22} {'rating':>7}  {'ms/move':>8} {'max':>7}  "
            f"{'cpu ms':>7} {'max':>7}"
        )
        lines = [head, "-" * len(head)]
        for e in sorted(self.entrants, key=lambda e: -e.rating):
            lo, hi = e.durak_ci
            slo, shi = e.score_ci
            lines.append(
                f"{e.name:<32} {e.seat_games:>10}  "
                f"{100 * e.durak_rate:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}]{'':<6} "
                f"{e.score:.3f} [{slo:.3f}, {shi:.3f}]  {e.rating:+7.0f}  "
                f"{1e3 * e.sec_mean:8.2f} {1e3 * e.sec_max:7.1f}  "
                f"{1e3 * e.cpu_mean:7.2f} {1e3 * e.cpu_max:7.1f}"
            )
        draws = sum(1 for r in self.records if r["draw"])
        lines.append(
            f"{self.games} games ({draws} draws), {self.rules}, {self.seconds:.1f} s; "
            "score: 1 not durak, 1/2 draw, 0 durak; ratings: Bradley-Terry on the Elo scale; "
            "milliseconds a move, mean and longest, wall clock and CPU"
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


# C901: one pass over the records tallies wins, pairings, teams and the anchor together
def summarize(  # noqa: C901
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
            if "clock" in r:
                n, t, m, ct, cm = r["clock"][i]
                e.moves += n
                e.sec_mean += t  # totals until divided below
                e.sec_max = max(e.sec_max, m)
                e.cpu_mean += ct
                e.cpu_max = max(e.cpu_max, cm)
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
        e.sec_mean = e.sec_mean / e.moves if e.moves else 0.0
        e.cpu_mean = e.cpu_mean / e.moves if e.moves else 0.0
    return ArenaResult(
        str(rules),
        list(specs),
        len(records),
        seed,
        seconds,
        list(ents.values()),
        records,
        rules.players,
    )


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
    """A text progress bar on stderr (a new line every tenth when not a terminal). It
    is redrawn at least every ``EVERY`` seconds even while no game ends (a ticker
    thread), so a slow run never looks stuck."""

    EVERY = 4.0

    def __init__(self, total: int, enabled: bool = True) -> None:
        self.total = total
        self.done = 0
        self.start = time.perf_counter()
        self.enabled = enabled and total > 0
        self.tty = sys.stderr.isatty()
        self._last_tenth = -1
        self._last_shown = self.start
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def start_ticker(self) -> None:
        """Redraw at least every ``EVERY`` s until :meth:`close` or the last game."""
        if self.enabled:
            threading.Thread(target=self._tick, daemon=True).start()

    def _tick(self) -> None:
        while not self._stop.wait(1.0):
            with self._lock:
                if self.done >= self.total:
                    return
                if time.perf_counter() - self._last_shown >= self.EVERY:
                    self._show(force=True)

    def close(self) -> None:
        self._stop.set()

    def update(self, n: int) -> None:
        with self._lock:
            self.done += n
            if self.enabled:
                self._show(force=False)
            if self.done >= self.total:
                self._stop.set()

    def _show(self, force: bool) -> None:
        now = time.perf_counter()
        el = now - self.start
        eta = el / self.done * (self.total - self.done) if self.done else 0.0
        frac = self.done / self.total
        bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
        text = f"[{bar}] {self.done}/{self.total} games  {clock(el)}  eta " + (
            clock(eta) if self.done else "?"
        )
        if self.tty:
            sys.stderr.write("\r" + text + "\x1b[K")  # clear what a longer line left
            if self.done >= self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()
            self._last_shown = now
        elif force or int(10 * frac) > self._last_tenth:
            self._last_tenth = int(10 * frac)
            print(text, file=sys.stderr, flush=True)
            self._last_shown = now


# PLR0913: the arena's options, one keyword each as `durak arena` takes them
def run_match(  # noqa: PLR0913
    rules: Rules,
    specs: Sequence[str],
    games: int = 100,
    seed: int = 1,
    jobs: int | None = None,
    progress: bool = False,
    anchor: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    backend: str = "process",
    address: str | None = None,
    shard: tuple[int, int] = (1, 1),
    out: str | None = None,
    batch: int | None = None,
) -> ArenaResult:
    """Play about ``games`` games (whole deals: rounded up to a multiple of the rotations)
    and summarize them.

    ``backend`` ``"process"`` plays on ``jobs`` local processes (default: every core),
    ``"ray"`` on the Ray cluster at ``address`` (or ``RAY_ADDRESS``; without one, a local Ray
    with ``jobs`` CPUs). ``batch`` deals go to a worker at a time (default: as many as take
    about half a second). ``shard=(i, n)`` plays only the i-th of n shares of the deals.
    ``out`` names a run file that gets every game as it finishes; if it already holds part
    of this run, only the missing deals are played. The games do not depend on any of
    these: each deal's cards and bot seeds follow from ``seed`` and the deal's number."""
    specs = list(specs)
    for s in specs:
        make_bot(s, 0)  # fail early on a bad name or option
    if backend not in BACKENDS:
        raise ArgumentError(f"no backend {backend!r}; one of {', '.join(BACKENDS)}")
    ups = lineups(specs, rules.players)
    deals = max(1, math.ceil(games / len(ups)))
    header = runlog.Header(str(rules), specs, seed, deals, len(ups), shard)
    done: dict[int, list[dict[str, Any]]] = {}
    f = None
    if out:
        done, f = _open_run_file(out, header, progress)
    todo = [d for d in header.shard_deals() if d not in done]
    records = [r for g in done.values() for r in g]
    bar = Progress(len(todo) * len(ups), progress)
    bar.start_ticker()
    start = time.perf_counter()

    def collect(res: list[list[dict[str, Any]]], batcher: Batcher) -> None:
        n = 0
        for deal_games in res:
            records.extend(deal_games)
            n += len(deal_games)
            if f is not None:
                runlog.append(f, deal_games)
        batcher.done(len(res), sum(r.get("seconds", 0.0) for g in res for r in g))
        bar.update(n)
        if on_progress is not None:
            on_progress(n)

    try:
        if todo:
            if backend == "process" and len(todo) == 1:
                jobs = 1
            if backend == "ray" and progress:
                print("durak arena: starting Ray, or joining it", file=sys.stderr)
            with executor(backend, jobs, address) as ex:
                batcher = Batcher(todo, ex.workers, batch)
                tasks = ((rules, ups, seed, b) for b in batcher)
                for res in ex.map_unordered(_play_deals, tasks):
                    collect(res, batcher)
    finally:
        bar.close()
        if f is not None:
            f.close()
    records.sort(key=lambda r: (r["deal"], ups.index(tuple(r["seats"]))))
    return summarize(rules, specs, records, seed, time.perf_counter() - start, anchor)


def _open_run_file(
    path: str, header: runlog.Header, progress: bool
) -> tuple[dict[int, list[dict[str, Any]]], Any]:
    """The deals ``path`` already holds and the file open for more: a new file, or one that
    holds an earlier part of the same run (also one with fewer deals, which this extends)."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        f = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed by run_match)
        runlog.write_header(f, header)
        return {}, f
    log = runlog.read_path(path)
    old = log.header
    if old != header and (
        old.deals > header.deals or dataclasses.replace(old, deals=header.deals) != header
    ):
        raise ArgumentError(
            f"{path} holds another run ({old.rules}, bots {' '.join(old.bots)}, seed {old.seed}, "
            f"{old.deals} deals, shard {old.shard[0]}/{old.shard[1]}); give another --out, or "
            "the same options to continue it"
        )
    done = log.complete_deals()
    if log.damaged or old != header or len(done) != len(log.by_deal):
        log.header = header
        log.by_deal = done
        runlog.rewrite(path, log)
    if progress:
        print(
            f"continuing {path}: {len(done)} of {len(header.shard_deals())} deals already played",
            file=sys.stderr,
        )
    return done, open(path, "a", encoding="utf-8")  # noqa: SIM115


def merge_files(paths: Sequence[str], anchor: str | None = None) -> ArenaResult:
    """One result from the run files of the shards of a run (or of one run): the same table,
    ratings and chart as the run played in one go. Its time is the games' time added up."""
    header, records = runlog.merge([(p, runlog.read_path(p)) for p in paths])
    rules = Rules.parse(header.rules)
    ups = lineups(header.bots, rules.players)
    records.sort(key=lambda r: (r["deal"], ups.index(tuple(r["seats"]))))
    seconds = sum(float(r.get("seconds", 0.0)) for r in records)
    return summarize(rules, header.bots, records, header.seed, seconds, anchor)


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
def add_outputs(parser: argparse.ArgumentParser) -> None:
    """The options of what a result is written to, alike for a run and a merge."""
    parser.add_argument(
        "--json",
        default="",
        metavar="FILE",
        help="write the results here as JSON (default: not written)",
    )
    parser.add_argument(
        "--png",
        "--chart",
        default="",
        metavar="FILE",
        help="draw a chart of the results here (default: not drawn)",
    )
    parser.add_argument("--anchor", default=None, help="the bot rated 0 (default greedy)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bots",
        nargs="+",
        default=["heuristic", "greedy"],
        metavar="SPEC",
        help="bot specs, e.g. ismcts:time=0.1 greedy (repeated round the "
        "table when fewer than players)",
    )
    parser.add_argument(
        "--rules", default="podkidnoy", help='a preset with options, e.g. "perevodnoy(players=4)"'
    )
    parser.add_argument("--games", type=int, default=200, help="games to play (about)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals")
    parser.add_argument(
        "--jobs", type=int, default=0, help="processes, or CPUs of a local Ray (default: all cores)"
    )
    add_outputs(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="process",
        help="where games run: local processes, or Ray (the dist extra)",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="the Ray cluster to use (default RAY_ADDRESS, else a local Ray with --jobs CPUs)",
    )
    parser.add_argument(
        "--shard",
        default="1/1",
        metavar="I/N",
        help="play only the I-th of N shares of the deals (merge the --out "
        "files with `durak arena merge`)",
    )
    parser.add_argument(
        "--out",
        default="",
        metavar="FILE.jsonl",
        help="write every game here as it ends; if FILE already holds part "
        "of this run, continue it",
    )
    parser.add_argument(
        "--batch",
        type=at_least(1),
        default=None,
        help="deals per task sent to a worker (default: as many as take about half a second)",
    )
    sub = parser.add_subparsers(dest="arena_command", title="instead of playing", metavar="merge")
    merge = sub.add_parser(
        "merge",
        help="one result from the --out files of a run's shards",
        description="Merge the --out files of the shards of one arena run "
        "(or of one run) into its table, ratings and chart.",
    )
    merge.add_argument("files", nargs="+", metavar="FILE.jsonl")
    add_outputs(merge)


def run(args: argparse.Namespace) -> int:
    try:
        if getattr(args, "arena_command", None) == "merge":
            result = merge_files(args.files, anchor=args.anchor)
        else:
            if args.address and args.backend != "ray":
                raise ArgumentError("--address is for --backend ray")
            rules = Rules.parse(args.rules)
            result = run_match(
                rules,
                args.bots,
                games=args.games,
                seed=args.seed,
                jobs=args.jobs or None,
                progress=not args.quiet,
                anchor=args.anchor,
                backend=args.backend,
                address=args.address,
                shard=runlog.parse_shard(args.shard),
                out=args.out or None,
                batch=args.batch,
            )
    except (RulesError, ValueError, TypeError, RuntimeError, OSError) as e:
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
