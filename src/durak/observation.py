"""What one seat may know: the only view of a game that bots, browsers and environments get."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from .actions import Action
from .cards import Card, CardSet
from .enums import Phase
from .rules import Rules


def dataclass_reduce(obj: Any) -> tuple[object, tuple[object, ...]]:
    """Pickles a frozen dataclass through its constructor: the compiled engine's frozen
    dataclasses cannot be unpickled field by field."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))


class LastAttack(NamedTuple):
    """With pagony: the last attack of the deal so far (an opening, a throw-in or a
    transfer): who laid which cards onto whom."""

    seat: int
    cards: CardSet
    defender: int


class Passed(NamedTuple):
    """Team pagony: a player left with nothing but pagony passed them openly."""

    seat: int
    to: int
    cards: CardSet


@dataclass(frozen=True)
class Observation:
    """One seat's view of a deal. Two games that differ only in cards this seat
    cannot see give equal observations.

    The bout's public bookkeeping (``first_attacker``, ``throwers`` in the order of
    their right, ``thrower_pos``, ``cap`` = most attacking cards this bout,
    ``shown_seats`` who showed a trump this bout, ``last_laid`` cards per seat) is
    here too, so that a searcher can rebuild a full game from this view.

    ``known[s]`` holds the cards known to be in seat ``s``'s hand: taken from the
    table, shown (проездной), the face-up trump once drawn, and for the observing
    seat its whole hand. ``legal`` is empty unless this seat is to act.
    """

    seat: int
    rules: Rules
    hand: CardSet
    table: tuple[tuple[Card, Card | None], ...]
    trump: Card
    trump_suit: int
    talon_size: int
    discard: CardSet
    hand_sizes: tuple[int, ...]
    known: tuple[CardSet, ...]
    out: tuple[bool, ...]
    pogony: tuple[int, ...]
    to_act: int | None
    attacker: int | None
    defender: int | None
    phase: Phase
    bout: int
    dealer: int
    legal: tuple[Action, ...]
    trump_under_talon: bool = True
    first_attacker: int | None = None
    throwers: tuple[int, ...] = ()
    thrower_pos: int = 0
    cap: int = 0
    shown_seats: tuple[int, ...] = ()
    out_order: tuple[int, ...] = ()
    last_laid: tuple[CardSet, ...] = ()
    pagon: tuple[int, ...] = ()
    forced_take: bool = False
    last_attack: LastAttack | None = None
    passed: tuple[Passed, ...] = ()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return dataclass_reduce(self)

    @property
    def unseen(self) -> CardSet:
        """Cards this seat cannot place: in the talon or in other hands, not known."""
        from .cards import deck_mask

        seen = self.hand | self.discard | sum_masks(self.known)
        for a, b in self.table:
            seen |= a.bit | (b.bit if b else 0)
        if self.trump_under_talon:
            seen |= self.trump.bit
        return CardSet(deck_mask(self.rules.deck) & ~seen)


def sum_masks(masks: tuple[CardSet, ...]) -> int:
    m = 0
    for x in masks:
        m |= x
    return m
