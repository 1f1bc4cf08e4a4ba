"""How well level 6's reading of the opponent finds its hidden cards, against level 5's.

    python benchmarks/rl/level6_belief.py --deals 25 --rules podkidnoy

One game a deal (seat 0 the heuristic bot, seat 1 `expert`, deals 500, 501, ...): at
each of seat 0's moves while the talon lasts, every belief reads the same observations,
and each says how much of its weight lies on the cards seat 1 really holds (the mean
over its hidden cards of the share of guesses placing that card there). A uniform deal
puts on them their share of the cards seat 0 cannot see (the "uniform" line). Beliefs:
level 5's (the careful rule of thumb: a guess off it keeps 0.1 of its weight) and the
learned network's odds (``learned.MoveOdds``) with several ``eps`` (a guess keeps
``eps + (1 - eps) * odds``). Written for benchmarks/rl/LEVEL6.md.
"""

from __future__ import annotations

import argparse
import random
import sys

from durak import Game, Rules
from durak.bots import make
from durak.bots.belief import Belief
from durak.bots.learned import MoveOdds

EPSILONS = (0.1, 0.02, 0.01, 0.003)


def measure(rules: str, deals: int, particles: int) -> dict[str, float]:
    """Each belief's mean weight on the opponent's true hidden cards, and "uniform"."""
    odds = MoveOdds()
    kinds: dict[str, dict[str, object]] = {"careful (level 5)": {}}
    for eps in EPSILONS:
        kinds[f"network, eps={eps}"] = {"model": odds, "eps": eps}
    sums = dict.fromkeys([*kinds, "uniform"], 0.0)
    positions = 0
    for deal in range(deals):
        g = Game(Rules.parse(rules), seed=500 + deal)
        bots = [make("heuristic"), make("expert")]
        beliefs = {
            k: Belief(particles, rng=random.Random(deal), **v)  # type: ignore[arg-type]
            for k, v in kinds.items()
        }
        while not g.is_over:
            obs = g.observation(0)
            for b in beliefs.values():
                b.observe(obs)
            hidden = int(g.hand(1)) & ~int(obs.known[1])
            n = hidden.bit_count()
            if g.to_act == 0 and g.talon_size > 0 and n:
                positions += 1
                cards = [c for c in range(52) if hidden >> c & 1]
                for k, b in beliefs.items():
                    b.sync()
                    share = b.card_odds(1)
                    sums[k] += sum(share.get(c, 0.0) for c in cards) / n
                sums["uniform"] += n / int(obs.unseen).bit_count()
            seat = g.to_act
            assert seat is not None
            other = bots[1 - seat]
            if hasattr(other, "observe"):  # as the arena does: the heuristic's card memory
                other.observe(g.observation(1 - seat))
            g.apply(bots[seat].choose(g.observation(seat)))
    return {k: v / max(1, positions) for k, v in sums.items()} | {"positions": positions}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rules", default="podkidnoy")
    ap.add_argument("--deals", type=int, default=25)
    ap.add_argument("--particles", type=int, default=256)
    args = ap.parse_args(argv)
    out = measure(args.rules, args.deals, args.particles)
    print(f"{args.rules}, {args.deals} deals, {int(out.pop('positions'))} positions")
    for k, v in out.items():
        print(f"  {k:<24} {v:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
