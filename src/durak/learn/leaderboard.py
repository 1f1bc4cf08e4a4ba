"""The leaderboard protocol (``benchmarks/rl/protocol.md``, version v1): one command that
scores any player on fixed tasks and prints its row, and one that rebuilds the whole table.

A **task** is a rule set, a set of opponents and fixed deals: deal ``d`` of a task is
``Game(rules, seed=task.seed + d)``, played once from every *side* (each seat in turn; in
team play each team's seats together, the entry playing both partners), every other seat
an opponent bot, so a deal's luck cancels out. Every bot is made afresh each game with a
seed that follows from the task, the deal and the seat (:func:`bot_seed`), so the same
entry gives the same numbers, bit for bit. A game's score is the entry's: 1 not the
durak (its side does not lose), 0 the durak, ½ a draw or a deal cut off; a cell is the
mean over the deals (a deal's games are one observation) with its 95% normal interval.
Fair shares: ½ at two players and in team play, ⅔ at three, ¾ at four.

An **entry** is any bot spec of :func:`durak.bots.make` (``learned``, ``level4``,
``policy:PATH``, ``zoo:NAME``, ``expert``...) or ``dmc:PATH`` (a checkpoint of
:mod:`durak.learn.dmc2`, 2-player tables).

>>> row = score("greedy", deals=1, tasks=TASKS[:1])
>>> [(c.task, c.opponent, c.cell.games) for c in row]
[('2p-podkidnoy', 'greedy', 2), ('2p-podkidnoy', 'heuristic', 2), ('2p-podkidnoy', 'expert', 2)]

The commands::

    .venv/bin/python -m durak.learn.leaderboard score learned   # about 1 min of one core
    .venv/bin/python -m durak.learn.leaderboard table --out benchmarks/rl/leaderboard.md
"""

from __future__ import annotations

import argparse
import json
import os
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..bots import Bot, make
from ..errors import ArgumentError, DurakError
from ..game import Game
from ..rules import Rules
from ..seats import Seats
from .evaluate import Cell, cell_of
from .scoring import seat_score, sides

__all__ = [
    "BASELINES",
    "OPPONENTS",
    "TASKS",
    "VERSION",
    "Result",
    "Task",
    "bot_seed",
    "entry_factory",
    "main",
    "score",
    "table",
]

VERSION = "v1"
OPPONENTS = ("greedy", "heuristic", "expert")


@dataclass(frozen=True)
class Task:
    """A rule set (its text form), the seed of its first deal and its default deals."""

    name: str
    rules: str
    seed: int
    deals: int

    def parsed(self) -> Rules:
        """The task's rule set."""
        return Rules.parse(self.rules)


# v1: 60 games a cell (deals x sides), so that the whole table costs about 10 CPU
# minutes; the seeds are the protocol's, never reused.
TASKS: tuple[Task, ...] = (
    Task("2p-podkidnoy", "podkidnoy", 52_000_000, 30),
    Task("2p-perevodnoy", "perevodnoy", 52_100_000, 30),
    Task("3p-podkidnoy", "podkidnoy(players=3)", 52_200_000, 20),
    Task("4p-podkidnoy", "podkidnoy(players=4)", 52_300_000, 15),
    Task("2x2-podkidnoy", "podkidnoy(players=4,teams=2x2)", 52_400_000, 30),
)

# The table's rows: (row name, entry spec). level1-3 are random, greedy and heuristic.
BASELINES: tuple[tuple[str, str], ...] = (
    ("random (level1)", "random"),
    ("greedy (level2)", "greedy"),
    ("heuristic (level3)", "heuristic"),
    ("expert", "expert"),
    ("level4 (ismcts, 60 iterations)", "level4"),
    ("learned", "learned"),
    ("zoo:dmc2", "zoo:dmc2"),
    ("zoo:imitation", "zoo:imitation"),
    ("zoo:table", "zoo:table"),
)


@dataclass(frozen=True)
class Result:
    """One cell of a row: the entry's score on a task against an opponent (``None``: the
    entry cannot play the task's table, a network trained for other tables)."""

    task: str
    opponent: str
    cell: Cell | None


def bot_seed(task: Task, deal: int, side: int, seat: int) -> int:
    """The seed of the bot in ``seat`` when the entry plays ``side`` of ``deal``: a fixed
    function of them (CRC-32, the same on every machine and Python)."""
    return zlib.crc32(f"{task.name}/{deal}/{side}/{seat}".encode())


def entry_factory(spec: str) -> Callable[[int], Bot]:
    """``seed -> bot`` for an entry's spec (``dmc:PATH`` loads the checkpoint once)."""
    if spec.startswith("dmc:"):
        from ..bots.learned import LearnedBot
        from . import dmc2  # (torch: only for a dmc: entry)

        net = dmc2.load(spec[4:])
        return lambda seed: LearnedBot.of(net, "dmc")
    make(spec)  # a bad spec fails here, before any game
    return lambda seed: make(spec, seed=seed)


def deal_score(task: Task, rules: Rules, entry: Callable[[int], Bot], rung: str, d: int) -> float:
    """The entry's mean score over deal ``d``'s games, one from each side."""
    total = 0.0
    all_sides = sides(rules)
    for k, side in enumerate(all_sides):
        players = [
            entry(bot_seed(task, d, k, s))
            if s in side
            else make(rung, seed=bot_seed(task, d, k, s))
            for s in range(rules.players)
        ]
        g = Game(rules, seed=task.seed + d)
        seats = Seats(players)
        seats.reset(g)
        seats.play(g)
        total += seat_score(rules, g.outcome, side[0])
    return total / len(all_sides)


def score(
    spec: str,
    deals: int | None = None,
    tasks: Sequence[Task] = TASKS,
    opponents: Sequence[str] = OPPONENTS,
) -> list[Result]:
    """The entry's row: a cell per task and opponent (``deals`` overrides every task's
    deal count: a smaller run is the first deals of the full one)."""
    entry = entry_factory(spec)
    out = []
    for task in tasks:
        rules = task.parsed()
        n = task.deals if deals is None else deals
        if n < 1:
            raise ArgumentError(f"deals: at least 1, not {n}")
        for rung in opponents:
            try:
                scores = [deal_score(task, rules, entry, rung, d) for d in range(n)]
            except DurakError as e:
                if "cannot play" not in str(e):
                    raise
                out.append(Result(task.name, rung, None))
                continue
            out.append(Result(task.name, rung, cell_of(scores, len(sides(rules)))))
    return out


def header(tasks: Sequence[Task] = TASKS, opponents: Sequence[str] = OPPONENTS) -> str:
    """The table's two header lines (a column per task and opponent, then the mean)."""
    cols = [f"{t.name} vs {o}" for t in tasks for o in opponents]
    return "| entry | " + " | ".join(cols) + " | mean |\n|---|" + "---|" * (len(cols) + 1)


def row(name: str, results: Sequence[Result]) -> str:
    """A markdown row: the cells (``-`` where the entry cannot play), then the mean of the
    cells' means (every entry meets the same cells, so the means rank those that play
    them all; ``-`` for the others)."""
    means = [r.cell.mean for r in results if r.cell is not None]
    mean = f"{sum(means) / len(means):.3f}" if len(means) == len(results) else "-"
    cells = (str(r.cell) if r.cell is not None else "-" for r in results)
    return f"| {name} | " + " | ".join(cells) + f" | {mean} |"


Progress = Callable[[str, dict[str, list[Result]], dict[str, float]], None]


def table(
    deals: int | None = None,
    entries: Sequence[tuple[str, str]] | None = None,
    progress: Progress | None = None,
) -> tuple[str, dict[str, list[Result]], dict[str, float]]:
    """Every entry's row (:data:`BASELINES` unless told): the markdown table, the results
    and each row's CPU seconds; ``progress`` is given them after every row."""
    lines, results, cpu = [header()], {}, {}
    for name, spec in BASELINES if entries is None else entries:
        t0 = time.process_time()
        results[name] = score(spec, deals)
        cpu[name] = time.process_time() - t0
        lines.append(row(name, results[name]))
        print(lines[-1], f"({cpu[name]:.0f} s CPU)", flush=True)
        if progress is not None:
            progress("\n".join(lines), results, cpu)
    return "\n".join(lines), results, cpu


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def main(argv: Sequence[str] | None = None) -> None:
    """``score SPEC``: the entry's row; ``table``: every baseline's (``--out`` a page of
    them with the date, the load and the CPU, ``--json`` the cells for the zoo)."""
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    one = sub.add_parser("score", help="score one entry and print its row")
    one.add_argument("spec", help="a bot spec (learned, policy:PATH, zoo:NAME...) or dmc:PATH")
    every = sub.add_parser("table", help="every baseline's row, the whole leaderboard")
    every.add_argument("--out", default=None, help="write the page here (markdown)")
    every.add_argument("--json", default=None, help="write the cells here (JSON)")
    for q in (one, every):
        q.add_argument("--deals", type=int, default=None, help="deals a task (v1: its own)")
    args = p.parse_args(argv)
    print(f"leaderboard {VERSION}, deals a task: {args.deals or 'the protocol'}", flush=True)
    if args.command == "score":
        print(header())
        print(row(args.spec, score(args.spec, args.deals)))
        return
    start, load0, when = time.process_time(), os.getloadavg()[0], time.strftime("%Y-%m-%d %H:%M")

    def publish(text: str, results: dict[str, list[Result]], cpu: dict[str, float]) -> None:
        """The page and the cells as they stand (after every row: a long run keeps what
        it has done)."""
        total = time.process_time() - start
        load = f"{load0:.1f}-{os.getloadavg()[0]:.1f}"
        if args.out:
            left = len(BASELINES) - len(results)
            note = f"\n(Partial: {left} more rows to come.)\n" if left else ""
            _write(args.out, page(text, cpu, total, when, load, args.deals) + note)
        if args.json:
            cells = {name: [_cells(r) for r in rs] for name, rs in results.items()}
            _write(args.json, json.dumps({"version": VERSION, "rows": cells}, indent=1) + "\n")

    _, results, cpu = table(args.deals, progress=publish)
    total = time.process_time() - start
    print(f"\n{len(results)} rows, {total:.0f} s of CPU", flush=True)


def _cells(r: Result) -> list[object]:
    c = r.cell
    if c is None:
        return [r.task, r.opponent, None, None, None, 0]
    return [r.task, r.opponent, c.mean, c.low, c.high, c.games]


def page(
    text: str, cpu: dict[str, float], total: float, when: str, load: str, deals: int | None
) -> str:
    """The published page: the table, then when, where and at what cost it was made."""
    cost = ", ".join(f"{name} {s:.0f} s" for name, s in cpu.items())
    scale = "" if deals is None else f" --deals {deals}"
    processor = _cpu_name()
    return (
        f"# Leaderboard, protocol {VERSION}\n\n"
        "Score [95% interval] (games) of each entry (rows) on each task against each\n"
        "opponent (columns); `benchmarks/rl/protocol.md` says what is played. Made by\n\n"
        f"    .venv/bin/python -m durak.learn.leaderboard table{scale} \\\n"
        "        --out benchmarks/rl/leaderboard.md --json src/durak/learn/leaderboard.json"
        f"   # {total / 60:.0f} min of one core\n\n"
        f"{text}\n\n"
        f"Made {when} UTC on {processor}, load {load} (2 cores, shared), {total:.0f} s of\n"
        f"CPU in all; each row's: {cost}.\n"
    )


def _cpu_name() -> str:
    """The processor's model name (Linux), or ``unknown``."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


if __name__ == "__main__":
    main()
