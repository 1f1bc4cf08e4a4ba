"""Can the exact solver judge moves before the talon is empty? (benchmarks/bots/README.md, v7)

    python benchmarks/bots/exact_worlds.py --nodes 20000 --deals 20 [--rules podkidnoy]

Plays ``expert`` against itself (2 players) and, at every position with a choice where
0 to 3 cards are hidden in the talon (besides the face-up trump), samples two worlds
consistent with the mover's observation (``durak.determinize.sample``) and asks the
solver, in each world, whether every legal action wins (a null-window test per action,
``--nodes`` nodes each). It prints, by the number of hidden talon cards, how many worlds
had all their actions proven within the budget, the nodes and the CPU milliseconds a
world cost: what PIMC with an exact solver (every candidate solved in every world)
would need per world.
"""

from __future__ import annotations

import argparse
import random
import time

from durak import Game, Rules
from durak.bots.expert import ExpertBot
from durak.bots.solver import Solver, Unsolved
from durak.determinize import sample


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=20_000, help="nodes per action and world")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--rules", default="podkidnoy")
    ap.add_argument("--hidden", type=int, default=3, help="at most this many hidden cards")
    ap.add_argument("--min-hidden", type=int, default=0, help="at least this many")
    args = ap.parse_args()
    stats: dict[int, list[float]] = {}
    rng = random.Random(1)
    for deal in range(args.deals):
        g = Game(Rules.preset(args.rules), seed=deal)
        bots = [ExpertBot(seed=1, nodes=0), ExpertBot(seed=2, nodes=0)]
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            obs = g.observation(seat)
            hidden = obs.talon_size - (1 if obs.trump_under_talon else 0)
            if args.min_hidden <= hidden <= args.hidden and len(obs.legal) > 1:
                for _ in range(2):
                    world = sample(obs, rng)
                    s = Solver(seat, max_nodes=args.nodes)
                    t = time.process_time()
                    ok, nodes = 1, 0
                    try:
                        for a in world.legal_actions():
                            child = world.clone()
                            child._apply(a)
                            nodes += s.nodes
                            s.nodes = 0
                            s.path.clear()
                            s._search(child, 0, 1)
                        nodes += s.nodes
                    except Unsolved:
                        ok = 0
                        nodes += s.nodes
                    st = stats.setdefault(hidden, [0, 0, 0, 0.0])
                    st[0] += 1
                    st[1] += ok
                    st[2] += nodes
                    st[3] += time.process_time() - t
            g.apply(bots[seat].choose(obs))
    for h in sorted(stats):
        n, ok, nodes, cpu = stats[h]
        print(
            f"{h} hidden: {int(n)} worlds, every action proven in {ok / n:.0%}, "
            f"{nodes / n:,.0f} nodes and {cpu / n * 1000:.0f} ms CPU a world"
        )


if __name__ == "__main__":
    main()
