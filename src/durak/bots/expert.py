"""The expert bot: a careful player written from Durak strategy, independent of the searcher.

It shares no playing rule with :mod:`durak.bots.policy` (the searcher's rollouts), so
that beating it says something the searcher's own habits cannot fake. What it does:

- **Card counting.** Cards its opponents may hold are those it has not seen (talon and
  hidden hands) plus those known to be in their hands (taken from the table, shown);
  everything in the discard is gone. A card of its own that none of those can beat is a
  *winner*.
- **Trump economy.** A trump costs far more to give away than any plain card, more the
  higher it is and the longer the deal still runs; it leads and throws in no trump
  while the talon lasts, and throws in no plain card above a jack early.
- **When to take.** It weighs beating (what the beating cards are worth to keep) against
  taking (a lost turn, the cards it picks up: small plain cards are a burden, trumps and
  high cards a gain, a swollen hand a burden) and takes when taking is cheaper: a single
  small card that only a big trump would beat is taken early, not trumped.
- **One rule book for the bot and for rollouts.** :func:`expert_choice` decides from a
  :class:`~durak.observation.SeatView`: the bot makes one from its observation, a
  searcher's rollout (``ismcts:rollout=expert``) from the sampled world it plays
  (:func:`expert_action`), so both play the same rules, written once.
- **Exact two-player endgames.** When the talon is empty and two players are left,
  every card is known: it plays the :class:`~durak.bots.solver.Solver`'s proven best
  move (within a node budget; otherwise the rules above).

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=2)
>>> bots = [ExpertBot(), ExpertBot()]
>>> while not g.is_over:
...     g.apply(bots[g.to_act].choose(g.observation(g.to_act)))
>>> g.is_over
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

from .. import playout
from ..actions import ATTACK, DEFEND, EXCHANGE, SHOW, TAKE, TRANSFER, Action, throw_ins
from ..cards import BEATS, SUIT_MASK, beat_key, iter_bits
from ..errors import ArgumentError
from ..game import DEFENCE, OPEN, PILE, Game
from ..observation import Observation, SeatView
from .base import BaseBot, legal_of
from .solver import Endgame, perfect_information

JACK = 9  # rank indices: 2 = 0 .. ace = 12
QUEEN = 10
KING = 11
# Throw in plain cards up to this rank index while the talon is thick, and pile on up to
# this one for a defender who takes (12: any plain card). Measured against greedy, 200
# games on the same deals: a ten / a jack 0.64, any 0.73 (with TEMPO 9).
THROW_LIMIT = 12
PILE_LIMIT = 12
TEMPO = 9.0  # what losing the turn by taking costs, in the units of ``keep`` (5: 0.51, 7: 0.56)
SOLVE_SECONDS = 0.3  # the endgame search's limit a move, in CPU seconds
LOOP_BOUTS = 150  # no real deal lasts this many bouts: break a circle of play at random


def keep(card: int, trump: int, talon: int) -> float:
    """What ``card`` is worth keeping: plain cards a little by rank, trumps a lot (more
    while the talon lasts, since the deal still runs long)."""
    r = card >> 2
    if card & 3 == trump:
        return (5.0 + 0.7 * r) if talon > 6 else (4.0 + 0.5 * r)
    return 0.4 * r


def burden(card: int, trump: int) -> float:
    """What picking ``card`` up costs: small plain cards are a burden, high cards and
    trumps a gain (negative)."""
    r = card >> 2
    if card & 3 == trump:
        return -(2.0 + 0.3 * r)
    return 0.4 * (7 - r)


def cheapest_cover(
    unbeaten: list[int], by_target: dict[int, list[Action]], cost_of: Callable[[int], float]
) -> tuple[float, Action] | None:
    """The cheapest way to beat every card of ``unbeaten`` (each has beaters in
    ``by_target``), a card costing ``cost_of(card)``: (cost, the action to play first), or
    None when no choice of the four cheapest beaters a card beats them all with
    different cards."""
    options = [
        sorted(by_target[u], key=lambda a: cost_of(a.cards.bit_length() - 1))[:4] for u in unbeaten
    ]
    best: tuple[float, Action] | None = None
    for combo in itertools.product(*options):
        used = 0
        ok = True
        for a in combo:
            if used & a.cards:
                ok = False
                break
            used |= a.cards
        if not ok:
            continue
        cost = sum(cost_of(c) for c in iter_bits(used))
        if best is None or cost < best[0]:
            # Play the cheapest beater first: it shows the least.
            first = min(combo, key=lambda a: cost_of(a.cards.bit_length() - 1))
            best = (cost, first)
    return best


# KEEP[trump][talon > 6][card], BURDEN[trump][card]: keep and burden, looked up instead
# of computed (rollouts call expert_choice on every move); trump 4 is none (trump=none).
# The cards that beat a card: durak.cards.BEATS, the engine's own table.
KEEP = tuple(
    tuple(tuple(keep(c, t, 7 if long else 0) for c in range(52)) for long in (False, True))
    for t in range(5)
)
BURDEN = tuple(tuple(burden(c, t) for c in range(52)) for t in range(5))
# The cards of a mask, lowest first, remembered (most masks recur: the actions' groups,
# a defence's beaters); emptied when it grows past _MEMO_MAX.
_MEMO: dict[int, tuple[int, ...]] = {}
_MEMO_MAX = 200_000


def _bits(m: int) -> tuple[int, ...]:
    got = _MEMO.get(m)
    if got is not None:
        return got
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.clear()
    got = _MEMO[m] = tuple(iter_bits(m))
    return got


def expert_choice(v: SeatView, legal: Sequence[Action]) -> Action:
    """The expert's rules of play (without its exact endgame): the action among ``legal``
    for the seat of ``v``, who is to act.

    >>> from durak import Game, Rules
    >>> g = Game(Rules(), seed=2)
    >>> str(expert_choice(g.view(g.to_act), g.legal_actions()))
    '6♠'
    """
    if len(legal) == 1:
        return legal[0]
    for a in legal:
        if a.kind == EXCHANGE:
            return a  # the lowest trump for the face-up one: never worse
    if v.phase == DEFENCE:
        return _defend(v, legal)
    if v.phase == OPEN:
        return _open(v, legal)
    return _throw(v, legal, v.phase == PILE)


def expert_action(g: Game) -> Action:
    """:func:`expert_choice` for whoever is to act in ``g``, from their view (a
    searcher's rollout, which plays every seat so: ``ismcts:rollout=expert``)."""
    seat = g.to_act
    assert seat is not None
    return expert_choice(g.view(seat), g.moves())


def expert_rollout(g: Game, rng: random.Random, max_moves: int = 400) -> None:
    """Play ``g`` to its end with :func:`expert_action` for every seat (random moves after
    ``max_moves``, as :func:`durak.bots.policy.rollout`)."""
    playout.rollout(g, expert_action, rng, max_moves)


def _threat(v: SeatView) -> int:
    """What the opponents may hold: the cards this seat cannot place, and those known in
    an opponent's hand (a partner's known cards are no threat)."""
    m = v.unseen
    seat = v.seat
    teams = v.teams
    for s, k in enumerate(v.known):
        if s != seat and not (teams and (s - seat) % 2 == 0) and not v.out >> s & 1:
            m |= k
    return m


# -- leading ---------------------------------------------------------------------------
def _open(v: SeatView, legal: Sequence[Action]) -> Action:
    t = v.trump_suit
    talon = v.talon_size
    kp = KEEP[t][talon > 6]
    tmask = SUIT_MASK[t]
    hand = v.hand
    threat = _threat(v) if talon == 0 else 0
    beats = BEATS[beat_key(t, v.spades_by_spades)]
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
            score += 6.0 if talon else 1.0  # lead trumps only when nothing else will do
        if talon == 0:
            # Winners first: cards nothing the opponents may hold can beat.
            if all(not beats[c] & threat for c in cards):
                score -= 6.0
            score -= 0.8 * (n - 1)  # shedding many at once ends the deal sooner
        else:
            # Lead the whole group, but prefer a rank the rest of the hand does not need
            # (a card's index is 4 * rank + suit).
            score += 0.3 * ((hand & ~m) >> (cards[0] & ~3) & 15).bit_count()
        if score < best_score:
            best, best_score = a, score
    return best


# -- throwing in (while the defender beats) and piling on (after a take) -----------------
def _throw(v: SeatView, legal: Sequence[Action], piling: bool) -> Action:
    t = v.trump_suit
    talon = v.talon_size
    kp = KEEP[t][talon > 6]
    tmask = SUIT_MASK[t]
    if talon == 0:
        limit = 12
    elif talon <= 4:
        limit = QUEEN
    else:
        limit = PILE_LIMIT if piling else THROW_LIMIT
    attacks, pass_action = throw_ins(legal)
    best: Action | None = None
    best_score = 1e9
    for a in attacks:
        m: int = a.cards
        if m & tmask and (talon > 0 or piling):
            continue  # no trump to a defender who takes, none at all while the talon lasts
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


# -- defending -------------------------------------------------------------------------
def _defend(v: SeatView, legal: Sequence[Action]) -> Action:
    t = v.trump_suit
    talon = v.talon_size
    kp = KEEP[t][talon > 6]
    hand_size = v.hand_sizes[v.seat]
    unbeaten = [c for c, b in zip(v.attacks, v.beats, strict=True) if b < 0]
    on_table = list(v.attacks) + [c for c in v.beats if c >= 0]
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
            choices.append((-5.0, a))  # a shown trump stays in the hand
        elif k == TRANSFER:
            # passes the bout on, with more to beat
            choices.append((sum(kp[c] for c in _bits(a.cards)) - 3.0, a))
    plan = _plan(unbeaten, by_target, kp)
    if plan is not None:
        choices.append(plan)
    if take is not None:
        pick_up = len(on_table)
        bd = BURDEN[t]
        cost = TEMPO + sum(bd[c] for c in on_table)
        cost += 1.0  # what the attackers will pile on
        if hand_size + pick_up > 10:
            cost += 1.5 * (hand_size + pick_up - 10)
        if talon == 0:
            cost += 10.0  # no draw to make up for it: taking now is close to losing
        choices.append((cost, take))
    if not choices:
        return legal[0]
    return min(choices, key=lambda x: x[0])[1]


def _plan(
    unbeaten: list[int], by_target: dict[int, list[Action]], kp: tuple[float, ...]
) -> tuple[float, Action] | None:
    """The cheapest way to beat every unbeaten card (cost, the action to play first),
    or None when they cannot all be beaten."""
    if not unbeaten or any(u not in by_target for u in unbeaten):
        return None
    if len(unbeaten) == 1:
        # One card to beat: the first cheapest beater (what cheapest_cover finds).
        pick: tuple[float, Action] | None = None
        for a in by_target[unbeaten[0]]:
            c = kp[a.cards.bit_length() - 1]
            if pick is None or c < pick[0]:
                pick = (c, a)
        return pick
    return cheapest_cover(unbeaten, by_target, kp.__getitem__)


class ExpertBot(BaseBot):
    """See the module docstring. ``nodes``: the endgame solver's budget a move."""

    name = "expert"

    def __init__(self, seed: int | None = None, nodes: int = 20_000) -> None:
        if nodes < 0:
            raise ArgumentError(f"expert: nodes must be >= 0, not {nodes}")
        self.rng = random.Random(seed)
        self.nodes = nodes
        self.endgame = Endgame(limit=500_000)

    def reset(self) -> None:
        self.endgame.reset()

    def choose(self, obs: Observation) -> Action:
        legal = legal_of(obs)
        if len(legal) == 1:
            return legal[0]
        if obs.bout >= LOOP_BOUTS and self.rng.random() < 0.3:
            return self.rng.choice(legal)
        for a in legal:
            if a.kind == EXCHANGE:
                return a  # the lowest trump for the face-up one: never worse
        if self.nodes and perfect_information(obs):
            solved = self.endgame.best(obs, self.rng, self.nodes, SOLVE_SECONDS)
            if solved is not None:
                return solved
        return expert_choice(obs.view(), legal)
