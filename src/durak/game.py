"""Game: the state machine of one deal.

Exactly one seat acts at any moment (``to_act``); ``legal_actions()`` lists what it
may do, in a fixed order, and ``apply`` plays one of them. A thrower who has
nothing to add is passed over without an action (an implicit «пас»), so every
listed choice is a real one; replaying the same actions gives the same game.

>>> from durak import Game, Rules
>>> g = Game(Rules(), deck="6S 7S 8S 9S 10S JS 6H 7H 8H 9H 10H JH QS", dealer=1)
>>> str(g.hand(0)), str(g.hand(1))
('6♠ 6♥ 8♠ 8♥ 10♠ 10♥', '7♠ 7♥ 9♠ 9♥ J♠ J♥')
>>> str(g.trump), g.talon_size, g.to_act
('Q♠', 24, 0)
>>> [str(a) for a in g.legal_actions()]
['6♠', '6♥', '6♠+6♥', '8♠', '8♥', '8♠+8♥', '10♠', '10♥', '10♠+10♥']
>>> g.apply("6♠"); [str(a) for a in g.legal_actions()]
['6♠/7♠', '6♠/9♠', '6♠/J♠', 'take']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

from .actions import (
    ATTACK,
    CHEAT,
    DEFEND,
    EXCHANGE,
    PASS,
    SHOW,
    TAKE,
    TRANSFER,
    Action,
    IllegalActionError,
    encoding,
    make,
)
from .cards import RANK_MASK, Card
from .cheating import CALLER_TAKES, DEFENDER_TAKES, FALSE_BEAT, FALSE_THROW, Cheating
from .checks import game_args
from .deal import check_seat, first_leader, is_int
from .deal import trump_suit_of as trump_suit_of  # re-exported
from .errors import ArgumentTypeError, RecordError, TurnError
from .observation import Observation
from .outcome import Outcome as Outcome  # re-exported
from .outcome import hung_pagony, loser
from .position import DEFENCE as DEFENCE  # re-exported, with the other phases
from .position import FIELDS as FIELDS  # re-exported
from .position import OPEN as OPEN
from .position import OVER as OVER
from .position import PHASES as PHASES
from .position import PILE as PILE
from .position import STATE_FIELDS as STATE_FIELDS  # re-exported
from .position import THROW as THROW
from .position import State as State  # re-exported
from .position import pagon_cards as pagon_cards  # re-exported
from .reading import Reading
from .reasons import why_illegal
from .record import read_record, write_record
from .rules import Rules
from .rules import pagon_ladder as pagon_ladder  # re-exported
from .turns import DRAW_ORDER, next_active, throwers

# SUBSETS[g]: the non-empty subsets of a 4-bit suit pattern, smallest first.
SUBSETS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted((s for s in range(1, 16) if s & g == s), key=lambda s: (s.bit_count(), s)))
    for g in range(16)
)
_SIX_MASK: Final = RANK_MASK[6]


class Game(Reading):
    """One deal of Durak under ``rules``.

    ``deck``: the whole deck in dealing order (text, or a list of Cards or of card
    texts), dealt one card at a time from the dealer's left; the card after the deal
    is the trump. Without it the deck is shuffled from ``seed``. ``dealer`` defaults
    to a seeded lot. ``leader``: the seat that attacks first (matches use it); by
    default the holder of the lowest trump. Arguments are checked first
    (:mod:`durak.checks`): the wrong type raises ArgumentTypeError, a wrong value
    ArgumentError (both DurakErrors, also TypeError and ValueError), each naming the
    argument:

    >>> Game(Rules(), deck=["6S", "7S"]).deck[:2]
    (Card('6♠'), Card('7♠'))
    >>> Game("perevodnoy")
    Traceback (most recent call last):
    ...
    durak.errors.ArgumentTypeError: rules: a durak.Rules (Rules.parse(text) reads text), not str
    >>> Game(Rules(), dealer=2)
    Traceback (most recent call last):
    ...
    durak.errors.ArgumentError: dealer: a seat 0..1, not 2
    """

    __slots__ = ()

    def __init__(
        self,
        rules: Rules | None | object = None,
        seed: int | None | object = None,
        deck: str | Sequence[Card | str] | None = None,
        dealer: int | None | object = None,
        leader: int | None | object = None,
        pagon: Sequence[int] | None = None,
        *,
        _blank: bool = False,
    ) -> None:
        # (``object`` in the types above: the compiled engine would refuse a wrong type
        # before these checks could name the argument)
        if _blank:
            # The one way to make a Game without dealing: clone() and from_view() fill
            # in every field themselves (compiled classes cannot skip __init__).
            assert isinstance(rules, Rules)
            self.rules = rules
            return
        self.rules = rules = game_args(rules, seed, dealer, leader, pagon)  # durak.checks
        if seed is None:
            seed = random.randrange(2**63)
        elif not is_int(seed):
            raise ArgumentTypeError(f"seed: a whole number, not {type(seed).__name__}")
        self._deal(rules, seed, deck, dealer)
        self._derive()
        self._set_pagon(pagon)
        self._clear_deal()
        if leader is None:
            leader = first_leader(rules, self._hands, self.trump_suit, self._trumps, self._rng_lead)
        self.leader = leader = check_seat("leader", leader, self.n)
        self._start_bout(leader)

    # -- pagony ---------------------------------------------------------------
    def _pass_pagony(self, attacker: int) -> int:
        """Team play with pagony: a player to lead who holds nothing but pagony passes
        them to the next partner, unless every partner holds only pagony too; the lead
        then goes to the other side. Returns who leads."""
        n = self.n
        while True:
            pm = self._pagon_mask[attacker]
            hand = self._hands[attacker]
            if not hand or hand & ~pm or self.talon_size:
                return attacker
            mates = [(attacker + i) % n for i in range(2, n, 2)]
            mates = [s for s in mates if not self.out[s]]
            if not mates or all(not self._hands[s] & ~pm for s in mates):
                return attacker
            to = mates[0]
            self._hands[to] |= hand
            self._known[to] |= hand
            self._known[attacker] = 0
            self._hands[attacker] = 0
            self._passed.append((attacker, to, hand))
            self._check_out(attacker)
            attacker = self._next_active(attacker, attacker)

    # -- seats (durak.turns) ------------------------------------------------------
    def _next_active(self, seat: int, opponent_of: int = -1) -> int:
        return next_active(self.out, seat, opponent_of if self.teams else -1)

    def _thrower_order(self) -> tuple[int, ...]:
        a, d = self.attacker, self.defender
        return throwers(self._tcache, self.rules, self.out, a, d, self._outm)

    # -- bouts -----------------------------------------------------------------
    def _start_bout(self, attacker: int) -> None:
        if self._pagon and self.teams:
            attacker = self._pass_pagony(attacker)
        self.attacker = self.first_attacker = attacker
        if not self._outm and not self.teams:
            d = self.defender = (attacker + 1) % self.n
        else:
            d = self.defender = self._next_active(attacker, attacker)
        if self._beats_of:
            self._beats = self._beats_of[d]
        # (the table is empty: __init__ and _end_bout made it so)
        self._unbeaten = 0
        self._tmask = 0
        self._allowed = 0
        self._n_beaten = 0
        self._shown = 0
        self._forced_take = False
        # шулерский: the bout's cheats, wrong calls, who laid what, who was caught
        cheat = self._cheat
        if cheat is not None:
            cheat.new_bout()
        self.cap = self._cap_for(self.defender)
        self._throwers = self._thrower_order()
        self._tpos = 0
        self._phase = OPEN
        self.to_act = attacker
        assert d >= 0

    def _cap_for(self, defender: int) -> int:
        """The most attacking cards this bout may have against ``defender``: their hand
        size now, the bout limit, and in the first bout the first-bout limit."""
        cap = _count(self._hands[defender])
        limit = self._bout_limit if self.bout else self._first_limit
        return cap if cap < limit else limit

    def _room(self) -> int:
        return self.cap - len(self._att)

    def _can_throw(self, seat: int) -> bool:
        return bool(self._hands[seat] & self._allowed) and self._room() > 0

    def _next_thrower(self, start: int) -> None:
        """Give the right to throw in to the first thrower from position ``start``
        who has something to add; when nobody has, the bout ends. With ``cheating``,
        once every card is beaten each thrower still in gets the turn in order (to
        call a cheat, or to cheat): the bout closes only when all have passed."""
        th = self._throwers
        cheat = self._cheat
        if cheat is not None and self._phase == THROW:
            out = self.out
            for i in range(start, len(th)):
                if not out[th[i]]:
                    self._tpos = i
                    self.to_act = th[i]
                    return
            self._end_bout(taken=False)
            return
        allowed = self._allowed
        if allowed and self.cap > len(self._att):
            hands = self._hands
            # (шулерский: a caught cheater throws in no more)
            barred = cheat.barred if cheat is not None else 0
            for i in range(start, len(th)):
                if hands[th[i]] & allowed and not barred >> th[i] & 1:
                    self._tpos = i
                    self.to_act = th[i]
                    return
        if self._phase == PILE:
            self._end_bout(taken=True)
        else:
            self._end_bout(taken=False)

    def _lay_attack(self, seat: int, mask: int) -> None:
        hands, known = self._hands, self._known
        hands[seat] = hands[seat] & ~mask
        known[seat] = known[seat] & ~mask
        low = mask & -mask
        if low == mask:  # one card, the common case
            self._att.append(mask.bit_length() - 1)
            self._beat.append(-1)
        else:
            m = mask
            while m:
                low = m & -m
                self._att.append(low.bit_length() - 1)
                self._beat.append(-1)
                m ^= low
        if self._table_ranks:
            self._allowed |= RANK_MASK[((mask & -mask).bit_length() - 1) // 4 + 2]
        self._unbeaten |= mask
        self._tmask |= mask
        self._last_lay[seat] = mask
        if self._pagon:
            self._last_att = (seat, mask, self.defender)
            if mask & self._no_open[seat]:
                # pagony_attack=off: a defender attacked with a pagon card must take it
                self._forced_take = True
        if not self._hands[seat]:
            self._check_out(seat)

    def _lay_beat(self, seat: int, m: int, target: int) -> None:
        """The card ``m`` laid on the attacking card ``target`` (a defence, or a false
        beat); once every card is beaten, the throwers have their turn."""
        self._hands[seat] &= ~m
        self._known[seat] &= ~m
        self._beat[self._att.index(target)] = m.bit_length() - 1
        self._unbeaten &= ~(1 << target)
        self._n_beaten += 1
        self._tmask |= m
        self._last_lay[seat] = m
        if not self._hands[seat]:
            self._check_out(seat)
        if not self._unbeaten:
            self._phase = THROW
            self._next_thrower(0)

    def _check_out(self, seat: int) -> None:
        if not self._hands[seat] and self.talon_size == 0 and not self.out[seat]:
            self.out[seat] = True
            self._outm |= 1 << seat
            self.out_order.append(seat)

    def _end_bout(self, taken: bool, to: int = -1) -> None:
        """The bout ends: the defender takes the table, or it is beaten off (``to``: a
        seat that takes it instead of the discard, шулерский's wrong call)."""
        table = self._tmask
        d = self.defender
        if taken or to >= 0:
            hands, known = self._hands, self._known
            t = d if taken else to
            hands[t] = hands[t] | table
            known[t] = known[t] | table
        else:
            self._discard |= table
        self._att = []
        self._beat = []
        self._unbeaten = 0
        self._tmask = 0
        self.bout += 1
        self._draw()
        n = self.n
        if self.out_order:
            active = [s for s in range(n) if not self.out[s]]
            if len(active) <= 1 or (self.teams and len({s % 2 for s in active}) == 1):
                self._finish(active)
                return
        if taken:
            nxt = self._next_active(d, d)
        elif not self.out[d]:
            nxt = d
        else:
            nxt = -1
            if self.teams:
                mates = ((d + i) % n for i in range(2, n + 1, 2))
                nxt = next((s for s in mates if not self.out[s]), -1)
            if nxt < 0:
                nxt = self._next_active(d)
        self._start_bout(nxt)

    def _draw(self) -> None:
        hs, n, d, fa = self.hand_size, self.n, self.defender, self.first_attacker
        order = DRAW_ORDER[n][fa][d]
        if self._tp >= len(self._talon) and self._bottom < 0:
            for s in order:
                self._check_out(s)
            return
        talon = self._talon
        hands = self._hands
        for s in order:
            # (a hand read once and written once: list items are boxed ints)
            h = hands[s]
            need = hs - _count(h)
            if need <= 0 or self.out[s]:
                continue
            tp = self._tp
            top = tp + need if tp + need < len(talon) else len(talon)
            for i in range(tp, top):
                h |= 1 << talon[i]
            self._tp = top
            bottom = self._bottom
            if tp + need > top and bottom >= 0:
                # the face-up trump, drawn last: everyone saw it go into this hand
                h |= 1 << bottom
                self._known[s] = self._known[s] | 1 << bottom
                self._bottom = -1
            hands[s] = h
        if self.talon_size == 0:
            for s in order:
                self._check_out(s)

    def _finish(self, active: list[int]) -> None:
        """The deal is over, ``active`` still holding cards: who lost (:mod:`durak.outcome`)."""
        self._phase = OVER
        self.to_act = None
        r, out_order = self.rules, self.out_order
        durak, draw, losers = loser(
            r, active, out_order, self.tally, self._hands, self.first_attacker
        )
        pogony = 0
        if durak is not None and out_order:
            pogony = (self._last_lay[out_order[-1]] & _SIX_MASK).bit_count()
        pagony = (self._pagon, self._pagon_mask, self._last_att)
        hung, hung_cards = hung_pagony(r, pagony, self.out, self._last_lay, durak)
        self.outcome = Outcome(
            hung=hung,
            hung_cards=hung_cards,
            durak=durak,
            draw=draw,
            out_order=tuple(out_order),
            pogony=pogony,
            tally=tuple(self.tally),
            losers=losers,
            losing_team=(durak % 2 if self.teams and durak is not None else None),
        )

    # -- legal actions -------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of ``to_act``, in a fixed order; empty when over."""
        cached = self._legal
        if cached is None:
            cached = self._legal = self._generate()
        return cached[:]  # a copy: the cache is what apply checks against

    def _generate(self) -> list[Action]:
        ph = self._phase
        if ph == OVER:
            return []
        seat = self.to_act
        assert seat is not None
        hand = self._hands[seat]
        out: list[Action] = []
        if ph == DEFENCE:
            if self._forced_take:
                return [_TAKE]
            beats = self._beats
            unbeaten = self._unbeaten
            for t in self._att:
                if unbeaten >> t & 1:
                    m = hand & beats[t]
                    row = _DEFENDS[t]
                    while m:
                        low = m & -m
                        out.append(row[low.bit_length() - 1])
                        m ^= low
            if self._transfer_on and not self._n_beaten:
                self._transfers(seat, hand, out)
            out.append(_TAKE)
        else:
            if ph == OPEN:
                limit = self.cap if self.cap < self._open_max else self._open_max
                m = hand & ~self._no_open[seat] or hand
            else:
                limit = self.cap - len(self._att)
                m = hand & self._allowed
                cheat = self._cheat
                if cheat is not None and cheat.is_barred(seat):
                    m = 0  # шулерский: caught cheating this bout
            if limit > 4:
                limit = 4
            while m:
                base = ((m & -m).bit_length() - 1) >> 2
                out += _GROUPS[base][(m >> (base << 2)) & 15][limit]
                m &= ~(15 << (base << 2))
            if ph != OPEN:
                out.append(_PASS)
        if (
            self._exchange_on
            and self._bottom >= 0
            and hand >> self._lowest_trump & 1
            and self._bottom & 3 == self.trump_suit  # (a fixed trump: a trump is turned)
        ):
            out.append(make(EXCHANGE, 1 << self._lowest_trump, -1))
        return out

    def _transfers(self, seat: int, hand: int, out: list[Action]) -> None:
        r = self.rules
        if self.bout == 0 and not r.transfer_first_bout:
            return
        rank_base = self._att[0] & ~3
        g = (hand >> rank_base) & 15
        if not g:
            return
        nd = self._next_active(seat, seat)
        if nd < 0 or nd == seat:
            return
        n_att = len(self._att)
        nd_cards = self._hands[nd].bit_count()
        room = self._cap_for(nd) - n_att
        if room > 0:
            out += _TGROUPS[rank_base >> 2][g][min(room, 4)]
        trump_card = rank_base + self.trump_suit
        if (
            r.transfer_by_showing
            and hand >> trump_card & 1
            and not self._shown >> seat & 1
            and n_att <= nd_cards
        ):
            out.append(_SHOWS[trump_card])

    # -- шулерский (docs/rules.md 11) ------------------------------------------------------
    def cheats(self) -> list[Action]:
        """With ``cheating``: the cheat moves ``to_act`` may make now, apart from
        :meth:`legal_actions` (an honest player never sees them; :meth:`all_moves` has
        an example). A false beat: any card of the hand laid on an unbeaten attacking
        card it does not beat; a false throw-in: one card of a rank not on the table, by
        a thrower who has the turn, within the bout's limits."""
        cheat = self._cheat
        seat = self.to_act
        if cheat is None or seat is None:
            return []
        hand = self._hands[seat]
        if self._phase == DEFENCE:
            if self._forced_take:
                return []
            return cheat.false_beats(hand, self._att, self._unbeaten, self._beats)
        if self._phase == THROW and self.rules.throw_in != "none" and self._room() > 0:
            return cheat.false_throws(seat, hand, self._allowed)
        return []

    def calls(self) -> list[Action]:
        """With ``cheating``: the calls ``to_act`` may make now: any card on the table
        that another seat laid this bout and nobody has called yet, cheat or not (a
        list of only the real cheats would tell which they are). Lowest card first."""
        cheat = self._cheat
        seat = self.to_act
        if cheat is None or seat is None or not self._tmask:
            return []
        return cheat.calls(seat, self._tmask)

    def all_moves(self) -> list[Action]:
        """Every move ``to_act`` may make: :meth:`moves`, then with ``cheating`` its
        :meth:`cheats` and :meth:`calls` (what :meth:`is_legal` and :meth:`apply` take).
        Without ``cheating`` this is the engine's own list, as :meth:`moves`: read it,
        never change it.

        >>> deck = "9S 6C 8S 7C 7S 8D QS 9H KS 10H 10D JH 6H"
        >>> g = Game(Rules.preset("shulerskiy"), deck=deck, dealer=1, leader=0)
        >>> g.apply("9♠"); [str(a) for a in g.cheats()]
        ['~9♠/6♣', '~9♠/7♣', '~9♠/8♦']
        >>> g.apply("~9♠/6♣"); [str(a) for a in g.all_moves()]
        ['pass', '~7♠', '~8♠', '~10♦', '~Q♠', '~K♠', '?6♣']
        """
        moves = self.moves()
        if self._cheat is None:
            return moves
        return moves + self.cheats() + self.calls()

    def _lay_cheat(self, cheat: Cheating, seat: int, m: int, target: Card | None) -> None:
        """A cheat laid (docs/rules.md 11): like a defence or a throw-in, but its card
        opens no rank for throwing in, and it stands only if nobody calls it."""
        cheat.mark(m)
        if target is None:
            allowed = self._allowed
            self._lay_attack(seat, m)
            self._allowed = allowed
            self._phase = DEFENCE
            self.to_act = self.defender
            return
        self._lay_beat(seat, m, target.index)

    def _call(self, cheat: Cheating, seat: int, card: int) -> None:
        """A call on ``card``: the cheating component's verdict, carried out."""
        verdict = cheat.verdict(seat, card, self.defender, self._beat)
        if verdict == FALSE_THROW:
            self._take_back(cheat, card)
        elif verdict == FALSE_BEAT:
            # the cheating defender takes the table at once (in again, if that card was
            # its last)
            self._back_in(self.defender)
            self._end_bout(taken=True)
        elif verdict == DEFENDER_TAKES:
            self._end_bout(taken=True)
        elif verdict == CALLER_TAKES:
            self._end_bout(taken=False, to=seat)

    def _take_back(self, cheat: Cheating, card: int) -> None:
        """A false throw-in caught (P): it goes back, with the card laid on it, and its
        thrower throws in no more this bout."""
        bit = 1 << card
        i = self._att.index(card)
        b = self._beat[i]
        del self._att[i]
        del self._beat[i]
        owner = cheat.owner(bit)
        self._give_back(cheat, owner, bit)
        if b >= 0:
            self._give_back(cheat, self.defender, 1 << b)
            self._n_beaten -= 1
        self._unbeaten &= ~bit
        cheat.bar(owner)
        if self._table_ranks:
            self._allowed = cheat.honest_ranks(self._att + self._beat)
        if self._phase == PILE:
            self._next_thrower(0)
        elif self._unbeaten:
            self._phase = DEFENCE
            self.to_act = self.defender
        else:
            self._phase = THROW
            self._next_thrower(0)

    def _give_back(self, cheat: Cheating, seat: int, bit: int) -> None:
        """A card goes back from the table to the hand it came from, seen by all."""
        self._hands[seat] |= bit
        self._known[seat] |= bit
        self._tmask &= ~bit
        cheat.give_back(seat, bit)
        self._back_in(seat)

    def _back_in(self, seat: int) -> None:
        """A seat that went out with a cheat card, which comes back to it: in again."""
        if self.out[seat]:
            self.out[seat] = False
            self._outm &= ~(1 << seat)
            self.out_order.remove(seat)

    def legal_action_mask(self) -> list[bool]:
        """One flag per action index of ``rules.num_actions``."""
        enc = encoding(self.rules)
        mask = [False] * enc.size
        for a in self.legal_actions():
            mask[enc.index_of(a)] = True
        return mask

    def is_legal(self, action: Action | str | object) -> bool:
        """Whether ``to_act`` may play ``action`` now: what :meth:`apply` takes (an
        Action or its notation) without raising. Text that is no action is not legal."""
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except IllegalActionError:
                return False
        return action in self.all_moves()

    # -- applying --------------------------------------------------------------------
    def apply(self, action: Action | str | object) -> None:
        """Play ``action`` (or its notation) for ``to_act``.

        Raises IllegalActionError, saying why, and leaves the game as it was.
        """
        # (``object``: the compiled engine would refuse a wrong type before this check
        # could name the argument)
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(action, Action):
            raise IllegalActionError(
                f"not an action: {action!r} (an Action or its text, e.g. 'take')"
            )
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        # (actions are interned and equal only to themselves: an identity loop, not
        # ``in``, which asks each action before the match to compare itself)
        for x in legal:
            if x is action:
                self._apply(action)
                return
        if self._cheat is not None and action in self.all_moves():
            self._apply(action)
            return
        if self.to_act is None:  # (no move for anyone: the one error for that)
            raise TurnError(self._reason(action))
        raise IllegalActionError(self._reason(action))

    # C901: one branch per action kind, flat: the engine's hottest function
    def _apply(self, a: Action) -> None:  # noqa: C901
        """Apply an action known to be legal."""
        self._legal = None
        self.history.append(a)
        k: int = a.kind
        m: int = a.cards  # unboxed once: the compiled engine then works on a plain int
        seat = self.to_act
        assert seat is not None
        cheat = self._cheat
        if cheat is not None and (k <= TRANSFER or k == CHEAT):
            cheat.lay(seat, m)  # (who laid each table card: a call names another's)
        if k == DEFEND:
            target = a.target
            assert target is not None
            if self._table_ranks:
                self._allowed |= RANK_MASK[(m.bit_length() - 1) // 4 + 2]
            self._lay_beat(seat, m, target.index)
        elif k == ATTACK:
            if self._opening_rank and self._phase == OPEN:
                self._allowed = RANK_MASK[(m.bit_length() - 1) // 4 + 2]
            self._lay_attack(seat, m)
            if self._pogonny:
                self.tally[seat] += m.bit_count() // 2
            if self._phase == PILE:
                if not self._can_throw(seat):
                    self._next_thrower(self._tpos + 1)
            else:
                self._phase = DEFENCE
                self.to_act = self.defender
        elif k == TAKE:
            if self._pile_on:
                self._phase = PILE
                self._next_thrower(0)
            else:
                self._end_bout(taken=True)
        elif k == PASS:
            self._next_thrower(self._tpos + 1)
        elif k in (TRANSFER, SHOW):
            self._pass_on(seat, k, m)
        elif k == EXCHANGE:
            self._exchange(seat)
        elif cheat is not None:  # шулерский: a cheat, or a call
            if k == CHEAT:
                self._lay_cheat(cheat, seat, m, a.target)
            else:
                self._call(cheat, seat, m.bit_length() - 1)
        if self._action_limit and len(self.history) >= self._action_limit and self._phase != OVER:
            self._truncate()

    def _pass_on(self, seat: int, k: int, m: int) -> None:
        """A transfer (``m`` laid) or a trump shown (проездной): ``seat`` passes the
        attack on to the next defender."""
        nd = self._next_active(seat, seat)
        if k == TRANSFER:
            self._lay_attack(seat, m)
            self._last_att = (seat, m, nd)
        else:
            self._shown |= 1 << seat
            self._known[seat] |= m
        self.attacker = seat
        self.defender = nd
        if self._beats_of:
            self._beats = self._beats_of[nd]
        self.cap = self._cap_for(self.defender)
        self._throwers = self._thrower_order()
        self.to_act = nd

    def _exchange(self, seat: int) -> None:
        """The lowest trump swapped for the face-up trump under the talon."""
        lt = self._lowest_trump
        self._hands[seat] = (self._hands[seat] & ~(1 << lt)) | (1 << self._bottom)
        self._known[seat] |= 1 << self._bottom
        self._known[seat] &= ~(1 << lt)
        self._bottom = lt
        self._trump_card = lt

    def _truncate(self) -> None:
        """``action_limit`` reached (RULES.md 5): the deal ends, cut off, with no durak."""
        self._phase = OVER
        self.to_act = None
        self.outcome = Outcome(
            durak=None,
            draw=True,
            truncated=True,
            out_order=tuple(self.out_order),
            tally=tuple(self.tally),
            losers=tuple(s for s in range(self.n) if not self.out[s]),
        )

    def why_illegal(self, action: Action | str | object) -> str | None:
        """Why ``to_act`` may not play ``action`` (or its notation) now, in words; None
        when it may (a cheat or a call included, with ``cheating``). What :meth:`apply`
        would raise, without playing: the game is not changed.

        >>> g = Game(Rules(), deck="6S 7S 8S 9S 10S JS 6H 7H 8H 9H 10H JH QS", dealer=1)
        >>> g.why_illegal("6♠") is None
        True
        >>> g.why_illegal("7♠")
        '7♠: seat 0 does not hold 7♠'
        >>> g.apply("6♠"); g.why_illegal("6♠/7♥")
        '6♠/7♥: 7♥ does not beat 6♠ (trump ♠)'
        """
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except IllegalActionError as e:
                return str(e)
        if not isinstance(action, Action):
            return f"not an action: {action!r} (an Action or its text, e.g. 'take')"
        if action in self.all_moves():
            return None
        return self._reason(action)

    def _reason(self, action: Action) -> str:
        """Why an action not among :meth:`all_moves` is refused (:mod:`durak.reasons`)."""
        seat = self.to_act
        if seat is None:
            return "the deal is over"
        return why_illegal(self.view(seat), self.rules, action, self.moves())

    # -- copies, undo, views ---------------------------------------------------------
    def clone(self) -> Game:
        """A copy that shares nothing mutable with this game."""
        g = Game(self.rules, _blank=True)
        self._copy_to(g)
        return g

    def fresh(self) -> Game:
        """The same deal, at its start. A game rebuilt by :meth:`from_view` starts where
        it was rebuilt: its fresh copy is that position again, with the same cards."""
        origin = self._origin
        if origin is not None:
            obs, hands, talon, before = origin
            return Game.from_view(obs, list(hands), talon, before)
        return Game(
            self.rules,
            seed=self.seed,
            deck=self.deck,
            dealer=self.dealer,
            leader=self.leader,
            pagon=self._pagon if self._pagon else None,
        )

    def undo(self) -> Action:
        """Take back the last action and return it."""
        origin = self._origin
        start = len(origin[3]) if origin is not None else 0
        if len(self.history) <= start:
            if origin is not None:
                raise IllegalActionError(
                    "nothing to undo: this game was rebuilt from one seat's view "
                    f"(Game.from_view, determinize.sample) after {start} actions, "
                    "and cannot go back past them"
                )
            raise IllegalActionError("nothing to undo")
        last = self.history[-1]
        g = self.fresh()
        for a in self.history[start:-1]:
            g.play(a)
        Game._copy_to(g, self)
        return last

    # -- the seat view and the declared fast path ----------------------------------------
    # Searchers, rollouts, the solver and the environments play millions of moves; these
    # give them the engine's own move list, its unchecked move and its state as ints,
    # without copies or checks. Nothing outside the engine reads a Game's private fields.
    def moves(self) -> list[Action]:
        """The legal actions, as :meth:`legal_actions` lists them, but the engine's own
        list, not a copy: read it, never change it (fast path: searchers and rollouts).

        >>> g = Game(Rules(), seed=3)
        >>> g.moves() == g.legal_actions()
        True
        """
        cached = self._legal
        if cached is None:
            cached = self._legal = self._generate()
        return cached

    def play(self, action: Action) -> None:
        """Play ``action``, taken from this position's :meth:`moves`, without checking
        it (fast path: an action that is not legal here leaves a broken game; the
        public :meth:`apply` checks).

        >>> g = Game(Rules(), seed=3)
        >>> g.play(g.moves()[0]); len(g.history)
        1
        """
        self._apply(action)

    def observation(self, seat: object) -> Observation:
        """What ``seat`` may know, and nothing else (:meth:`view`, as cards)."""
        seat = check_seat("seat", seat, self.n)
        if seat != self.to_act:
            return self._observe(seat, [], [], [])
        return self._observe(seat, self.legal_actions(), self.cheats(), self.calls())

    @staticmethod
    def from_view(
        obs: Observation,
        hands: list[int],
        talon: Sequence[int],
        before: Sequence[Action] | None = None,
    ) -> Game:
        """The full game that ``obs`` shows, with the hidden cards placed: ``hands``
        every seat's hand (a list the game keeps), ``talon`` the talon top first
        (:func:`durak.determinize.sample` deals them). ``before``: the public actions
        that led here, kept as its ``history``.

        The game keeps its whole API: :meth:`fresh` gives this position again,
        :meth:`undo` goes back to it (not past it); :meth:`record` refuses, as a record
        replays a deal from its shuffle.

        >>> g = Game(Rules(), seed=2)
        >>> d = Game.from_view(g.observation(0), [int(h) for h in g.hands], g.undrawn())
        >>> d.observation(0) == g.observation(0), d.fresh().observation(1) == g.observation(1)
        (True, True)
        """
        g = Game(obs.rules, _blank=True)
        g._restore(obs, hands, talon, before if before is not None else ())
        return g

    def record(self, names: Iterable[str] | None = None, **headers: str) -> str:
        """The deal as text a person can read; ``Game.from_record`` replays it. A game
        rebuilt mid-deal by :meth:`from_view` has no shuffle to record: RecordError."""
        if self._origin is not None:
            raise RecordError(
                "record: this game was rebuilt mid-deal from one seat's view "
                "(Game.from_view, determinize.sample); a record replays a deal from its start"
            )
        return write_record(self, names, headers)

    @staticmethod
    def from_record(text: object) -> Game:
        """The game a record (:meth:`record`) describes, replayed move by move."""
        return read_record(text, Game)  # which refuses what is not text

    def __repr__(self) -> str:
        return f"<Game {self.rules} seed={self.seed} bout={self.bout} to_act={self.to_act}>"


def _count(m: int) -> int:
    """``m.bit_count()`` for a card mask (below 2**60), in compiled integer operations
    (``int.bit_count`` is a method call for compiled code: this is several times faster).

    >>> _count(0), _count(0b1011), _count((1 << 52) - 1)
    (0, 3, 52)
    """
    m -= (m >> 1) & 0x555555555555555
    m = (m & 0x333333333333333) + ((m >> 2) & 0x333333333333333)
    m = (m + (m >> 4)) & 0xF0F0F0F0F0F0F0F
    m += m >> 8
    m += m >> 16
    m += m >> 32
    return m & 127


# Interned actions looked up by the hot path without building keys.
_TAKE: Final = make(TAKE, 0, -1)
# _DEFENDS[target][card]: the defence laying card on target.
_DEFENDS: Final = tuple(
    # (a card never beats itself: that slot holds a placeholder never looked up)
    tuple(make(DEFEND, 1 << c, t) if c != t else _TAKE for c in range(52))
    for t in range(52)
)
# _GROUPS[rank][suits][limit]: attacks with the non-empty subsets of those suits of that
# rank (ranks counted from 2 as 0), at most ``limit`` cards each.
_GROUPS: Final = tuple(
    tuple(
        tuple(
            tuple(make(ATTACK, sub << (4 * r), -1) for sub in SUBSETS[g] if sub.bit_count() <= lim)
            for lim in range(5)
        )
        for g in range(16)
    )
    for r in range(13)
)
_TGROUPS: Final = tuple(
    tuple(
        tuple(
            tuple(
                make(TRANSFER, sub << (4 * r), -1) for sub in SUBSETS[g] if sub.bit_count() <= lim
            )
            for lim in range(5)
        )
        for g in range(16)
    )
    for r in range(13)
)
_SHOWS: Final = tuple(make(SHOW, 1 << c, -1) for c in range(52))
_PASS: Final = make(PASS, 0, -1)
# Thrower orders, per (throwers, teams, players), keyed by attacker | defender << 3 |
# out-mask << 6: shared by every game with those rules.
