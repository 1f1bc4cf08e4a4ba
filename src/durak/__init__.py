"""Durak («Дурак»): the Russian card game in all its variants.

>>> import durak
>>> g = durak.Game(durak.Rules.preset("perevodnoy", players=3), seed=7)
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
>>> g.outcome.draw or g.outcome.durak in range(3)
True
"""

from .actions import Action, IllegalActionError
from .cards import Card, CardSet
from .game import Game, Outcome
from .match import Match
from .observation import Observation
from .record import RecordError
from .rules import PRESETS, Rules, RulesError

__all__ = [
    "Action",
    "Card",
    "CardSet",
    "Game",
    "IllegalActionError",
    "Match",
    "Observation",
    "Outcome",
    "PRESETS",
    "RecordError",
    "Rules",
    "RulesError",
]
__version__ = "0.1.0"
