"""The searching bot of levels 4 and 5: determinized Monte Carlo over the seat's
information set, with an exact endgame solver.

At each move the bot deals the cards its seat cannot see (a *world*), plays every
candidate action in that same world to the end with the rules of thumb of
:mod:`durak.bots.policy` for every seat, and repeats (perfect-information Monte Carlo,
"PIMC", with paired worlds: all candidates meet the same deal, so their difference is
measured with far less noise than separate samples would give). Candidates clearly worse
than the best in paired comparison are dropped, so the budget goes to the close calls.
Once two players are left and nothing is hidden (the talon empty, or only the face-up
trump under it), the :class:`~durak.bots.solver.Solver` plays exactly if it finishes
within its budget.

Each constructor parameter is one measured choice (``docs/bots.md`` says what else was
tried and why it went; the experiments themselves are at commit 3c46f6a):

- the budget: ``iterations`` rollouts a move, or ``time`` seconds (rollouts are
  deterministic and independent of the machine's load, so levels and benchmarks use
  them); ``heads_up`` rollouts a move in a game of two instead (0: ``iterations``);
  ``cap`` a hard limit of CPU seconds a move whatever the budget (0: none);
- ``model``, the opponent model: the rules-of-thumb style the opponents play in the
  rollouts (``club``, ``careful`` ...: :data:`~durak.bots.policy.STYLES`); this seat's
  side always plays ``club``, the style of the heuristic bot;
- ``worlds``, the world sampler: :class:`~durak.bots.belief.Uniform` (``"uniform"``) or
  :class:`~durak.bots.belief.BeliefWorlds` (``"belief"``), or an instance of either;
- ``decision``, the decision rule: :class:`BestMean` (``"best"``) or
  :class:`KeepPrior` (``"keep"``), or an instance of either;
- ``solver`` and ``nodes``: the exact endgame, and its node budget (0: ten a rollout
  of budget);
- ``seed``: the sampling's random generator.

Level 4 is ``ismcts:iterations=60,solver=off``; level 5 is
``ismcts:iterations=500,heads_up=1000,nodes=60000,model=careful,worlds=belief,decision=keep``.

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=3)
>>> obs = g.observation(g.to_act)
>>> bot = ISMCTSBot(iterations=100, decision=KeepPrior(margin=2.0, extend=0), seed=1)
>>> bot.choose(obs) in obs.legal
True
>>> [round(v, 2) for _, v in bot.evaluate(obs)][:1] != []
True
"""

from __future__ import annotations

import math
import random
import time as _time
from dataclasses import dataclass
from typing import Any, Protocol

from ..actions import Action
from ..determinize import sample
from ..errors import ArgumentError
from ..game import Game
from ..observation import Observation
from .base import BaseBot, legal_of
from .belief import BeliefWorlds, Uniform, Worlds
from .heuristic import LOOP_BOUTS, HeuristicBot
from .policy import CLUB, STYLES, rollout
from .solver import Deadline, Endgame, Unsolved, perfect_information

# The hard limit of a move in CPU seconds, unless ``cap=`` says otherwise.
CAP = 0.5
# Solver nodes per rollout of budget: one rollout costs about as much CPU as this many
# solver nodes (measured: about 6,000 rollouts and 65,000 nodes a second).
NODES_PER_ROLLOUT = 10
# The most nodes a CPU-second of the move may buy (the compiled solver measured 77,000-
# 100,000 a second); the endgame's own CPU stop (SOLVE_SHARE) is what bounds its time.
NODES_PER_SECOND = 150_000
# The exact endgame stops at this share of the cap: an unfinished solve leaves a large
# table behind, and freeing or collecting it, and the fallback after it, measured up to
# 0.1 s more (a move of 0.55 s with the solver stopped at 0.45 s, on a loaded machine).
SOLVE_SHARE = 0.6
# KeepPrior's extension of close calls stops at this share of the cap.
EXTEND_SHARE = 0.5


def score(g: Game, seat: int) -> float:
    """1 when ``seat``'s side is not durak, 0.5 for a draw, 0 when it is."""
    o = g.outcome
    assert o is not None
    if o.durak is None:
        return 0.5
    return 0.0 if g.rules.team_of(o.durak) == g.rules.team_of(seat) else 1.0


# -- decision rules -----------------------------------------------------------------------
Results = dict[Action, list[float]]


class Decision(Protocol):
    """A decision rule: which candidate to play once the worlds are spent, and whether a
    close call is worth more worlds (up to ``extend`` rollouts in all)."""

    @property
    def extend(self) -> int: ...

    def wants_more(
        self, rollouts: int, alive: list[Action], results: Results, first: Action
    ) -> bool: ...

    def rank(
        self, ranked: list[Action], results: Results, first: Action, alive: set[Action]
    ) -> None:
        """Reorder ``ranked`` (the candidates by mean, best first) in place."""
        ...


@dataclass(frozen=True)
class BestMean:
    """Play the candidate with the best mean over the sampled worlds (level 4).

    >>> BestMean().wants_more(0, [], {}, None)  # type: ignore[arg-type]
    False
    """

    extend: int = 0

    def wants_more(
        self, rollouts: int, alive: list[Action], results: Results, first: Action
    ) -> bool:
        return False

    def rank(
        self, ranked: list[Action], results: Results, first: Action, alive: set[Action]
    ) -> None:
        return None


@dataclass(frozen=True)
class KeepPrior:
    """Play the prior's move (the heuristic bot's) unless the search's best beats it in
    paired comparison by ``margin`` standard errors; when the budget is spent and a
    candidate leads the prior's move by more than ``close`` standard errors but not yet
    ``margin``, sample more worlds, up to ``extend`` rollouts in all (and half the cap).
    With a few hundred rollouts the best mean is mostly noise, and playing it measured
    worse than the rules of thumb alone against a careful player (v5). The defaults are
    level 5's.

    >>> KeepPrior().margin, KeepPrior().extend
    (2.0, 2000)
    """

    margin: float = 2.0
    extend: int = 2000
    close: float = 1.0

    def __post_init__(self) -> None:
        if self.margin <= 0 or self.extend < 0:
            raise ArgumentError("keep prior: margin must be > 0 and extend >= 0 rollouts")

    def wants_more(
        self, rollouts: int, alive: list[Action], results: Results, first: Action
    ) -> bool:
        if rollouts >= self.extend or first not in alive:
            return False
        rf = results[first]
        return any(
            a is not first and self.close < _zscore(results[a], rf) <= self.margin for a in alive
        )

    def rank(
        self, ranked: list[Action], results: Results, first: Action, alive: set[Action]
    ) -> None:
        best = ranked[0]
        if (
            best is not first
            and first in alive
            and not _significant(results[best], results[first], self.margin)
        ):
            ranked.remove(first)
            ranked.insert(0, first)


WORLDS = ("uniform", "belief")
DECISIONS: dict[str, Decision] = {"best": BestMean(), "keep": KeepPrior()}


# -- the bot ------------------------------------------------------------------------------
class ISMCTSBot(BaseBot):
    """Determinized search; see the module docstring for its choices.

    >>> from durak import Game, Rules
    >>> g = Game(Rules(), seed=5)
    >>> bot = ISMCTSBot(iterations=50, model="careful", worlds="belief", seed=2)
    >>> ranked = bot.evaluate(g.observation(g.to_act))
    >>> len(ranked) == len(g.legal_actions()), bot.last_stats["belief"]
    (True, True)
    """

    name = "ismcts"

    # C901 and PLR0913: a bot spec's options (`ismcts:iterations=...`), one keyword each
    def __init__(  # noqa: C901, PLR0913
        self,
        iterations: int | None = None,
        time: float | None = None,
        heads_up: int = 0,
        cap: float = CAP,
        seed: int | None = None,
        model: str = "club",
        worlds: str | Worlds = "uniform",
        decision: str | Decision = "best",
        solver: bool = True,
        nodes: int = 0,
    ) -> None:
        if time is None and iterations is None:
            iterations = 300
        for label, v in (("time", time), ("cap", cap), ("heads_up", heads_up), ("nodes", nodes)):
            if v is not None and v < 0:
                raise ArgumentError(f"ismcts: {label} must be >= 0, not {v}")
        self.iterations = iterations
        self.time = time
        self.heads_up = int(heads_up)
        # CPU time, not the wall clock, so that a level plays the same on a busy machine.
        self.cap = float(cap)
        self.rng = random.Random(seed)
        if model not in STYLES:
            raise ArgumentError(f"ismcts: model is one of {', '.join(STYLES)}, not {model!r}")
        self.model = STYLES[model]
        if isinstance(worlds, str):
            if worlds not in WORLDS:
                raise ArgumentError(f"ismcts: worlds is one of {', '.join(WORLDS)}, not {worlds!r}")
            worlds = BeliefWorlds(seed=seed) if worlds == "belief" else Uniform()
        self.worlds: Worlds = worlds
        if isinstance(decision, str):
            if decision not in DECISIONS:
                raise ArgumentError(
                    f"ismcts: decision is one of {', '.join(DECISIONS)}, not {decision!r}"
                )
            decision = DECISIONS[decision]
        self.decision: Decision = decision
        self.use_solver = bool(solver)
        self.nodes = int(nodes)
        # The move the search must beat (KeepPrior) and the first candidate.
        self.prior = HeuristicBot(style="club")
        self.endgame = Endgame()
        self.last_stats: dict[str, Any] = {}

    def reset(self) -> None:
        self.worlds.reset()
        self.endgame.reset()

    def observe(self, obs: Observation) -> None:
        self.worlds.observe(obs)

    def choose(self, obs: Observation) -> Action:
        legal_of(obs)
        self.observe(obs)
        if len(obs.legal) == 1:
            return obs.legal[0]
        if obs.bout >= LOOP_BOUTS and self.rng.random() < 0.3:
            # Break a circle of play that neither side leaves (see heuristic.LOOP_BOUTS).
            return self.rng.choice(obs.legal)
        return self.evaluate(obs, every_value=False)[0][0]

    # -- search --------------------------------------------------------------------------
    def evaluate(self, obs: Observation, every_value: bool = True) -> list[tuple[Action, float]]:
        """Every legal action with its estimated score for this seat (1 = not durak,
        0.5 = draw, 0 = durak), best first. With ``every_value`` off only the first
        entry is sure to be searched fully (what ``choose`` needs, cheaper for the
        solver)."""
        legal = list(legal_of(obs))
        start = _time.perf_counter()
        # The cap less a margin for what follows the last check (one world of rollouts).
        cpu = self.cap * 0.9 if self.cap > 0 else None
        deadline: Deadline | None = None
        if self.time is not None or cpu is not None:
            deadline = Deadline(wall=self.time, cpu=cpu)
        budget = self.iterations if self.iterations is not None else 10**9
        if self.heads_up and obs.rules.players == 2:
            budget = self.heads_up
        if perfect_information(obs):
            # Nothing is hidden: every sampled world is the same, so Monte Carlo would
            # only repeat one rollout. Give the solver the whole budget; if it cannot
            # finish, one rollout per action is all the sampling can tell.
            if self.use_solver:
                # The exact endgame stops sooner than the move (SOLVE_SHARE of the cap).
                stop = (
                    deadline
                    if cpu is None
                    else Deadline(wall=self.time, cpu=self.cap * SOLVE_SHARE)
                )
                solved, _ = self._solve(obs, deadline, stop, budget, every_value)
                if solved is not None:
                    self.last_stats = {"solver": True, "seconds": _time.perf_counter() - start}
                    return solved
            budget = len(legal)
            deadline = None
        return self._pimc(obs, legal, deadline, budget, start)

    def _solve(
        self,
        obs: Observation,
        deadline: Deadline | None,
        stop: Deadline | None,
        budget: int,
        every_value: bool,
    ) -> tuple[list[tuple[Action, float]] | None, int]:
        """Exact values if the solver finishes within the budget (nodes, from the move's
        ``deadline``) and before ``stop``; and the nodes spent."""
        g = sample(obs, self.rng)  # nothing is hidden: this is the real position
        nodes = self.nodes or max(200, budget * NODES_PER_ROLLOUT)
        if deadline is not None:
            nodes = min(nodes, max(200, int(deadline.left() * NODES_PER_SECOND)))
        solver = self.endgame.solver(obs)
        solver.max_nodes = nodes
        solver.deadline = stop
        try:
            if every_value:
                values = solver.action_values(g)
                return [(a, (v + 1) / 2) for a, v in values], solver.nodes
            a, v = solver.best_action(g)
        except Unsolved:
            return None, solver.nodes
        rest = [(x, 0.0) for x in obs.legal if x is not a]
        return [(a, (v + 1) / 2)] + rest, solver.nodes

    # C901: the search loop: candidates x continuations x worlds under one budget
    def _pimc(  # noqa: C901
        self,
        obs: Observation,
        legal: list[Action],
        deadline: Deadline | None,
        budget: int,
        start: float,
    ) -> list[tuple[Action, float]]:
        """Paired worlds until the budget (or the deadline) is spent; every candidate
        with its mean, ranked by the decision rule."""
        seat = obs.seat
        first = self.prior.choose(obs)
        order = [first] + [a for a in legal if a is not first]
        alive = list(order)
        results: Results = {a: [] for a in order}
        deal, from_belief = self.worlds.prepare(obs)
        rollouts = worlds = 0
        # The extension of close calls stops at half the cap (one measured move ran to
        # 0.503 s when it could go on to the move's own deadline).
        extend = self.decision.extend
        extend_stop = (
            Deadline(cpu=self.cap * EXTEND_SHARE) if extend > budget and self.cap > 0 else None
        )
        while True:
            styles = self._styles(obs)
            world = deal(self.rng)
            worlds += 1
            rollouts += self._play_world(world, alive, styles, seat, results)
            if deadline is not None and deadline.passed():
                break
            if rollouts >= budget and (
                (extend_stop is not None and extend_stop.passed())
                or not self.decision.wants_more(rollouts, alive, results, first)
            ):
                break
            if worlds >= 4 and len(alive) > 1:
                alive = _prune(alive, results)
                if len(alive) == 1 and self.time is None:
                    break
        survivors = set(alive)
        # Survivors first (by mean, ties to the prior's order), then the dropped ones.
        ranked = sorted(
            order, key=lambda a: (a not in survivors, -_mean(results[a]), order.index(a))
        )
        self.decision.rank(ranked, results, first, survivors)
        self.last_stats = {
            "solver": False,
            "worlds": worlds,
            "rollouts": rollouts,
            "belief": from_belief,
            "seconds": _time.perf_counter() - start,
        }
        return [(a, _mean(results[a])) for a in ranked]

    def _styles(self, obs: Observation) -> list[int]:
        """The rollout style of every seat in one world: CLUB for this seat's side, the
        model for the opponents."""
        team = obs.rules.team_of
        styles = [CLUB] * obs.rules.players
        for s in range(obs.rules.players):
            if team(s) != team(obs.seat):
                styles[s] = self.model
                # One draw an opponent a world: it chose a mixture of opponent models
                # (none measured better, v5); kept so that every seed plays the games it
                # always played (tests/test_pinned_moves.py).
                self.rng.random()
        return styles

    def _play_world(
        self, world: Game, alive: list[Action], styles: list[int], seat: int, results: Results
    ) -> int:
        """One rollout of every candidate in ``alive`` in ``world``, its score appended to
        ``results``; the rollouts played."""
        for a in alive:
            g = world.clone()
            g.play(a)  # (the engine's declared fast path: a is one of its own moves)
            if not g.is_over:
                rollout(g, self.rng, styles=styles)
            results[a].append(score(g, seat))
        return len(alive)


def _prune(alive: list[Action], results: Results) -> list[Action]:
    """Drop candidates that lose to the leader in paired comparison beyond doubt."""
    # Compare over the most recent worlds every survivor has seen.
    k = min(len(results[a]) for a in alive)
    means = {a: sum(results[a][-k:]) / k for a in alive}
    best = max(alive, key=lambda a: means[a])
    rb = results[best][-k:]
    keep = []
    for a in alive:
        if a is best:
            keep.append(a)
            continue
        ra = results[a][-k:]
        diffs = [x - y for x, y in zip(rb, ra, strict=True)]
        m = sum(diffs) / k
        var = sum((d - m) ** 2 for d in diffs) / max(1, k - 1)
        if m > 0.02 + 2.5 * math.sqrt(var / k + 0.01 / k):
            continue
        keep.append(a)
    return keep


def _mean(r: list[float]) -> float:
    return sum(r) / len(r) if r else 0.0


def _paired(a: list[float], b: list[float]) -> tuple[float, float] | None:
    """The mean lead of ``a`` over ``b`` on their common (paired) worlds and its standard
    error (None with fewer than two)."""
    k = min(len(a), len(b))
    if k < 2:
        return None
    diffs = [x - y for x, y in zip(a[:k], b[:k], strict=True)]
    m = sum(diffs) / k
    var = sum((d - m) ** 2 for d in diffs) / (k - 1)
    return m, math.sqrt(var / k)


def _zscore(a: list[float], b: list[float]) -> float:
    """How many standard errors ``a`` leads ``b`` by over their common (paired) worlds
    (0 with fewer than two, or no spread and no lead)."""
    p = _paired(a, b)
    if p is None:
        return 0.0
    m, se = p
    if se <= 0:
        return math.inf if m > 0 else 0.0
    return m / se


def _significant(a: list[float], b: list[float], z: float) -> bool:
    """Whether ``a`` beats ``b`` over their common (paired) worlds by ``z`` standard errors."""
    p = _paired(a, b)
    if p is None:
        return False
    m, se = p
    return m > 0.01 and m > z * se
