"""The expert's rules of move choice on the engine's ints, for the searcher's rollouts.

:class:`~durak.bots.expert.ExpertBot` decides from an :class:`~durak.observation.Observation`;
building one for every move of a rollout costs about ten times the move itself (57 us a
move against 6 for the rules of thumb of :mod:`durak.bots.policy`, benchmarks/bots/README.md,
v8). :func:`expert_action` makes the same choice as ``ExpertBot(nodes=0)`` (the rules
without the exact endgame) straight from a :class:`~durak.game.Game`, in a sampled world
where every hand is known: the cards an opponent "may hold" at the empty talon are the
other hands (what the expert counts then), less a partner's cards known to be there. The test
``test_expert_policy_matches_the_expert`` holds the two to the same moves.

Searchers use it with ``ismcts:rollout=expert`` (every seat of a rollout plays so).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .. import playout
from ..actions import ATTACK, DEFEND, EXCHANGE, PASS, SHOW, TAKE, TRANSFER, Action
from ..cards import SUIT_MASK, beats_mask
from ..game import DEFENCE, OPEN, PILE, Game
from .expert import PILE_LIMIT, QUEEN, TEMPO, THROW_LIMIT, burden, cheapest_cover, keep

# KEEP[trump][talon > 6][card], BURDEN[trump][card], BEATS[trump][card]: expert.keep,
# expert.burden and the cards that beat a card, looked up instead of computed.
KEEP = tuple(
    tuple(tuple(keep(c, t, 7 if long else 0) for c in range(52)) for long in (False, True))
    for t in range(4)
)
BURDEN = tuple(tuple(burden(c, t) for c in range(52)) for t in range(4))
BEATS = tuple(tuple(beats_mask(c, t) for c in range(52)) for t in range(4))


# The cards of a mask, lowest first, remembered (most masks recur: the actions' groups,
# a defence's beaters); emptied when it grows past _MEMO_MAX.
_MEMO: dict[int, tuple[int, ...]] = {}
_MEMO_MAX = 200_000


def _bits(m: int) -> tuple[int, ...]:
    got = _MEMO.get(m)
    if got is not None:
        return got
    out = []
    x = m
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.clear()
    got = _MEMO[m] = tuple(out)
    return got


def expert_action(g: Game) -> Action:
    """``ExpertBot(nodes=0)``'s action for whoever is to act in ``g`` (a full game)."""
    legal = g._generate()  # not copied, never mutated here
    if len(legal) == 1:
        return legal[0]
    for a in legal:
        if a.kind == EXCHANGE:
            return a
    phase = g._phase
    if phase == DEFENCE:
        return _defend(g, legal)
    if phase == OPEN:
        return _open(g, legal)
    return _throw(g, legal, phase == PILE)


def _open(g: Game, legal: Sequence[Action]) -> Action:
    t = g.trump_suit
    talon = g.talon_size
    kp = KEEP[t][talon > 6]
    tmask = SUIT_MASK[t]
    seat = g.to_act
    assert seat is not None
    hands = g._hands
    hand = hands[seat]
    threat = 0
    if talon == 0:
        # What the expert counts: cards it cannot place, and those known in opponents'
        # hands (a partner's known cards are no threat).
        team = g.rules.team_of
        for s, h in enumerate(hands):
            if s != seat:
                threat |= h if team(s) != team(seat) else h & ~g._known[s]
    beats = BEATS[t]
    best = legal[0]
    best_score = 1e9
    for a in legal:
        if a.kind != ATTACK:
            continue
        m: int = a.cards
        if m & (m - 1) == 0:  # one card, the usual case
            cards: tuple[int, ...] = (m.bit_length() - 1,)
            n = 1
            score = kp[cards[0]]
        else:
            cards = _bits(m)
            n = len(cards)
            score = max(kp[c] for c in cards) - 1.2 * (n - 1)
        if m & tmask:
            score += 6.0 if talon else 1.0
        if talon == 0:
            if all(not beats[c] & threat for c in cards):
                score -= 6.0
            score -= 0.8 * (n - 1)
        else:
            # The cards of this rank left in the hand (a card's index is 4 * rank + suit).
            score += 0.3 * ((hand & ~m) >> (cards[0] & ~3) & 15).bit_count()
        if score < best_score:
            best, best_score = a, score
    return best


def _throw(g: Game, legal: Sequence[Action], piling: bool) -> Action:
    t = g.trump_suit
    talon = g.talon_size
    kp = KEEP[t][talon > 6]
    tmask = SUIT_MASK[t]
    if talon == 0:
        limit = 12
    elif talon <= 4:
        limit = QUEEN
    else:
        limit = PILE_LIMIT if piling else THROW_LIMIT
    pass_action: Action | None = None
    best: Action | None = None
    best_score = 1e9
    for a in legal:
        k: int = a.kind
        if k == PASS:
            pass_action = a
            continue
        if k != ATTACK:
            continue
        m: int = a.cards
        if m & tmask and (talon > 0 or piling):
            continue
        cards = _bits(m)
        plain = [c >> 2 for c in cards if not (1 << c) & tmask]
        if plain and max(plain) > limit:
            continue
        score = sum(kp[c] for c in cards) / len(cards) - 0.5 * len(cards)
        if score < best_score:
            best, best_score = a, score
    if best is not None:
        return best
    return pass_action if pass_action is not None else legal[0]


def _defend(g: Game, legal: Sequence[Action]) -> Action:
    t = g.trump_suit
    talon = g.talon_size
    kp = KEEP[t][talon > 6]
    seat = g.to_act
    assert seat is not None
    hand_size = g._hands[seat].bit_count()
    unbeaten = [c for c, b in zip(g._att, g._beat, strict=True) if b < 0]
    on_table = list(g._att) + [c for c in g._beat if c >= 0]
    take: Action | None = None
    choices: list[tuple[float, Action]] = []
    by_target: dict[int, list[Action]] = {}
    for a in legal:
        k: int = a.kind
        if k == TAKE:
            take = a
        elif k == DEFEND:
            assert a.target is not None
            by_target.setdefault(a.target.index, []).append(a)
        elif k == SHOW:
            choices.append((-5.0, a))
        elif k == TRANSFER:
            choices.append((sum(kp[c] for c in _bits(a.cards)) - 3.0, a))
    plan = _plan(unbeaten, by_target, kp)
    if plan is not None:
        choices.append(plan)
    if take is not None:
        pick_up = len(on_table)
        bd = BURDEN[t]
        cost = TEMPO + sum(bd[c] for c in on_table) + 1.0
        if hand_size + pick_up > 10:
            cost += 1.5 * (hand_size + pick_up - 10)
        if talon == 0:
            cost += 10.0
        choices.append((cost, take))
    if not choices:
        return legal[0]
    return min(choices, key=lambda x: x[0])[1]


def _plan(
    unbeaten: list[int], by_target: dict[int, list[Action]], kp: tuple[float, ...]
) -> tuple[float, Action] | None:
    """As ``ExpertBot._plan``: the cheapest full defence (cost, the action to play first)."""
    if not unbeaten or any(u not in by_target for u in unbeaten):
        return None
    if len(unbeaten) == 1:
        # One card to beat: the first cheapest beater (what cheapest_cover finds).
        pick: tuple[float, Action] | None = None
        for a in by_target[unbeaten[0]]:
            v = kp[a.cards.bit_length() - 1]
            if pick is None or v < pick[0]:
                pick = (v, a)
        return pick
    return cheapest_cover(unbeaten, by_target, kp.__getitem__)


def expert_rollout(g: Game, rng: random.Random, max_moves: int = 400) -> None:
    """Play ``g`` to its end with :func:`expert_action` for every seat (random moves after
    ``max_moves``, as :func:`durak.bots.policy.rollout`)."""
    playout.rollout(g, expert_action, rng, max_moves)
