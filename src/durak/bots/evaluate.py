"""A learned value of a two-player position: the chance that a seat is not the durak.

Logistic regression on what decides a deal between two players at the start of a bout:
hand sizes, trumps (how many, how high, who holds the highest), high and low plain
cards, the talon, who leads. The weights (:mod:`durak.bots.eval_weights`) are fitted to
the results of played games by ``benchmarks/bots/train_eval.py``, which can be re-run.
The searcher uses it to stop rollouts a few bouts ahead (``ismcts:cut=k``): a rollout
played by rules of thumb to the very end judges a move by how careless play finishes
the deal, and a 0/1 result is a noisy judge.

Features are computed from two hands as bitmasks; in a search these are a sampled
world's hands, never the real hidden ones.

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=3)
>>> 0.0 < value(g, 0) < 1.0
True
>>> len(features(0b1111, 0b11110000, 0, 10, True)) == len(FEATURES)
True
"""

from __future__ import annotations

import math
from typing import Final

from ..game import Game
from .eval_weights import WEIGHTS

FEATURES: Final = (
    "bias",
    "talon",
    "talon empty",
    "leads",
    "leads, talon empty",
    "cards - theirs",
    "cards - theirs, talon empty",
    "cards",
    "their cards",
    "trumps",
    "their trumps",
    "trumps - theirs, talon empty",
    "trump strength",
    "their trump strength",
    "highest trump in hands",
    "high plain",
    "their high plain",
    "low plain",
    "their low plain",
    "plain rank",
    "their plain rank",
    "aces and trumps - theirs, talon empty",
)


def _hand(h: int, trump: int) -> tuple[int, int, float, int, int, int, float, int]:
    """(cards, trumps, trump strength, top trump rank + 1, high plain, low plain,
    mean plain rank, aces and trumps) of hand mask ``h``."""
    n = t = hi = lo = top = aces = 0
    ts = 0.0
    plain = 0
    m = h
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        r = c >> 2
        n += 1
        if c & 3 == trump:
            t += 1
            ts += (r + 1) / 13.0
            if r + 1 > top:
                top = r + 1
            aces += 1
        else:
            plain += r
            if r >= 10:
                hi += 1
            elif r <= 6:
                lo += 1
            if r == 12:
                aces += 1
    mean = plain / (n - t) / 12.0 if n > t else 0.0
    return n, t, ts, top, hi, lo, mean, aces


def features(me: int, opp: int, trump: int, talon: int, leads: bool) -> list[float]:
    """The feature vector (:data:`FEATURES`) of hands ``me`` and ``opp`` (masks)."""
    a = _hand(me, trump)
    b = _hand(opp, trump)
    late = 1.0 if talon == 0 else 0.0
    lead = 1.0 if leads else 0.0
    top = 1.0 if a[3] > b[3] else (-1.0 if b[3] > a[3] else 0.0)
    return [
        1.0,
        talon / 24.0,
        late,
        lead,
        lead * late,
        (a[0] - b[0]) / 6.0,
        late * (a[0] - b[0]) / 6.0,
        a[0] / 6.0,
        b[0] / 6.0,
        a[1] / 3.0,
        b[1] / 3.0,
        late * (a[1] - b[1]) / 3.0,
        a[2],
        b[2],
        top,
        a[4] / 3.0,
        b[4] / 3.0,
        a[5] / 3.0,
        b[5] / 3.0,
        a[6],
        b[6],
        late * (a[7] - b[7]) / 3.0,
    ]


def probability(x: list[float]) -> float:
    """The fitted chance of not being the durak for feature vector ``x``."""
    z = 0.0
    for w, v in zip(WEIGHTS, x, strict=True):
        z += w * v
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def value(g: Game, seat: int) -> float:
    """The learned chance that ``seat`` of two-player game ``g`` is not the durak."""
    opp = 1 - seat
    leads = g.attacker == seat
    x = features(int(g._hands[seat]), int(g._hands[opp]), g.trump_suit, g.talon_size, leads)
    return probability(x)
