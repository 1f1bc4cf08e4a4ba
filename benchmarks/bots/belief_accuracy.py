"""How much the belief knows: the weight it puts on the opponent's true hidden cards.

    python benchmarks/bots/belief_accuracy.py RULES PARTICLES EPS DEALS [--model expert]

Plays DEALS deals of ``expert`` against itself (seeds 500...) with a
:class:`~durak.bots.belief.Belief` following seat 0; at each of seat 0's moves while
the talon lasts it prints nothing but adds up, over the opponent's hidden cards, the
share of the belief's weight that places each in the opponent's hand. A uniform deal
(what the search had before) puts hidden-cards / unseen-cards on each; 1.0 would be
knowing the hand. ``--model expert`` reads the moves with the expert's own rules
(:mod:`durak.bots.expert_policy`) instead of the CAREFUL style: how much a perfect
model of this opponent would add (benchmarks/bots/README.md, v11).
"""

from __future__ import annotations

import argparse
import math
import random
import time

import durak.bots.belief as belief_module
from durak.bots import make
from durak.bots.belief import Belief
from durak.bots.expert_policy import expert_action
from durak.game import Game
from durak.rules import Rules


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rules")
    ap.add_argument("particles", type=int)
    ap.add_argument("eps", type=float)
    ap.add_argument("deals", type=int)
    ap.add_argument("--model", choices=("careful", "expert"), default="careful")
    args = ap.parse_args()
    if args.model == "expert":
        belief_module.rollout_action = lambda g, styles=None: expert_action(g)  # type: ignore[assignment]
    rules = Rules.parse(args.rules)
    hit = base = log_b = log_u = 0.0
    count = 0
    cpu = 0.0
    for d in range(args.deals):
        g = Game(rules.with_action_limit(), seed=500 + d)
        bots = [make("expert", seed=d), make("expert", seed=d + 1)]
        bel = Belief(args.particles, args.eps, rng=random.Random(d))
        while not g.is_over:
            s = g.to_act
            assert s is not None
            bel.observe(g.observation(0))
            if s == 0 and g.talon_size > 0:
                c0 = time.process_time()
                bel.sync()
                cpu += time.process_time() - c0
                obs = g.observation(0)
                true = int(g._hands[1]) & int(obs.unseen)
                k = true.bit_count()
                unseen = int(obs.unseen).bit_count()
                if k:
                    odds = bel.card_odds(1)
                    cards = [c for c in range(52) if true >> c & 1]
                    hit += sum(odds.get(c, 0.0) for c in cards) / k
                    base += k / unseen
                    log_b += sum(math.log(max(1e-3, odds.get(c, 0.0))) for c in cards) / k
                    log_u += math.log(k / unseen)
                    count += 1
            g.apply(bots[s].choose(g.observation(s)))
    print(
        f"{args.rules} particles={args.particles} eps={args.eps} model={args.model}: "
        f"weight on the true cards {hit / count:.3f} (uniform {base / count:.3f}); "
        f"mean log {log_b / count:.3f} (uniform {log_u / count:.3f}); "
        f"sync {1000 * cpu / count:.1f} ms a move; {count} moves"
    )


if __name__ == "__main__":
    main()
