"""What a bot remembers within a deal beyond its current Observation.

The Observation already holds the discard, the cards known in each hand (taken
from the table, shown, the face-up trump once drawn) and the trump. What it
forgets is *inference*: a defender who took a single unbeaten card of a suit most
likely held no higher card of that suit (players beat with a same-suit card when
they can). :class:`Tracker` keeps such suit gaps, until the player draws again, so
that determinized search deals them plausible hands.
"""

from __future__ import annotations

from ..cards import SUIT_MASK
from ..observation import Observation


def higher_in_suit(index: int) -> int:
    """Cards of ``index``'s suit ranked above it, as a mask."""
    return SUIT_MASK[index & 3] & ~((1 << (index + 1)) - 1)


class Tracker:
    """Suit gaps inferred from takes, per seat; feed it every observation the bot sees."""

    def __init__(self) -> None:
        self.gaps: dict[int, tuple[int, int]] = {}  # seat -> (excluded mask, talon size then)
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
        if obs.phase != "pile_on" or d is None or d == obs.seat:
            return
        unbeaten = [a for a, b in obs.table if b is None]
        if len(unbeaten) != 1:
            return
        mask = higher_in_suit(unbeaten[0].index)
        old = self.gaps.get(d)
        if old is not None and old[1] == obs.talon_size:
            mask |= old[0]
        self.gaps[d] = (mask, obs.talon_size)

    def exclude(self, obs: Observation) -> list[int] | None:
        """Per seat, cards it is believed not to hold (for ``determinize.sample``)."""
        out = [0] * len(obs.hand_sizes)
        any_gap = False
        for s, (mask, talon) in self.gaps.items():
            # Cards drawn since the take may be of that suit: the gap holds only until then.
            if talon == obs.talon_size and s != obs.seat:
                out[s] = mask
                any_gap = True
        return out if any_gap else None
