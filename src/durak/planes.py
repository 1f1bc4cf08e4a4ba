"""A seat's view as the bytes of a float32 vector: the encoder's layout and its hot loop.

Compiled with the engine (mypyc, :data:`durak.build.ENGINE`), so it uses no numpy:
:class:`durak.envs.encoding.Encoder` wraps the bytes in an array without copying. Every
plane is one card mask (at most 52 bits, a machine integer in compiled code), turned into
floats sixteen or eight bits at a time by tables of 0.0/1.0 float patterns and remembered
(most planes repeat from step to step); the scalars are looked up by their integer
counts. Each seat keeps the parts of its last vector with the masks they stand for, so
that a step looks up only the planes that changed, and the vector is one join of bytes.
This is several times faster than unpacking one big integer with numpy (the first form
of the encoder), and gives the same floats (``tests/test_envs_encoding.py`` compares it
with that encoder).

>>> from durak import Game, Rules
>>> p = Planes(Rules())
>>> p.size, p.plane_names[:3]
(315, ('hand', 'attack_unbeaten', 'attack_beaten'))
>>> len(p.encode(Game(Rules(), seed=1), 0)) == 4 * p.size
True
"""

from __future__ import annotations

import struct
from typing import Final

from .actions import encoding
from .cards import deck_mask
from .game import PHASES, Game
from .rules import Rules

BASE_PLANES: Final = (
    "hand",
    "attack_unbeaten",
    "attack_beaten",
    "beating",
    "discard",
    "trump_card",
    "unseen",
)


def _f32(x: float) -> bytes:
    """``x`` as the 4 bytes of a float32 in this machine's order (what numpy reads back)."""
    return struct.pack("=f", x)


_ZERO: Final = _f32(0.0)
_ONE: Final = _f32(1.0)
# _LOW[n][b]: the low n bits of b (lowest first) as n floats 0.0/1.0; _LOW[8] is the byte
_LOW: Final = [
    [b"".join(_ONE if b >> i & 1 else _ZERO for i in range(n)) for b in range(256)]
    for n in range(9)
]
_BYTE: Final = _LOW[8]


# Per deck size, a card mask (shifted to bit 0) -> its plane's floats. Most planes repeat
# from step to step (the trump card, the discard, what is known of other hands, often
# empty ones); shared by every encoder of the process and emptied when it grows large.
_PLANES: Final[dict[int, dict[int, bytes]]] = {}
_PLANES_MAX: Final = 1 << 11


# _WORD[w]: the 16 bits of w as floats, made as met (a plane not in the cache is then
# joined from two or three parts, not five or seven)
_WORD: Final[list[bytes | None]] = [None] * (1 << 16)


def _floats(m: int, n: int) -> bytes:
    """The ``n`` low bits of ``m`` as floats, lowest first."""
    parts: list[bytes] = []
    while n >= 16:
        w = m & 0xFFFF
        b = _WORD[w]
        if b is None:
            b = _WORD[w] = _BYTE[w & 255] + _BYTE[w >> 8]
        parts.append(b)
        m >>= 16
        n -= 16
    while n >= 8:
        parts.append(_BYTE[m & 255])
        m >>= 8
        n -= 8
    if n:
        parts.append(_LOW[n][m & 255])
    return b"".join(parts)


# how many bits each 16-bit number has (int.bit_count is a method call in compiled code)
_BITS16: Final = [bin(i).count("1") for i in range(1 << 16)]


def _count(m: int) -> int:
    """How many cards a mask holds (at most 64)."""
    return (
        _BITS16[m & 0xFFFF]
        + _BITS16[m >> 16 & 0xFFFF]
        + _BITS16[m >> 32 & 0xFFFF]
        + _BITS16[m >> 48 & 0xFFFF]
    )


def _table(values: list[float]) -> list[bytes]:
    return [_f32(x) for x in values]


class Planes:
    """The layout of a seat's vector (names, sizes) and its encoding into float32 bytes;
    ``privileged`` adds every other hand (for centralised critics only)."""

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
        seats = ["self"] + rel
        # шулерский (cheating): the public cheat facts (Observation's cheated, called,
        # laid, barred), only then, so that every other rule set's layout stays as it was
        self._cheating = rules.cheating != "off"
        if self._cheating:
            names += ["cheated", "called"] + [f"laid_{s}" for s in seats]
        self.plane_names: tuple[str, ...] = tuple(names)
        self.planes_size = len(names) * self.cards
        # flags (0/1) after the planes, then values in [0, 1]
        flags = [f"trump_suit_{s}" for s in "♠♥♦♣"] + ["trump_under_talon"]
        flags += [f"out_{s}" for s in seats] + [f"attacker_{s}" for s in seats]
        flags += [f"defender_{s}" for s in seats] + [f"to_act_{s}" for s in seats]
        flags += [f"phase_{p}" for p in PHASES] + ["first_bout", "forced_take"]
        # двухкозырный (trump=per_player): trump_suit_* is the seat's own trump, and each
        # other seat's follows; шулерский: the seats caught cheating this bout
        self._per_player = rules.trump == "per_player"
        self._trumps = len(flags)
        if self._per_player:
            flags += [f"trump_{r}_{s}" for r in rel for s in "♠♥♦♣"]
        self._barred = len(flags)
        if self._cheating:
            flags += [f"barred_{s}" for s in seats]
        # (двухкозырный: the games encoded lately, by id, each kept with its seats' trumps)
        self._trump_games: dict[int, tuple[Game, tuple[int, ...]]] = {}
        values = ["talon_size", "cap", "attacks_on_table"]
        values += [f"hand_size_{s}" for s in seats] + [f"pogony_{s}" for s in seats]
        self.scalar_names: tuple[str, ...] = tuple(flags + values)
        self.flags = len(flags)
        self.bits_size = self.planes_size + len(flags)
        self.size = self.bits_size + len(values)
        # bit positions within the flags
        self._out = 5
        self._att = self._out + n
        self._def = self._att + n
        self._act = self._def + n
        self._phase = self._act + n
        self._first = 1 << (self._phase + len(PHASES))
        self._forced = self._first << 1
        self._others = [[(seat + i) % n for i in range(1, n)] for seat in range(n)]
        self._rel = [[(s - seat) % n for s in range(n)] for seat in range(n)]
        self._around = [[(seat + i) % n for i in range(n)] for seat in range(n)]
        self._limit = rules.bout_limit
        self._pogonny = rules.scoring == "pogonny"
        nc, limit = self.cards, self._limit
        # the scalars' floats by their integer numerators (counts are at most a deck)
        self._per_card = _table([k / nc for k in range(nc + 1)])
        self._per_limit = _table([k / limit for k in range(nc + 1)])
        self._per_tally = _table([min(k / 12.0, 1.0) for k in range(13)])
        self._flag_floats: dict[int, bytes] = {}
        self._no_tally = _ZERO * n
        cache = _PLANES.get(nc)
        if cache is None:
            cache = _PLANES[nc] = {}
        self._planes = cache
        # per seat: its last vector's parts (planes, flags, scalars, the tail) and the
        # masks of its planes and flags (-1: none yet)
        n_parts = len(names) + 1 + 3 + n + (n if self._pogonny else 1)
        self._keys: list[list[int]] = [[-1] * (len(names) + 1) for _ in range(n)]
        # per seat: the list fields() fills (the tallies stay 0 without pogony)
        self._fields: list[list[int]] = [[0] * (len(names) + 4 + 2 * n) for _ in range(n)]
        # the scalars' divisors, in the order of fields(): talon, cap, attacks, the hand
        # sizes, the tallies (clipped at 12)
        self.divisors: tuple[float, ...] = tuple(
            [float(nc), float(limit), float(limit)] + [float(nc)] * n + [12.0] * n
        )
        self._parts: list[list[bytes]] = []
        for _ in range(n):
            row: list[bytes] = [b""] * (len(names) + 4 + n)
            row += [self._no_tally] * (n_parts - len(names) - 4 - n)
            self._parts.append(row)

    def __reduce__(self) -> tuple[object, tuple[Rules, bool]]:
        # (compiled, the class cannot be rebuilt without its constructor's arguments)
        return Planes, (self.rules, self.privileged)

    def _plane(self, m: int) -> bytes:
        b = self._planes.get(m)
        if b is None:
            if len(self._planes) >= _PLANES_MAX:
                self._planes.clear()
            b = self._planes[m] = _floats(m, self.cards)
        return b

    def _scaled(self, table: list[bytes], k: int, scale: int) -> bytes:
        # (a count beyond the table: computed as the table's entries are)
        return table[k] if 0 <= k < len(table) else _f32(k / scale)

    def _put(self, keys: list[int], parts: list[bytes], i: int, m: int) -> None:
        # part i of a seat's vector is the plane of mask m: looked up only when m changed
        if keys[i] != m:
            keys[i] = m
            parts[i] = self._plane(m)

    # C901: one flat pass fills every plane, flag and scalar of the view (compiled hot path)
    def fields(self, g: Game, seat: int) -> list[int]:  # noqa: C901
        """``seat``'s view as integers: each plane's card mask (shifted to bit 0), the
        flags as one mask, then the numerators of the scalars (each scalar is its
        numerator over :attr:`divisors`). The list is the seat's own, refilled by the
        next call: read it before then."""
        out = self._fields[seat]
        lo = self.lo
        (hands, known, atts, _, unbeaten, table, discard, trump_card, under, talon, outs,
         to_act, attacker, defender, phase, cap, bout, tally, _, forced) = g.state()  # fmt: skip
        hand = hands[seat]
        att = 0
        for c in atts:
            att |= 1 << c
        trump_bit = 1 << trump_card if trump_card >= 0 else 0  # (none turned: trump=none)
        out[0] = hand >> lo
        out[1] = unbeaten >> lo
        out[2] = (att & ~unbeaten) >> lo
        out[3] = (table & ~att) >> lo
        out[4] = discard >> lo
        out[5] = trump_bit >> lo
        seen = hand | discard | table
        others = self._others[seat]
        for s in others:
            seen |= known[s]
        if under:
            seen |= trump_bit
        out[6] = (self.full & ~seen) >> lo
        i = 7
        for s in others:
            out[i] = known[s] >> lo
            i += 1
        if self.privileged:
            for s in others:
                out[i] = hands[s] >> lo
                i += 1
        # the trump suit's flag (the rules' suit, not the turned card's, with a fixed
        # trump); no suit flag at all without a trump (trump=none)
        suit = g.trump_suit
        flags = 1 << suit if suit < 4 else 0
        if self._per_player:
            # (the seats' trumps are not in the engine's state but in its observation; they
            # do not change in a deal, so they are asked once a game: a vector env encodes
            # many games in turn)
            known_game = self._trump_games.get(id(g))
            if known_game is None or known_game[0] is not g:
                if len(self._trump_games) >= _PLANES_MAX:
                    self._trump_games.clear()
                known_game = self._trump_games[id(g)] = (g, g.observation(seat).trumps)
            trumps = known_game[1]
            flags = 1 << trumps[seat]
            for k in range(1, self.players):
                flags |= 1 << (self._trumps + 4 * (k - 1) + trumps[others[k - 1]])
        if self._cheating:
            # (the public cheat facts are not in the engine's state: its observation's)
            obs = g.observation(seat)
            out[i] = int(obs.cheated) >> lo
            out[i + 1] = int(obs.called) >> lo
            i += 2
            laid = obs.laid
            for s in self._around[seat]:
                out[i] = int(laid[s]) >> lo
                i += 1
            for s in obs.barred:
                flags |= 1 << (self._barred + self._rel[seat][s])
        if under:
            flags |= 16
        rel = self._rel[seat]
        for s in range(self.players):
            if outs[s]:
                flags |= 1 << (self._out + rel[s])
        if to_act >= 0:
            flags |= (
                (1 << (self._att + rel[attacker]))
                | (1 << (self._def + rel[defender]))
                | (1 << (self._act + rel[to_act]))
            )
        flags |= 1 << (self._phase + phase)
        if bout == 0:
            flags |= self._first
        if forced:
            flags |= self._forced
        out[i] = flags
        out[i + 1] = talon
        out[i + 2] = cap
        out[i + 3] = len(atts)
        i += 4
        for s in self._around[seat]:
            out[i] = _count(hands[s])
            i += 1
        if self._pogonny:
            # a tally has no upper bound (cards taken are laid again): clipped to the Box's 1
            for s in self._around[seat]:
                out[i] = min(tally[s], 12)
                i += 1
        return out

    def encode(self, g: Game, seat: int) -> bytearray:
        """The float32 vector of ``seat``'s view of ``g``, as bytes."""
        # Each seat keeps its last parts and the masks they stand for: from one step to
        # the next most planes are the same, and a part is a function of its mask alone
        # (whichever game it came from), so only the changed ones are looked up again.
        fields = self.fields(g, seat)
        keys = self._keys[seat]
        parts = self._parts[seat]
        n = len(self.plane_names)
        for i in range(n):
            self._put(keys, parts, i, fields[i])
        flags = fields[n]
        if keys[n] != flags:
            f = self._flag_floats.get(flags)
            if f is None:
                if len(self._flag_floats) >= _PLANES_MAX:
                    self._flag_floats.clear()
                f = self._flag_floats[flags] = _floats(flags, self.flags)
            keys[n] = flags
            parts[n] = f
        per_card = self._per_card
        per_limit = self._per_limit
        limit = self._limit
        parts[n + 1] = per_card[fields[n + 1]]
        parts[n + 2] = self._scaled(per_limit, fields[n + 2], limit)
        parts[n + 3] = self._scaled(per_limit, fields[n + 3], limit)
        sizes = n + 4 + self.players
        for j in range(n + 4, sizes):
            parts[j] = per_card[fields[j]]
        if self._pogonny:
            per_tally = self._per_tally
            for j in range(sizes, sizes + self.players):
                parts[j] = per_tally[fields[j]]
        # (bytes only: CPython joins those without asking each for its buffer, twice as fast)
        return bytearray().join(parts)
