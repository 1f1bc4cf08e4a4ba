"""One encoder of a seat's view into a flat float32 vector, shared by every adapter.

The vector is card planes, then scalars (``docs/envs.md`` lists them). A plane has one
entry per card of the deck, lowest first (card ``c`` of :mod:`durak.cards` at
``c - lo``, ``lo`` the deck's lowest card; suits ♠ ♥ ♦ ♣ within a rank). Seats are
counted relative to the observing seat: ``+1`` is its left neighbour.

>>> from durak import Game, Rules
>>> enc = Encoder(Rules())
>>> enc.size, enc.plane_names[:3]
(315, ('hand', 'attack_unbeaten', 'attack_beaten'))
>>> g = Game(Rules(), seed=1)
>>> x = enc.encode(g, 0)
>>> int(x[:36].sum()) == len(g.hand(0)), x.dtype.name
(True, 'float32')
>>> enc.describe()[0], enc.describe()[enc.planes_size]
('hand:6♠', 'trump_suit_♠')
>>> enc.describe()[enc.bits_size]
'talon_size'
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from .. import planes as _planes
from ..actions import encoding
from ..cards import Card
from ..game import PHASES, Game
from ..planes import BASE_PLANES, Planes
from ..rules import Rules
from .bits import mask_bytes
from .stepper import ArrayView
from .vecstep import Writer

__all__ = [
    "BASE_PLANES",
    "Encoder",
    "array_numbered_writer",
    "array_view",
    "array_writer",
    "mask_of",
]


@cache
def _arrays() -> Any:
    if (_planes.__file__ or "").endswith(".py"):
        return None
    try:
        from . import _arrays
    except ImportError:
        return None
    return _arrays


def _viewer(rules: Rules, privileged: bool) -> Any:
    """The C helper's ``Viewer`` for ``rules``' layout, or None (see :func:`array_view`)."""
    arrays = _arrays()
    if arrays is None or rules.trump != "turned" or rules.cheating != "off":
        return None
    p = Planes(rules, privileged)
    viewer = arrays.Viewer(
        p.players,
        p.cards,
        p.lo,
        p.full,
        p.flags,
        privileged,
        rules.scoring == "pogonny",
        len(PHASES),
        float(rules.bout_limit),
        encoding(rules).size,
    )
    assert viewer.size == p.size, "the C layout differs from Planes'"
    return viewer


def array_view(rules: Rules, privileged: bool = False) -> ArrayView | None:
    """The C function that makes a view's two arrays for ``rules`` in one call
    (``durak.envs._arrays``, built with the compiled engine when numpy's headers were
    there; :meth:`durak.envs.stepper.Stepper.arrays` calls it), or None: with the
    pure-Python engine, or where it was not built, the bytes of
    :meth:`~durak.planes.Planes.encode` are wrapped instead (the same floats). Also
    None for rules whose trump is not the turned card's suit (``trump=none``, a fixed
    suit or one per seat): the C function reads the suit from the turned card; Planes
    reads the rules'. None with ``cheating`` too: the C layout has no cheat planes."""
    viewer = _viewer(rules, privileged)
    return None if viewer is None else viewer.view


def array_writer(rules: Rules, privileged: bool = False) -> Writer | None:
    """The C helper's ``write_fields(obs, masks, row, seat, legal, *Game.state())``,
    which encodes a seat's view straight into row ``row`` of two preallocated buffers
    (the vectorised environment's, :class:`durak.envs.vecstep.VecStepper`), or None
    where :func:`array_view` is None. (The state's fields one by one: the compiled
    step passes them so without making the tuple.)

    >>> from durak import Game
    >>> from durak.envs.episode import learning_rules
    >>> from durak.envs.bits import legal_indices
    >>> rules = learning_rules("podkidnoy")
    >>> write, enc = array_writer(rules), Encoder(rules)
    >>> g = Game(rules, seed=1)
    >>> obs, masks = np.zeros((2, enc.size), np.float32), np.zeros((2, 1608), np.int8)
    >>> if write is not None:
    ...     write(obs, masks, 1, g.to_act, legal_indices(g), *g.state())
    ...     assert (obs[1] == enc.encode(g, g.to_act)).all() and masks[1].sum() == len(g.moves())
    """
    viewer = _viewer(rules, privileged)
    return None if viewer is None else viewer.write_fields


def array_numbered_writer(rules: Rules, privileged: bool = False) -> Writer | None:
    """The C helper's ``write_moves(obs, masks, row, seat, moves, into,
    *Game.state())``: as :func:`array_writer`'s, for the seat to act, numbering its
    legal moves (the engine's list, ``Game.moves()``) itself, each action's number
    (:mod:`durak.actions` encoding) remembered by identity; it returns their numbers,
    refilling the list ``into`` (or in a new list if it is None). None where
    :func:`array_view` is None.

    >>> from durak import Game
    >>> from durak.envs.episode import learning_rules
    >>> from durak.envs.bits import legal_indices
    >>> rules = learning_rules("podkidnoy")
    >>> write, g = array_numbered_writer(rules), Game(rules, seed=1)
    >>> obs, masks = np.zeros((2, 315), np.float32), np.zeros((2, 1608), np.int8)
    >>> if write is not None:
    ...     into = [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]
    ...     assert write(obs, masks, 1, g.to_act, g.moves(), into, *g.state()) is into
    ...     assert into == legal_indices(g)
    """
    viewer = _viewer(rules, privileged)
    if viewer is None:
        return None
    viewer.numbering(encoding(rules).index_of)
    write: Writer = viewer.write_moves
    return write


def mask_of(indices: list[int], size: int) -> np.ndarray:
    """An int8 action mask of ``size`` with 1 at ``indices``.

    >>> mask_of([0, 3], 5).tolist()
    [1, 0, 0, 1, 0]
    """
    return np.frombuffer(mask_bytes(indices, size), np.int8)


class Encoder:
    """Encodes ``seat``'s view of a game; ``privileged`` adds every other hand (for
    centralised critics only: a policy fed those planes sees hidden cards).

    ``plane_names`` and ``scalar_names`` name the parts; ``size`` is the whole length.
    The work is done by :class:`durak.planes.Planes` (compiled with the engine);
    this wraps its bytes in a numpy array.
    """

    def __init__(self, rules: Rules, privileged: bool = False) -> None:
        p = self.planes = Planes(rules, privileged)
        self.rules, self.privileged, self.players = rules, privileged, p.players
        self.cards, self.lo, self.full = p.cards, p.lo, p.full
        self.plane_names, self.scalar_names = p.plane_names, p.scalar_names
        self.planes_size, self.bits_size, self.size = p.planes_size, p.bits_size, p.size

    def encode(self, g: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The vector for ``seat``, written into ``out`` (a float32 array of ``size``) if
        given, else a new array."""
        x = np.frombuffer(self.planes.encode(g, seat), np.float32)
        if out is None:
            return x
        out[:] = x
        return out

    def describe(self) -> list[str]:
        """One name per entry of the vector: ``plane:card`` for planes, then scalar names."""
        cards = [str(Card.from_index(self.lo + i)) for i in range(self.cards)]
        return [f"{p}:{c}" for p in self.plane_names for c in cards] + list(self.scalar_names)
