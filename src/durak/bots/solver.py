"""Exact play for endgames of perfect information: the talon is empty and two players
are left, so every card is known (each seat's hand is the cards it cannot see).

Alpha-beta over the engine's own :class:`~durak.game.Game` (so every rule and option
holds exactly), with a transposition table keyed on everything that decides the rest
of the deal, moves ordered by the rule-of-thumb policy, and a node budget: when the
budget runs out :class:`Unsolved` is raised and the caller falls back to search.

Values are from one seat's side: +1 the other side is durak, 0 a draw, -1 its own
side is durak.

"""

from __future__ import annotations

from ..actions import Action
from ..game import OVER, Game
from .policy import rollout_action

EXACT, LOWER, UPPER = 0, 1, 2
MAX_DEPTH = 300  # deeper lines count as unsolved (and keep clear of Python's recursion limit)


class Unsolved(Exception):
    """The node budget ran out before the position was solved."""


def solvable(g: Game) -> bool:
    """True when ``g`` is an endgame of perfect information: an empty talon, two left."""
    return g.talon_size == 0 and g._phase != OVER and sum(not o for o in g.out) == 2


def outcome_value(g: Game, seat: int) -> int:
    """+1 / 0 / -1: the finished deal ``g`` from ``seat``'s side."""
    o = g.outcome
    assert o is not None
    if o.durak is None:
        return 0
    return -1 if g.rules.team_of(o.durak) == g.rules.team_of(seat) else 1


class Solver:
    """Alpha-beta with a transposition table for ``seat``; at most ``max_nodes`` nodes
    per :meth:`value` or :meth:`action_values` call (None: no limit)."""

    def __init__(self, seat: int, max_nodes: int | None = 200_000) -> None:
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        # Positions on the current line: with transfers the cards can go round and round
        # (taken, transferred back, taken again) and a position can repeat. A repeat is
        # scored as a draw: neither side could force progress along that line.
        self.path: set[tuple[object, ...]] = set()

    def _key(self, g: Game) -> tuple[object, ...]:
        key: tuple[object, ...] = (
            tuple(g.hands), tuple(g._att), tuple(g._beat), g._phase, g.to_act, g.attacker,
            g.defender, g.first_attacker, g._tpos, g.cap, g._shown, g._throwers,
            g.bout == 0, tuple(g.out),
        )
        if g.rules.scoring != "standard":
            key += (tuple(g.tally), tuple(g.out_order))
        return key

    def _ordered(self, g: Game) -> list[Action]:
        legal = g.legal_actions()
        if len(legal) > 1:
            first = rollout_action(g)
            legal.remove(first)
            legal.insert(0, first)
        return legal

    def _search(self, g: Game, alpha: int, beta: int) -> int:
        if g._phase == OVER:
            return outcome_value(g, self.seat)
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Unsolved
        key = self._key(g)
        if key in self.path:
            return 0
        if len(self.path) > MAX_DEPTH:
            raise Unsolved
        hit = self.table.get(key)
        if hit is not None:
            v, flag = hit
            if flag == EXACT:
                return v
            if flag == LOWER and v >= beta:
                return v
            if flag == UPPER and v <= alpha:
                return v
        a0, b0 = alpha, beta
        team = g.rules.team_of
        maximize = team(g.to_act) == team(self.seat)  # type: ignore[arg-type]
        best = -2 if maximize else 2
        self.path.add(key)
        try:
            for a in self._ordered(g):
                child = g.clone()
                child._apply(a)
                v = self._search(child, alpha, beta)
                if maximize:
                    if v > best:
                        best = v
                        alpha = max(alpha, v)
                elif v < best:
                    best = v
                    beta = min(beta, v)
                if alpha >= beta:
                    break
        finally:
            self.path.discard(key)
        if best <= a0:
            flag = UPPER
        elif best >= b0:
            flag = LOWER
        else:
            flag = EXACT
        self.table[key] = (best, flag)
        return best

    def value(self, g: Game) -> int:
        """The exact value of ``g`` for ``seat`` (raises :class:`Unsolved` over budget)."""
        self.nodes = 0
        self.path.clear()
        return self._search(g, -1, 1)

    def best_action(self, g: Game) -> tuple[Action, int]:
        """The best action of the player to act (who must be on ``seat``'s side) and its
        value, searching with a narrowing window: cheaper than :meth:`action_values`."""
        assert g.rules.team_of(g.to_act) == g.rules.team_of(self.seat)  # type: ignore[arg-type]
        self.nodes = 0
        self.path.clear()
        best: tuple[Action, int] | None = None
        for a in self._ordered(g):
            child = g.clone()
            child._apply(a)
            lo = best[1] if best is not None else -2
            v = self._search(child, max(lo, -1), 1)
            if best is None or v > best[1]:
                best = (a, v)
            if v == 1:
                break
        assert best is not None
        return best

    def action_values(self, g: Game) -> list[tuple[Action, int]]:
        """Every legal action of ``g`` with its exact value for ``seat``, best first for
        the player to act (raises :class:`Unsolved` over budget)."""
        self.nodes = 0
        self.path.clear()
        out = []
        for a in g.legal_actions():
            child = g.clone()
            child._apply(a)
            out.append((a, self._search(child, -1, 1)))
        mover_is_me = g.rules.team_of(g.to_act) == g.rules.team_of(self.seat)  # type: ignore[arg-type]
        out.sort(key=lambda x: -x[1] if mover_is_me else x[1])
        return out


def brute_force(g: Game, seat: int, max_nodes: int | None = None) -> int:
    """Plain minimax over every line of play, no pruning, no table: the solver's reference
    in tests. Raises :class:`Unsolved` after ``max_nodes`` positions."""
    count = [0]

    def search(g: Game) -> int:
        if g._phase == OVER:
            return outcome_value(g, seat)
        count[0] += 1
        if max_nodes is not None and count[0] > max_nodes:
            raise Unsolved
        values = []
        for a in g.legal_actions():
            child = g.clone()
            child._apply(a)
            values.append(search(child))
        mine = g.rules.team_of(g.to_act) == g.rules.team_of(seat)  # type: ignore[arg-type]
        return max(values) if mine else min(values)

    return search(g)
