"""шулерский (``cheating=open``, docs/rules.md 11): the cheating game, a component beside
:class:`durak.game.Game`.

A game under rules with ``cheating`` holds one :class:`Cheating` (else none) and calls it at
a few named hook points; the honest game never reaches this module:

- ``new_bout``: a bout starts, its cheats and calls forgotten;
- ``lay``: a card is laid on the table (who laid it: a call names another seat's card);
- ``false_beats`` / ``false_throws`` / ``calls``: the cheat moves and calls the seat to
  act may make (:meth:`Game.cheats`, :meth:`Game.calls`), never in ``legal_actions()``;
- ``verdict``: what a call does (a cheat caught, a wrong call), which the game carries
  out; ``give_back`` and ``bar`` when a false throw-in is caught and rolled back;
- ``key``, ``observed`` and ``from_observation``: its part of the position key, of every
  seat's :class:`~durak.observation.Observation` and of a game rebuilt from one.

The component holds only what the cheating game adds to a deal: the table cards that
stand against the rule, the cards called wrongly, who laid each table card this bout,
and who was caught cheating this bout.

>>> from durak import Game, Rules
>>> deck = "9S 6C 8S 7C 7S 8D QS 9H KS 10H 10D JH 6H"
>>> g = Game(Rules.preset("shulerskiy"), deck=deck, dealer=1, leader=0)
>>> g.apply("9♠"); g.apply("~9♠/6♣"); [str(a) for a in g.calls()]
['?6♣']
>>> g.apply("?6♣"); str(g.hand(1)), g.to_act  # the false beat caught: seat 1 takes
('6♣ 7♣ 8♦ 9♠ 9♥ 10♥ J♥', 0)
"""

from __future__ import annotations

from typing import Any, Final

from .actions import CALL, CHEAT, Action, make
from .cards import RANK_MASK, CardSet
from .observation import Observation

# What a call does (Cheating.verdict); the game carries it out.
MISSED: Final = 0  # a wrong call that costs nothing (false_call=none): the card stays
DEFENDER_TAKES: Final = 1  # a wrong call by the defender: it takes the table
CALLER_TAKES: Final = 2  # a wrong call by another seat: it takes the table
FALSE_BEAT: Final = 3  # a false beat caught: the cheating defender takes the table
FALSE_THROW: Final = 4  # a false throw-in caught: it goes back, its thrower is barred


class Cheating:
    """The cheating game's part of a deal (masks of cards and of seats).

    ``cheats``: table cards laid against the rule; ``called``: cards called wrongly (with
    ``false_call=none`` they stay, and are not called again); ``laid[s]``: the table cards
    seat ``s`` laid this bout; ``barred``: seats caught cheating this bout (they throw in
    no more).
    """

    __slots__ = ("cheats", "called", "laid", "barred", "costly_calls")

    # (defaults: a copy or an unpickled compiled object is made without arguments)
    def __init__(self, players: int = 0, costly_calls: bool = True) -> None:
        self.cheats = 0
        self.called = 0
        self.laid = [0] * players
        self.barred = 0
        # false_call: a wrong call costs the caller the table (d, v), or nothing (none)
        self.costly_calls = costly_calls

    def copy(self) -> Cheating:
        c = Cheating(0, self.costly_calls)
        c.cheats = self.cheats
        c.called = self.called
        c.laid = self.laid[:]
        c.barred = self.barred
        return c

    # -- hook points --------------------------------------------------------------------
    def new_bout(self) -> None:
        self.cheats = 0
        self.called = 0
        self.barred = 0
        self.laid = [0] * len(self.laid)

    def lay(self, seat: int, mask: int) -> None:
        self.laid[seat] |= mask

    def false_beats(
        self, hand: int, attacks: list[int], unbeaten: int, beats: tuple[int, ...]
    ) -> list[Action]:
        """Every card of ``hand`` laid on an unbeaten attacking card it does not beat
        (``beats[t]``: the mask of cards that beat card ``t``)."""
        out: list[Action] = []
        for t in attacks:
            if unbeaten >> t & 1:
                m = hand & ~beats[t]
                while m:
                    low = m & -m
                    out.append(make(CHEAT, low, t))
                    m ^= low
        return out

    def false_throws(self, seat: int, hand: int, allowed: int) -> list[Action]:
        """One card of a rank not on the table, by a thrower not caught this bout (the
        caller checks the bout's room)."""
        out: list[Action] = []
        if self.barred >> seat & 1:
            return out
        m = hand & ~allowed
        while m:
            low = m & -m
            out.append(make(CHEAT, low, -1))
            m ^= low
        return out

    def calls(self, seat: int, table: int) -> list[Action]:
        """Any card on the ``table`` another seat laid this bout and nobody has called
        yet, cheat or not (a list of only the real cheats would tell which they are)."""
        m = table & ~self.laid[seat] & ~self.called
        out: list[Action] = []
        while m:
            low = m & -m
            out.append(make(CALL, low, -1))
            m ^= low
        return out

    def mark(self, mask: int) -> None:
        """A card laid against the rule (it stands only if nobody calls it)."""
        self.cheats |= mask

    def verdict(self, caller: int, card: int, defender: int, beats: list[int]) -> int:
        """What a call by ``caller`` on ``card`` does (``beats``: the cards laid on the
        attacking cards): MISSED, DEFENDER_TAKES, CALLER_TAKES, FALSE_BEAT or FALSE_THROW."""
        bit = 1 << card
        if not self.cheats & bit:
            # A wrong call: the caller takes the table (D, V), or nothing happens (P).
            if not self.costly_calls:
                self.called |= bit
                return MISSED
            return DEFENDER_TAKES if caller == defender else CALLER_TAKES
        return FALSE_BEAT if card in beats else FALSE_THROW

    def owner(self, bit: int) -> int:
        """The seat that laid the table card ``bit``."""
        for s, m in enumerate(self.laid):
            if m & bit:
                return s
        return -1

    def give_back(self, seat: int, bit: int) -> None:
        """A card goes back from the table to ``seat``: neither laid nor a cheat now."""
        self.cheats &= ~bit
        self.laid[seat] &= ~bit

    def bar(self, seat: int) -> None:
        self.barred |= 1 << seat

    def is_barred(self, seat: int) -> bool:
        return bool(self.barred >> seat & 1)

    def honest_ranks(self, cards: list[int]) -> int:
        """The ranks the honest ``cards`` (-1: none) open for throwing in: a cheat opens none."""
        ranks = 0
        for c in cards:
            if c >= 0 and not self.cheats >> c & 1:
                ranks |= RANK_MASK[c // 4 + 2]
        return ranks

    # -- views ----------------------------------------------------------------------------
    def key(self) -> tuple[int, ...]:
        return (self.cheats, self.called, self.barred, *self.laid)

    def observed(self, cheats: list[Action], calls: list[Action]) -> dict[str, Any]:
        """The Observation fields: every card is face up, so every seat can see which
        stand against the rule; who laid what is public. The moves are the seat's own."""
        return {
            "cheated": CardSet(self.cheats),
            "called": CardSet(self.called),
            "laid": tuple(CardSet(m) for m in self.laid),
            "barred": tuple(s for s in range(len(self.laid)) if self.barred >> s & 1),
            "cheats": tuple(cheats),
            "calls": tuple(calls),
        }

    @staticmethod
    def from_observation(obs: Observation) -> Cheating:
        """The cheating game's state an observation shows (every part of it is public)."""
        c = Cheating(0, obs.rules.false_call != "none")
        c.cheats = int(obs.cheated)
        c.called = int(obs.called)
        c.laid = [int(m) for m in obs.laid]  # (one per seat: the rules have cheating)
        c.barred = sum(1 << s for s in obs.barred)
        return c
