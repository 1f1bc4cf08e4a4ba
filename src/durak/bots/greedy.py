"""The greedy bot: the cheapest legal card, trumps last; takes when it cannot beat.

It opens and throws in with its lowest non-trump card (all cards of that rank it
holds); beats with the cheapest card that beats; never transfers unless that is
cheaper than beating; passes rather than throwing in trumps or high cards.
"""

from __future__ import annotations

from durak.enums import Kind, Phase

from ..actions import Action
from ..observation import Observation
from .base import BaseBot, legal_of


def card_cost(index: int, trump: int) -> int:
    """Lower is cheaper to give away: non-trumps by rank, then trumps by rank."""
    return index // 4 + (100 if index % 4 == trump else 0)


class GreedyBot(BaseBot):
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        pass  # deterministic: the seed every bot takes changes nothing here

    def choose(self, obs: Observation) -> Action:
        legal = legal_of(obs)
        trump = obs.trump_suit

        def cost(a: Action) -> float:
            if a.kind in (Kind.TAKE, Kind.PASS):
                return 1000.0
            if a.kind == Kind.EXCHANGE:
                return -1.0
            c = sum(card_cost(x.index, trump) for x in a.cards) / len(a.cards)
            # Laying more cards of one rank at once is good; showing costs nothing.
            return c - 0.1 * len(a.cards) - (50 if a.kind == Kind.SHOW else 0)

        best = min(legal, key=cost)
        # Keep trumps and high cards rather than throwing them in.
        if (
            best.kind in (Kind.ATTACK, Kind.DEFEND, Kind.TRANSFER)
            and obs.phase in (Phase.THROW_IN, Phase.PILE_ON)
            and (cost(best) >= 100 or best.cards[0].rank >= 13)
        ):
            return next(a for a in legal if a.kind == Kind.PASS)
        return best
