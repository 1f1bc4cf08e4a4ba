"""The cheater: plays like the heuristic bot, and now and then cheats when it pays
(шулерский, ``cheating=open``; docs/rules.md 11).

Where the heuristic would take, or would spend a dear card (a trump, a high card) on a
defence, it may lay its cheapest card that does not beat instead (a false beat); where
it would pass, it may throw in a cheap non-trump of a rank not on the table (a false
throw-in). It cheats at most ``rate`` of the times it could (seeded), never calls, and
without ``cheating`` plays exactly as the heuristic.

>>> from durak import Game, Rules
>>> from durak.bots import make
>>> g = Game(Rules.preset("shulerskiy"), seed=5)
>>> bots = [make("cheater", seed=1), make("heuristic", seed=2)]
>>> while not g.is_over:
...     g.apply(bots[g.to_act].choose(g.observation(g.to_act)))
>>> any(a.kind == Kind.CHEAT for a in g.history)
True
"""

from __future__ import annotations

import random

from ..actions import Action
from ..enums import Kind, Phase
from ..errors import ArgumentError
from ..observation import Observation
from .base import BaseBot
from .greedy import card_cost
from .heuristic import HeuristicBot

# Cards worth saving by a false beat: trumps, and non-trumps from the queen up.
DEAR = 12


class CheaterBot(BaseBot):
    name = "cheater"

    def __init__(self, seed: int | None = None, rate: float = 0.5) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ArgumentError(f"cheater: rate is 0..1, not {rate!r}")
        self.base = HeuristicBot(seed=seed)
        self.rng = random.Random(seed)
        self.rate = rate

    def reset(self) -> None:
        self.base.reset()

    def observe(self, obs: Observation) -> None:
        self.base.observe(obs)

    def choose(self, obs: Observation) -> Action:
        honest = self.base.choose(obs)
        if obs.cheats and self.rng.random() < self.rate:
            cheat = self.cheat(obs, honest)
            if cheat is not None:
                return cheat
        return honest

    def cheat(self, obs: Observation, honest: Action) -> Action | None:
        """The cheat that saves most over ``honest``, if one does."""
        trump = obs.trump_suit

        def cost(a: Action) -> int:
            return card_cost(a.cards[0].index, trump)

        if obs.phase == Phase.DEFEND and honest.kind in (Kind.TAKE, Kind.DEFEND):
            target = honest.target
            if target is None:  # taking: cheat on the first unbeaten card
                target = next(a for a, b in obs.table if b is None)
            options = [a for a in obs.cheats if a.target == target]
            if not options:
                return None
            best = min(options, key=cost)
            if honest.kind == Kind.TAKE or cost(honest) >= DEAR - 2:
                return best if cost(best) < cost_of_defence(honest, trump) else None
            return None
        if obs.phase == Phase.THROW_IN and honest.kind == Kind.PASS:
            cheap = [a for a in obs.cheats if a.target is None and cost(a) < 11]
            return min(cheap, key=cost) if cheap else None
        return None


def cost_of_defence(a: Action, trump: int) -> int:
    """What an honest defence spends (taking: more than any card)."""
    if a.kind == Kind.TAKE:
        return 1000
    return card_cost(a.cards[0].index, trump)
