"""The heuristic bot: rules of thumb of a decent club player, and card memory.

It remembers every card seen (the discard, cards taken, the trump) through its
Observation, keeps trumps and high cards for the end, opens with its lowest
non-trump cards and lays pairs together, throws in cheap cards of ranks on the
table, transfers with cheap cards, and takes rather than spend a big trump on small
cards early. With the talon empty it leads cards nothing unseen can beat. The rules
themselves are in :mod:`durak.bots.policy` (the searchers use them for rollouts);
``style="careful"`` plays that module's CAREFUL style instead.
"""

from __future__ import annotations

import random

from durak.enums import Phase

from ..actions import Action
from ..cards import beats_mask
from ..errors import ArgumentError
from ..observation import Observation
from .base import BaseBot, legal_of
from .memory import Tracker
from .policy import STYLES, decide

LOOP_BOUTS = 150  # no real deal lasts this many bouts


def opponents_may_hold(obs: Observation) -> int:
    """Cards an opponent of ``obs.seat`` may hold: unseen ones and those known in their hands."""
    r = obs.rules
    m = int(obs.unseen)
    for s, k in enumerate(obs.known):
        if s != obs.seat and r.team_of(s) != r.team_of(obs.seat):
            m |= int(k)
    return m


def safe_cards(obs: Observation) -> int:
    """Cards of this hand that no opponent can beat (as far as this seat can tell)."""
    threat = opponents_may_hold(obs)
    safe = 0
    for c in obs.hand:
        if not beats_mask(c.index, obs.trump_suit, obs.rules.spades_by_spades) & threat:
            safe |= c.bit
    return safe


def table_masks(obs: Observation) -> tuple[int, int]:
    """(unbeaten attacking cards, every card on the table) as masks."""
    unbeaten = table = 0
    for a, b in obs.table:
        table |= a.bit
        if b is None:
            unbeaten |= a.bit
        else:
            table |= b.bit
    return unbeaten, table


class HeuristicBot(BaseBot):
    name = "heuristic"

    def __init__(self, seed: int | None = None, style: str = "club") -> None:
        if style not in STYLES:
            raise ArgumentError(f"heuristic: style is one of {', '.join(STYLES)}, not {style!r}")
        self.style = STYLES[style]
        self.tracker = Tracker()
        self.rng = random.Random(seed)

    def reset(self) -> None:
        self.tracker.reset()

    def observe(self, obs: Observation) -> None:
        self.tracker.update(obs)

    def choose(self, obs: Observation) -> Action:
        legal_of(obs)
        self.tracker.update(obs)
        # Rules of thumb can go round in circles (a card nobody beats taken round the
        # table in ``prostoy``); a random move now and then breaks the circle.
        if obs.bout >= LOOP_BOUTS and self.rng.random() < 0.3:
            return self.rng.choice(obs.legal)
        unbeaten, table = table_masks(obs)
        safe = safe_cards(obs) if obs.talon_size == 0 and obs.phase == Phase.ATTACK else 0
        return decide(
            obs.legal,
            int(obs.phase),
            int(obs.hand),
            obs.trump_suit,
            obs.talon_size,
            unbeaten,
            table,
            safe,
            self.style,
        )
