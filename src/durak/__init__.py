"""Durak («Дурак»): the Russian card game in all its variants.

>>> import durak
>>> g = durak.Game(durak.Rules.preset("perevodnoy", players=3), seed=7)
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
>>> g.outcome.draw or g.outcome.durak in range(3)
True
"""

from . import build as _build

if _build.pure_requested():  # DURAK_PURE=1: the Python sources, not the compiled engine
    _build.force_pure()

from .actions import Action
from .cards import Card, CardSet
from .enums import Kind, Phase
from .errors import (
    ArgumentError,
    ArgumentTypeError,
    DurakError,
    IllegalActionError,
    RecordError,
    RulesError,
    StateError,
)
from .game import Game, Outcome
from .match import Match
from .observation import Observation
from .rules import PRESETS, Rules

__all__ = [
    "Action",
    "ArgumentError",
    "ArgumentTypeError",
    "Card",
    "CardSet",
    "DurakError",
    "Game",
    "IllegalActionError",
    "Kind",
    "Match",
    "Observation",
    "Outcome",
    "PRESETS",
    "Phase",
    "RecordError",
    "Rules",
    "RulesError",
    "StateError",
]
__version__ = "0.1.0"
