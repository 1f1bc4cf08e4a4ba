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
from collections.abc import Callable

from durak.enums import Phase

from ..actions import ATTACK, DEFEND, EXCHANGE, PASS, SHOW, TAKE, TRANSFER, Action
from ..cards import SUIT_MASK, beats_mask, iter_bits
from ..determinize import sample
from ..observation import Observation
from .solver import Deadline, Solver, Unsolved, perfect_information

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


class ExpertBot:
    """See the module docstring. ``nodes``: the endgame solver's budget a move."""

    name = "expert"

    def __init__(self, seed: int | None = None, nodes: int = 20_000) -> None:
        if nodes < 0:
            raise ValueError(f"expert: nodes must be >= 0, not {nodes}")
        self.rng = random.Random(seed)
        self.nodes = nodes
        self._solver: Solver | None = None
        self._solver_for: tuple[object, ...] | None = None

    def reset(self) -> None:
        self._solver = None

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal
        if not legal:
            raise ValueError("not this seat's turn: no legal actions")
        if len(legal) == 1:
            return legal[0]
        if obs.bout >= LOOP_BOUTS and self.rng.random() < 0.3:
            return self.rng.choice(legal)
        for a in legal:
            if a.kind == EXCHANGE:
                return a  # the lowest trump for the face-up one: never worse
        if self.nodes and perfect_information(obs):
            solved = self._solve(obs)
            if solved is not None:
                return solved
        if obs.phase == Phase.DEFEND:
            return self._defend(obs)
        if obs.phase == Phase.ATTACK:
            return self._open(obs)
        return self._throw(obs)

    # -- what the opponents may hold -------------------------------------------------------
    @staticmethod
    def _threat(obs: Observation) -> int:
        team = obs.rules.team_of
        m = int(obs.unseen)
        for s, k in enumerate(obs.known):
            if s != obs.seat and team(s) != team(obs.seat) and not obs.out[s]:
                m |= int(k)
        return m

    # -- exact endgame ---------------------------------------------------------------------
    def _solve(self, obs: Observation) -> Action | None:
        key = (obs.dealer, obs.trump.index, obs.seat, obs.rules)
        if self._solver is None or self._solver_for != key or len(self._solver.table) > 500_000:
            self._solver = Solver(obs.seat)
            self._solver_for = key
        self._solver.max_nodes = self.nodes
        self._solver.deadline = Deadline(cpu=SOLVE_SECONDS)
        try:
            action, _ = self._solver.best_action(sample(obs, self.rng))
        except Unsolved:
            return None
        return action

    # -- leading ---------------------------------------------------------------------------
    def _open(self, obs: Observation) -> Action:
        t = obs.trump_suit
        talon = obs.talon_size
        tmask = SUIT_MASK[t]
        threat = self._threat(obs) if talon == 0 else 0
        hand = int(obs.hand)
        best = obs.legal[0]
        best_score = 1e9
        for a in obs.legal:
            if a.kind != ATTACK:
                continue
            cards = list(iter_bits(a.cards))
            n = len(cards)
            score = max(keep(c, t, talon) for c in cards) - 1.2 * (n - 1)
            if a.cards & tmask:
                score += 6.0 if talon else 1.0  # lead trumps only when nothing else will do
            if talon == 0:
                # Winners first: cards nothing the opponents may hold can beat.
                if all(not beats_mask(c, t) & threat for c in cards):
                    score -= 6.0
                score -= 0.8 * (n - 1)  # shedding many at once ends the deal sooner
            else:
                # Keep one of a rank back to throw in later? No: lead the whole group,
                # but prefer a rank the rest of my hand does not need.
                rank_left = sum(1 for c in iter_bits(hand & ~a.cards) if c >> 2 == cards[0] >> 2)
                score += 0.3 * rank_left
            if score < best_score:
                best, best_score = a, score
        return best

    # -- throwing in (while the defender beats) and piling on (after a take) -----------------
    def _throw(self, obs: Observation) -> Action:
        t = obs.trump_suit
        talon = obs.talon_size
        tmask = SUIT_MASK[t]
        pass_action: Action | None = None
        piling = obs.phase == Phase.PILE_ON
        if talon == 0:
            limit = 12
        elif talon <= 4:
            limit = QUEEN
        else:
            limit = PILE_LIMIT if piling else THROW_LIMIT
        best: Action | None = None
        best_score = 1e9
        for a in obs.legal:
            if a.kind == PASS:
                pass_action = a
                continue
            if a.kind != ATTACK:
                continue
            cards = list(iter_bits(a.cards))
            if a.cards & tmask and (talon > 0 or piling):
                continue  # no trump to a defender who takes, none at all while the talon lasts
            plain = [c >> 2 for c in cards if not (1 << c) & tmask]
            if plain and max(plain) > limit:
                continue
            score = sum(keep(c, t, talon) for c in cards) / len(cards) - 0.5 * len(cards)
            if score < best_score:
                best, best_score = a, score
        if best is not None:
            return best
        return pass_action if pass_action is not None else obs.legal[0]

    # -- defending -------------------------------------------------------------------------
    def _defend(self, obs: Observation) -> Action:
        t = obs.trump_suit
        talon = obs.talon_size
        hand_size = obs.hand_sizes[obs.seat]
        unbeaten = [a.index for a, b in obs.table if b is None]
        on_table = [a.index for a, _ in obs.table] + [b.index for _, b in obs.table if b]
        take: Action | None = None
        choices: list[tuple[float, Action]] = []
        by_target: dict[int, list[Action]] = {}
        for a in obs.legal:
            if a.kind == TAKE:
                take = a
            elif a.kind == DEFEND:
                assert a.target is not None
                by_target.setdefault(a.target.index, []).append(a)
            elif a.kind == SHOW:
                choices.append((-5.0, a))  # a shown trump stays in the hand
            elif a.kind == TRANSFER:
                cost = sum(keep(c, t, talon) for c in iter_bits(a.cards))
                choices.append((cost - 3.0, a))  # passes the bout on, with more to beat
        plan = self._plan(unbeaten, by_target, t, talon)
        if plan is not None:
            cost, first = plan
            choices.append((cost, first))
        if take is not None:
            pick_up = len(on_table)
            cost = TEMPO + sum(burden(c, t) for c in on_table)
            cost += 1.0  # what the attackers will pile on
            if hand_size + pick_up > 10:
                cost += 1.5 * (hand_size + pick_up - 10)
            if talon == 0:
                cost += 10.0  # no draw to make up for it: taking now is close to losing
            choices.append((cost, take))
        if not choices:
            return obs.legal[0]
        return min(choices, key=lambda x: x[0])[1]

    @staticmethod
    def _plan(
        unbeaten: list[int], by_target: dict[int, list[Action]], t: int, talon: int
    ) -> tuple[float, Action] | None:
        """The cheapest way to beat every unbeaten card (cost, the action to play first),
        or None when they cannot all be beaten."""
        if not unbeaten or any(u not in by_target for u in unbeaten):
            return None
        return cheapest_cover(unbeaten, by_target, lambda c: keep(c, t, talon))
