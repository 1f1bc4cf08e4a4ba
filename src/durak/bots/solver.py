"""Exact play for endgames of perfect information: two players are left and the talon
is empty or holds only the face-up trump, so every card is known (each seat's hand is
the cards it cannot see; :func:`perfect_information`).

Alpha-beta over the engine's own :class:`~durak.game.Game` (so every rule and option
holds exactly), with a transposition table keyed on everything that decides the rest
of the deal, moves ordered by the rule-of-thumb policy, and a node budget: when the
budget or the :class:`Deadline` runs out :class:`Unsolved` is raised and the caller
falls back to search.

Values are from one seat's side: +1 the other side is durak, 0 a draw, -1 its own
side is durak.

"""

from __future__ import annotations

import random
from time import perf_counter, thread_time

from durak.enums import Phase

from ..actions import Action
from ..determinize import sample
from ..game import Game
from ..observation import Observation
from ..playout import outcome_value
from .policy import rollout_action

EXACT, LOWER, UPPER = 0, 1, 2
MAX_DEPTH = 300  # deeper lines count as unsolved (and keep clear of Python's recursion limit)


class Unsolved(Exception):
    """The node budget ran out before the position was solved."""


class Deadline:
    """When a move must be decided: ``wall`` seconds by the clock on the wall and/or
    ``cpu`` seconds of this thread's CPU time from now (None: no such limit).

    The CPU limit is what a move costs on this class of machine whatever else it runs,
    so that a level plays the same on a busy machine; the wall limit is what a person
    waits.

    >>> d = Deadline(wall=None, cpu=10.0)
    >>> d.passed(), 9.0 < d.left() <= 10.0
    (False, True)
    """

    __slots__ = ("wall", "cpu")

    def __init__(self, wall: float | None = None, cpu: float | None = None) -> None:
        self.wall = perf_counter() + wall if wall is not None else None
        self.cpu = thread_time() + cpu if cpu is not None else None

    def passed(self) -> bool:
        return (self.wall is not None and perf_counter() >= self.wall) or (
            self.cpu is not None and thread_time() >= self.cpu
        )

    def left(self) -> float:
        """Seconds left (the smaller of the two limits; infinity without either)."""
        out = float("inf")
        if self.wall is not None:
            out = self.wall - perf_counter()
        if self.cpu is not None:
            out = min(out, self.cpu - thread_time())
        return out


def perfect_information(obs: Observation) -> bool:
    """True when ``obs``'s seat can place every card: two players left and nothing hidden
    in the talon (empty, or only the face-up trump left under it), so the opponent
    holds exactly the cards this seat cannot see."""
    if sum(not o for o in obs.out) != 2 or obs.phase == Phase.OVER:
        return False
    return obs.talon_size == 0 or (obs.talon_size == 1 and obs.trump_under_talon)


def solvable(g: Game) -> bool:
    """True when ``g`` is an endgame of perfect information: an empty talon, two left."""
    return g.talon_size == 0 and not g.is_over and sum(not o for o in g.out) == 2


class Solver:
    """Alpha-beta with a transposition table for ``seat``; at most ``max_nodes`` nodes
    per :meth:`value` or :meth:`action_values` call (None: no limit)."""

    def __init__(self, seat: int, max_nodes: int | None = 200_000) -> None:
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        # Checked every 256 nodes: the node budget is an estimate of time that a slow
        # position or a loaded machine can overrun.
        self.deadline: Deadline | None = None
        # value + 1, flag and best move + 1 packed in one int (an int is never tracked by
        # the garbage collector): (v + 1) + 3 * flag + 9 * (move + 1)
        self.table: dict[tuple[object, ...], int] = {}
        # Positions on the current line: with transfers the cards can go round and round
        # (taken, transferred back, taken again) and a position can repeat. A repeat is
        # scored as a draw: neither side could force progress along that line.
        self.path: set[tuple[object, ...]] = set()

    def _ordered(self, g: Game, hint: int, legal: list[Action] | None = None) -> list[Action]:
        """The legal actions (``legal``, if the caller has them: not changed), the table's
        best move (``hint``, an index into them) first, else the rule-of-thumb move."""
        legal = g.legal_actions() if legal is None else list(legal)
        if len(legal) > 1:
            first = legal[hint] if 0 <= hint < len(legal) else rollout_action(g)
            legal.remove(first)
            legal.insert(0, first)
        return legal

    # C901: alpha-beta with the end, the memo and the move order inline (compiled hot path)
    def _search(self, g: Game, alpha: int, beta: int) -> int:  # noqa: C901
        if g.is_over:
            return outcome_value(g, self.seat)
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Unsolved
        if self.deadline is not None and not self.nodes & 255 and self.deadline.passed():
            raise Unsolved
        key = g.position_key()
        if key in self.path:
            return 0
        if len(self.path) > MAX_DEPTH:
            raise Unsolved
        hint = -1
        hit = self.table.get(key)
        if hit is not None:
            v = hit % 3 - 1
            flag = hit // 3 % 3
            hint = hit // 9 - 1
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
        best_move = -1
        self.path.add(key)
        legal = g.legal_actions()
        try:
            for a in self._ordered(g, hint, legal):
                child = g.clone()
                child.play(a)
                v = self._search(child, alpha, beta)
                if maximize:
                    if v > best:
                        best = v
                        best_move = legal.index(a)
                        alpha = max(alpha, v)
                elif v < best:
                    best = v
                    best_move = legal.index(a)
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
        self.table[key] = (best + 1) + 3 * flag + 9 * (best_move + 1)
        return best

    def value(self, g: Game) -> int:
        """The exact value of ``g`` for ``seat`` (raises :class:`Unsolved` over budget)."""
        self.nodes = 0
        self.path.clear()
        return self._search(g, -1, 1)

    def best_action(self, g: Game) -> tuple[Action, int]:
        """The best action of the player to act (who must be on ``seat``'s side) and its
        value, by null-window tests (is there a win? else a draw?): cheaper than
        :meth:`action_values`."""
        assert g.rules.team_of(g.to_act) == g.rules.team_of(self.seat)  # type: ignore[arg-type]
        self.nodes = 0
        self.path.clear()
        order = self._ordered(g, -1)
        children = []
        for a in order:
            child = g.clone()
            child.play(a)
            children.append(child)
        for target in (1, 0):
            for a, child in zip(order, children, strict=True):
                if self._search(child, target - 1, target) >= target:
                    return a, target
        return order[0], -1

    def action_values(self, g: Game) -> list[tuple[Action, int]]:
        """Every legal action of ``g`` with its exact value for ``seat``, best first for
        the player to act (raises :class:`Unsolved` over budget)."""
        self.nodes = 0
        self.path.clear()
        out = []
        for a in g.legal_actions():
            child = g.clone()
            child.play(a)
            out.append((a, self._search(child, -1, 1)))
        mover_is_me = g.rules.team_of(g.to_act) == g.rules.team_of(self.seat)  # type: ignore[arg-type]
        out.sort(key=lambda x: -x[1] if mover_is_me else x[1])
        return out


def brute_force(g: Game, seat: int, max_nodes: int | None = None) -> int:
    """Plain minimax over every line of play, no pruning, no table: the solver's reference
    in tests. Raises :class:`Unsolved` after ``max_nodes`` positions."""
    count = [0]

    def search(g: Game) -> int:
        if g.is_over:
            return outcome_value(g, seat)
        count[0] += 1
        if max_nodes is not None and count[0] > max_nodes:
            raise Unsolved
        values = []
        for a in g.legal_actions():
            child = g.clone()
            child.play(a)
            values.append(search(child))
        mine = g.rules.team_of(g.to_act) == g.rules.team_of(seat)  # type: ignore[arg-type]
        return max(values) if mine else min(values)

    return search(g)


class Endgame:
    """One seat's exact endgames over the moves of its deals: :meth:`solver` gives the
    :class:`Solver` for a position of perfect information, the same one (its table kept)
    while the deal goes on, since what an unfinished search proved about positions still
    holds on the next move and later solves get cheaper; a new one for another deal or
    seat, or once the table holds ``limit`` positions.

    >>> from durak import Game, Rules
    >>> e = Endgame()
    >>> g = Game(Rules(), seed=1)
    >>> e.solver(g.observation(0)) is e.solver(g.observation(0))
    True
    """

    def __init__(self, limit: int = 2_000_000) -> None:
        self.limit = limit
        self._solver: Solver | None = None
        self._for: tuple[object, ...] | None = None

    def reset(self) -> None:
        self._solver = None

    def best(self, obs: Observation, rng: random.Random, nodes: int, cpu: float) -> Action | None:
        """The exact best move of ``obs`` (a position of perfect information) if the
        solver finishes within ``nodes`` nodes and ``cpu`` seconds of CPU, else None."""
        solver = self.solver(obs)
        solver.max_nodes, solver.deadline = nodes, Deadline(cpu=cpu)
        try:
            # nothing is hidden: the sampled world is the real position
            return solver.best_action(sample(obs, rng))[0]
        except Unsolved:
            return None

    def solver(self, obs: Observation) -> Solver:
        fingerprint = (obs.dealer, obs.trump, obs.trump_suit, obs.seat, obs.rules)
        solver = self._solver
        if solver is None or self._for != fingerprint or len(solver.table) > self.limit:
            solver = self._solver = Solver(obs.seat)
            self._for = fingerprint
        return solver
