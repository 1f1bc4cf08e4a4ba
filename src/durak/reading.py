"""Reading: the public state of a deal, read-only (the properties of
:class:`durak.game.Game`): hands, what is known of them, the talon, the discard, the
phase, the pagony steps; and the talon's order for chance nodes
(:mod:`durak.envs.openspiel`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action
from .cards import Card, CardSet
from .deal import check_seat
from .enums import Phase
from .errors import ArgumentError
from .observation import LastAttack, Observation, Passed
from .position import OVER, PHASES, Position


class Reading(Position):
    """The public, read-only state of a deal (the module docstring)."""

    __slots__ = ()

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole deck in dealing order (empty for a game rebuilt by :meth:`from_view`)."""
        return tuple([Card.from_index(c) for c in self._order])

    @property
    def talon_size(self) -> int:
        return len(self._talon) - self._tp + (self._bottom >= 0)

    @property
    def discard(self) -> CardSet:
        """The cards beaten off, out of play."""
        return CardSet(self._discard)

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Every seat's hand: ``hands[seat]`` iterates that hand's Cards, lowest first."""
        return tuple(CardSet(h) for h in self._hands)

    def hand(self, seat: object) -> CardSet:
        seat = check_seat("seat", seat, self.n)
        return CardSet(self._hands[seat])

    @property
    def known(self) -> tuple[CardSet, ...]:
        """Per seat, the cards of its hand known to every other seat: taken from the
        table, shown, passed openly, or the face-up trump once drawn."""
        return tuple(CardSet(k) for k in self._known)

    @property
    def pagon(self) -> tuple[int, ...]:
        """With pagony: each side's step on the ladder of pagon ranks at the deal's start
        (what ``Game(..., pagon=...)`` took), else ``()``.

        >>> from durak import Game, Rules
        >>> Game(Rules.preset("pagony"), seed=1, pagon=[2, 0]).pagon
        (2, 0)
        """
        return self._pagon

    @property
    def phase(self) -> Phase:
        """``attack``, ``defend``, ``throw_in``, ``pile_on`` or ``over``, as in
        :class:`Observation`."""
        return PHASES[self._phase]

    def undrawn(self) -> tuple[int, ...]:
        """The talon's cards still to be drawn (card indices), top first; the face-up
        trump under it not counted.

        >>> from durak import Game, Rules
        >>> g = Game(Rules(), seed=1)
        >>> len(g.undrawn()), g.drawn
        (23, 0)
        """
        return self._talon[self._tp :]

    @property
    def drawn(self) -> int:
        """How many cards have been drawn from the top of the talon so far."""
        return self._tp

    def restack(self, cards: Sequence[int]) -> None:
        """Put ``cards``, a reordering of :meth:`undrawn`, on the talon, top first (a
        chance node choosing what is drawn).

        >>> from durak import Game, Rules
        >>> g = Game(Rules(), seed=1)
        >>> g.restack(sorted(g.undrawn())); list(g.undrawn()) == sorted(g.undrawn())
        True
        """
        if sorted(cards) != sorted(self.undrawn()):
            raise ArgumentError("restack: the cards must be those still to be drawn")
        self._talon = self._talon[: self._tp] + tuple(cards)
        origin = self._origin
        if origin is not None:
            # (a rebuilt game's talon is counted from where it was rebuilt)
            self._origin = (origin[0], origin[1], self._talon, origin[3])
        else:
            # the deck is dealt cards, the trump, then the talon: a record replays it
            self._order = self._order[: len(self._order) - len(self._talon)] + self._talon

    @property
    def trump(self) -> Card | None:
        """The turned card: face up under the talon (or drawn from there); None when
        no card is turned (``trump=none``). With a fixed trump suit (``trump=diamonds``)
        it need not be of the trump suit: :attr:`trump_suit` is the trump."""
        return Card.from_index(self._trump_card) if self._trump_card >= 0 else None

    @property
    def table(self) -> list[tuple[Card, Card | None]]:
        """Pairs of attacking card and the card that beat it (None while unbeaten)."""
        return [
            (Card.from_index(a), Card.from_index(b) if b >= 0 else None)
            for a, b in zip(self._att, self._beat, strict=True)
        ]

    @property
    def passed(self) -> tuple[Passed, ...]:
        """Pagony passed openly to a partner (team pagony), in order."""
        return tuple(Passed(a, b, CardSet(m)) for a, b, m in self._passed)

    def _observe(
        self, seat: int, legal: list[Action], cheats: list[Action], calls: list[Action]
    ) -> Observation:
        """What ``seat`` may know (:meth:`view`, as cards); ``legal``, ``cheats`` and
        ``calls``: its moves, when it is to act."""
        v = self.view(seat)
        by, cards, onto = self._last_att
        last = LastAttack(by, CardSet(cards), onto) if by >= 0 else None
        over = v.to_act < 0
        cheat = self._cheat
        return Observation(
            seat=seat,
            rules=self.rules,
            hand=CardSet(v.hand),
            table=tuple(self.table),
            trump=self.trump,
            trump_suit=v.trump_suit,
            talon_size=v.talon_size,
            discard=CardSet(v.discard),
            hand_sizes=v.hand_sizes,
            known=tuple(CardSet(k) for k in v.known),
            out=tuple(self.out),
            pogony=v.tally,
            to_act=None if over else v.to_act,
            attacker=None if over else v.attacker,
            defender=None if over else v.defender,
            phase=PHASES[v.phase],
            bout=v.bout,
            dealer=self.dealer,
            legal=tuple(legal),
            trump_under_talon=v.trump_under_talon,
            first_attacker=None if over else v.first_attacker,
            throwers=v.throwers,
            thrower_pos=v.thrower_pos,
            cap=v.cap,
            shown_seats=tuple(s for s in range(self.n) if v.shown >> s & 1),
            out_order=v.out_order,
            last_laid=tuple(CardSet(m) for m in v.last_laid),
            pagon=self._pagon,
            forced_take=v.forced_take,
            last_attack=last,
            passed=self.passed,
            trumps=self._trumps,
            known_own=CardSet(self._known[seat]),
            **(cheat.observed(cheats, calls) if cheat is not None else {}),
        )
