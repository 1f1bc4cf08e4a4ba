"""What a bot remembers within a deal beyond its current Observation.

The Observation already holds the discard, the cards known in each hand (taken
from the table, shown, the face-up trump once drawn) and the trump. What it
forgets is *inference*: a defender who took a single unbeaten card of a suit most
likely held no higher card of that suit (players beat with a same-suit card when
they can). :class:`Tracker` keeps such suit gaps, until the player draws again, so
that determinized search deals them plausible hands.
"""

from __future__ import annotations

from durak.enums import Phase

from ..cards import RANK_MASK, SUIT_MASK, beats_mask
from ..observation import Observation


def higher_in_suit(index: int) -> int:
    """Cards of ``index``'s suit ranked above it, as a mask."""
    return SUIT_MASK[index & 3] & ~((1 << (index + 1)) - 1)


class Gaps:
    """Cards each seat is believed not to hold, each with the talon size when inferred:
    a gap holds only until the seat draws again."""

    def __init__(self) -> None:
        self.gaps: dict[int, tuple[int, int]] = {}  # seat -> (excluded mask, talon size then)

    def exclude(self, obs: Observation) -> list[int] | None:
        """Per seat, cards it is believed not to hold (for ``determinize.sample``)."""
        out = [0] * len(obs.hand_sizes)
        any_gap = False
        for s, (mask, talon) in self.gaps.items():
            # Cards drawn since may fill the gap: it holds only until then.
            if talon == obs.talon_size and s != obs.seat:
                out[s] = mask
                any_gap = True
        return out if any_gap else None


class Tracker(Gaps):
    """Suit gaps inferred from takes, per seat; feed it every observation the bot sees."""

    def __init__(self) -> None:
        super().__init__()
        self._bout = -1
        self._talon = 10**6

    def reset(self) -> None:
        """Forget everything: a new deal starts."""
        self.gaps.clear()
        self._bout = -1
        self._talon = 10**6

    def update(self, obs: Observation) -> None:
        if obs.bout < self._bout or obs.talon_size > self._talon:
            self.reset()  # a new deal without reset(): start over
        self._bout, self._talon = obs.bout, obs.talon_size
        d = obs.defender
        if obs.phase != Phase.PILE_ON or d is None or d == obs.seat:
            return
        unbeaten = [a for a, b in obs.table if b is None]
        if len(unbeaten) != 1:
            return
        mask = higher_in_suit(unbeaten[0].index)
        old = self.gaps.get(d)
        if old is not None and old[1] == obs.talon_size:
            mask |= old[0]
        self.gaps[d] = (mask, obs.talon_size)


# The PLAIN style's cost order (see :mod:`durak.bots.policy`): by rank, trumps above all.
def cheaper_than(index: int, trump: int) -> int:
    """Cards a PLAIN player would rather give away than ``index``, as a mask."""
    r = index >> 2
    below = (1 << (4 * r)) - 1  # every card of a lower rank
    if index & 3 == trump:
        return (FULL & ~SUIT_MASK[trump]) | (below & SUIT_MASK[trump])
    return below & ~SUIT_MASK[trump]


FULL = (1 << 52) - 1
KING = 11  # rank index: a PLAIN player throws in nothing from a king up


class PlainReader(Gaps):
    """What a seat's moves reveal *if* it plays the PLAIN style (cheapest card first,
    beats whenever it can, takes only when it cannot, throws in no trump and nothing
    from a king up; the greedy bot and many casual players play so).

    It compares each observation with the one before: when another seat opened with
    rank r it holds no cheaper card; when it beat with card x it holds no cheaper card
    that beats an unbeaten card; when it took it holds nothing that beats; when it
    passed or threw in it holds no cheaper card it could have thrown. Like
    :class:`Tracker`, a gap holds until the seat draws again. The searcher uses these
    gaps only in sampled worlds where it models an opponent as PLAIN.
    """

    def __init__(self) -> None:
        super().__init__()
        self._prev: Observation | None = None

    def reset(self) -> None:
        self.gaps.clear()
        self._prev = None

    def _add(self, seat: int, mask: int, talon: int) -> None:
        old = self.gaps.get(seat)
        if old is not None and old[1] == talon:
            mask |= old[0]
        self.gaps[seat] = (mask, talon)

    def update(self, obs: Observation) -> None:
        p, self._prev = self._prev, obs
        if p is None or obs.bout < p.bout or obs.talon_size > p.talon_size:
            if p is not None:
                self.gaps.clear()
            return
        s = p.to_act
        if s is None or s == obs.seat or obs.bout != p.bout:
            return  # our own move, or the bout ended (then draws may follow: no gap)
        before = {a.index for a, _ in p.table}
        self.read(p, obs, s, [a.index for a, _ in obs.table if a.index not in before])

    def read(self, p: Observation, obs: Observation, s: int, new: list[int]) -> None:
        """What seat ``s``'s move from ``p`` to ``obs`` (adding the cards ``new`` to the
        table) reveals about its hand."""
        t = obs.trump_suit
        talon = obs.talon_size
        if p.phase == Phase.ATTACK:
            if new and not p.table:
                self._add(s, cheaper_than(min(new, key=lambda c: _cost(c, t)), t), talon)
        elif p.phase == Phase.DEFEND:
            if p.forced_take or new:
                return  # forced, or a transfer: nothing read
            unbeaten = [a.index for a, b in p.table if b is None]
            beats = 0
            for u in unbeaten:
                beats |= beats_mask(u, t, obs.rules.spades_by_spades)
            if any(u in obs.known[s] for u in unbeaten) or (
                obs.phase == Phase.PILE_ON and obs.defender == s
            ):
                self._add(s, beats, talon)  # took: nothing of its beats any of them
                return
            now = {a.index: b for a, b in obs.table}
            for u in unbeaten:
                b = now.get(u)
                if b is not None:
                    self._add(s, beats & cheaper_than(b.index, t), talon)
                    return
        elif p.phase in (Phase.THROW_IN, Phase.PILE_ON):
            throwable = table_ranks(p) & ~SUIT_MASK[t] & ((1 << (4 * KING)) - 1)
            if new:
                throwable &= cheaper_than(min(new, key=lambda c: _cost(c, t)), t)
            self._add(s, throwable, talon)


def table_ranks(obs: Observation) -> int:
    """Every card of a rank on the table, as a mask (what may be thrown in)."""
    ranks = 0
    for a, b in obs.table:
        ranks |= RANK_MASK[a.rank]
        if b is not None:
            ranks |= RANK_MASK[b.rank]
    return ranks


def _cost(index: int, trump: int) -> int:
    return (index >> 2) + (100 if index & 3 == trump else 0)


JACK = 9  # rank index


class CarefulReader(PlainReader):
    """What a seat's moves reveal if it plays *carefully* (saves trumps, leads its
    cheapest plain card, beats with the cheapest card that will do, throws in cheap
    plain cards of the table's ranks): the inferences that hold for most sensible
    players, unlike :class:`PlainReader`'s, which assume a player who spends trumps.

    - It led a single plain card of rank r (talon not empty): it holds no plain card
      below r.
    - It beat a single plain card u: with a plain card b, it holds no card of u's suit
      between them; with a trump b, none of u's suit above u, and no lower trump.
    - It passed when it could throw in: it holds no plain card of a table rank up to a
      jack.

    A gap holds until the seat draws again.
    """

    def read(self, p: Observation, obs: Observation, s: int, new: list[int]) -> None:
        tmask = SUIT_MASK[obs.trump_suit]
        talon = obs.talon_size
        if p.phase == Phase.ATTACK:
            if len(new) == 1 and not p.table and talon > 0 and not (1 << new[0]) & tmask:
                self._add(s, ((1 << (4 * (new[0] >> 2))) - 1) & ~tmask, talon)
        elif p.phase == Phase.DEFEND:
            if p.forced_take or new:
                return
            unbeaten = [a.index for a, b in p.table if b is None]
            if len(unbeaten) != 1 or (1 << unbeaten[0]) & tmask:
                return
            u = unbeaten[0]
            b = dict((a.index, b) for a, b in obs.table).get(u)
            if b is None:
                return
            above_u = higher_in_suit(u)
            if (1 << b.index) & tmask:
                self._add(s, above_u | (tmask & ((1 << b.index) - 1)), talon)
            else:
                self._add(s, above_u & ((1 << b.index) - 1), talon)
        elif p.phase in (Phase.THROW_IN, Phase.PILE_ON) and not new:
            self._add(s, table_ranks(p) & ~tmask & ((1 << (4 * (JACK + 1))) - 1), talon)
