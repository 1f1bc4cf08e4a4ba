"""шулерский (docs/rules.md 11): the cheater and the catcher against honest play.

Two-player deals of ``shulerskiy`` (with the bots' action limit), seat 0 against seat 1,
seeds 0..N-1; prints deals lost by each seat, cheats made, calls made and wrong calls.

    PYTHONPATH=src python benchmarks/bots/cheating.py 200
"""

from __future__ import annotations

import os
import sys
import time

from durak import Game, Rules
from durak.bots import make
from durak.enums import Kind

PAIRS = (("cheater", "heuristic"), ("heuristic", "heuristic"), ("cheater", "catcher"))


def deals(a: str, b: str, n: int) -> tuple[list[int], int, int, int]:
    rules = Rules.preset("shulerskiy").with_action_limit()
    lost, cheats, calls, wrong = [0, 0], 0, 0, 0
    for i in range(n):
        bots = [make(a, seed=i), make(b, seed=i + 1000)]
        g = Game(rules, seed=i)
        while not g.is_over:
            s = g.to_act
            assert s is not None
            obs = g.observation(s)
            act = bots[s].choose(obs)
            cheats += act.kind == Kind.CHEAT
            if act.kind == Kind.CALL:
                calls += 1
                wrong += not act.cards & obs.cheated
            g.apply(act)
        assert g.outcome is not None
        if g.outcome.durak is not None:
            lost[g.outcome.durak] += 1
    return lost, cheats, calls, wrong


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(f"# {n} deals each; load average {os.getloadavg()[0]:.1f}")
    print("seat 0     seat 1      lost0 lost1 cheats calls wrong  seconds")
    for a, b in PAIRS:
        t = time.perf_counter()
        lost, cheats, calls, wrong = deals(a, b, n)
        dt = time.perf_counter() - t
        print(f"{a:10} {b:10} {lost[0]:6} {lost[1]:5} {cheats:6} {calls:5} {wrong:5} {dt:8.1f}")


if __name__ == "__main__":
    main()
