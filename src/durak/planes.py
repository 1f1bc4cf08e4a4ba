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
>>> g = Game(Rules(), seed=1)
>>> len(p.encode(g, 0)) == 4 * p.size, p.encode_view(g.view(0)) == p.encode(g, 0)
(True, True)
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Final

from .actions import encoding
from .cards import deck_mask
from .errors import RulesError
from .game import PHASES, Game
from .observation import SeatView
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
        self._place(n)
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
        self._sizes: list[int] = [0] * n  # (each seat's hand size, refilled by fields())
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

    def _place(self, n: int) -> None:
        """The flags' bit positions and the seats' orders around the table (from each seat)."""
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

    # PLR0913: the view's parts as the engine's state and the seat view both hold them,
    # so that neither path builds a tuple for the other (compiled hot path)
    def _cards(  # noqa: PLR0913
        self,
        out: list[int],
        seat: int,
        hand: int,
        known: Sequence[int],
        atts: Sequence[int],
        unbeaten: int,
        table: int,
        discard: int,
        trump_card: int,
        under: bool,
    ) -> int:
        """The card planes into ``out``; the index after them."""
        lo = self.lo
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
        return i

    # PLR0913: as _cards
    def _rest(  # noqa: PLR0913
        self,
        out: list[int],
        i: int,
        seat: int,
        flags: int,
        roles: tuple[int, int, int, int, int, int],
        counts: tuple[int, int, int],
        sizes: Sequence[int],
        tally: Sequence[int],
    ) -> None:
        """The flags (``flags`` holds the trump's and the rule sets' own) and scalars
        into ``out`` from index ``i``. ``roles``: out mask, to act, attacker, defender,
        phase, bout (with the forced take as bit 8 of the bout's place: see callers);
        ``counts``: talon, cap, attacks; ``sizes``: every seat's hand size."""
        outs, to_act, attacker, defender, phase, bout_forced = roles
        rel = self._rel[seat]
        for s in range(self.players):
            if outs >> s & 1:
                flags |= 1 << (self._out + rel[s])
        if to_act >= 0:
            flags |= (
                (1 << (self._att + rel[attacker]))
                | (1 << (self._def + rel[defender]))
                | (1 << (self._act + rel[to_act]))
            )
        flags |= 1 << (self._phase + phase)
        if bout_forced & 1:
            flags |= self._first
        if bout_forced & 2:
            flags |= self._forced
        out[i] = flags
        out[i + 1] = counts[0]
        out[i + 2] = counts[1]
        out[i + 3] = counts[2]
        i += 4
        for s in self._around[seat]:
            out[i] = sizes[s]
            i += 1
        if self._pogonny:
            # a tally has no upper bound (cards taken are laid again): clipped to the Box's 1
            for s in self._around[seat]:
                out[i] = min(tally[s], 12)
                i += 1

    def fields(self, g: Game, seat: int) -> list[int]:
        """``seat``'s view as integers: each plane's card mask (shifted to bit 0), the
        flags as one mask, then the numerators of the scalars (each scalar is its
        numerator over :attr:`divisors`). The list is the seat's own, refilled by the
        next call: read it before then."""
        out = self._fields[seat]
        (hands, known, atts, _, unbeaten, table, discard, trump_card, under, talon, outs,
         to_act, attacker, defender, phase, cap, bout, tally, _, forced) = g.state()  # fmt: skip
        i = self._cards(
            out, seat, hands[seat], known, atts, unbeaten, table, discard, trump_card, under
        )
        if self.privileged:
            for s in self._others[seat]:
                out[i] = hands[s] >> self.lo
                i += 1
        # the trump suit's flag (the rules' suit, not the turned card's, with a fixed
        # trump); no suit flag at all without a trump (trump=none)
        suit = g.trump_suit
        flags = 1 << suit if suit < 4 else 0
        if self._per_player:
            flags = self._trump_flags(g, seat)
        if self._cheating:
            i, flags = self._cheat_fields(g, seat, out, i, flags)
        if under:
            flags |= 16
        out_mask = 0
        for s in range(self.players):
            if outs[s]:
                out_mask |= 1 << s
        sizes = self._sizes
        for s in range(self.players):
            sizes[s] = _count(hands[s])
        roles = (out_mask, to_act, attacker, defender, phase, (bout == 0) | (forced << 1))
        self._rest(out, i, seat, flags, roles, (talon, cap, len(atts)), sizes, tally)
        return out

    def fields_view(self, v: SeatView) -> list[int]:
        """:meth:`fields` of a seat's :class:`~durak.observation.SeatView` (the same
        integers as ``fields(game, v.seat)`` of the game it came from), for a player that
        has its view and no game. Not for двухкозырный or the cheating game, whose extra
        facts the seat view does not hold, nor for a privileged layout."""
        if self._per_player or self._cheating or self.privileged:
            raise RulesError("fields_view: not for trump=per_player, cheating or privileged")
        seat = v.seat
        out = self._fields[seat]
        i = self._cards(
            out, seat, v.hand, v.known, v.attacks, v.unbeaten, v.table, v.discard,
            v.trump_card, v.trump_under_talon,
        )  # fmt: skip
        flags = 1 << v.trump_suit if v.trump_suit < 4 else 0
        if v.trump_under_talon:
            flags |= 16
        roles = (v.out, v.to_act, v.attacker, v.defender, v.phase,
                 (v.bout == 0) | (v.forced_take << 1))  # fmt: skip
        counts = (v.talon_size, v.cap, len(v.attacks))
        self._rest(out, i, seat, flags, roles, counts, v.hand_sizes, v.tally)
        return out

    def _trump_flags(self, g: Game, seat: int) -> int:
        """двухкозырный: the seat's own trump, and each other seat's after it."""
        # (the seats' trumps are not in the engine's state but in its observation; they
        # do not change in a deal, so they are asked once a game: a vector env encodes
        # many games in turn)
        known_game = self._trump_games.get(id(g))
        if known_game is None or known_game[0] is not g:
            if len(self._trump_games) >= _PLANES_MAX:
                self._trump_games.clear()
            known_game = self._trump_games[id(g)] = (g, g.observation(seat).trumps)
        trumps = known_game[1]
        others = self._others[seat]
        flags = 1 << trumps[seat]
        for k in range(1, self.players):
            flags |= 1 << (self._trumps + 4 * (k - 1) + trumps[others[k - 1]])
        return flags

    def _cheat_fields(
        self, g: Game, seat: int, out: list[int], i: int, flags: int
    ) -> tuple[int, int]:
        """шулерский: the public cheat facts' planes from ``i`` and the barred seats' flags."""
        # (the public cheat facts are not in the engine's state: its observation's)
        lo = self.lo
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
        return i, flags

    def encode(self, g: Game, seat: int) -> bytearray:
        """The float32 vector of ``seat``'s view of ``g``, as bytes."""
        return self._encode(self.fields(g, seat), seat)

    def encode_view(self, v: SeatView) -> bytearray:
        """The float32 vector of a seat's :class:`~durak.observation.SeatView`: the same
        bytes as ``encode(game, v.seat)`` (see :meth:`fields_view`)."""
        return self._encode(self.fields_view(v), v.seat)

    def _encode(self, fields: list[int], seat: int) -> bytearray:
        # Each seat keeps its last parts and the masks they stand for: from one step to
        # the next most planes are the same, and a part is a function of its mask alone
        # (whichever game it came from), so only the changed ones are looked up again.
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
