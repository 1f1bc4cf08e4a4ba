"""The catcher: plays like the heuristic bot, and calls every cheat it sees (шулерский,
``cheating=open``: every card is face up, so it sees them all; docs/rules.md 11). It
never makes a wrong call and never cheats.

>>> from durak import Game, Rules
>>> from durak.bots import make
>>> g = Game(Rules.preset("shulerskiy"), seed=5)
>>> bots = [make("cheater", seed=1, rate=1.0), make("catcher", seed=2)]
>>> while not g.is_over:
...     g.apply(bots[g.to_act].choose(g.observation(g.to_act)))
>>> sum(a.kind == Kind.CALL for a in g.history) > 0
True
"""

from __future__ import annotations

from ..actions import Action
from ..enums import Kind as Kind  # (for the example above)
from ..observation import Observation
from .base import BaseBot
from .heuristic import HeuristicBot


class CatcherBot(BaseBot):
    name = "catcher"

    def __init__(self, seed: int | None = None) -> None:
        self.base = HeuristicBot(seed=seed)

    def reset(self) -> None:
        self.base.reset()

    def observe(self, obs: Observation) -> None:
        self.base.observe(obs)

    def choose(self, obs: Observation) -> Action:
        for a in obs.calls:
            if a.cards & obs.cheated:
                return a
        return self.base.choose(obs)
