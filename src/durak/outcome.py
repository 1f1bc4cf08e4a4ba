"""Outcome: how a deal ended, and who lost it (the scoring of RULES.md 5 and 7).

>>> from durak.rules import Rules
>>> loser(Rules(), [1], [0], [0, 0], [0, 1 << 5], first_attacker=0)
(1, False, (1,))
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import RANK_MASK
from .observation import dataclass_reduce
from .rules import Rules, pagon_ladder

# A deal's pagony (Position): each side's step, each seat's pagon cards, the last attack
# (seat, cards, onto whom).
Pagony = tuple[tuple[int, ...], list[int], tuple[int, int, int]]


@dataclass(frozen=True)
class Outcome:
    """How a deal ended.

    ``durak``: the loser's seat, or None for a draw. ``out_order``: seats in the
    order they went out. ``pogony``: sixes in the move that left the durak alone
    (the ending ornament). ``tally``: pogony scored per seat (``pogonny``).
    ``losers``: the losing side's seats: those still holding cards (the durak, and
    in team play its partners with cards); with ``pogonny`` scoring, where the tally
    decides, the durak's side (the durak alone without teams). ``losing_team``: the
    losing side in team play (0 or 1, the durak's), else None. ``hung``: with
    pagony, the side that hung its pagony with the move that ended the deal
    (``hung_cards`` of them), else None.
    ``truncated``: the deal was cut off by ``rules.action_limit`` (then also a
    ``draw``, with no durak).
    """

    durak: int | None
    draw: bool
    out_order: tuple[int, ...]
    pogony: int = 0
    tally: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    losing_team: int | None = None
    hung: int | None = None
    hung_cards: int = 0
    truncated: bool = False

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return dataclass_reduce(self)

    def __str__(self) -> str:
        if self.truncated:
            return "truncated"
        if self.draw:
            return "draw"
        s = f"durak {self.durak}"
        return s + (f" pogony {self.pogony}" if self.pogony else "")


def loser(
    rules: Rules,
    active: list[int],
    out_order: list[int],
    tally: list[int],
    hands: list[int],
    first_attacker: int,
) -> tuple[int | None, bool, tuple[int, ...]]:
    """Who lost a deal that ended with ``active`` still holding cards: the durak (None
    for a draw), whether it is a draw, and the losing side's seats."""
    losers = tuple(active)
    n = len(hands)
    if rules.scoring == "pogonny":
        # Fewest pogony loses; ties: who kept cards longest.
        order = out_order + [s for s in losers]
        last = {s: i for i, s in enumerate(order)}
        durak = min(range(n), key=lambda s: (tally[s], -last[s]))
        # The tally, not the cards, decides: the losing side is the durak's (issue 30:
        # losers named the seats left holding cards, another side than losing_team).
        side = rules.team_of(durak)
        return durak, False, tuple(s for s in range(n) if rules.team_of(s) == side)
    if not losers:
        if rules.draws:
            return None, True, losers
        # The defender beat everything off: the one who opened the last bout loses.
        return first_attacker, False, losers
    if len(losers) == 1:
        return losers[0], False, losers
    # Team play: the side left holding cards loses; its member with the most cards is
    # named the durak.
    return max(losers, key=lambda s: (hands[s].bit_count(), -s)), False, losers


def hung_pagony(
    rules: Rules, pagony: Pagony, out: list[bool], last_lay: list[int], durak: int | None
) -> tuple[int | None, int]:
    """The side that hung its pagony with the deal's last attack, and how many cards.

    The attacker must have gone out with that attack, onto a member of the losing
    side; whether the loser then beat the cards or took them does not matter
    (docs/rules.md, pagony 3)."""
    steps, pagon_mask, (seat, mask, defender) = pagony
    if not steps or durak is None:
        return None, 0
    if seat < 0 or not out[seat] or last_lay[seat] != mask:
        return None, 0
    side, losing = rules.team_of(seat), rules.team_of(durak)
    if side == losing or rules.team_of(defender) != losing:
        return None, 0
    pm = pagon_mask[seat]
    step = steps[side]
    ladder = pagon_ladder(rules.deck)
    if step == len(ladder) - 1:
        ok = mask == pm
    else:
        # all of the pagon rank, at least one of them not a trump
        ok = not mask & ~(pm | RANK_MASK[ladder[step]]) and bool(mask & pm)
    return (side, mask.bit_count()) if ok else (None, 0)
