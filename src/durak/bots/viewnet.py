"""What the self-play network sees: a seat's shared vector with the trump suit turned to
slot 0, and one feature row per action number.

The state is :class:`durak.planes.Planes`' vector (the learning environments' own, 315
floats for two players and 36 cards) with the suits of every card plane turned so that
the trump suit is slot 0: a position looks the same whatever the trump (the trump-suit
columns become constant). An action is its kind one-hot (:data:`ACTION_KINDS`), the card
plane of the card(s) it lays, the card plane of the table card it beats and the number of
cards laid / 4, its suits turned as the state's: 80 floats for 36 cards.
:mod:`durak.learn.dmc2` trains ``Q(s, a)`` on these; :class:`durak.bots.learned.LearnedBot`
plays it.

>>> from durak import Game, Rules
>>> f = ViewFeatures(Rules())
>>> f.size, f.width, f.actions.shape
(315, 80, (4, 1608, 80))
>>> all(f.decode(f.actions[t, i], t) == i for t in range(4) for i in (0, 25, 933))
True
>>> g = Game(Rules(), seed=1)
>>> s, trump = f.state(f.view(g, 0)[None, :])
>>> int(trump[0]) == g.trump_suit, s.shape
(True, (1, 315))
"""

from __future__ import annotations

import numpy as np

from ..actions import encoding
from ..errors import ArgumentError
from ..game import Game
from ..observation import SeatView
from ..planes import Planes
from ..rules import Rules

ACTION_KINDS = ("attack", "defend", "transfer", "show", "take", "pass", "exchange")


def turn(c: int, t: int) -> int:
    """Card slot ``c``'s slot when suit ``t`` is trump (trumps in slot 0).

    >>> [turn(c, 2) for c in range(4)]
    [2, 3, 0, 1]
    """
    return c - c % 4 + (c % 4 - t) % 4


class ViewFeatures:
    """The state's suit turn and the action table of ``rules`` (see the module docstring).

    ``view(g, seat)`` is the seat's vector; ``state(views)`` turns a batch of them so the
    trump suit is slot 0 and gives each row's trump suit; ``actions[t, i]`` is action
    number ``i``'s features under trump suit ``t``; :meth:`decode` gives the number back.
    Two players and one trump suit only: the layout of other tables differs.
    """

    def __init__(self, rules: Rules) -> None:
        p = self.planes = Planes(rules)
        suits = [
            p.planes_size + k
            for k, name in enumerate(p.scalar_names)
            if name.startswith("trump_suit_")
        ]
        # (двухкозырный's second trump flags are not turned: refused with the rest)
        if len(suits) != 4 or rules.players != 2 or p.lo % 4 or rules.trump == "per_player":
            raise ArgumentError(f"ViewFeatures: 2 players and one trump suit, not {rules}")
        self.rules, self.size, self.cards, self.lo = rules, p.size, p.cards, p.lo
        self.trump_cols = np.array(suits)
        # src[t][j]: the column whose value goes to column j when t is the trump suit
        self.src = np.tile(np.arange(p.size), (4, 1))
        for t in range(4):
            for j in range(p.planes_size):
                plane, c = divmod(j, p.cards)
                self.src[t, plane * p.cards + turn(c, t)] = j
            for k, col in enumerate(suits):
                self.src[t, suits[(k - t) % 4]] = col
        numbers = encoding(rules)
        self.num_actions = numbers.size
        kinds, n = len(ACTION_KINDS), p.cards
        self.width = kinds + 2 * n + 1
        self.actions = np.zeros((4, self.num_actions, self.width), np.float32)
        for i in range(self.num_actions):
            a = numbers.action(i)
            for t in range(4):
                row = self.actions[t, i]
                row[ACTION_KINDS.index(a.kind.name.lower())] = 1.0
                for card in a.cards:
                    row[kinds + turn(card.index - self.lo, t)] = 1.0
                if a.target is not None:
                    row[kinds + n + turn(a.target.index - self.lo, t)] = 1.0
                row[-1] = len(a.cards) / 4
        self._back = [
            {self.actions[t, i].tobytes(): i for i in range(self.num_actions)} for t in range(4)
        ]
        # (a table fixed by the encoding: two actions alike here is a bug of this module)
        assert all(len(b) == self.num_actions for b in self._back), "two actions alike"

    def view(self, g: Game, seat: int) -> np.ndarray:
        """``seat``'s vector of ``g`` (it shows nothing that seat cannot see)."""
        return np.frombuffer(self.planes.encode(g, seat), np.float32)

    def view_of(self, v: SeatView) -> np.ndarray:
        """The same vector from the seat's own :class:`~durak.observation.SeatView`
        (no game needed: :meth:`durak.planes.Planes.encode_view`)."""
        return np.frombuffer(self.planes.encode_view(v), np.float32)

    def state(self, views: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(turned rows, trump suit of each row)`` of a ``(n, size)`` batch."""
        trump = views[:, self.trump_cols].argmax(axis=1)
        return np.take_along_axis(views, self.src[trump], axis=1), trump

    def decode(self, row: np.ndarray, trump: int) -> int:
        """The action number whose features under ``trump`` are ``row``."""
        return self._back[trump][np.asarray(row, np.float32).tobytes()]
