"""How often level 5's ``fit`` check would judge an opponent misread by the careful model.

    python benchmarks/bots/fit_check.py RULES OPPONENT...

For each opponent, 12 deals (seeds 700...) against ``expert`` in seat 0, whose moves
do not matter here: a :class:`~durak.bots.belief.Belief` follows seat 0 and, at each of
its moves, the check ``ismcts._misread`` is asked of the opponent's fit so far at the
lines 0.4, 0.45 and 0.5. Prints, per line, the moves at which it holds (of seat 0's
moves), the games where it ever holds and the move of the game it first did
(benchmarks/bots/README.md, v12).
"""

from __future__ import annotations

import random
import sys

from durak.bots import make
from durak.bots.belief import Belief
from durak.bots.ismcts import _misread
from durak.game import Game
from durak.rules import Rules

LINES = (0.4, 0.45, 0.5)
DEALS = 12


def main() -> None:
    rules = Rules.parse(sys.argv[1])
    for opponent in sys.argv[2:]:
        moves = 0
        misread = dict.fromkeys(LINES, 0)
        first: dict[float, list[int]] = {t: [] for t in LINES}
        for d in range(DEALS):
            g = Game(rules.with_action_limit(), seed=700 + d)
            bots = [make("expert", seed=d), make(opponent, seed=d + 1)]
            for b in bots:
                getattr(b, "reset", lambda: None)()
            belief = Belief(256, 0.1, rng=random.Random(d))
            at: dict[float, int | None] = dict.fromkeys(LINES)
            mine = 0
            while not g.is_over:
                s = g.to_act
                assert s is not None
                belief.observe(g.observation(0))
                for i, b in enumerate(bots):
                    if i != s and hasattr(b, "observe"):
                        b.observe(g.observation(i))
                if s == 0:
                    belief.sync()
                    fit = belief.model_fit(1)
                    moves += 1
                    mine += 1
                    for t in LINES:
                        if _misread(fit, t):
                            misread[t] += 1
                            if at[t] is None:
                                at[t] = mine
                g.apply(bots[s].choose(g.observation(s)))
            for t in LINES:
                if at[t] is not None:
                    first[t].append(at[t])  # type: ignore[arg-type]
        for t in LINES:
            print(f"{sys.argv[1]} {opponent:10s} line {t}: misread at {misread[t]} of {moves} "
                  f"moves, in {len(first[t])} of {DEALS} games, first at move "
                  f"{sorted(first[t])}", flush=True)


if __name__ == "__main__":
    main()
