"""The exact solver's speed: nodes per CPU-second on real two-player endgames.

    python benchmarks/bots/solver_speed.py [--positions 40] [--nodes 200000] [--seed 1]

Plays ``expert`` against ``expert`` (2-player podkidnoy and perevodnoy) and takes the
first position of each deal where the talon is empty, then solves it from scratch with
a fresh :class:`~durak.bots.solver.Solver` (``best_action``, a node budget) and prints
the nodes searched, the CPU seconds and nodes per CPU-second over all positions, and
how many were solved within the budget.
"""

from __future__ import annotations

import argparse
import time

from durak import Game, Rules
from durak.bots.expert import ExpertBot
from durak.bots.solver import Solver, Unsolved, solvable


def positions(rules: Rules, count: int, seed: int) -> list[Game]:
    out: list[Game] = []
    deal = 0
    while len(out) < count:
        g = Game(rules, seed=seed * 100_000 + deal)
        deal += 1
        bots = [ExpertBot(seed=deal, nodes=0), ExpertBot(seed=deal + 1, nodes=0)]
        while not g.is_over:
            if solvable(g) and len(g.legal_actions()) > 1:
                out.append(g.clone())
                break
            seat = g.to_act
            assert seat is not None
            g.apply(bots[seat].choose(g.observation(seat)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    from durak import build

    print("engine:", build.engine_name())
    for preset in ("podkidnoy", "perevodnoy"):
        games = positions(Rules.preset(preset), args.positions, args.seed)
        nodes = 0
        cpu = 0.0
        solved = 0
        for g in games:
            s = Solver(g.to_act or 0, max_nodes=args.nodes)
            t = time.process_time()
            try:
                s.best_action(g)
                solved += 1
            except Unsolved:
                pass
            cpu += time.process_time() - t
            nodes += s.nodes
        print(
            f"{preset:11s} {len(games)} positions: {solved} solved within {args.nodes} "
            f"nodes; {nodes} nodes in {cpu:.2f} s CPU = {nodes / cpu:,.0f} nodes/s"
        )


if __name__ == "__main__":
    main()
