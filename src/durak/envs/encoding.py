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

import numpy as np

from ..actions import encoding
from ..cards import Card, deck_mask
from ..game import PHASES, Game
from ..rules import Rules
from .bits import raw

BASE_PLANES = ("hand", "attack_unbeaten", "attack_beaten", "beating", "discard", "trump_card",
               "unseen")


class Encoder:
    """Encodes ``seat``'s view of a game; ``privileged`` adds every other hand (for
    centralised critics only: a policy fed those planes sees hidden cards).

    ``plane_names`` and ``scalar_names`` name the parts; ``size`` is the whole length.
    """

    def __init__(self, rules: Rules, privileged: bool = False) -> None:
        n = self.players = rules.players
        self.rules = rules
        self.privileged = privileged
        self.cards = rules.deck
        self.lo = encoding(rules).lo
        self.full = deck_mask(rules.deck)
        rel = [f"+{i}" for i in range(1, n)]
        names = list(BASE_PLANES) + [f"known_{r}" for r in rel]
        if privileged:
            names += [f"hand_{r}" for r in rel]
        self.plane_names = tuple(names)
        self.planes_size = len(names) * self.cards
        seats = ["self"] + rel
        # flags (0/1) first: they are unpacked from bits with the planes
        flags = [f"trump_suit_{s}" for s in "♠♥♦♣"] + ["trump_under_talon"]
        flags += [f"out_{s}" for s in seats] + [f"attacker_{s}" for s in seats]
        flags += [f"defender_{s}" for s in seats] + [f"to_act_{s}" for s in seats]
        flags += [f"phase_{p}" for p in PHASES] + ["first_bout", "forced_take"]
        values = ["talon_size", "cap", "attacks_on_table"]
        values += [f"hand_size_{s}" for s in seats] + [f"pogony_{s}" for s in seats]
        self.scalar_names = tuple(flags + values)
        self.bits_size = self.planes_size + len(flags)
        self.size = self.bits_size + len(values)
        self._nbytes = (self.bits_size + 7) // 8
        f0 = self.planes_size
        self._under = 1 << (f0 + 4)
        self._out = f0 + 5
        self._att = self._out + n
        self._def = self._att + n
        self._act = self._def + n
        self._phase = self._act + n
        self._first = 1 << (self._phase + len(PHASES))
        self._forced = self._first << 1
        self._others = tuple(tuple((seat + i) % n for i in range(1, n)) for seat in range(n))
        self._rel = tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n))
        self._flag_trump = tuple(1 << (f0 + i) for i in range(4))
        self._flag_att = tuple(1 << (self._att + i) for i in range(n))
        self._flag_def = tuple(1 << (self._def + i) for i in range(n))
        self._flag_act = tuple(1 << (self._act + i) for i in range(n))
        self._flag_phase = tuple(1 << (self._phase + i) for i in range(len(PHASES)))
        self._around = tuple(tuple((seat + i) % n for i in range(n)) for seat in range(n))
        self._limit = rules.bout_limit
        self._pogonny = rules.scoring == "pogonny"
        self._no_tally = [0.0] * n

    def encode(self, g: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The vector for ``seat``, written into ``out`` (a float32 array of ``size``) if
        given, else into a new array."""
        (hands, known, attacks, _, unbeaten, table, discard, trump_card, under, talon, outs,
         to_act, attacker, defender, phase, cap, bout, tally, _, forced) = raw(g)
        lo, nc = self.lo, self.cards
        hand = hands[seat]
        att = 0
        for c in attacks:
            att |= 1 << c
        trump_bit = 1 << trump_card
        seen = hand | discard | table
        # planes and flags side by side in one integer, unpacked to bits in one call
        big = ((hand >> lo) | (unbeaten >> lo) << nc | ((att & ~unbeaten) >> lo) << 2 * nc
               | ((table & ~att) >> lo) << 3 * nc | (discard >> lo) << 4 * nc
               | (trump_bit >> lo) << 5 * nc | self._flag_trump[trump_card & 3])
        shift = 7 * nc
        others = self._others[seat]
        for s in others:
            k = known[s]
            seen |= k
            big |= (k >> lo) << shift
            shift += nc
        if self.privileged:
            for s in others:
                big |= (hands[s] >> lo) << shift
                shift += nc
        if under:
            seen |= trump_bit
            big |= self._under
        big |= ((self.full & ~seen) >> lo) << 6 * nc
        rel = self._rel[seat]
        if True in outs:
            for s in range(self.players):
                if outs[s]:
                    big |= 1 << (self._out + rel[s])
        if to_act >= 0:
            big |= (self._flag_att[rel[attacker]] | self._flag_def[rel[defender]]
                    | self._flag_act[rel[to_act]])
        big |= self._flag_phase[phase]
        if bout == 0:
            big |= self._first
        if forced:
            big |= self._forced
        around = self._around[seat]
        limit = self._limit
        values = [talon / nc, cap / limit, len(attacks) / limit]
        values += [hands[s].bit_count() / nc for s in around]
        # a tally has no upper bound (cards taken are laid again): clipped to the Box's 1
        values += ([min(tally[s] / 12.0, 1.0) for s in around] if self._pogonny
                   else self._no_tally)
        if out is None:
            out = np.empty(self.size, np.float32)
        out[:self.bits_size] = np.unpackbits(
            np.frombuffer(big.to_bytes(self._nbytes, "little"), np.uint8),
            count=self.bits_size, bitorder="little")
        out[self.bits_size:] = values
        return out

    def describe(self) -> list[str]:
        """One name per entry of the vector: ``plane:card`` for planes, then scalar names."""
        cards = [str(Card.from_index(self.lo + i)) for i in range(self.cards)]
        return [f"{p}:{c}" for p in self.plane_names for c in cards] + list(self.scalar_names)
