"""The public move history of the observations (``history=K`` on every environment).

The last ``K`` moves of the deal, oldest first, one row each: the seat that played it,
counted from the observer (0 itself, 1 its left neighbour, ...), and the action's number
(:mod:`durak.actions` encoding, the number a learner plays it by). Rows before the deal's
first move are ``(-1, -1)``. Every move in Durak is made face up (cheats too, in
шулерский): the history shows nothing a seat could not see. Draws from the talon are not
moves and are not in it.

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=1)
>>> seats = []
>>> for _ in range(3):
...     seats.append(g.to_act)
...     g.play(g.moves()[0])
>>> h = History(Rules(), 4)
>>> rows = h.rows(g, seats, seats[0])
>>> rows.shape, rows[0].tolist(), int(rows[1, 0])
((4, 2), [-1, -1], 0)
>>> h.space.contains(rows)
True
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..actions import Action, encoding
from ..errors import ArgumentError
from ..game import Game
from ..rules import Rules
from .bits import history_rows

PAD = -1


class History:
    """The last ``k`` public moves of a deal as a ``(k, 2)`` int32 array (see the module
    docstring); ``space`` is its Gymnasium space."""

    def __init__(self, rules: Rules, k: int) -> None:
        if k < 1:
            raise ArgumentError(f"history: a number of moves, at least 1, not {k}")
        self.k = k
        self.players = rules.players
        self._enc = encoding(rules)
        self.space = spaces.Box(PAD, max(rules.players, self._enc.size) - 1, (k, 2), np.int32)

    def rows(self, g: Game, seats: list[int], seat: int) -> np.ndarray:
        """The last moves of ``g`` seen from ``seat``; ``seats[i]`` played
        ``g.history[i]``."""
        out: list[int] = []
        history_rows(g, seats, seat, self.k, out)
        return np.array(out, np.int32).reshape(self.k, 2)

    def rows_of(self, moves: list[tuple[int, Action]], seat: int) -> np.ndarray:
        """The same rows from a list of ``(seat, action)`` moves (OpenSpiel's state keeps
        its public moves so)."""
        k, n = self.k, self.players
        out = np.full((k, 2), PAD, np.int32)
        last = moves[-k:]
        for row, (s, a) in enumerate(last, start=k - len(last)):
            out[row] = ((s - seat) % n, self._enc.index_of(a))
        return out

    def batch(self, n: int) -> spaces.Box:
        """The space of ``n`` environments' rows, ``(n, k, 2)``."""
        return spaces.Box(PAD, int(self.space.high.max()), (n, self.k, 2), np.int32)
