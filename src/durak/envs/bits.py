"""The engine's state as bitmasks: the one place the environments read a ``Game``.

The encoder, the information-state strings and the chance nodes need the engine's card
masks without building an :class:`~durak.observation.Observation` on every step (that
costs more than the step). Every read of the engine's internals is here (and in
:mod:`durak.envs.planes`), so a change of the engine touches these modules only. Compiled
with the engine (mypyc), so it uses no numpy. A card is bit ``c`` of a mask, ``c = 4 * (rank - 2)
+ suit`` (suits ♠ ♥ ♦ ♣), as in :mod:`durak.cards`.

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=1)
>>> r = dict(zip(RAW_FIELDS, raw(g)))
>>> r["hands"][g.to_act] == int(g.hand(g.to_act)), r["talon_size"], r["to_act"] == g.to_act
(True, 24, True)
>>> len(legal_indices(g)) == len(g.legal_actions())
True
"""

from __future__ import annotations

from typing import Any, Final

from ..actions import ATTACK, EXCHANGE, SHOW, TRANSFER, Action, encoding
from ..game import PILE, Game
from ..rules import Rules

# The fields of ``raw`` in order; ``raw`` is a plain tuple because it is built on every
# step of every environment (a named tuple costs more than the encoding it feeds).
RAW_FIELDS = (
    "hands",
    "known",
    "attacks",
    "beats",
    "unbeaten",
    "table",
    "discard",
    "trump_card",
    "trump_under_talon",
    "talon_size",
    "out",
    "to_act",
    "attacker",
    "defender",
    "phase",
    "cap",
    "bout",
    "tally",
    "shown",
    "forced_take",
)
Raw = tuple[
    list[int],
    list[int],
    list[int],
    list[int],
    int,
    int,
    int,
    int,
    bool,
    int,
    list[bool],
    int,
    int,
    int,
    int,
    int,
    int,
    list[int],
    int,
    bool,
]


def raw(g: Game) -> Raw:
    """The engine's state as masks and ints, not copied (read, never change, them).

    ``hands`` and ``known`` are per seat (``known[s]``: cards everyone has seen go into
    seat ``s``'s hand); ``attacks`` the attacking cards on the table in the order laid,
    ``beats`` the card beating each (-1: unbeaten); ``unbeaten`` and ``table`` masks;
    ``to_act`` is -1 when the deal is over; ``phase`` indexes ``durak.game.PHASES``;
    ``shown`` is a mask of seats that showed a trump this bout. Everything but ``hands``
    (and ``known`` of the seat itself) is public.
    """
    bottom = g._bottom
    return (
        g._hands,
        g._known,
        g._att,
        g._beat,
        g._unbeaten,
        g._tmask,
        g._discard,
        g._trump_card,
        bottom >= 0,
        len(g._talon) - g._tp + (bottom >= 0),
        g.out,
        -1 if g.to_act is None else g.to_act,
        g.attacker,
        g.defender,
        g._phase,
        g.cap,
        g.bout,
        g.tally,
        g._shown,
        g._forced_take,
    )


def view_key(g: Game, seat: int) -> str:
    """A string of everything ``seat`` may know of the position now, and nothing else:
    equal for two games that differ only in cards hidden from ``seat``."""
    r = raw(g)
    known = list(r[1])
    known[seat] = r[0][seat]
    sizes = [h.bit_count() for h in r[0]]
    return (
        f"{seat}|{known}|{r[2]}{r[3]}|{r[6]:x}|{r[7]}{r[8]:d}{r[9]}|{sizes}"
        f"|{[int(o) for o in r[10]]}|{r[11:17]}|{r[17]}|{r[18]}{r[19]:d}"
    )


def phase_index(g: Game) -> int:
    """The phase as an index into ``durak.game.PHASES``."""
    return g._phase


def hands(g: Game) -> list[int]:
    """Every hand (privileged: for centralised critics and tests, never for a seat)."""
    return g._hands


# an action's remembered numbers (durak.actions.Action), by deck_slot
_NUM_FIELDS: Final = ("_n24", "_n36", "_n52")


def deck_slot(rules: Rules) -> int:
    """Which of an action's remembered numbers (``_NUM_FIELDS``) ``rules``' deck uses
    (for :func:`legal_indices`: a caller playing one rule set looks it up once)."""
    deck = rules.deck
    return 0 if deck == 24 else 1 if deck == 36 else 2


def legal_indices(g: Game, slot: int = -1) -> list[int]:
    """The action numbers (:mod:`durak.actions` encoding) of ``g.legal_actions()``;
    ``slot``: :func:`deck_slot` of ``g.rules``, if known."""
    if slot < 0:
        slot = deck_slot(g.rules)
    legal = g._legal  # the engine's cache, not its copy: read only
    if legal is None:
        legal = g._legal = g._generate()
    out: list[Any] = []
    for a in legal:
        # (each action remembers its number: cheaper than any lookup, and the number is
        # appended as the object it is, not unboxed and boxed again)
        i = a._n36 if slot == 1 else a._n24 if slot == 0 else a._n52
        if i is None:
            i = _remember(a, g.rules, slot)
        out.append(i)
    return out


def _remember(a: Action, rules: Rules, slot: int) -> int:
    """``a``'s number in ``rules``' encoding, looked up and kept in ``a``."""
    i = encoding(rules).index_of(a)
    object.__setattr__(a, _NUM_FIELDS[slot], i)  # (Action is immutable)
    return i


def sorted_legal(g: Game) -> list[int]:
    """:func:`legal_indices`, lowest first (OpenSpiel's order)."""
    out = legal_indices(g)
    out.sort()
    return out


def mask_bytes(indices: list[int], size: int) -> bytearray:
    """``size`` bytes, 1 at ``indices`` and 0 elsewhere: an action mask for numpy to wrap
    (several times faster than numpy's fancy indexing for a handful of indices).

    >>> list(mask_bytes([0, 3], 5))
    [1, 0, 0, 1, 0]
    """
    buf = bytearray(size)
    for i in indices:
        buf[i] = 1
    return buf


class Actions:
    """Action numbers to actions for one rule set, remembered as they are met.

    >>> from durak import Rules
    >>> str(Actions(Rules()).action(0))
    'take'
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._enc = encoding(rules)
        self.size = self._enc.size
        self._table: list[Action | None] = [None] * self.size

    def __reduce__(self) -> tuple[object, tuple[Rules]]:
        # (compiled, the class cannot be rebuilt without its constructor's argument)
        return Actions, (self.rules,)

    def action(self, index: int) -> Action:
        a = self._table[index]
        if a is None:
            a = self._table[index] = self._enc.action(index)
        return a


# -- the talon, for chance nodes (durak.envs.openspiel) ------------------------------------
def undrawn(g: Game) -> list[int]:
    """The talon's cards still to be drawn, top first (the face-up trump not counted)."""
    return list(g._talon[g._tp :])


def undrawn_count(g: Game) -> int:
    """How many cards :func:`undrawn` would list."""
    return len(g._talon) - g._tp


def drawn_count(g: Game) -> int:
    """How many cards have been drawn from the top of the talon so far."""
    return g._tp


def set_undrawn(g: Game, cards: list[int]) -> None:
    """Put ``cards`` (a reordering of :func:`undrawn`) on the talon, top first."""
    g._talon = g._talon[: g._tp] + tuple(cards)


def apply_unchecked(g: Game, a: Action) -> None:
    """Play ``a``, which the caller has checked is legal, without checking again."""
    g._apply(a)


def play_or_probe(g: Game, a: Action) -> tuple[Game, int]:
    """Play ``a`` (checked legal by the caller) unless it makes cards drawn from the
    talon: ``(the game after the move, 0)``, or ``(g unchanged, k)`` when it would make
    ``k`` cards drawn (found by playing it on a copy), for the caller to deal as chance
    outcomes first. The game returned may be a new object."""
    k: int = a.kind
    if (
        len(g._talon) > g._tp
        and k != TRANSFER
        and k != SHOW
        and k != EXCHANGE
        and (k != ATTACK or g._phase == PILE)
    ):
        # only a move that can end the bout makes anyone draw
        probe = g.clone()
        probe._apply(a)
        drawn = probe._tp - g._tp
        if drawn:
            return g, drawn
        return probe, 0
    g._apply(a)
    return g, 0


def set_history(g: Game, history: list[Action]) -> None:
    """Give a rebuilt game the public history it stands for (``action_limit`` counts it)."""
    g.history = list(history)
