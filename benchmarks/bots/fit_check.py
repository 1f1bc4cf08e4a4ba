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

from durak.actions import Action
from durak.arena import play_game
from durak.bots import Bot, make
from durak.bots.belief import Belief
from durak.bots.ismcts import _misread
from durak.observation import Observation
from durak.rules import Rules

LINES = (0.4, 0.45, 0.5)
DEALS = 12


class Watching:
    """Seat 0's bot, with a belief following its view: at each of its moves the check
    is asked of the opponent's fit so far, at every line."""

    def __init__(self, bot: Bot, belief: Belief) -> None:
        self.bot = bot
        self.belief = belief
        self.moves = 0
        self.misread = dict.fromkeys(LINES, 0)
        self.first: dict[float, int | None] = dict.fromkeys(LINES)

    def reset(self) -> None:
        getattr(self.bot, "reset", lambda: None)()

    def observe(self, obs: Observation) -> None:
        self.belief.observe(obs)
        if hasattr(self.bot, "observe"):
            self.bot.observe(obs)

    def choose(self, obs: Observation) -> Action:
        self.belief.observe(obs)
        self.belief.sync()
        fit = self.belief.model_fit(1)
        self.moves += 1
        for t in LINES:
            if _misread(fit, t):
                self.misread[t] += 1
                if self.first[t] is None:
                    self.first[t] = self.moves
        return self.bot.choose(obs)


def main() -> None:
    rules = Rules.parse(sys.argv[1])
    for opponent in sys.argv[2:]:
        moves = 0
        misread = dict.fromkeys(LINES, 0)
        first: dict[float, list[int]] = {t: [] for t in LINES}
        for d in range(DEALS):
            me = Watching(make("expert", seed=d), Belief(256, 0.1, rng=random.Random(d)))
            play_game(rules, [me, make(opponent, seed=d + 1)], 700 + d, 0)
            moves += me.moves
            for t in LINES:
                misread[t] += me.misread[t]
                at = me.first[t]
                if at is not None:
                    first[t].append(at)
        for t in LINES:
            print(
                f"{sys.argv[1]} {opponent:10s} line {t}: misread at {misread[t]} of {moves} "
                f"moves, in {len(first[t])} of {DEALS} games, first at move "
                f"{sorted(first[t])}",
                flush=True,
            )


if __name__ == "__main__":
    main()
