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


def gymnasium(rules: Rules) -> Iterator[int]:
    from durak.envs.gymnasium import DurakEnv

    e = DurakEnv(rules=rules, opponents=["random"])
    rng = random.Random(0)
    obs, _ = e.reset(seed=0)
    while True:
        steps, done = 0, False
        while not done:
            legal = obs["action_mask"].view(bool).nonzero()[0]
            obs, _, term, trunc, _ = e.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
            done = term or trunc
        obs, _ = e.reset()
        yield steps


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


def vector(rules: Rules, n: int = 256) -> Iterator[int]:
    """Random masked play through the vectorised env (``n`` deals a call, random
    opponents played inside): yields the engine actions each call played, learners' and
    opponents' (the raw engine's loop counts every action too). The random legal actions
    come from the env's own ``sample_legal``."""
    from durak.envs.vector import DurakVectorEnv

    e = DurakVectorEnv(n, rules)
    e.reset(seed=0)
    while True:
        before = e.moves
        e.step(e.sample_legal())
        yield e.moves - before


ADAPTERS: dict[str, Callable[[Rules], Iterator[int]]] = {
    "vector env (N=256, vs random)": vector,
    "pettingzoo env()": pettingzoo,
    "pettingzoo +wrappers": lambda r: pettingzoo(r, wrapped=True),
    "gymnasium (vs random)": gymnasium,
    "openspiel": openspiel,
}


def timed(deals: Iterator[int], seconds: float) -> tuple[int, float]:
    """Whole deals of ``deals`` for about ``seconds`` of CPU: (steps, CPU seconds)."""
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        steps += next(deals)
    return steps, time.process_time() - start


def side_by_side(loops: list[Iterator[int]], seconds: float, piece: float) -> list[float]:
    """Steps per CPU-second of each loop, run in turns of ``piece`` seconds until each
    had ``seconds``. Turns this short, because this machine's speed moves by a factor of
    two from one tenth of a second to the next (a shared virtual machine): loops taking
    turns of several seconds would each meet a different machine."""
    for loop in loops:
        next(loop)  # (warm-up, untimed: construction, imports, first deal)
    done = [[0.0, 0.0] for _ in loops]
    while done[0][1] < seconds:
        for loop, d in zip(loops, done, strict=True):
            n, dt = timed(loop, piece)
            d[0] += n
            d[1] += dt
    return [n / t for n, t in done]


def measure(
    texts: list[str], seconds: float, piece: float, only: str = ""
) -> list[tuple[str, str, float, float]]:
    """(rules, loop, steps/s, raw engine actions/s) for every rule set and adapter (those
    whose name starts with ``only``, if given)."""
    rows = []
    for text in texts:
        rules = learning_rules(text)
        for name, fn in ADAPTERS.items():
            if not name.startswith(only):
                continue
            base, rate = side_by_side([raw_engine(rules), fn(rules)], seconds, piece)
            rows.append((str(rules), name, rate, base))
    return rows


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
    head = f"{'rules':<52} {'loop':<22}"
    for name, _ in builds:
        head += f" | {name + ': steps/s':>26} {'raw/s':>9} {'ratio':>6}"
    print(head)
    last = ""
    for i, (rules, loop, *_) in enumerate(builds[0][1]):
        line = f"{rules if rules != last else '':<52} {loop:<22}"
        last = rules
        for _, rows in builds:
            rate, base = rows[i][2], rows[i][3]
            line += f" | {rate:>26.0f} {base:>9.0f} {rate / base:>6.3f}"
        print(line)
    print(f"load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
