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

import _random  # random.Random's C base: seeded alike, without its interpreted frames
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeGuard

from .actions import (
    ATTACK,
    CALL,
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
from .cards import (
    BEATS,
    NO_TRUMP,
    RANK_MASK,
    SUIT_MASK,
    Card,
    CardSet,
    beat_key,
    deck_mask,
    lowest_rank,
    rank_name,
)
from .checks import game_args
from .enums import Phase
from .errors import ArgumentError, ArgumentTypeError, RecordError
from .observation import LastAttack, Observation, Passed, SeatView, dataclass_reduce
from .record import read_record, write_record
from .rules import Rules
from .rules import pagon_ladder as pagon_ladder  # re-exported

# Final: the compiled engine reads these as constants, not as module globals.
OPEN: Final = 0
DEFENCE: Final = 1
THROW: Final = 2
PILE: Final = 3
OVER: Final = 4
PHASES: Final = tuple(Phase)  # indexed by the phase constants above

# SUBSETS[g]: the non-empty subsets of a 4-bit suit pattern, smallest first.
SUBSETS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted((s for s in range(1, 16) if s & g == s), key=lambda s: (s.bit_count(), s)))
    for g in range(16)
)
_SIX_MASK: Final = RANK_MASK[6]


_QUEEN_SUIT: Final = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


def pagon_cards(rules: Rules, step: int, trump: int) -> int:
    """The cards that count as pagony at this step: the non-trumps of the pagon rank,
    or the one queen of the chosen suit at the last step."""
    ladder = pagon_ladder(rules.deck)
    if step == len(ladder) - 1:
        return 1 << ((12 - 2) * 4 + _QUEEN_SUIT[rules.pagony_queen])
    return RANK_MASK[ladder[step]] & ~SUIT_MASK[trump]


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


# Game.state(): the whole state as masks and ints, in this order (a plain tuple: the
# environments make one every step, and a named tuple costs more than what it feeds).
STATE_FIELDS: Final = (
    "hands",
    "known",
    "attacks",
    "beats",
    "unbeaten",
    "table",
    "discard",
    "trump_card",
    "trump_under_talon",
    "talon_size",
    "out",
    "to_act",
    "attacker",
    "defender",
    "phase",
    "cap",
    "bout",
    "tally",
    "shown",
    "forced_take",
)
State = tuple[
    list[int],
    list[int],
    list[int],
    list[int],
    int,
    int,
    int,
    int,
    bool,
    int,
    list[bool],
    int,
    int,
    int,
    int,
    int,
    int,
    list[int],
    int,
    bool,
]
# Where a game rebuilt by Game.from_view started: the view, every hand, the talon and
# the public actions before it (fresh() and undo() go back to it).
Origin = tuple[Observation, tuple[int, ...], tuple[int, ...], tuple[Action, ...]]


# Every field of a Game. clone() copies each one (a test checks that none is missed).
FIELDS: Final = (
    "rules",
    "seed",
    "_order",
    "dealer",
    "leader",
    "n",
    "hand_size",
    "teams",
    "_hands",
    "_talon",
    "_tp",
    "_bottom",
    "_trump_card",
    "trump_suit",
    "_lowest_trump",
    "_att",
    "_beat",
    "_unbeaten",
    "_allowed",
    "_n_beaten",
    "cap",
    "_phase",
    "to_act",
    "attacker",
    "first_attacker",
    "defender",
    "_throwers",
    "_tpos",
    "_shown",
    "bout",
    "out",
    "out_order",
    "_known",
    "_discard",
    "tally",
    "_last_lay",
    "history",
    "outcome",
    "_rng_lead",
    "_pagon",
    "_forced_take",
    "_open_max",
    "_no_open",
    "_exchange_on",
    "_tmask",
    "_table_ranks",
    "_pogonny",
    "_legal",
    "_transfer_on",
    "_outm",
    "_tcache",
    "_first_limit",
    "_pagon_mask",
    "_last_att",
    "_passed",
    "_opening_rank",
    "_action_limit",
    "_origin",
    "_bout_limit",
    "_pile_on",
    "_beats",
    "_cheating",
    "_cheats",
    "_called",
    "_laid",
    "_barred",
    "_trumps",
    "_beats_of",
)


class Game:
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

    __slots__ = FIELDS

    rules: Rules
    _hands: list[int]
    to_act: int | None

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
        if not _blank:
            rules = game_args(rules, seed, dealer, leader, pagon)  # durak.checks
        if rules is None:
            rules = Rules()
        elif not isinstance(rules, Rules):
            raise TypeError(
                f"rules: a durak.Rules (Rules.parse(text) reads text), not {type(rules).__name__}"
            )
        self.rules = rules
        if _blank:
            # The one way to make a Game without dealing: clone() and from_view() fill
            # in every field themselves (compiled classes cannot skip __init__).
            return
        n = self.n = rules.players
        self.hand_size = rules.hand_size
        self.teams = rules.teams != "none"
        if seed is None:
            seed = random.randrange(2**63)
        elif not _is_int(seed):
            raise TypeError(f"seed: a whole number, not {type(seed).__name__}")
        self.seed = seed
        full = deck_mask(rules.deck)
        if deck is None:
            order = list(_CARDS_OF[rules.deck])
            _shuffle(order, _random.Random(seed))
        else:
            cards = _deck_cards(deck)
            order = [c.index for c in cards]
            bad = [str(c) for c in cards if not full >> c.index & 1]
            if bad or len(set(order)) != len(order):
                raise ArgumentError(
                    f"deck: cards must be of the {rules.deck}-card deck, each once"
                    + (f" ({' '.join(bad)} is not)" if bad else " (a card repeats)")
                )
            # A shorter deck is the top of the deck; the rest follows lowest first.
            rest = full & ~sum(1 << c for c in order)
            order += [c for c in range(52) if rest >> c & 1]
        self._order = tuple(order)
        # Lots drawn from their own generator, so that a given deck or dealer does not
        # change them: the same seed always draws the same lots.
        lots = _random.Random(seed * 2 + 1)
        lot_dealer = _randbelow(lots, n)
        if dealer is None:
            dealer = lot_dealer
        self.dealer = dealer = _check_seat("dealer", dealer, n)
        self._rng_lead = _randbelow(lots, n)
        # The deal: one card at a time, clockwise from the dealer's left.
        hands = [0] * n
        k = n * self.hand_size
        for i in range(k):
            s = (dealer + 1 + i) % n
            hands[s] = hands[s] | 1 << order[i]
        self._hands = hands
        self._known = [0] * n
        self._trumps: tuple[int, ...] = ()
        marks = 0
        if rules.trump == "per_player":
            # двухкозырный (docs/rules.md 12): a card turned from the talon for each seat,
            # clockwise from the dealer's left; it lies face up before that seat, out of
            # play, and names its trump.
            trump = -1
            turned = order[k : k + n]
            self._trumps = tuple(turned[(s - dealer - 1) % n] & 3 for s in range(n))
            marks = sum(1 << c for c in turned)
            self._talon = tuple(order[k + n :])
            self._bottom = -1
        elif rules.trump == "none":
            # бескозырный (docs/rules.md): no card is turned; the talon is all face
            # down, its last card an ordinary one.
            trump = -1
            self._talon = tuple(order[k:])
            self._bottom = -1
        elif k < len(order):
            trump = order[k]
            self._talon = tuple(order[k + 1 :])
            self._bottom = trump  # face up under the talon, drawn last
        else:
            # Every card dealt: the last one dealt names the trump and stays,
            # seen by all, in the dealer's hand.
            trump = order[k - 1]
            self._talon = ()
            self._bottom = -1
            self._known[dealer] |= 1 << trump
        self._tp = 0
        self._trump_card = trump
        self.trump_suit = trump_suit_of(rules, trump)
        self._forced_take = False
        self._derive()
        self._set_pagon(pagon)
        self._origin: Origin | None = None
        self._outm = 0
        self._tmask = 0
        self._legal: list[Action] | None = None
        self.out = [False] * n
        self.out_order: list[int] = []
        self._discard = marks  # (двухкозырный: the turned cards, face up, out of play)
        self.tally = [0] * n
        self._last_lay = [0] * n
        self._last_att = (-1, 0, -1)
        self._passed: list[tuple[int, int, int]] = []
        self.history: list[Action] = []
        self.outcome: Outcome | None = None
        self.bout = 0
        self._att: list[int] = []
        self._beat: list[int] = []
        self._laid = [0] * n
        leader = self._first_leader() if leader is None else _check_seat("leader", leader, n)
        self.leader = leader
        self._start_bout(leader)

    def _derive(self) -> None:
        """What the hot path reads from the rules and the trump, worked out once."""
        rules = self.rules
        suit = self.trump_suit
        self._lowest_trump = (lowest_rank(rules.deck) - 2) * 4 + suit if suit < NO_TRUMP else -1
        self._beats = BEATS[beat_key(suit, rules.spades_by_spades)]
        # двухкозырный: each defender beats with its own trump (``_beats`` follows it)
        self._beats_of = tuple(BEATS[beat_key(t, rules.spades_by_spades)] for t in self._trumps)
        self._open_max = {"single": 1, "one_or_two": 2}.get(rules.opening, 4)
        self._exchange_on = rules.trump_exchange
        self._table_ranks = rules.throw_in == "table_ranks"
        self._opening_rank = rules.throw_in == "opening_rank"
        self._pogonny = rules.scoring == "pogonny"
        self._transfer_on = rules.transfer
        self._first_limit = min(rules.bout_limit, rules.first_bout_limit)
        self._tcache = _thrower_cache(rules)
        self._action_limit = rules.action_limit
        self._bout_limit = rules.bout_limit
        self._pile_on = rules.pile_on
        self._cheating = rules.cheating != "off"

    # -- pagony ---------------------------------------------------------------
    def _set_pagon(self, steps: Sequence[int] | None) -> None:
        """Pagony (RULES.md 7): each side's step on the ladder of pagon ranks."""
        r, n = self.rules, self.n
        self._pagon: tuple[int, ...] = ()
        self._pagon_mask = [0] * n
        self._no_open = [0] * n
        if r.scoring != "pagony":
            if steps is not None:
                raise ValueError("pagon: only for scoring=pagony")
            return
        ladder = pagon_ladder(r.deck)
        steps = tuple(steps) if steps is not None else (0,) * r.sides
        if len(steps) != r.sides or not all(0 <= x < len(ladder) for x in steps):
            raise ValueError(f"pagon: one step 0..{len(ladder) - 1} per side ({r.sides} sides)")
        self._pagon = steps
        for seat in range(n):
            self._pagon_mask[seat] = pagon_cards(r, steps[r.team_of(seat)], self.trump_suit)
        if not r.pagony_attack:
            self._no_open = self._pagon_mask[:]

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

    def _hung(self, durak: int | None) -> tuple[int | None, int]:
        """The side that hung its pagony with the deal's last attack, and how many cards.

        The attacker must have gone out with that attack, onto a member of the losing
        side; whether the loser then beat the cards or took them does not matter
        (docs/rules.md, pagony 3)."""
        if not self._pagon or durak is None:
            return None, 0
        seat, mask, defender = self._last_att
        if seat < 0 or not self.out[seat] or self._last_lay[seat] != mask:
            return None, 0
        r = self.rules
        side, losing = r.team_of(seat), r.team_of(durak)
        if side == losing or r.team_of(defender) != losing:
            return None, 0
        pm = self._pagon_mask[seat]
        step = self._pagon[side]
        if step == len(pagon_ladder(r.deck)) - 1:
            ok = mask == pm
        else:
            # all of the pagon rank, at least one of them not a trump
            ok = not mask & ~(pm | RANK_MASK[pagon_ladder(r.deck)[step]]) and bool(mask & pm)
        return (side, mask.bit_count()) if ok else (None, 0)

    # -- who leads -----------------------------------------------------------
    def _first_leader(self) -> int:
        if self._trumps:
            return self._first_leader_own_trumps()
        best, who = 99, -1
        tmask = SUIT_MASK[self.trump_suit]
        for s, h in enumerate(self._hands):
            t = h & tmask
            if t:
                low = (t & -t).bit_length()
                if low < best:
                    best, who = low, s
        if who >= 0:
            return who
        if self.rules.no_trump_lead == "lowest_card":
            return min(range(self.n), key=lambda s: (self._hands[s] & -self._hands[s]).bit_length())
        return self._rng_lead

    def _first_leader_own_trumps(self) -> int:
        """двухкозырный: the holder of the lowest card of its own trump suit, by rank
        (docs/rules.md 12); a tie or nobody: ``no_trump_lead``."""
        lows = []
        for s, h in enumerate(self._hands):
            t = h & SUIT_MASK[self._trumps[s]]
            if t:
                lows.append(((t & -t).bit_length() - 1) // 4)
            else:
                lows.append(99)
        best = min(lows)
        if best < 99 and lows.count(best) == 1:
            return lows.index(best)
        if self.rules.no_trump_lead == "lowest_card":
            return min(range(self.n), key=lambda s: (self._hands[s] & -self._hands[s]).bit_length())
        return self._rng_lead

    # -- seats ---------------------------------------------------------------
    def _next_active(self, seat: int, opponent_of: int | None = None) -> int:
        """The next active seat clockwise (to the left) after ``seat``; with teams
        and ``opponent_of`` given, the next active opponent of that seat. -1 if none."""
        n = self.n
        for i in range(1, n + 1):
            s = (seat + i) % n
            if self.out[s]:
                continue
            if opponent_of is not None and self.teams and (s - opponent_of) % 2 == 0:
                continue
            if s == seat and opponent_of is None:
                return -1
            return s
        return -1

    def _defender_for(self, attacker: int) -> int:
        if not self._outm and not self.teams:
            return (attacker + 1) % self.n
        return self._next_active(attacker, attacker if self.teams else None)

    def _make_throwers(self) -> tuple[int, ...]:
        """Who may throw in, in the order of their right: the opening attacker, then
        clockwise from the defender's left."""
        d, a, n = self.defender, self.attacker, self.n
        key = a | d << 3 | self._outm << 6
        cached = self._tcache.get(key)
        if cached is not None:
            return cached
        mode = self.rules.throwers
        if mode == "attacker":
            return (a,)
        if mode == "neighbours":
            left = self._next_active(d)
            right = next(((d - i) % n for i in range(1, n) if not self.out[(d - i) % n]), -1)
            ok = {left, right} - {d, -1}
        else:
            ok = {s for s in range(n) if not self.out[s] and s != d}
        if self.teams:
            ok = {s for s in ok if (s - d) % 2}
        order = [a] if a in ok else []
        for i in range(1, n):
            s = (d + i) % n
            if s in ok and s != a:
                order.append(s)
        result = self._tcache[key] = tuple(order)
        return result

    # -- bouts -----------------------------------------------------------------
    def _start_bout(self, attacker: int) -> None:
        if self._pagon and self.teams:
            attacker = self._pass_pagony(attacker)
        self.attacker = self.first_attacker = attacker
        d = self.defender = self._defender_for(attacker)
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
        self._cheats = 0
        self._called = 0
        self._barred = 0
        if self._cheating:
            self._laid = [0] * self.n
        self._set_cap()
        self._throwers = self._make_throwers()
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

    def _set_cap(self) -> None:
        self.cap = self._cap_for(self.defender)

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
        if self._cheating and self._phase == THROW:
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
            barred = self._barred  # (шулерский: a caught cheater throws in no more)
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
            nxt = self._next_active(d, d if self.teams else None)
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
        if self._tp >= len(self._talon) and self._bottom < 0:
            order = _DRAW_ORDER[n][fa][d]
            for s in order:
                self._check_out(s)
            return
        order = _DRAW_ORDER[n][fa][d]
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
        self._phase = OVER
        self.to_act = None
        r = self.rules
        losers = tuple(active)
        durak: int | None
        draw = False
        if r.scoring == "pogonny":
            # Fewest pogony loses; ties: who kept cards longest.
            order = self.out_order + [s for s in losers]
            last = {s: i for i, s in enumerate(order)}
            durak = min(range(self.n), key=lambda s: (self.tally[s], -last[s]))
            # The tally, not the cards, decides: the losing side is the durak's (issue 30:
            # losers named the seats left holding cards, another side than losing_team).
            losers = tuple(s for s in range(self.n) if r.team_of(s) == r.team_of(durak))
        elif not losers:
            if r.draws:
                durak, draw = None, True
            else:
                # The defender beat everything off: the one who opened the last bout loses.
                durak = self.first_attacker
        elif len(losers) == 1:
            durak = losers[0]
        else:
            # Team play: the side left holding cards loses; its member with the most
            # cards is named the durak.
            durak = max(losers, key=lambda s: (self._hands[s].bit_count(), -s))
        pogony = 0
        if durak is not None and self.out_order:
            pogony = (self._last_lay[self.out_order[-1]] & _SIX_MASK).bit_count()
        hung, hung_cards = self._hung(durak)
        self.outcome = Outcome(
            hung=hung,
            hung_cards=hung_cards,
            durak=durak,
            draw=draw,
            out_order=tuple(self.out_order),
            pogony=pogony,
            tally=tuple(self.tally),
            losers=losers,
            losing_team=(durak % 2 if self.teams and durak is not None else None),
        )

    # -- public state ------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def trump(self) -> Card | None:
        """The turned card: face up under the talon (or drawn from there); None when
        no card is turned (``trump=none``). With a fixed trump suit (``trump=diamonds``)
        it need not be of the trump suit: :attr:`trump_suit` is the trump."""
        return Card.from_index(self._trump_card) if self._trump_card >= 0 else None

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole deck in dealing order (empty for a game rebuilt by :meth:`from_view`)."""
        return tuple([Card.from_index(c) for c in self._order])

    @property
    def talon_size(self) -> int:
        return len(self._talon) - self._tp + (self._bottom >= 0)

    @property
    def table(self) -> list[tuple[Card, Card | None]]:
        """Pairs of attacking card and the card that beat it (None while unbeaten)."""
        return [
            (Card.from_index(a), Card.from_index(b) if b >= 0 else None)
            for a, b in zip(self._att, self._beat, strict=True)
        ]

    @property
    def discard(self) -> CardSet:
        """The cards beaten off, out of play."""
        return CardSet(self._discard)

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Every seat's hand: ``hands[seat]`` iterates that hand's Cards, lowest first."""
        return tuple(CardSet(h) for h in self._hands)

    def hand(self, seat: object) -> CardSet:
        seat = _check_seat("seat", seat, self.n)
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

        >>> Game(Rules.preset("pagony"), seed=1, pagon=[2, 0]).pagon
        (2, 0)
        """
        return self._pagon

    @property
    def passed(self) -> tuple[Passed, ...]:
        """Pagony passed openly to a partner (team pagony), in order."""
        return tuple(Passed(a, b, CardSet(m)) for a, b, m in self._passed)

    @property
    def phase(self) -> Phase:
        """``attack``, ``defend``, ``throw_in``, ``pile_on`` or ``over``, as in
        :class:`Observation`."""
        return PHASES[self._phase]

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
                if self._barred >> seat & 1:
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
        nd = self._next_active(seat, seat if self.teams else None)
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
        :meth:`legal_actions` (an honest player never sees them). A false beat: any card
        of the hand laid on an unbeaten attacking card it does not beat; a false
        throw-in: one card of a rank not on the table, by a thrower who has the turn,
        within the bout's limits. Empty without ``cheating``.

        >>> deck = "9S 6C 8S 7C 7S 8D QS 9H KS 10H 10D JH 6H"
        >>> g = Game(Rules.preset("shulerskiy"), deck=deck, dealer=1, leader=0)
        >>> g.apply("9♠"); [str(a) for a in g.cheats()]
        ['~9♠/6♣', '~9♠/7♣', '~9♠/8♦']
        """
        if not self._cheating or self._phase == OVER:
            return []
        seat = self.to_act
        assert seat is not None
        hand = self._hands[seat]
        out: list[Action] = []
        if self._phase == DEFENCE:
            if self._forced_take:
                return out
            beats = self._beats
            for t in self._att:
                if self._unbeaten >> t & 1:
                    m = hand & ~beats[t]
                    while m:
                        low = m & -m
                        out.append(make(CHEAT, low, t))
                        m ^= low
        elif (
            self._phase == THROW
            and self.rules.throw_in != "none"
            and not self._barred >> seat & 1
            and self._room() > 0
        ):
            m = hand & ~self._allowed
            while m:
                low = m & -m
                out.append(make(CHEAT, low, -1))
                m ^= low
        return out

    def calls(self) -> list[Action]:
        """With ``cheating``: the calls ``to_act`` may make now: any card on the table
        that another seat laid this bout and nobody has called yet, cheat or not (a
        list of only the real cheats would tell which they are). Lowest card first.

        >>> deck = "9S 6C 8S 7C 7S 8D QS 9H KS 10H 10D JH 6H"
        >>> g = Game(Rules.preset("shulerskiy"), deck=deck, dealer=1, leader=0)
        >>> g.apply("9♠"); g.apply("~9♠/6♣"); [str(a) for a in g.calls()]
        ['?6♣']
        """
        if not self._cheating or self._phase == OVER or not self._tmask:
            return []
        seat = self.to_act
        assert seat is not None
        m = self._tmask & ~self._laid[seat] & ~self._called
        out: list[Action] = []
        while m:
            low = m & -m
            out.append(make(CALL, low, -1))
            m ^= low
        return out

    def _call(self, seat: int, card: int) -> None:
        """A call on ``card``: a cheat caught, or a wrong call (docs/rules.md 11)."""
        bit = 1 << card
        if not self._cheats & bit:
            # A wrong call: the caller takes the table (D, V), or nothing happens (P).
            if self.rules.false_call == "none":
                self._called |= bit
            elif seat == self.defender:
                self._end_bout(taken=True)
            else:
                self._end_bout(taken=False, to=seat)
            return
        if card in self._beat:
            # A false beat caught (D): the cheating defender takes the table at once
            # (in again, if that card was its last).
            self._back_in(self.defender)
            self._end_bout(taken=True)
            return
        # A false throw-in caught (P): it goes back, with the card laid on it, and its
        # thrower throws in no more this bout.
        i = self._att.index(card)
        b = self._beat[i]
        del self._att[i]
        del self._beat[i]
        owner = next(s for s in range(self.n) if self._laid[s] & bit)
        self._give_back(owner, bit)
        if b >= 0:
            self._give_back(self.defender, 1 << b)
            self._n_beaten -= 1
        self._unbeaten &= ~bit
        self._barred |= 1 << owner
        honest = 0
        for c in self._att + self._beat:
            if c >= 0 and not self._cheats >> c & 1:
                honest |= RANK_MASK[c // 4 + 2]
        if self._table_ranks:
            self._allowed = honest
        if self._phase == PILE:
            self._next_thrower(0)
        elif self._unbeaten:
            self._phase = DEFENCE
            self.to_act = self.defender
        else:
            self._phase = THROW
            self._next_thrower(0)

    def _give_back(self, seat: int, bit: int) -> None:
        """A card goes back from the table to the hand it came from, seen by all."""
        self._hands[seat] |= bit
        self._known[seat] |= bit
        self._tmask &= ~bit
        self._cheats &= ~bit
        self._laid[seat] &= ~bit
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
        return (
            action in self.legal_actions()
            or self._cheating
            and (action in self.cheats() or action in self.calls())
        )

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
        if self._cheating and (action in self.cheats() or action in self.calls()):
            self._apply(action)
            return
        raise IllegalActionError(self._why_illegal(action, legal[:]))

    # C901: one branch per action kind, flat: the engine's hottest function
    def _apply(self, a: Action) -> None:  # noqa: C901
        """Apply an action known to be legal."""
        self._legal = None
        self.history.append(a)
        k: int = a.kind
        m: int = a.cards  # unboxed once: the compiled engine then works on a plain int
        seat = self.to_act
        assert seat is not None
        if self._cheating and (k <= TRANSFER or k == CHEAT):
            self._laid[seat] |= m  # (who laid each table card: a call names another's)
        if k == DEFEND:
            card = m.bit_length() - 1
            self._hands[seat] &= ~m
            self._known[seat] &= ~m
            target = a.target
            assert target is not None
            self._beat[self._att.index(target.index)] = card
            self._unbeaten &= ~(1 << target.index)
            self._n_beaten += 1
            if self._table_ranks:
                self._allowed |= RANK_MASK[card // 4 + 2]
            self._tmask |= m
            self._last_lay[seat] = m
            if not self._hands[seat]:
                self._check_out(seat)
            if not self._unbeaten:
                self._phase = THROW
                self._next_thrower(0)
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
            nd = self._next_active(seat, seat if self.teams else None)
            if k == TRANSFER:
                self._lay_attack(seat, m)
            else:
                self._shown |= 1 << seat
                self._known[seat] |= m
            self.attacker = seat
            self.defender = nd
            if self._beats_of:
                self._beats = self._beats_of[nd]
            if k == TRANSFER:
                self._last_att = (seat, m, nd)
            self._set_cap()
            self._throwers = self._make_throwers()
            self.to_act = nd
        elif k == EXCHANGE:
            lt = self._lowest_trump
            self._hands[seat] = (self._hands[seat] & ~(1 << lt)) | (1 << self._bottom)
            self._known[seat] |= 1 << self._bottom
            self._known[seat] &= ~(1 << lt)
            self._bottom = lt
            self._trump_card = lt
        elif k == CHEAT:
            self._cheat(seat, m, a.target)
        elif k == CALL:
            self._call(seat, m.bit_length() - 1)
        if self._action_limit and len(self.history) >= self._action_limit and self._phase != OVER:
            self._truncate()

    def _cheat(self, seat: int, m: int, target: Card | None) -> None:
        """A cheat laid (docs/rules.md 11): like a defence or a throw-in, but its card
        opens no rank for throwing in, and it stands only if nobody calls it."""
        allowed = self._allowed
        self._cheats |= m
        if target is not None:
            self._hands[seat] &= ~m
            self._known[seat] &= ~m
            self._beat[self._att.index(target.index)] = m.bit_length() - 1
            self._unbeaten &= ~(1 << target.index)
            self._n_beaten += 1
            self._tmask |= m
            self._last_lay[seat] = m
            if not self._hands[seat]:
                self._check_out(seat)
            if not self._unbeaten:
                self._phase = THROW
                self._next_thrower(0)
        else:
            self._lay_attack(seat, m)
            self._allowed = allowed
            self._phase = DEFENCE
            self.to_act = self.defender

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

    def _why_illegal(self, a: Action, legal: list[Action]) -> str:
        if self._phase == OVER:
            return "the deal is over"
        seat = self.to_act
        assert seat is not None
        hand = self._hands[seat]
        who = f"seat {seat}"
        if a.kind in (CHEAT, CALL):
            return f"{a}: {self._why_no_cheat(a)}"
        if a.cards & ~hand:
            missing = CardSet(a.cards & ~hand)
            return f"{a}: {who} does not hold {missing}"
        kinds = {x.kind for x in legal}
        if self._phase == DEFENCE and self._forced_take:
            return f"{a}: attacked with a pagon card, {who} must take (pagony_attack=off)"
        if a.kind == TRANSFER and self._phase == DEFENCE and a.kind not in kinds:
            return f"{a}: {self._why_no_transfer(seat, a.cards)}"
        if a.kind not in kinds:
            expect = {
                OPEN: "an opening attack",
                DEFENCE: "a defence or take",
                THROW: "a throw-in or pass",
                PILE: "a throw-in after «беру» or pass",
            }
            return f"{a}: {a.kind} is not possible now; {who} must make {expect[self._phase]}"
        if a.kind == DEFEND and a.target is not None:
            if not (self._unbeaten >> a.target.index & 1):
                return f"{a}: {a.target} is not an unbeaten card on the table"
            s = self._trumps[seat] if self._trumps else self.trump_suit
            why = f"trump {'♠♥♦♣'[s]}" if s < NO_TRUMP else "no trumps: trump=none"
            if self._trumps:
                why = f"seat {seat}'s own trump {'♠♥♦♣'[s]}: trump=per_player"
            if self.rules.spades_by_spades and a.target.suit == 0:
                why += "; a spade only by a higher spade: spades_by_spades=on"
            return f"{a}: {a.cards[0]} does not beat {a.target} ({why})"
        if a.kind == TRANSFER:
            return (
                f"{a}: a transfer needs cards of the attacked rank, and the next defender "
                "must hold at least as many cards as will be on the table"
            )
        if a.kind == ATTACK:
            if self._phase == OPEN:
                return (
                    f"{a}: the opening may not lay these cards "
                    f"({self.rules.opening}, limit {self.cap})"
                )
            return f"{a}: only ranks on the table may be thrown in, at most {self._room()} more"
        return f"{a}: not legal now"

    def _why_no_cheat(self, a: Action) -> str:
        """Why a cheat or a call is refused now (docs/rules.md 11)."""
        if not self._cheating:
            return "cheats and calls need cheating=open (these rules have cheating=off)"
        if a.kind == CALL:
            if not a.cards & self._tmask:
                return f"{a.cards[0]} is not on the table"
            return f"{a.cards[0]} may not be called by seat {self.to_act} (its own, or called)"
        if a.cards & ~self._hands[self.to_act or 0]:
            return f"seat {self.to_act} does not hold {a.cards[0]}"
        return "not a cheat this seat can make now (it would be honest, or it is not its turn)"

    def _why_no_transfer(self, seat: int, cards: int) -> str:
        """Why laying ``cards`` to transfer is refused now (RULES.md 4), the first reason
        that applies."""
        r = self.rules
        if not r.transfer:
            return "transfers are off in these rules (transfer=off)"
        if self.bout == 0 and not r.transfer_first_bout:
            return "no transfer in the first bout (transfer_first_bout=off)"
        if self._n_beaten:
            return "no transfer once a card on the table is beaten"
        rank_base = self._att[0] & ~3
        if cards & ~(15 << rank_base):
            return f"a transfer lays cards of the attacked rank ({rank_name(rank_base // 4 + 2)})"
        nd = self._next_active(seat, seat if self.teams else None)
        if nd < 0 or nd == seat:
            return "nobody is left to transfer to"
        on_table = len(self._att) + cards.bit_count()
        held = self._hands[nd].bit_count()
        if on_table > held:
            return (
                f"seat {nd} would defend next and holds {held} card{'s' if held != 1 else ''},"
                f" fewer than the {on_table} attacking cards the table would then hold"
            )
        limit = r.bout_limit if self.bout else self._first_limit
        return f"the table would hold {on_table} attacking cards, over this bout's limit {limit}"

    # -- copies, undo, views ---------------------------------------------------------
    def clone(self) -> Game:
        """A copy that shares nothing mutable with this game."""
        g = Game(self.rules, _blank=True)
        self._copy_to(g)
        return g

    def _copy_to(self, g: Game) -> None:
        """Every field of this game into ``g``, lists copied (one plain assignment per
        field: clone() is on every searcher's hot path)."""
        g.rules = self.rules
        g.seed = self.seed
        g._order = self._order
        g.dealer = self.dealer
        g.leader = self.leader
        g.n = self.n
        g.hand_size = self.hand_size
        g.teams = self.teams
        g._hands = self._hands[:]
        g._talon = self._talon
        g._tp = self._tp
        g._bottom = self._bottom
        g._trump_card = self._trump_card
        g.trump_suit = self.trump_suit
        g._lowest_trump = self._lowest_trump
        g._att = self._att[:]
        g._beat = self._beat[:]
        g._unbeaten = self._unbeaten
        g._allowed = self._allowed
        g._n_beaten = self._n_beaten
        g.cap = self.cap
        g._phase = self._phase
        g.to_act = self.to_act
        g.attacker = self.attacker
        g.first_attacker = self.first_attacker
        g.defender = self.defender
        g._throwers = self._throwers
        g._tpos = self._tpos
        g._shown = self._shown
        g.bout = self.bout
        g.out = self.out[:]
        g.out_order = self.out_order[:]
        g._known = self._known[:]
        g._discard = self._discard
        g.tally = self.tally[:]
        g._last_lay = self._last_lay[:]
        g.history = self.history[:]
        g.outcome = self.outcome
        g._rng_lead = self._rng_lead
        g._pagon = self._pagon
        g._forced_take = self._forced_take
        g._open_max = self._open_max
        g._no_open = self._no_open
        g._exchange_on = self._exchange_on
        g._tmask = self._tmask
        g._table_ranks = self._table_ranks
        g._pogonny = self._pogonny
        g._legal = self._legal
        g._transfer_on = self._transfer_on
        g._outm = self._outm
        g._tcache = self._tcache
        g._first_limit = self._first_limit
        g._pagon_mask = self._pagon_mask
        g._last_att = self._last_att
        g._passed = self._passed[:]
        g._opening_rank = self._opening_rank
        g._action_limit = self._action_limit
        g._origin = self._origin
        g._bout_limit = self._bout_limit
        g._pile_on = self._pile_on
        g._beats = self._beats
        g._cheating = self._cheating
        g._cheats = self._cheats
        g._called = self._called
        g._laid = self._laid[:]
        g._barred = self._barred
        g._trumps = self._trumps
        g._beats_of = self._beats_of

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
    # without copies or checks. Nothing outside this module reads a Game's private fields.
    def view(self, seat: int) -> SeatView:
        """``seat``'s view of the deal as card masks and small ints (:class:`SeatView`):
        what :meth:`observation` holds, cheap enough for every move of a rollout.

        >>> g = Game(Rules(), deck="6S 7S 8S 9S 10S JS 6H 7H 8H 9H 10H JH QS", dealer=1)
        >>> g.apply("6♠"); v = g.view(1)
        >>> v.attacks, v.beats, v.unbeaten == 1 << 16, v.hand_sizes, v.to_act
        ((16,), (-1,), True, (5, 6), 1)
        """
        n = self.n
        hands = self._hands
        known = self._known[:]
        known[seat] = hands[seat]
        sizes = [0] * n
        for s in range(n):
            sizes[s] = hands[s].bit_count()
        over = self._phase == OVER
        bottom = self._bottom
        return SeatView(
            seat,
            hands[seat],
            tuple(sizes),
            tuple(known),
            tuple(self._att),
            tuple(self._beat),
            self._unbeaten,
            self._tmask,
            self._discard,
            self._trump_card,
            self._trumps[seat] if self._trumps else self.trump_suit,
            bottom >= 0,
            len(self._talon) - self._tp + (bottom >= 0),
            self._outm,
            -1 if self.to_act is None else self.to_act,
            (-1, -1, -1) if over else (self.attacker, self.defender, self.first_attacker),
            self._phase,
            self.cap,
            self.bout,
            self._throwers,
            self._tpos,
            self._shown,
            self._forced_take,
            tuple(self.tally),
            tuple(self.out_order),
            tuple(self._last_lay),
            deck_mask(self.rules.deck),
            self.teams,
            self.rules.spades_by_spades,
        )

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

    def state(self) -> State:
        """The whole state as card masks and ints (:data:`STATE_FIELDS` names them),
        the engine's own lists, not copies: read them, never change them.

        Privileged (every hand): for code that plays a world it fully knows (the
        environments' encoders and critics, which then show a seat only what it may
        see). A seat's own view is :meth:`view`.

        >>> g = Game(Rules(), seed=1)
        >>> s = dict(zip(STATE_FIELDS, g.state()))
        >>> s["hands"][g.to_act] == int(g.hand(g.to_act)), s["talon_size"], s["phase"]
        (True, 24, 0)
        """
        bottom = self._bottom
        return (
            self._hands,
            self._known,
            self._att,
            self._beat,
            self._unbeaten,
            self._tmask,
            self._discard,
            self._trump_card,
            bottom >= 0,
            len(self._talon) - self._tp + (bottom >= 0),
            self.out,
            -1 if self.to_act is None else self.to_act,
            self.attacker,
            self.defender,
            self._phase,
            self.cap,
            self.bout,
            self.tally,
            self._shown,
            self._forced_take,
        )

    def position_key(self) -> tuple[object, ...]:
        """A flat tuple of everything that decides the rest of the deal, for a
        transposition table (:class:`durak.bots.solver.Solver`): equal for positions
        that play on alike. The table counts as a set of cards and which are unbeaten,
        not the order they were laid in.

        >>> g, h = Game(Rules(), seed=3), Game(Rules(), seed=3)
        >>> g.position_key() == h.position_key()
        True
        """
        key: tuple[object, ...] = tuple(self._hands) + (
            self._tmask,
            self._unbeaten,
            len(self._att),
            self._allowed,
            self._phase,
            self.to_act,
            self.attacker,
            self.defender,
            self.first_attacker,
            self._tpos,
            self.cap,
            self._shown,
            self._throwers,
            self.bout == 0,
            self._outm,
            self._forced_take,
        )
        if self._tp < len(self._talon) or self._bottom >= 0:
            # A talon left (a sampled world, its order fixed): what is still to draw.
            key += (self._talon, self._tp, self._bottom)
        if self._cheating:
            key += (self._cheats, self._called, self._barred, *self._laid)
        if self.rules.scoring != "standard":
            key += tuple(self.tally) + tuple(self.out_order) + tuple(self._last_lay)
            key += self._last_att
        return key

    # -- the talon, for chance nodes (durak.envs.openspiel) --------------------------------
    def undrawn(self) -> tuple[int, ...]:
        """The talon's cards still to be drawn (card indices), top first; the face-up
        trump under it not counted.

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

        >>> g = Game(Rules(), seed=1)
        >>> g.restack(sorted(g.undrawn())); list(g.undrawn()) == sorted(g.undrawn())
        True
        """
        if sorted(cards) != sorted(self.undrawn()):
            raise ValueError("restack: the cards must be those still to be drawn")
        self._talon = self._talon[: self._tp] + tuple(cards)
        origin = self._origin
        if origin is not None:
            # (a rebuilt game's talon is counted from where it was rebuilt)
            self._origin = (origin[0], origin[1], self._talon, origin[3])
        else:
            # the deck is dealt cards, the trump, then the talon: a record replays it
            self._order = self._order[: len(self._order) - len(self._talon)] + self._talon

    def observation(self, seat: object) -> Observation:
        """What ``seat`` may know, and nothing else (:meth:`view`, as cards)."""
        seat = _check_seat("seat", seat, self.n)
        v = self.view(seat)
        by, cards, onto = self._last_att
        last = LastAttack(by, CardSet(cards), onto) if by >= 0 else None
        over = v.to_act < 0
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
            legal=tuple(self.legal_actions()) if v.to_act == seat else (),
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
            **(self._cheat_view(seat, v.to_act == seat) if self._cheating else {}),
        )

    def _cheat_view(self, seat: int, to_act: bool) -> dict[str, Any]:
        """шулерский, open: every card is face up, so every seat can see which stand
        against the rule; who laid what is public. The moves are ``seat``'s own."""
        return {
            "cheated": CardSet(self._cheats),
            "called": CardSet(self._called),
            "laid": tuple(CardSet(m) for m in self._laid),
            "barred": tuple(s for s in range(self.n) if self._barred >> s & 1),
            "cheats": tuple(self.cheats()) if to_act else (),
            "calls": tuple(self.calls()) if to_act else (),
        }

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
        r = obs.rules
        n = r.players
        seat = obs.seat
        g = Game(r, _blank=True)
        g._action_limit = r.action_limit
        g.seed = 0
        g.n = n
        g.hand_size = r.hand_size
        g.teams = r.teams != "none"
        g.dealer = obs.dealer
        g.leader = obs.first_attacker if obs.first_attacker is not None else 0
        g._order = ()
        g._hands = hands
        g._known = [int(k) for k in obs.known]
        g._known[seat] = 0
        g._talon = tuple(talon)
        g._tp = 0
        turned = obs.trump.index if obs.trump is not None else -1  # (none: trump=none)
        g._bottom = turned if obs.trump_under_talon else -1
        g._trump_card = turned
        g._trumps = obs.trumps
        g.trump_suit = NO_TRUMP if obs.trumps else obs.trump_suit  # (двухкозырный: per seat)
        g._forced_take = obs.forced_take
        g._derive()
        g._set_pagon(obs.pagon if obs.pagon else None)
        la = obs.last_attack
        g._last_att = (la.seat, int(la.cards), la.defender) if la else (-1, 0, -1)
        g._passed = [(p.seat, p.to, int(p.cards)) for p in obs.passed]
        g._outm = sum(1 << s for s in range(n) if obs.out[s])
        g.out = list(obs.out)
        g.out_order = list(obs.out_order)
        g._discard = int(obs.discard)
        g.tally = list(obs.pogony)
        g._last_lay = [int(m) for m in obs.last_laid] or [0] * n
        prior: tuple[Action, ...] = tuple(before) if before is not None else ()
        g.history = list(prior)
        g._origin = (obs, tuple(hands), g._talon, prior)
        g.outcome = None
        g.bout = obs.bout
        g._rng_lead = 0
        g._att = [a.index for a, _ in obs.table]
        g._beat = [b.index if b is not None else -1 for _, b in obs.table]
        g._unbeaten = 0
        g._allowed = 0
        g._n_beaten = 0
        g._tmask = 0
        g._legal = None
        for a, b in obs.table:
            g._tmask |= a.bit | (b.bit if b else 0)
            if b is None:
                g._unbeaten |= a.bit
            else:
                g._n_beaten += 1
        if r.throw_in == "table_ranks":
            cheated = int(obs.cheated)  # (a cheat opens no rank)
            for a, b in obs.table:
                if not cheated & a.bit:
                    g._allowed |= RANK_MASK[a.rank]
                if b is not None and not cheated & b.bit:
                    g._allowed |= RANK_MASK[b.rank]
        elif r.throw_in == "opening_rank" and obs.table:
            g._allowed = RANK_MASK[obs.table[0][0].rank]
        g.cap = obs.cap
        g._phase = int(obs.phase)
        g.to_act = obs.to_act
        g.attacker = obs.attacker if obs.attacker is not None else 0
        g.first_attacker = obs.first_attacker if obs.first_attacker is not None else 0
        g.defender = obs.defender if obs.defender is not None else 0
        g._cheats = int(obs.cheated)
        g._called = int(obs.called)
        g._laid = [int(m) for m in obs.laid] or [0] * n
        g._barred = sum(1 << s for s in obs.barred)
        if g._beats_of:
            g._beats = g._beats_of[g.defender]
        g._throwers = obs.throwers
        g._tpos = obs.thrower_pos
        g._shown = sum(1 << s for s in obs.shown_seats)
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


_FIXED_TRUMP: Final = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


def trump_suit_of(rules: Rules, turned: int) -> int:
    """The trump suit (0..3, or NO_TRUMP) of a deal under ``rules`` whose turned card is
    ``turned`` (-1: none): the turned card's (``trump=turned``), none (``trump=none``), or
    the fixed suit («пики пиками»: diamonds, whatever card is turned)."""
    mode = rules.trump
    if mode == "turned":
        return turned & 3
    if mode in ("none", "per_player"):  # (двухкозырный: each seat's own, Game.view)
        return NO_TRUMP
    return _FIXED_TRUMP[mode]


def _randbelow(rng: _random.Random, n: int) -> int:
    """``rng.randrange(n)`` for n >= 1, the same number from the same state (CPython's
    ``_randbelow_with_getrandbits``), without its interpreted frames."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _shuffle(x: list[int], rng: _random.Random) -> None:
    """``rng.shuffle(x)``, the same order from the same state (the deal follows from the
    seed, and records and tests rely on it), compiled: dealing costs a fifth of a short
    random deal through ``random.shuffle``."""
    getrandbits = rng.getrandbits  # (looked up once)
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:  # _randbelow, inline
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_seat(name: str, v: object, n: int) -> int:
    """``v``, if it is a seat 0..n-1; else ArgumentTypeError or ArgumentError naming the
    argument (as durak.checks.seat, compiled here: every new deal checks its dealer)."""
    if not _is_int(v):
        raise ArgumentTypeError(f"{name}: a seat number, not {type(v).__name__}")
    if not 0 <= v < n:
        raise ArgumentError(f"{name}: a seat 0..{n - 1}, not {v}")
    return v


def _deck_cards(deck: object) -> list[Card]:
    """The cards of a ``deck`` argument: text, or a list of Cards or card texts."""
    if isinstance(deck, str):
        items: list[object] = list(deck.replace(",", " ").split())
    elif isinstance(deck, (list, tuple)):
        items = list(deck)
    else:
        raise ArgumentTypeError(f"deck: text or a list of cards, not {type(deck).__name__}")
    cards = []
    for item in items:
        if isinstance(item, Card):
            cards.append(item)
        elif isinstance(item, str):
            try:
                cards.append(Card.parse(item))
            except ValueError as e:
                raise ArgumentError(f"deck: {e}") from None
        else:
            raise ArgumentTypeError(f"deck: cards or card texts, not {type(item).__name__}")
    return cards


# The card numbers of each deck size, lowest first (the order a deck is shuffled from).
_CARDS_OF: Final = {
    size: tuple(c for c in range(52) if deck_mask(size) >> c & 1) for size in (24, 36, 52)
}
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
_THROWERS: Final[dict[tuple[str, str, int], dict[int, tuple[int, ...]]]] = {}


def _thrower_cache(rules: Rules) -> dict[int, tuple[int, ...]]:
    return _THROWERS.setdefault((rules.throwers, rules.teams, rules.players), {})


# _DRAW_ORDER[n][first attacker][defender]: the opening attacker first, then clockwise,
# the defender last.
_DRAW_ORDER: Final = tuple(
    tuple(
        tuple(
            tuple([s for s in ((fa + i) % n for i in range(n)) if s != d] + [d]) if n else ()
            for d in range(n)
        )
        for fa in range(n)
    )
    for n in range(7)
)
