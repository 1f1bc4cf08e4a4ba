"""Outcome: how a deal ended."""

from __future__ import annotations

from dataclasses import dataclass

from .observation import dataclass_reduce


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
