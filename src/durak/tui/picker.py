"""Choosing a move with keys or the mouse, offering only what ``obs.legal`` allows.

The player marks cards of their hand (several of one rank may be laid at once), may
pick which attacking card to beat, and then asks to lay, transfer, show, take or
pass. Every request gives back either a legal action or an :class:`Entry` that
says, in plain words, why it cannot be done. With ``cheating`` (шулерский) the cheat
mode (:meth:`Picker.toggle_cheat`) adds the seat's cheat moves to what the cards may
do, and :meth:`Picker.call` names a table card as a cheat.

>>> from durak import Game, Rules, Card
>>> g = Game(Rules(), deck="6S 7S 8S 9S 10S JS 6H 7H 8H 9H 10H JH QS", dealer=1)
>>> p = Picker(g.observation(0))
>>> p.toggle(Card.parse("6S")), p.toggle(Card.parse("6H"))
(None, None)
>>> p.lay()
Action('6♠+6♥')
>>> p.toggle(Card.parse("7S")).key
'why_cannot_lead'
"""

from __future__ import annotations

from dataclasses import dataclass

from durak.enums import Kind, Phase

from ..actions import Action
from ..cards import Card, CardSet
from ..observation import Observation
from .words import Entry, Ranks, Seat


@dataclass(frozen=True)
class Offer:
    """One action the player can take now: the key that does it, its label, the action."""

    key: str
    label: Entry
    action: Action


class Picker:
    """The cards marked in one seat's hand and the chosen target, for one observation."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.selected = 0  # bitmask of marked cards
        self.target: Card | None = None
        self.cheat = False  # шулерский: the cheat moves count as moves

    # -- what is possible ----------------------------------------------------------
    @property
    def legal(self) -> tuple[Action, ...]:
        """The moves the marked cards may make: the honest ones, and in cheat mode the
        cheats too (a false beat counts as a defence, a false throw-in as an attack)."""
        return self.obs.legal + self.obs.cheats if self.cheat else self.obs.legal

    def _laying(self) -> list[Action]:
        return [a for a in self.legal if a.kind in LAYING]

    @property
    def playable(self) -> CardSet:
        """Cards of the hand that some legal action lays."""
        m = 0
        for a in self._laying():
            m |= a.cards
        return CardSet(m)

    @property
    def unbeaten(self) -> list[Card]:
        return [a for a, b in self.obs.table if b is None]

    def targets(self) -> list[Card]:
        """The unbeaten cards the marked card can beat."""
        return [
            a.target
            for a in self.legal
            if _beats(a) and a.cards == self.selected and a.target is not None
        ]

    def refusal(self) -> Entry | None:
        """Why this seat cannot act at all now, if it cannot."""
        if self.obs.phase == Phase.OVER:
            return Entry("why_over")
        if not self.legal:
            return Entry("why_not_your_turn", {"name": Seat(self.obs.to_act or 0)})
        return None

    # -- marking cards -----------------------------------------------------------------
    def toggle(self, card: Card) -> Entry | None:
        """Mark or unmark a card of the hand; an Entry says why it cannot be marked."""
        refuse = self.refusal()
        if refuse:
            return refuse
        if card not in self.playable:
            why = self._why_not(card)
            if not self.cheat and any(a.cards & card.bit for a in self.obs.cheats):
                # шулерский: the card may still be laid as a cheat: say how
                return Entry("why_cheat_hint", {"why": why})
            return why
        new = self.selected ^ card.bit
        laying = self._laying()
        if new and not any(a.cards & new == new for a in laying):
            same_rank = all(c.rank == card.rank for c in CardSet(self.selected))
            if same_rank and self.obs.phase != Phase.DEFEND:
                return Entry("why_too_many", {"cards": tuple(CardSet(new))})
            new = card.bit  # another rank or a second defence card: choose this one instead
        self.selected = new
        self._fix_target()
        return None

    def clear(self) -> None:
        self.selected = 0
        self.target = None

    def _fix_target(self) -> None:
        targets = self.targets()
        if self.target in targets:
            return
        if len(targets) == 1:
            self.target = targets[0]
        elif targets or self.target not in self.unbeaten:
            self.target = None

    def cycle_target(self, step: int) -> Entry | None:
        """Move the chosen target among the cards the marked card beats (or all unbeaten)."""
        options = self.targets() or self.unbeaten
        if not options:
            return Entry("why_choose_first") if not self.selected else None
        if self.target in options:
            i = (options.index(self.target) + step) % len(options)
        else:
            i = 0 if step > 0 else len(options) - 1
        self.target = options[i]
        return None

    def choose_target(self, card: Card) -> Action | Entry | None:
        """A click on a table card: beat it with the marked card, or make it the target."""
        refuse = self.refusal()
        if refuse:
            return refuse
        if card not in self.unbeaten:
            return None
        if self.selected:
            for a in self.legal:
                if _beats(a) and a.cards == self.selected and a.target == card:
                    return a
            if self.obs.phase == Phase.DEFEND and len(CardSet(self.selected)) == 1:
                mine = next(iter(CardSet(self.selected)))
                return Entry("why_not_that_target", {"card": mine, "target": card})
        self.target = card
        return None

    def _why_not(self, card: Card) -> Entry:
        phase = self.obs.phase
        if phase == Phase.DEFEND:
            return Entry("why_cannot_beat", {"card": card})
        if phase == Phase.ATTACK:
            return Entry("why_cannot_lead", {"card": card})
        ranks = {a.rank for a, _ in self.obs.table} | {b.rank for _, b in self.obs.table if b}
        if card.rank in ranks:
            return Entry("why_no_room")
        return Entry("why_not_rank", {"ranks": Ranks(sorted(ranks))})

    # -- asking for an action -------------------------------------------------------
    def lay(self) -> Action | Entry:
        """Enter: lay the marked cards as an attack, a defence, or else a transfer."""
        refuse = self.refusal()
        if refuse:
            return refuse
        if not self.selected:
            return Entry("why_choose_first")
        sel = self.selected
        for a in self.legal:
            if _attacks(a) and a.cards == sel:
                return a
        defends = [a for a in self.legal if _beats(a) and a.cards == sel]
        if defends:
            for a in defends:
                if a.target == self.target:
                    return a
            if len(defends) == 1:
                return defends[0]
            return Entry("why_choose_target", {"card": next(iter(CardSet(sel)))})
        for a in self.legal:
            if a.kind == Kind.TRANSFER and a.cards == sel:
                return a
        return Entry("why_no_lay", {"cards": tuple(CardSet(sel))})

    def transfer(self) -> Action | Entry:
        refuse = self.refusal()
        if refuse:
            return refuse
        transfers = [a for a in self.legal if a.kind == Kind.TRANSFER]
        if not transfers:
            shows = [a for a in self.legal if a.kind == Kind.SHOW]
            return shows[0] if shows and not self.selected else Entry("why_no_transfer")
        for a in transfers:
            if a.cards == self.selected:
                return a
        if not self.selected and len(transfers) == 1:
            return transfers[0]
        return Entry("why_choose_transfer", {"rank": Ranks([transfers[0].cards[0].rank])})

    def show(self) -> Action | Entry:
        return self._single(Kind.SHOW, "why_no_show")

    def take(self) -> Action | Entry:
        return self._single(Kind.TAKE, "why_no_take")

    def pass_(self) -> Action | Entry:
        return self._single(Kind.PASS, "why_no_pass")

    def exchange(self) -> Action | Entry:
        return self._single(Kind.EXCHANGE, "why_no_exchange")

    def toggle_cheat(self) -> Entry:
        """Cheat mode on or off (шулерский): then any card may be laid against the rule."""
        if self.obs.rules.cheating == "off":
            return Entry("why_no_cheating")
        refuse = self.refusal()
        if refuse:
            return refuse
        if not self.obs.cheats and not self.cheat:
            return Entry("why_no_cheat")
        self.cheat = not self.cheat
        self.clear()
        return Entry("cheat_on" if self.cheat else "cheat_off")

    def call(self) -> Action | Entry:
        """«Шулер!»: call the card another seat laid last among those that may be called
        (a cheat is called right after it is made)."""
        if self.obs.rules.cheating == "off":
            return Entry("why_no_cheating")
        refuse = self.refusal()
        if refuse:
            return refuse
        calls: dict[int, Action] = {int(a.cards): a for a in self.obs.calls}
        for a, b in reversed(self.obs.table):
            for c in (b, a):
                if c is not None and c.bit in calls:
                    return calls[c.bit]
        return Entry("why_no_call")

    def _single(self, kind: Kind, why: str) -> Action | Entry:
        refuse = self.refusal()
        if refuse:
            return refuse
        for a in self.legal:
            if a.kind == kind:
                return a
        return Entry(why)

    def offers(self) -> list[Offer]:
        """What the player can do now with the cards marked, each with its key."""
        out: list[Offer] = []
        sel = self.selected
        trump = self.obs.trump
        lay = self.lay() if sel else None
        for a in self.legal:
            if _attacks(a) and a.cards == sel:
                out.append(Offer("enter", Entry("act_lay", {"cards": a.cards}), a))
            elif _beats(a) and a.cards == sel:
                key = "enter" if a is lay else ""
                out.append(
                    Offer(key, Entry("act_beat", {"target": a.target, "card": a.cards[0]}), a)
                )
            elif a.kind == Kind.TRANSFER and a.cards == sel:
                out.append(Offer("r", Entry("act_transfer", {"cards": a.cards}), a))
        for a in self.legal:
            if a.kind == Kind.SHOW:
                out.append(Offer("s", Entry("act_show", {"card": a.cards[0]}), a))
            elif a.kind == Kind.EXCHANGE:
                out.append(
                    Offer("x", Entry("act_exchange", {"card": a.cards[0], "trump": trump}), a)
                )
            elif a.kind == Kind.TAKE:
                out.append(Offer("t", Entry("act_take"), a))
            elif a.kind == Kind.PASS:
                out.append(Offer("p", Entry("act_pass"), a))
        for a in self.obs.calls:
            out.append(Offer("", Entry("act_call", {"card": a.cards[0]}), a))
        return out


LAYING = (Kind.ATTACK, Kind.DEFEND, Kind.TRANSFER, Kind.CHEAT)


def _beats(a: Action) -> bool:
    """A defence, or a false beat (шулерский)."""
    return a.kind == Kind.DEFEND or (a.kind == Kind.CHEAT and a.target is not None)


def _attacks(a: Action) -> bool:
    """An attack, or a false throw-in (шулерский)."""
    return a.kind == Kind.ATTACK or (a.kind == Kind.CHEAT and a.target is None)
