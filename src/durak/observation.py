"""What one seat may know: the only view of a game that bots, browsers and environments get."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final, NamedTuple

from .actions import Action
from .cards import Card, CardSet, deck_mask
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
    seat its whole hand (what the others know of it: ``known_own``). ``legal`` is
    empty unless this seat is to act.
    """

    seat: int
    rules: Rules
    hand: CardSet
    table: tuple[tuple[Card, Card | None], ...]
    trump: Card | None
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
    # шулерский (cheating=open, docs/rules.md 11): the table cards that stand against
    # the rule (all cards are face up: any attentive seat sees them), those called
    # wrongly, who laid each table card this bout, who was caught; and, for the seat
    # to act, its cheat moves and calls (never in ``legal``).
    cheated: CardSet = CardSet(0)
    called: CardSet = CardSet(0)
    laid: tuple[CardSet, ...] = ()
    barred: tuple[int, ...] = ()
    cheats: tuple[Action, ...] = ()
    calls: tuple[Action, ...] = ()
    # двухкозырный (trump=per_player, docs/rules.md 12): each seat's own trump suit;
    # ``trump_suit`` is then this seat's, ``trump`` None.
    trumps: tuple[int, ...] = ()
    # The cards of this seat's own hand that every other seat knows (taken from the
    # table, shown...): ``known[seat]`` holds its whole hand, so this is what the
    # others see of it (``Game.from_view`` gives it back to them).
    known_own: CardSet = CardSet(0)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return dataclass_reduce(self)

    def view(self) -> SeatView:
        """This observation as a :class:`SeatView` (masks and small ints), the form bots
        decide from: equal to ``game.view(seat)`` of the game it came from.

        >>> from durak import Game, Rules
        >>> g = Game(Rules(), seed=1)
        >>> g.apply(g.legal_actions()[0])
        >>> v, w = g.observation(1).view(), g.view(1)
        >>> all(getattr(v, f) == getattr(w, f) for f in VIEW_FIELDS)
        True
        """
        over = self.to_act is None
        return SeatView(
            self.seat,
            int(self.hand),
            self.hand_sizes,
            tuple(int(k) for k in self.known),
            tuple(a.index for a, _ in self.table),
            tuple(-1 if b is None else b.index for _, b in self.table),
            sum(a.bit for a, b in self.table if b is None),
            sum(a.bit | (b.bit if b is not None else 0) for a, b in self.table),
            int(self.discard),
            self.trump.index if self.trump is not None else -1,
            self.trump_suit,
            self.trump_under_talon,
            self.talon_size,
            sum(1 << s for s, o in enumerate(self.out) if o),
            -1 if self.to_act is None else self.to_act,
            (-1, -1, -1)
            if over
            else (_seat(self.attacker), _seat(self.defender), _seat(self.first_attacker)),
            int(self.phase),
            self.cap,
            self.bout,
            self.throwers,
            self.thrower_pos,
            sum(1 << s for s in self.shown_seats),
            self.forced_take,
            self.pogony,
            self.out_order,
            tuple(int(m) for m in self.last_laid),
            deck_mask(self.rules.deck),
            self.rules.teams != "none",
            self.rules.spades_by_spades,
        )

    @property
    def unseen(self) -> CardSet:
        """Cards this seat cannot place: in the talon or in other hands, not known."""
        seen = self.hand | self.discard | sum_masks(self.known)
        for a, b in self.table:
            seen |= a.bit | (b.bit if b else 0)
        if self.trump_under_talon and self.trump is not None:
            seen |= self.trump.bit
        return CardSet(deck_mask(self.rules.deck) & ~seen)


def _seat(s: int | None) -> int:
    return -1 if s is None else s


def sum_masks(masks: tuple[CardSet, ...]) -> int:
    m = 0
    for x in masks:
        m |= x
    return m


# The fields of a SeatView (what Game.view and Observation.view fill in).
VIEW_FIELDS: Final = (
    "seat",
    "hand",
    "hand_sizes",
    "known",
    "attacks",
    "beats",
    "unbeaten",
    "table",
    "discard",
    "trump_card",
    "trump_suit",
    "trump_under_talon",
    "talon_size",
    "out",
    "to_act",
    "attacker",
    "defender",
    "first_attacker",
    "phase",
    "cap",
    "bout",
    "throwers",
    "thrower_pos",
    "shown",
    "forced_take",
    "tally",
    "out_order",
    "last_laid",
    "deck",
    "teams",
    "spades_by_spades",
)


class SeatView:
    """One seat's view of a deal as card masks and small ints: what :class:`Observation`
    holds, cheap enough to make on every move of a rollout (``Game.view(seat)``, about a
    microsecond compiled). Bots decide from it; :meth:`durak.game.Game.observation` is
    built from it.

    A card is bit ``c`` of a mask, ``c = 4 * (rank - 2) + suit`` (:mod:`durak.cards`).
    ``phase`` indexes ``durak.game.PHASES``; ``to_act``, ``attacker``, ``defender`` and
    ``first_attacker`` are -1 once the deal is over. ``known[s]``: the cards of seat
    ``s``'s hand every seat has seen (for this seat, its whole hand). ``attacks``: the
    attacking cards in the order laid, ``beats`` the card on each (-1: unbeaten).
    ``out`` and ``shown`` are masks of seats (out of the deal; showed a trump this
    bout). ``deck``: the cards of the deck in play; ``teams``: seats play in two sides,
    even and odd; ``trump_suit``: 0..3, or 4 (no trump; ``trump_card`` is then -1);
    ``spades_by_spades``: the rules' «пики пиками» (see :func:`durak.cards.beats_mask`).
    Every field is an int, a bool or a tuple: the view does not change when the game
    goes on (its fields are read, never written: plain attributes, as
    ``Final`` ones crashed the compiled engine).

    >>> from durak import Game, Rules
    >>> v = Game(Rules(), seed=1).view(0)
    >>> v.hand.bit_count(), v.hand_sizes, v.talon_size, v.phase, v.unseen.bit_count()
    (6, (6, 6), 24, 0, 29)
    """

    __slots__ = VIEW_FIELDS

    # PLR0913: a value type's constructor takes each of its fields (all keywords at call sites)
    def __init__(  # noqa: PLR0913
        self,
        seat: int,
        hand: int,
        hand_sizes: tuple[int, ...],
        known: tuple[int, ...],
        attacks: tuple[int, ...],
        beats: tuple[int, ...],
        unbeaten: int,
        table: int,
        discard: int,
        trump_card: int,
        trump_suit: int,
        trump_under_talon: bool,
        talon_size: int,
        out: int,
        to_act: int,
        roles: tuple[int, int, int],
        phase: int,
        cap: int,
        bout: int,
        throwers: tuple[int, ...],
        thrower_pos: int,
        shown: int,
        forced_take: bool,
        tally: tuple[int, ...],
        out_order: tuple[int, ...],
        last_laid: tuple[int, ...],
        deck: int,
        teams: bool,
        spades_by_spades: bool = False,
    ) -> None:
        self.seat = seat
        self.hand = hand
        self.hand_sizes = hand_sizes
        self.known = known
        self.attacks = attacks
        self.beats = beats
        self.unbeaten = unbeaten
        self.table = table
        self.discard = discard
        self.trump_card = trump_card
        self.trump_suit = trump_suit
        self.trump_under_talon = trump_under_talon
        self.talon_size = talon_size
        self.out = out
        self.to_act = to_act
        # (attacker, defender, first attacker): one argument, three fields
        self.attacker = roles[0]
        self.defender = roles[1]
        self.first_attacker = roles[2]
        self.phase = phase
        self.cap = cap
        self.bout = bout
        self.throwers = throwers
        self.thrower_pos = thrower_pos
        self.shown = shown
        self.forced_take = forced_take
        self.tally = tally
        self.out_order = out_order
        self.last_laid = last_laid
        self.deck = deck
        self.teams = teams
        self.spades_by_spades = spades_by_spades

    @property
    def unseen(self) -> int:
        """Cards this seat cannot place: in the talon or in other hands, not known."""
        seen = self.discard | self.table
        for k in self.known:
            seen |= k
        if self.trump_under_talon:
            seen |= 1 << self.trump_card
        return self.deck & ~seen

    @property
    def players(self) -> int:
        return len(self.hand_sizes)
