"""How often the rules-of-thumb styles make the expert's choice: the belief reads moves
with the CAREFUL style, so this is how good a model of a careful player it is.

    python benchmarks/bots/careful_agreement.py RULES DEALS [BOT]

Plays DEALS games of ``BOT`` (default ``expert``) against itself (seeds 1000...)
and, at every move with a choice while the talon lasts, asks each style (and the
expert's rules without its endgame) what it would play in the true position. Prints the share that
agree, by phase (0 lead, 1 defence, 2 throw-in, 3 pile-on after a take).
"""

from __future__ import annotations

import sys
from collections import Counter

from durak.bots import make
from durak.bots.expert_policy import expert_action
from durak.bots.policy import CAREFUL, CLUB, PLAIN, rollout_action
from durak.game import Game
from durak.rules import Rules


def main() -> None:
    rules = Rules.parse(sys.argv[1])
    agree: Counter[tuple[str, int]] = Counter()
    total: Counter[tuple[str, int]] = Counter()
    for d in range(int(sys.argv[2])):
        g = Game(rules.with_action_limit(), seed=1000 + d)
        spec = sys.argv[3] if len(sys.argv) > 3 else "expert"
        bots = [make(spec, seed=d + i) for i in range(rules.players)]
        while not g.is_over:
            s = g.to_act
            assert s is not None
            a = bots[s].choose(g.observation(s))
            if len(g.legal_actions()) > 1 and g.talon_size > 0:
                phase = g._phase
                for name, style in (("club", CLUB), ("careful", CAREFUL), ("plain", PLAIN)):
                    total[(name, phase)] += 1
                    agree[(name, phase)] += rollout_action(g, [style] * rules.players) is a
                total[("expert rules", phase)] += 1
                agree[("expert rules", phase)] += expert_action(g) is a
            g.apply(a)
    for key in sorted(total):
        print(f"{key[0]:<13} phase {key[1]}: {agree[key] / total[key]:.3f} of {total[key]}")


if __name__ == "__main__":
    main()
