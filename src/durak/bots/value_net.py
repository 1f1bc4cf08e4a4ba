"""A learned value of a two-player position at the start of a bout: a small neural
network (one hidden layer) over where every card is.

The input counts, for each rank and kind (trump or plain), the cards of that kind in
this seat's hand, in the opponent's and in the talon; and six numbers (the talon's
size, whether it is empty, who leads, both hand sizes, perevodnoy or not). It is fitted
by ``benchmarks/bots/train_value.py`` to the results of self-play games; the weights are
in :mod:`durak.bots.value_weights`. A sampled world's hands are its input in a search,
never the real hidden ones.

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=3)
>>> 0.0 < value(g, 0) < 1.0
True
"""

from __future__ import annotations

import math

from ..cards import deck_mask
from ..game import Game
from .value_weights import B1, B2, ROWS, SCALARS, W2

_FULL = int(deck_mask(36))


def _add(h: list[float], m: int, loc: int, trump: int) -> None:
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        row = ROWS[((c >> 2) * 2 + (1 if c & 3 == trump else 0)) * 3 + loc]
        for j in range(len(h)):
            h[j] += row[j]


def _masks(g: Game, seat: int) -> tuple[int, int, int]:
    """This seat's hand, the opponent's and the talon's cards (masks)."""
    me = int(g._hands[seat])
    opp = int(g._hands[1 - seat])
    return me, opp, _FULL & ~(me | opp | int(g._discard))


def _scalars(g: Game, seat: int, me: int, opp: int) -> tuple[float, ...]:
    n = g.talon_size
    return (
        n / 24.0,
        1.0 if n == 0 else 0.0,
        1.0 if g.attacker == seat else 0.0,
        me.bit_count() / 6.0,
        opp.bit_count() / 6.0,
        1.0 if g.rules.transfer else 0.0,
    )


def inputs(g: Game, seat: int) -> list[float]:
    """The network's input for ``seat`` (what training records): for each rank and kind
    the cards in this hand, the opponent's and the talon, then the six numbers.

    >>> from durak import Game, Rules
    >>> x = inputs(Game(Rules(), seed=3), 0)
    >>> len(x), sum(x[:78])  # 78 counts: 36 cards, none discarded yet
    (84, 36.0)
    """
    me, opp, talon = _masks(g, seat)
    x = [0.0] * (len(ROWS) + 6)
    trump = g.trump_suit
    for loc, m in ((0, me), (1, opp), (2, talon)):
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            x[((c >> 2) * 2 + (1 if c & 3 == trump else 0)) * 3 + loc] += 1.0
    x[len(ROWS) :] = _scalars(g, seat, me, opp)
    return x


def value(g: Game, seat: int) -> float:
    """The learned chance that ``seat`` of two-player game ``g`` (36 cards) is not the
    durak, for a position at the start of a bout (nothing on the table)."""
    me, opp, talon = _masks(g, seat)
    trump = g.trump_suit
    # The input is sparse (a count per card's kind and place): add the rows of the
    # cards present rather than multiply a mostly-zero vector.
    h = list(B1)
    _add(h, me, 0, trump)
    _add(h, opp, 1, trump)
    _add(h, talon, 2, trump)
    x = _scalars(g, seat, me, opp)
    for k in range(6):
        v = x[k]
        if v:
            row = SCALARS[k]
            for j in range(len(h)):
                h[j] += v * row[j]
    z = B2
    for j in range(len(h)):
        if h[j] > 0.0:
            z += h[j] * W2[j]
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
