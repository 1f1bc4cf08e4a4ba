"""Steps per second of each environment adapter beside the raw engine, in one run.

Every loop plays whole deals with uniformly random legal actions, drawn the same way
(``random.Random``): the raw engine through ``Game.legal_actions()`` / ``apply`` (as
``durak bench``), the adapters through their own APIs, the legal actions read from the
int8 action mask with ``mask.view(bool).nonzero()[0]`` (numpy's ``flatnonzero`` on int8
is about four times slower, and would be counted against the adapter). Prints one row per
adapter with its steps/s and its ratio to the raw engine's actions/s measured in turns
with it (``--piece``, 0.05 s of CPU: the machine's speed moves too fast for longer ones).
Time is this process's CPU time, so that other work on a busy machine does not count
against either side.

Both builds of the engine are measured (``--engine both``, the default): the installed
one (compiled with mypyc when it could be) in this process, the pure-Python one in a
second process (``DURAK_PURE=1``); each adapter is compared with the raw engine of its own
build.

    python benchmarks/envs/run.py --seconds 10 --rules "podkidnoy(players=2)"
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from durak import Game, build
from durak.envs.episode import learning_rules
from durak.rules import Rules


def raw_engine(rules: Rules) -> Iterator[int]:
    """Deal after deal through the engine itself; yields each deal's actions."""
    rng = random.Random(0)
    i = 0
    while True:
        g = Game(rules, seed=i)
        i += 1
        steps = 0
        while g.to_act is not None:
            legal = g.legal_actions()
            g.apply(legal[int(rng.random() * len(legal))])
            steps += 1
        yield steps


def pettingzoo(rules: Rules, wrapped: bool = False, observe: bool = True) -> Iterator[int]:
    """Random masked play through the PettingZoo env; ``observe=False`` skips building
    observations (the legal numbers come from the env's compiled step instead)."""
    from durak.envs.pettingzoo import env

    e = env(rules=rules, wrappers=wrapped)
    rng = random.Random(0)
    e.reset(seed=0)
    while True:
        e.reset()
        yield masked_deal(e, rng, observe)


def masked_deal(e: Any, rng: random.Random, observe: bool = True) -> int:
    """One deal of random masked actions through a PettingZoo env, as a learner plays
    it (also instructions.py's loop); returns the steps played."""
    steps = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last(observe)
        if term or trunc:
            e.step(None)
            continue
        if observe:
            legal = obs["action_mask"].view(bool).nonzero()[0]
            e.step(int(legal[int(rng.random() * len(legal))]))
        else:
            choice = e.unwrapped.stepper.legal
            e.step(choice[int(rng.random() * len(choice))])
        steps += 1
    return steps


def gymnasium(rules: Rules, make: bool = False) -> Iterator[tuple[int, int]]:
    """Random masked play of one seat against random opponents: ``DurakEnv`` itself, or
    (``make``) as a researcher gets it, ``gym.make("durak/...-v0")`` with Gymnasium's
    checking wrappers. Yields (the learner's decisions, engine actions) a deal."""
    import gymnasium as gym

    from durak.envs.gymnasium import DurakEnv

    e: Any = (
        gym.make("durak/Podkidnoy-v0", rules=rules, opponents=["random"])
        if make
        else DurakEnv(rules=rules, opponents=["random"])
    )
    rng = random.Random(0)
    obs, _ = e.reset(seed=0)
    while True:
        steps, done = 0, False
        while not done:
            legal = obs["action_mask"].view(bool).nonzero()[0]
            obs, _, term, trunc, _ = e.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
            done = term or trunc
        moves = len(e.unwrapped.game.history)
        obs, _ = e.reset()
        yield steps, moves


def openspiel(rules: Rules) -> Iterator[int]:
    """Player actions; chance outcomes (the deal, draws) are played too but not counted,
    as the engine's deal and draws are not actions either."""
    from durak.envs.openspiel import load

    game = load(rules)
    rng = random.Random(0)
    while True:
        s = game.new_initial_state()
        steps = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
        yield steps


def vector(rules: Rules, n: int = 256) -> Iterator[tuple[int, int]]:
    """Random masked play through the vectorised env (``n`` deals a call, random
    opponents played inside): yields the learner's decisions (``n`` a call) and the
    engine actions each call played, learners' and opponents' (the raw engine's loop
    counts every action). The random legal actions come from the env's own
    ``sample_legal``."""
    from durak.envs.vector import DurakVectorEnv

    e = DurakVectorEnv(n, rules)
    e.reset(seed=0)
    while True:
        before = e.moves
        e.step(e.sample_legal())
        yield n, e.moves - before


ADAPTERS: dict[str, Callable[[Rules], Iterator[Any]]] = {
    "vector env (N=256)": vector,
    "pettingzoo env()": pettingzoo,
    "pettingzoo +wrappers": lambda r: pettingzoo(r, wrapped=True),
    "gymnasium DurakEnv": gymnasium,
    "gymnasium gym.make": lambda r: gymnasium(r, make=True),
    "openspiel": openspiel,
}


def _pair(x: int | tuple[int, int]) -> tuple[int, int]:
    return (x, x) if isinstance(x, int) else x


def timed(deals: Iterator[Any], seconds: float) -> tuple[int, int, float]:
    """Whole deals of ``deals`` for about ``seconds`` of CPU: (decisions, actions, CPU
    seconds). A loop yields its decisions and actions a deal, or one number for both."""
    decisions = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        d, a = _pair(next(deals))
        decisions += d
        actions += a
    return decisions, actions, time.process_time() - start


def side_by_side_both(
    loops: list[Iterator[Any]], seconds: float, piece: float
) -> list[tuple[float, float]]:
    """(decisions, actions) per CPU-second of each loop, run in turns of ``piece``
    seconds until each had ``seconds``. Turns this short, because this machine's speed
    moves by a factor of two from one tenth of a second to the next (a shared virtual
    machine): loops taking turns of several seconds would each meet a different
    machine."""
    for loop in loops:
        next(loop)  # (warm-up, untimed: construction, imports, first deal)
    done = [[0.0, 0.0, 0.0] for _ in loops]
    while done[0][2] < seconds:
        for loop, d in zip(loops, done, strict=True):
            n, a, dt = timed(loop, piece)
            d[0] += n
            d[1] += a
            d[2] += dt
    return [(n / t, a / t) for n, a, t in done]


def side_by_side(loops: list[Iterator[Any]], seconds: float, piece: float) -> list[float]:
    """Decisions per CPU-second of each loop (:func:`side_by_side_both`)."""
    return [d for d, _ in side_by_side_both(loops, seconds, piece)]


def measure(
    texts: list[str], seconds: float, piece: float, only: str = ""
) -> list[tuple[str, str, float, float, float]]:
    """(rules, loop, decisions/s, actions/s, raw engine actions/s) for every rule set and
    adapter (those whose name starts with ``only``, if given)."""
    rows = []
    for text in texts:
        rules = learning_rules(text)
        for name, fn in ADAPTERS.items():
            if not name.startswith(only):
                continue
            (base, _), (rate, acts) = side_by_side_both(
                [raw_engine(rules), fn(rules)], seconds, piece
            )
            rows.append((str(rules), name, rate, acts, base))
    return rows


def _cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` so far, to the nanosecond (the scheduler's run time
    of its main thread, /proc/PID/schedstat: the 100 Hz ticks of /proc/PID/stat are too
    coarse for turns of a fraction of a second)."""
    with open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[0]) / 1e9


def shards(
    text: str, n: int, seconds: float, piece: float
) -> list[tuple[str, float, float, float]]:
    """The vector env of ``n`` deals in this process, and sharded in two
    (``durak.envs.shards``: one shard here and one in a worker process, the default, or
    both in workers), taking turns of ``piece`` wall seconds until each
    had ``seconds``, with turns of the raw loop between: (name, actions per wall second,
    actions per CPU-second of all its processes, raw loop actions per CPU-second)."""
    from durak.envs.shards import ShardedVectorEnv
    from durak.envs.vector import DurakVectorEnv

    rules = learning_rules(text)
    envs: list[Any] = [DurakVectorEnv(n, rules)]
    envs += [
        ShardedVectorEnv(n, rules, shards=2),
        ShardedVectorEnv(n, rules, shards=2, local=False),
    ]
    names = ["one process", "2 shards", "2 workers"]
    for e in envs:
        e.reset(seed=0)
        for _ in range(3):
            e.step(e.sample_legal())
    raw = raw_engine(rules)
    next(raw)
    tally = [[0, 0.0, 0.0] for _ in envs]
    raw_tally = [0, 0.0]
    while tally[0][1] < seconds:
        for e, t in zip(envs, tally, strict=True):
            pids = [os.getpid()] + [p.pid for p in getattr(e, "_procs", [])]
            cpu0 = sum(_cpu(p) for p in pids)
            before, start = e.moves, time.perf_counter()
            while time.perf_counter() - start < piece:
                e.step(e.sample_legal())
            t[1] += time.perf_counter() - start
            t[2] += sum(_cpu(p) for p in pids) - cpu0
            t[0] += e.moves - before
        a, _, dt = timed(raw, piece / 4)
        raw_tally[0] += a
        raw_tally[1] += dt
    for e in envs:
        e.close()
    base = raw_tally[0] / raw_tally[1]
    return [(k, t[0] / t[1], t[0] / t[2], base) for k, t in zip(names, tally, strict=True)]


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rules", action="append", help="rules (repeat); default 2 and 4 players")
    p.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        help="per adapter, and as long again for the raw engine",
    )
    p.add_argument(
        "--piece",
        type=float,
        default=0.05,
        help="CPU seconds of a turn: the adapter and the raw engine take turns "
        "this long (whole deals), so that a change of machine speed hits "
        "both alike",
    )
    p.add_argument(
        "--engine",
        choices=("both", "installed"),
        default="both",
        help="both: the installed build here and the pure-Python one in a second "
        "process; installed: this process only",
    )
    p.add_argument("--only", default="", help="only the adapters whose name starts so")
    p.add_argument("--json", action="store_true", help="print the rows as JSON only")
    p.add_argument(
        "--shards",
        type=int,
        default=0,
        metavar="N",
        help="also the vector env of N deals in one process and sharded in two",
    )
    args = p.parse_args()
    texts = args.rules or ["podkidnoy", "perevodnoy(players=4)"]
    if args.json:
        print(json.dumps(measure(texts, args.seconds, args.piece, args.only)))
        return
    here = build.engine_name()
    print(
        f"durak env benchmark, Python {platform.python_version()} on {platform.machine()}, "
        f"load {os.getloadavg()[0]:.2f}, {time.strftime('%Y-%m-%d %H:%M')}"
    )
    builds = [(here, measure(texts, args.seconds, args.piece, args.only))]
    if args.engine == "both" and build.is_compiled():
        cmd = [
            sys.executable,
            __file__,
            "--json",
            "--seconds",
            str(args.seconds),
            "--piece",
            str(args.piece),
            "--only",
            args.only,
        ] + [a for t in texts for a in ("--rules", t)]
        out = subprocess.run(
            cmd, env={**os.environ, build.PURE_ENV: "1"}, check=True, capture_output=True, text=True
        ).stdout
        builds.append(("pure Python", [tuple(r) for r in json.loads(out)]))
    for name, rows in builds:
        print(f"\n{name}: per CPU-second; ratios to the raw loop's actions/s of the same turns")
        print(
            f"{'rules':<36} {'loop':<22} {'decisions/s':>11} {'actions/s':>10} {'raw/s':>9}"
            f" {'dec.':>6} {'act.':>6} {'vs PZ':>6}"
        )
        last = ""
        plain = {r[0]: r[2] / r[4] for r in rows if r[1] == "pettingzoo env()"}
        for rules, loop, rate, acts, base in rows:
            vs = f"{rate / base / plain[rules]:>6.2f}" if rules in plain else f"{'':>6}"
            print(
                f"{rules if rules != last else '':<36} {loop:<22} {rate:>11.0f} {acts:>10.0f}"
                f" {base:>9.0f} {rate / base:>6.3f} {acts / base:>6.3f} {vs}"
            )
            last = rules
    print(
        "\n(dec.: decisions, an observation handed out and an action taken, per raw action;"
        " act.: engine actions, the opponents' too; vs PZ: decisions per decision of the"
        " plain PettingZoo env)"
    )
    if args.shards:
        print(f"\nsharded vector env, N={args.shards}, {texts[0]}, turns of 0.5 s wall time:")
        head = f"{'':<12} {'actions/wall-s':>15} {'actions/CPU-s':>14} {'raw/CPU-s':>10}"
        print(head + f" {'ratio':>6}")
        rows2 = shards(texts[0], args.shards, args.seconds, 0.5)
        for k, wall, cpu, base in rows2:
            print(f"{k:<12} {wall:>15.0f} {cpu:>14.0f} {base:>10.0f} {cpu / base:>6.3f}")
        one, two = rows2[0][2], rows2[1][2]
        print(
            f"2 shards / one process: {rows2[1][1] / rows2[0][1]:.2f} in wall time on this"
            f" machine now (load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); CPU per"
            f" action {one / two:.2f} of one process's, so {2 * two / one:.2f}x on two free"
            f" cores (both in workers: {2 * rows2[2][2] / one:.2f}x)"
        )
    print(f"load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
