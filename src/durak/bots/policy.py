"""The playing rules of thumb shared by the heuristic bot and the searchers' rollouts.

Everything here works on plain ints (card bitmasks, the phase number of
:mod:`durak.game`) so that one decision costs a few microseconds: the searchers
call :func:`rollout_action` tens of thousands of times a move.

A card's *value* (:data:`VAL`) orders what a player would rather keep: non-trumps by
rank, then every trump above every non-trump.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import Final

from .. import playout
from ..actions import ATTACK, DEFEND, EXCHANGE, PASS, SHOW, TAKE, TRANSFER, Action, throw_ins
from ..cards import BEATS, SUIT_MASK, beat_key
from ..game import DEFENCE, OPEN, PILE, Game

# VAL[trump_suit][card index]: rank index (0 for a 2 .. 12 for an ace), +13 for trumps
# (trump suit 4: none, trump=none).
VAL: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((c >> 2) + (13 if c & 3 == t else 0) for c in range(52)) for t in range(5)
)
_RANK: Final = tuple(c >> 2 for c in range(52))  # rank index (0 for a 2) by card
TRUMP_BASE: Final = 13
QUEEN: Final = 10  # rank index of a queen
KING: Final = 11
# Tuned against the greedy bot and against each other (benchmarks/bots/README.md).
PAIR_BONUS = 1.5  # laying one more card of a rank is worth this much rank
THROW_LIMIT = 12  # throw in non-trumps up to this rank index (12: any) ...
PILE_LIMIT = 12  # ... and after «беру»
# Rollouts play a sampled world, where every hand is known: with the talon empty they lead
# cards no opponent can beat, as a player counting cards would.
ENDGAME_SAFE = True
# Playing styles, so that searchers can model opponents who play differently: CLUB is the
# full rules of thumb; SIMPLE never takes while it can beat and throws in nothing above a
# queen (as most casual players, and the greedy bot, do).
# PLAIN plays the cheapest card by a plain cost (non-trumps by rank, then trumps), beats
# whenever it can, takes only when it cannot, and throws in nothing above a queen and no
# trumps: the way a careless player (and the greedy bot) plays.
CLUB: Final = 0
SIMPLE: Final = 1
PLAIN: Final = 2
# CAREFUL: a trump-saving player (see :func:`_careful_defend`): it beats with plain cards
# freely but pays for a trump only when taking would cost more, gives a taker no high
# card, and throws in early only what it would lead anyway.
CAREFUL: Final = 3
# The styles by name (bot options).
STYLES: Final = {"club": CLUB, "simple": SIMPLE, "plain": PLAIN, "careful": CAREFUL}
# CAREFUL's weights, in ranks of a plain card (tuned against the pool's expert).
C_TRUMP = 1.0  # a trump is worth this much more than a plain card of its rank ...
C_TRUMP_LATE = -2.0  # ... once the talon is nearly gone (nothing left to save it for)
C_TAKE = 9.0  # what losing the turn by taking costs
C_JUNK = 5  # picking up a plain card below this rank index (a 7) is a burden ...
C_GAIN = 10  # ... and one from this rank index (a queen) up or a trump a gain
C_THROW = 12  # early, throw in plain cards up to this rank index (any)
C_PILE = 12  # and pile on a taker up to this one while the talon lasts
# PLAIN's cost of a card: rank, plus 100 for a trump (ten times the rank so that a pair
# can be a tenth of a rank cheaper, as laying more cards at once is preferred).
_PCOST: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(10 * (c >> 2) + (1000 if c & 3 == t else 0) for c in range(52)) for t in range(5)
)


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _high(mask: int) -> int:
    return mask.bit_length() - 1


# PLR0913: the compiled rollout policy reads the position as plain ints (no object per call)
def decide(  # noqa: PLR0913
    legal: Sequence[Action],
    phase: int,
    hand: int,
    trump: int,
    talon: int,
    unbeaten: int,
    table: int,
    safe: int = 0,
    style: int = 0,
) -> Action:
    """The rule-of-thumb choice among ``legal``.

    ``unbeaten``: mask of attacking cards still unbeaten; ``table``: every card on the
    table; ``safe``: cards of this hand that no card it cannot see can beat (used to lead
    in the endgame; 0 when unknown).
    """
    if len(legal) == 1:
        return legal[0]
    if style == PLAIN:
        return _plain(legal, phase, trump)
    V = VAL[trump]
    for a in legal:
        if a.kind == EXCHANGE:
            # The lowest trump for the face-up one: never worse.
            return a
    if style == CAREFUL:
        if phase == DEFENCE:
            return _careful_defend(legal, hand, trump, talon, unbeaten, table)
        if phase == OPEN:
            return _open(legal, trump, talon, V, safe)
        return _careful_throw(legal, phase, trump, talon)
    if phase == DEFENCE:
        return _defend(legal, hand, trump, talon, unbeaten, table, V, style)
    if phase == OPEN:
        return _open(legal, trump, talon, V, safe)
    # Throw in the cheapest group up to a limit that rises once the talon is gone.
    if style == SIMPLE:
        limit = QUEEN
    else:
        limit = 99 if talon == 0 else (PILE_LIMIT if phase == PILE else THROW_LIMIT)
    return _best_throw(legal, trump, talon > 0, V, limit, PAIR_BONUS)


# PLR0913: the compiled rollout policy reads the position as plain ints (no object per call)
def _defend(  # noqa: PLR0913
    legal: Sequence[Action],
    hand: int,
    trump: int,
    talon: int,
    unbeaten: int,
    table: int,
    V: tuple[int, ...],
    style: int = 0,
) -> Action:
    take: Action | None = None
    beaters: dict[int, list[tuple[int, Action]]] = {}
    transfer: Action | None = None
    transfer_score = 99
    for a in legal:
        k: int = a.kind
        if k == DEFEND:
            assert a.target is not None
            c = _high(a.cards)
            beaters.setdefault(a.target.index, []).append((V[c], a))
        elif k == TAKE:
            take = a
        elif k == SHOW:
            transfer, transfer_score = a, -99  # free: nothing leaves the hand
        elif k == TRANSFER:
            # Shed as many cheap cards as possible; a trump costs its value.
            s = sum(V[c] for c in _bits(a.cards)) - 4 * a.cards.bit_count()
            if s < transfer_score:
                transfer, transfer_score = a, s
    # Plan a full defence: the most constrained target first, each with its cheapest card.
    plan: list[tuple[int, Action]] = []
    feasible = True
    used = 0
    targets = sorted(_bits(unbeaten), key=lambda t: len(beaters.get(t, ())))
    for t in targets:
        options = sorted(beaters.get(t, ()), key=lambda x: x[0])
        pick = next((o for o in options if not used & o[1].cards), None)
        if pick is None:
            feasible = False
            break
        used |= pick[1].cards
        plan.append(pick)
    tmask = SUIT_MASK[trump]
    if transfer is not None and (
        not transfer.cards & tmask or transfer.kind == SHOW or not feasible
    ):
        # Passing the attack on sheds cards and makes the next player beat more.
        return transfer
    if not feasible or not plan:
        assert take is not None
        return take
    if talon > 0 and take is not None and style != SIMPLE:
        trumps = [v - TRUMP_BASE for v, _ in plan if v >= TRUMP_BASE]
        pick_up = table.bit_count()
        # Early on, keep big trumps rather than spend them on a few small cards.
        if (
            trumps
            and pick_up <= 4
            and (
                (talon >= 6 and max(trumps) >= QUEEN)
                or (talon >= 10 and len(trumps) >= 2)
                or (talon >= 14 and pick_up <= 2 and max(trumps) >= QUEEN - 2)
            )
        ):
            return take
    # Beat the card whose planned beater is cheapest first: it shows the least.
    return min(plan, key=lambda x: x[0])[1]


def _open(legal: Sequence[Action], trump: int, talon: int, V: tuple[int, ...], safe: int) -> Action:
    best = legal[0]
    best_score = 1e9
    tmask = SUIT_MASK[trump]
    for a in legal:
        if a.kind != ATTACK:
            continue
        m: int = a.cards
        n = m.bit_count()
        top = V[_high(m)] if not m & tmask else V[_low(m & tmask)]
        score = top - PAIR_BONUS * (n - 1)
        if m & tmask and m & ~tmask:
            score += 3  # a trump beside a non-trump: keep the trump
        if talon == 0 and m & safe == m:
            score -= 8  # nothing unseen beats these: the defender must take or trump
        if score < best_score:
            best, best_score = a, score
    return best


def _best_throw(
    legal: Sequence[Action],
    trump: int,
    skip_trumps: bool,
    top: tuple[int, ...],
    limit: int,
    bonus: float,
) -> Action:
    """The cheapest throw-in among ``legal`` (every style's), else a pass: groups with a
    trump are left out when ``skip_trumps``, and groups whose highest card is worth more
    than ``limit`` by ``top``; a group costs its highest card's ``top``, less ``bonus``
    for each card beyond the first."""
    attacks, pass_action = throw_ins(legal)
    best: Action | None = None
    best_score = 1e9
    tmask = SUIT_MASK[trump]
    for a in attacks:
        m: int = a.cards
        if skip_trumps and m & tmask:
            continue
        t = top[_high(m)]
        if t > limit:
            continue
        score = t - bonus * (m.bit_count() - 1)
        if score < best_score:
            best, best_score = a, score
    if best is not None:
        return best
    return pass_action if pass_action is not None else legal[0]


def _worth(c: int, trump: int, talon: int) -> float:
    """What CAREFUL loses by spending card ``c``: a plain card little, a trump much, while
    there is a long deal ahead to use it in."""
    r = c >> 2
    if c & 3 != trump:
        return 0.2 * r
    return r + (C_TRUMP if talon > 4 else C_TRUMP_LATE)


# C901: one pass over the legal moves sorts beat, take, show and transfer (compiled hot path)
def _careful_defend(  # noqa: C901
    legal: Sequence[Action], hand: int, trump: int, talon: int, unbeaten: int, table: int
) -> Action:
    """Beat, take or transfer by what each costs: the cards a full defence spends
    against the turn lost by taking, less what the taken cards are worth."""
    take: Action | None = None
    transfer: Action | None = None
    transfer_cost = 1e9
    beaters: dict[int, list[tuple[float, Action]]] = {}
    for a in legal:
        k: int = a.kind
        if k == DEFEND:
            assert a.target is not None
            beaters.setdefault(a.target.index, []).append((_worth(_high(a.cards), trump, talon), a))
        elif k == TAKE:
            take = a
        elif k == SHOW:
            return a  # nothing leaves the hand
        elif k == TRANSFER:
            cost = 0.0
            for c in _bits(a.cards):
                cost += _worth(c, trump, talon) - 1.0
            if cost < transfer_cost:
                transfer, transfer_cost = a, cost
    # The cheapest full defence, greedily: the most constrained card first.
    used = 0
    spend = 0.0
    first: Action | None = None
    first_cost = 1e9
    feasible = True
    for t in sorted(_bits(unbeaten), key=lambda t: len(beaters.get(t, ()))):
        pick: tuple[float, Action] | None = None
        for o in beaters.get(t, ()):
            if not used & o[1].cards and (pick is None or o[0] < pick[0]):
                pick = o
        if pick is None:
            feasible = False
            break
        used |= pick[1].cards
        spend += pick[0]
        if pick[0] < first_cost:
            first, first_cost = pick[1], pick[0]
    if transfer is not None and (not feasible or transfer_cost < spend):
        return transfer
    if not feasible or first is None:
        assert take is not None or transfer is not None
        return take if take is not None else legal[0]
    if take is None or talon == 0:
        return first
    # Taking: the turn lost, small plain cards a burden, high cards and trumps a gain.
    cost = C_TAKE
    tmask = SUIT_MASK[trump]
    for c in _bits(table):
        r = c >> 2
        if (1 << c) & tmask or r >= C_GAIN:
            cost -= 1.0
        elif r < C_JUNK:
            cost += 1.0
    size = hand.bit_count() + table.bit_count()
    if size > 8:
        cost += size - 8  # a swollen hand is hard to shed
    return take if cost < spend else first


def _careful_throw(legal: Sequence[Action], phase: int, trump: int, talon: int) -> Action:
    """Throw in cheap plain cards; nothing dear to a taker while the talon lasts."""
    limit = 99 if talon == 0 else C_PILE if phase == PILE else C_THROW
    return _best_throw(legal, trump, talon > 0 or phase == PILE, _RANK, limit, 1.5)


def _plain(legal: Sequence[Action], phase: int, trump: int) -> Action:
    """The PLAIN style: the cheapest action, taking or passing last."""
    cost = _PCOST[trump]
    best = legal[0]
    best_cost = 10**6
    fallback = legal[0]
    for a in legal:
        k: int = a.kind
        if k in (TAKE, PASS):
            fallback = a
            continue
        if k == EXCHANGE:
            return a
        if k == SHOW:
            c = -500
        else:
            m: int = a.cards
            n = m.bit_count()
            # A card's cost, or a group's average less a tenth of a rank per card.
            c = cost[_high(m)] if n == 1 else sum(cost[x] for x in _bits(m)) // n - n
        if c < best_cost:
            best, best_cost = a, c
    if best_cost == 10**6:
        return fallback
    if (
        phase != OPEN
        and phase != DEFENCE
        and (best.cards & SUIT_MASK[trump] or _high(best.cards) >> 2 >= KING)
    ):
        # Keeps trumps, kings and aces rather than throwing them in.
        return fallback
    return best


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def rollout_action(g: Game, styles: Sequence[int] | None = None) -> Action:
    """The rule-of-thumb action for whoever is to act in ``g``: a full game whose every
    hand the rollout knows (a sampled world), read through the engine's fast path."""
    legal = g.moves()  # the engine's own list: never changed here
    if len(legal) == 1:
        return legal[0]
    seat = g.to_act
    assert seat is not None
    style = styles[seat] if styles is not None else CLUB
    (hands, _, _, _, unbeaten, table, _, _, _, talon, _,
     _, _, _, phase, _, _, _, _, _) = g.state()  # fmt: skip
    trump = g.trump_suit  # (with a fixed trump not the turned card's suit)
    if style == PLAIN:
        return _plain(legal, phase, trump)
    hand = hands[seat]
    safe = 0
    if talon == 0 and phase == OPEN and ENDGAME_SAFE:
        threat = 0
        teams = g.teams
        for s, h in enumerate(hands):
            if s != seat and not (teams and (s - seat) % 2 == 0):
                threat |= h
        beats = BEATS[beat_key(trump, g.rules.spades_by_spades)]
        m = int(hand)
        while m:
            low = m & -m
            if not beats[low.bit_length() - 1] & threat:
                safe |= low
            m ^= low
    return decide(legal, phase, hand, trump, talon, unbeaten, table, safe, style)


def rollout(
    g: Game,
    rng: random.Random | None = None,
    max_moves: int = 400,
    styles: Sequence[int] | None = None,
) -> None:
    """Play ``g`` to its end with :func:`rollout_action` for every seat.

    Rule-of-thumb play can go round in circles (in ``prostoy`` with many players a card
    nobody beats may be taken round the table for ever), so after ``max_moves`` moves the
    rollout finishes with random moves, which always end a deal.
    """
    # The loop runs in the compiled engine (durak.playout): only the policy is called
    # from there, once an action.
    policy = rollout_action if styles is None else partial(rollout_action, styles=styles)
    playout.rollout(g, policy, rng or random.Random(0), max_moves)


__all__ = ["VAL", "decide", "rollout", "rollout_action", "OPEN", "DEFENCE"]
