"""The searcher's rollouts per CPU-second, compiled engine vs pure Python, side by side.

The ismcts bot evaluates the same positions (2-player podkidnoy, a few random moves in)
with a fixed number of rollouts and no endgame solver, once on the compiled engine and
once on the pure-Python copy of the package (durak.build.load_pure), alternating, and
the best of the rounds of each is kept. Run from the repository root:

    nice -n 10 .venv/bin/python benchmarks/engine/rollouts.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import importlib
import random
import time
from types import ModuleType

import durak
from durak import build


def rollouts_per_cpu_second(package: ModuleType, positions: int, rollouts: int) -> float:
    ismcts = importlib.import_module(package.__name__ + ".bots.ismcts")
    done = 0
    cpu = 0.0
    for seed in range(positions):
        g = package.Game(package.Rules(), seed=seed)
        rng = random.Random(seed)
        for _ in range(seed % 7):
            g.apply(rng.choice(g.legal_actions()))
        bot = ismcts.ISMCTSBot(iterations=rollouts, seed=seed, solver=False)
        obs = g.observation(g.to_act)
        start = time.process_time()
        bot.evaluate(obs)
        cpu += time.process_time() - start
        done += bot.last_stats["rollouts"]
    return done / cpu


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--positions", type=int, default=12)
    p.add_argument("--rollouts", type=int, default=300, help="rollouts a position")
    args = p.parse_args()
    pure = build.load_pure()
    print(f"engine: {build.engine_name()}, beside it: {build.engine_name(pure)}")
    best = {"compiled": 0.0, "pure": 0.0}
    for _ in range(args.rounds):
        for name, package in (("compiled", durak), ("pure", pure)):
            rate = rollouts_per_cpu_second(package, args.positions, args.rollouts)
            best[name] = max(best[name], rate)
            print(f"  {name:<8} {rate:8.0f} rollouts/CPU-s")
    print(
        f"best: compiled {best['compiled']:.0f}, pure {best['pure']:.0f}, "
        f"ratio {best['compiled'] / best['pure']:.2f}x"
    )


if __name__ == "__main__":
    main()
