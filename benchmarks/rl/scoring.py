"""A baseline's score in one game against a bot: what ``evaluate.py`` and ``dmc.py``'s
learning curve both measure (in a module of its own, so that neither imports the other
for it).

>>> from durak import Game
>>> from durak.bots import make
>>> greedy = make("greedy")
>>> score = game_score(Game(seed=3), 0, lambda g, seat: greedy.choose(g.observation(seat)), greedy)
>>> score in (0.0, 0.5, 1.0)
True
"""

from __future__ import annotations

from collections.abc import Callable

from durak import Game
from durak.actions import Action
from durak.bots import Bot

Player = Callable[[Game, int], Action]  # (game, seat) -> the move of that seat


def game_score(g: Game, seat: int, me: Player, other: Bot) -> float:
    """``g`` played to its end, ``me`` in ``seat`` and ``other`` in the other seat:
    ``seat``'s score (1 not durak, 1/2 a draw, 0 durak)."""
    while not g.is_over:
        to_act = g.to_act
        assert to_act is not None
        g.apply(me(g, to_act) if to_act == seat else other.choose(g.observation(to_act)))
    out = g.outcome
    assert out is not None
    return 0.5 if out.durak is None else 0.0 if out.durak == seat else 1.0
