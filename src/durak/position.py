"""Position: every field of a deal in play, listed once, and the forms read from them.

:class:`Position` is the base of :class:`durak.game.Game` (through
:class:`durak.reading.Reading`): it holds the one field list (:data:`FIELDS`, each field
declared with its type on the class), its copy (``_copy_to``, for ``clone``), the fields
of a new deal (``_deal``, ``_clear_deal``, ``_derive``, ``_set_pagon``), and what is read
from them without playing: the seat view (``view``), the environments' state
(``state``), the transposition key (``position_key``), and a deal rebuilt from an
observation (``_restore``, for ``Game.from_view``). The rules of play are ``Game``'s
(:mod:`durak.game`); the cheating game's part of a deal is its component's
(:mod:`durak.cheating`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import Action
from .cards import (
    BEATS,
    NO_TRUMP,
    RANK_MASK,
    SUIT_MASK,
    beat_key,
    deck_mask,
    lowest_rank,
)
from .cheating import Cheating
from .deal import check_seat, deal_hands, deck_order, lots, trump_suit_of, turn_trump
from .enums import Phase
from .errors import ArgumentError
from .observation import VIEW_FIELDS, Observation, SeatView
from .outcome import Outcome
from .rules import Rules, pagon_ladder
from .turns import thrower_cache

OPEN: Final = 0
DEFENCE: Final = 1
THROW: Final = 2
PILE: Final = 3
OVER: Final = 4
PHASES: Final = tuple(Phase)  # indexed by the phase constants above

_QUEEN_SUIT: Final = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


def pagon_cards(rules: Rules, step: int, trump: int) -> int:
    """The cards that count as pagony at this step: the non-trumps of the pagon rank,
    or the one queen of the chosen suit at the last step."""
    ladder = pagon_ladder(rules.deck)
    if step == len(ladder) - 1:
        return 1 << ((12 - 2) * 4 + _QUEEN_SUIT[rules.pagony_queen])
    return RANK_MASK[ladder[step]] & ~SUIT_MASK[trump]


# Game.state(): the whole state as masks and ints, in this order (a plain tuple: the
# environments make one every step, and a named tuple costs more than what it feeds).
# Named as the seat view names them (VIEW_FIELDS): ``known`` to ``trump_card``, then
# ``trump_under_talon`` to ``defender``.
STATE_FIELDS: Final = (
    "hands",
    *VIEW_FIELDS[3:10],
    *VIEW_FIELDS[11:17],
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


# Every field of a Game, in one list: Position declares each (below), clone() copies each
# one (a test checks that none is missed).
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
    "_cheat",
    "_trumps",
    "_beats_of",
)


class Position:
    """Every field of a deal in play, and what is read from them (the module docstring)."""

    __slots__ = FIELDS

    # (the types of every field in FIELDS, in its order)
    rules: Rules
    seed: int
    _order: tuple[int, ...]
    dealer: int
    leader: int
    n: int
    hand_size: int
    teams: bool
    _hands: list[int]
    _talon: tuple[int, ...]
    _tp: int
    _bottom: int
    _trump_card: int
    trump_suit: int
    _lowest_trump: int
    _att: list[int]
    _beat: list[int]
    _unbeaten: int
    _allowed: int
    _n_beaten: int
    cap: int
    _phase: int
    to_act: int | None
    attacker: int
    first_attacker: int
    defender: int
    _throwers: tuple[int, ...]
    _tpos: int
    _shown: int
    bout: int
    out: list[bool]
    out_order: list[int]
    _known: list[int]
    _discard: int
    tally: list[int]
    _last_lay: list[int]
    history: list[Action]
    outcome: Outcome | None
    _rng_lead: int
    _pagon: tuple[int, ...]
    _forced_take: bool
    _open_max: int
    _no_open: list[int]
    _exchange_on: bool
    _tmask: int
    _table_ranks: bool
    _pogonny: bool
    _legal: list[Action] | None
    _transfer_on: bool
    _outm: int
    _tcache: dict[int, tuple[int, ...]]
    _first_limit: int
    _pagon_mask: list[int]
    _last_att: tuple[int, int, int]
    _passed: list[tuple[int, int, int]]
    _opening_rank: bool
    _action_limit: int
    _origin: Origin | None
    _bout_limit: int
    _pile_on: bool
    _beats: tuple[int, ...]
    _cheat: Cheating | None
    _trumps: tuple[int, ...]
    _beats_of: tuple[tuple[int, ...], ...]

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
        self._tcache = thrower_cache(rules)
        self._action_limit = rules.action_limit
        self._bout_limit = rules.bout_limit
        self._pile_on = rules.pile_on

    # -- pagony ---------------------------------------------------------------
    def _set_pagon(self, steps: Sequence[int] | None) -> None:
        """Pagony (RULES.md 7): each side's step on the ladder of pagon ranks."""
        r, n = self.rules, self.n
        self._pagon = ()
        self._pagon_mask = [0] * n
        self._no_open = [0] * n
        if r.scoring != "pagony":
            if steps is not None:
                raise ArgumentError("pagon: only for scoring=pagony")
            return
        ladder = pagon_ladder(r.deck)
        steps = tuple(steps) if steps is not None else (0,) * r.sides
        if len(steps) != r.sides or not all(0 <= x < len(ladder) for x in steps):
            raise ArgumentError(f"pagon: one step 0..{len(ladder) - 1} per side ({r.sides} sides)")
        self._pagon = steps
        for seat in range(n):
            self._pagon_mask[seat] = pagon_cards(r, steps[r.team_of(seat)], self.trump_suit)
        if not r.pagony_attack:
            self._no_open = self._pagon_mask[:]

    def _deal(self, rules: Rules, seed: int, deck: object, dealer: object) -> None:
        """The deck, the lots, the hands and the trump (:mod:`durak.deal`)."""
        n = self.n = rules.players
        self.hand_size = rules.hand_size
        self.teams = rules.teams != "none"
        self.seed = seed
        self._order = order = deck_order(rules, seed, deck)
        lot_dealer, self._rng_lead = lots(seed, n)
        self.dealer = d = check_seat("dealer", lot_dealer if dealer is None else dealer, n)
        self._hands = deal_hands(order, n, self.hand_size, d)
        trump, self._talon, self._bottom, self._trumps, marks, seen = turn_trump(rules, order, d)
        self._known = [0] * n
        if seen >= 0:
            self._known[d] |= 1 << seen
        self._discard = marks  # (двухкозырный: the turned cards, face up, out of play)
        self._tp = 0
        self._trump_card = trump
        self.trump_suit = trump_suit_of(rules, trump)

    def _clear_deal(self) -> None:
        """A deal's start: nobody out, nothing laid, played or scored yet."""
        n = self.n
        self._forced_take = False
        self._origin = None
        self._outm = 0
        self._tmask = 0
        self._legal = None
        self.out = [False] * n
        self.out_order = []
        self.tally = [0] * n
        self._last_lay = [0] * n
        self._last_att = (-1, 0, -1)
        self._passed = []
        self.history = []
        self.outcome = None
        self.bout = 0
        self._att = []
        self._beat = []
        rules = self.rules
        self._cheat = Cheating(n, rules.false_call != "none") if rules.cheating != "off" else None

    def _copy_to(self, g: Position) -> None:
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
        cheat = self._cheat
        g._cheat = cheat.copy() if cheat is not None else None
        g._trumps = self._trumps
        g._beats_of = self._beats_of

    def view(self, seat: int) -> SeatView:
        """``seat``'s view of the deal as card masks and small ints (:class:`SeatView`):
        what :meth:`observation` holds, cheap enough for every move of a rollout.

        >>> from durak import Game, Rules
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

    def state(self) -> State:
        """The whole state as card masks and ints (:data:`STATE_FIELDS` names them),
        the engine's own lists, not copies: read them, never change them.

        Privileged (every hand): for code that plays a world it fully knows (the
        environments' encoders and critics, which then show a seat only what it may
        see). A seat's own view is :meth:`view`.

        >>> from durak import Game, Rules
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

        >>> from durak import Game, Rules
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
        cheat = self._cheat
        if cheat is not None:
            key += cheat.key()
        if self.rules.scoring != "standard":
            key += tuple(self.tally) + tuple(self.out_order) + tuple(self._last_lay)
            key += self._last_att
        return key

    def _restore(
        self, obs: Observation, hands: list[int], talon: Sequence[int], before: Sequence[Action]
    ) -> None:
        """Every field from ``obs``, with the hidden cards placed (``Game.from_view``)."""
        r = obs.rules
        n = r.players
        seat = obs.seat
        self._action_limit = r.action_limit
        self.seed = 0
        self.n = n
        self.hand_size = r.hand_size
        self.teams = r.teams != "none"
        self.dealer = obs.dealer
        self.leader = obs.first_attacker if obs.first_attacker is not None else 0
        self._order = ()
        self._hands = hands
        self._known = [int(k) for k in obs.known]
        self._known[seat] = int(obs.known_own)  # (known[seat] is its whole hand)
        self._talon = tuple(talon)
        self._tp = 0
        turned = obs.trump.index if obs.trump is not None else -1  # (none: trump=none)
        self._bottom = turned if obs.trump_under_talon else -1
        self._trump_card = turned
        self._trumps = obs.trumps
        self.trump_suit = NO_TRUMP if obs.trumps else obs.trump_suit  # (двухкозырный: per seat)
        self._forced_take = obs.forced_take
        self._derive()
        self._set_pagon(obs.pagon if obs.pagon else None)
        la = obs.last_attack
        self._last_att = (la.seat, int(la.cards), la.defender) if la else (-1, 0, -1)
        self._passed = [(p.seat, p.to, int(p.cards)) for p in obs.passed]
        self._outm = sum(1 << s for s in range(n) if obs.out[s])
        self.out = list(obs.out)
        self.out_order = list(obs.out_order)
        self._discard = int(obs.discard)
        self.tally = list(obs.pogony)
        self._last_lay = [int(m) for m in obs.last_laid] or [0] * n
        prior = tuple(before)
        self.history = list(prior)
        self._origin = (obs, tuple(hands), self._talon, prior)
        self.outcome = None
        self.bout = obs.bout
        self._rng_lead = 0
        self._legal = None
        self._restore_table(obs)
        self.cap = obs.cap
        self._phase = int(obs.phase)
        self.to_act = obs.to_act
        self.attacker = obs.attacker if obs.attacker is not None else 0
        self.first_attacker = obs.first_attacker if obs.first_attacker is not None else 0
        self.defender = obs.defender if obs.defender is not None else 0
        self._cheat = Cheating.from_observation(obs) if r.cheating != "off" else None
        if self._beats_of:
            self._beats = self._beats_of[self.defender]
        self._throwers = obs.throwers
        self._tpos = obs.thrower_pos
        self._shown = sum(1 << s for s in obs.shown_seats)

    def _restore_table(self, obs: Observation) -> None:
        """The table's fields from ``obs``: its cards, the unbeaten, the ranks open."""
        r = obs.rules
        self._att = [a.index for a, _ in obs.table]
        self._beat = [b.index if b is not None else -1 for _, b in obs.table]
        self._unbeaten = 0
        self._allowed = 0
        self._n_beaten = 0
        self._tmask = 0
        for a, b in obs.table:
            self._tmask |= a.bit | (b.bit if b else 0)
            if b is None:
                self._unbeaten |= a.bit
            else:
                self._n_beaten += 1
        if r.throw_in == "table_ranks":
            cheated = int(obs.cheated)  # (a cheat opens no rank)
            for a, b in obs.table:
                if not cheated & a.bit:
                    self._allowed |= RANK_MASK[a.rank]
                if b is not None and not cheated & b.bit:
                    self._allowed |= RANK_MASK[b.rank]
        elif r.throw_in == "opening_rank" and obs.table:
            self._allowed = RANK_MASK[obs.table[0][0].rank]
