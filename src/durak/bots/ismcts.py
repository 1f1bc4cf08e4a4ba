"""The searching bot: determinized Monte Carlo over the seat's information set, with an
exact endgame solver.

Each iteration deals the cards this seat cannot see at random, consistently with all
it knows (hand sizes, cards seen taken, the trump, suits a player could not beat:
:func:`durak.determinize.sample` with the :class:`~durak.bots.memory.Tracker`'s
exclusions), and plays every candidate action in that same world to the end with the
rule-of-thumb policy for every seat (perfect-information Monte Carlo, "PIMC", with
paired worlds: all candidates meet the same deal, so their difference is measured with
far less noise than separate samples would give). Candidates clearly worse than the
best in paired comparison are dropped, so the budget goes to the close calls.

Opponents are modelled in each world either with the same rules of thumb or, with
probability ``plain``, as PLAIN players (cheapest card first; :data:`policy.PLAIN`),
then dealt hands that agree with what their moves reveal under that model
(:class:`~durak.bots.memory.PlainReader`).

With ``keep=z`` the bot plays the rule-of-thumb move (the heuristic bot's) unless the
search's best beats it in paired comparison by ``z`` standard errors: with a few hundred
rollouts the best mean is mostly noise, and playing it measured worse than the rules of
thumb alone against a careful player (benchmarks/bots/README.md). ``style`` sets the
rollout style of every seat, ``model`` that of the opponents, and ``read=on`` deals
opponents what a careful player's moves reveal (:class:`~durak.bots.memory.CarefulReader`).
``prior`` is the style of the move the search must beat; ``cut=k`` scores two-player
rollouts ``k`` bouts ahead with the learned value of :mod:`durak.bots.evaluate`
(measured no gain; benchmarks/bots/README.md, v6); ``value=net`` scores them with the
network of :mod:`durak.bots.value_net` instead, and ``empty=on`` cuts them when a bout
begins with the talon empty (v10: no gain). ``extend=n`` samples more worlds,
up to ``n`` rollouts, while a candidate leads the prior's move by more than ``close``
standard errors but not yet ``keep`` (level 5: 2,000 with ``model=careful``, v10).
``prior=expert`` makes the move to beat the :class:`~durak.bots.expert.ExpertBot`'s
(its rules without the exact endgame), and ``rollout=expert`` plays every rollout seat
by those rules (:mod:`durak.bots.expert_policy`; about four times the CPU of a
rules-of-thumb rollout); v8 in benchmarks/bots/README.md measures both. ``rollout=own``
plays only this seat's side by them, the opponents by ``model`` (v13: with
``prior=expert`` both measured worse than level 5's rules-of-thumb rollouts).
``belief=n`` deals the worlds from a particle filter of ``n`` guesses of the hidden
hands, weighted by how likely each opponent's moves were for a careful player
(:class:`~durak.bots.belief.Belief`, a move off the model costing a guess ``eps`` of
its weight; level 5: 256, v11). It replaces the uniform deal and the gaps above;
``belief_players=k`` keeps it to games of at most ``k`` players (level 5: two);
``belief_plain=q`` reads moves under the PLAIN model too (measured in v11, not used by
level 5). ``fit=x`` deals uniformly while the model predicts an opponent's moves this
deal at less than ``x`` (level 5: 0.4, v12: it fires at one move in three hundred
against the careful ``expert``; against level 4 it won back the belief's cost in
perevodnoy, little of it in podkidnoy), and with ``hold=on`` for the rest of the deal
once it fired (v12: no measurable gain, not used by level 5). ``dear=z``
lets a dear lead (a king, an ace or a trump led while the talon lasts and the hand
keeps a cheaper plain card) replace the prior's move only by ``z`` standard errors
(v12: no gain, not used by level 5). ``tree=k`` plays this seat's next ``k`` choices
of the current bout after a candidate by a tree over the public moves since the root
(UCB1 with ``explore``, the rules of thumb's choice for a node's first ``warm``
visits), so a candidate is judged by the rest of its bout as the search would play it;
``noise=p`` makes each rollout move a random legal one with probability ``p`` (v14:
neither measured better, not used by level 5). ``switch=careful`` (styles joined by
``+``) judges each candidate by the best of several continuations of this seat's side
(policy switching, v15); ``guard=club`` by the worst for it of several opponents' replies;
``model=expert`` plays the opponents of the rollouts by the expert's rules, a diagnostic
(v15: none of the three measured better, and level 5 uses none).

When two players are left and nothing is hidden (the talon empty, or only the face-up
trump under it): the :class:`~durak.bots.solver.Solver` plays exactly if it finishes
within the budget (``nodes``, default ten a rollout; it stops at 0.6 of the cap).

Budgets: ``time`` (seconds a move) or ``iterations`` (rollouts a move; deterministic
and independent of machine load, so benchmarks use it); ``heads_up`` the rollouts a
move in a two-player game instead (0: ``iterations``). ``seed`` fixes the sampling.
``cap`` (default 0.5) is a hard limit of CPU seconds a move whatever the budget.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable
from functools import partial
from typing import Any

from durak.enums import Phase

from .. import playout
from ..actions import ATTACK, Action
from ..cards import SUIT_MASK, iter_bits
from ..determinize import sample
from ..game import OPEN, OVER, Game
from ..observation import Observation
from . import evaluate, value_net
from .belief import Belief
from .expert import KING, ExpertBot
from .expert_policy import expert_action
from .heuristic import LOOP_BOUTS, HeuristicBot
from .memory import CarefulReader, PlainReader, Tracker
from .policy import PLAIN, SIMPLE, STYLES, rollout, rollout_action
from .solver import Deadline, Solver, Unsolved, perfect_information

# The hard limit of a move in CPU seconds, unless ``cap=`` says otherwise.
CAP = 0.5
# Solver nodes per rollout of budget: one rollout costs about as much CPU as this many
# solver nodes (measured: about 6,000 rollouts and 65,000 nodes a second).
NODES_PER_ROLLOUT = 10
# The most nodes a CPU-second of the move may buy (the compiled solver measured 77,000-
# 100,000 a second, benchmarks/bots/solver_speed.py); the endgame's own CPU stop
# (SOLVE_SHARE) is what bounds its time.
NODES_PER_SECOND = 150_000
# The exact endgame stops at this share of the cap: an unfinished solve leaves a large
# table behind, and freeing or collecting it, and the fallback after it, measured up to
# 0.1 s more (a move of 0.55 s with the solver stopped at 0.45 s, on a loaded machine).
SOLVE_SHARE = 0.6
# ``rollout=``: who plays the rollouts. EXPERT marks a seat that plays by
# expert_policy.expert_action (not a policy.py style).
ROLLOUTS = ("rules", "expert", "own")
EXPERT = -1
# The styles an option may name: policy.py's and ``expert`` (``model``, ``switch``, ``guard``).
NAMED = {**STYLES, "expert": EXPERT}
# ``extend``: more worlds for close calls only until this share of the cap.
EXTEND_SHARE = 0.5
# ``fit``: how many of an opponent's moves must be read before its fit is judged.
FIT_MOVES = 8
# ``value=``: the learned value that scores a rollout stopped at the cut (``cut=``).
# ``empty`` without ``cut``: no limit of bouts.
LONG = 10**6
VALUES = {"logistic": evaluate.value, "net": value_net.value}


def score(g: Game, seat: int) -> float:
    """1 when ``seat``'s side is not durak, 0.5 for a draw, 0 when it is."""
    o = g.outcome
    assert o is not None
    if o.durak is None:
        return 0.5
    return 0.0 if g.rules.team_of(o.durak) == g.rules.team_of(seat) else 1.0


class ISMCTSBot:
    """Determinized search; see the module docstring. ``solver=False`` turns the exact
    endgame off (to measure what it adds)."""

    name = "ismcts"

    # C901 and PLR0913: a bot spec's options (`ismcts:iterations=...`), one keyword each
    def __init__(  # noqa: C901, PLR0913
        self,
        time: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        solver: bool = True,
        mixed: float = 0.0,
        plain: float = 0.5,
        cap: float = CAP,
        keep: float = 0.0,
        style: str = "club",
        model: str = "",
        read: bool = False,
        prior: str = "club",
        nodes: int = 0,
        cut: int = 0,
        extend: int = 0,
        close: float = 1.0,
        rollout: str = "rules",
        heads_up: int = 0,
        value: str = "logistic",
        empty: bool = False,
        belief: int = 0,
        eps: float = 0.1,
        belief_players: int = 0,
        belief_plain: float = 0.0,
        fit: float = 0.0,
        hold: bool = False,
        dear: float = 0.0,
        tree: int = 0,
        explore: float = 0.5,
        warm: int = 8,
        noise: float = 0.0,
        switch: str = "",
        guard: str = "",
    ) -> None:
        if time is None and iterations is None:
            iterations = 300
        for label, v in (("time", time), ("cap", cap)):
            if v is not None and v < 0:
                raise ValueError(f"ismcts: {label} must be >= 0 seconds, not {v}")
        self.time = time
        # A hard limit a move in CPU seconds, whatever the budget (0 = none): the search
        # stops there and plays its best so far. CPU time, not the wall clock, so that a
        # level plays the same on a busy machine; on a free core the two are equal.
        self.cap = float(cap)
        self.iterations = iterations
        self.rng = random.Random(seed)
        self.use_solver = bool(solver)
        # In each sampled world an opponent plays the SIMPLE style with this probability.
        # Off by default: against the greedy bot 0.5 measured 0.740 vs 0.787 for 0 (200
        # paired games at 200 rollouts, within noise but no gain).
        self.mixed = float(mixed)
        # ... and the PLAIN style (cheapest card, beats when it can; policy.PLAIN) with
        # this probability, dealt a hand that agrees with what its moves reveal if it
        # plays so (memory.PlainReader). Half the worlds each way: against the greedy bot
        # 0.885 at 0.5 and 0.878 at 1.0 vs about 0.80-0.82 at 0 (300 paired games, 600
        # rollouts, benchmarks/bots/README.md); the CLUB half hedges against opponents
        # who play better than that.
        self.plain = float(plain)
        # Play the prior's move unless the search's best beats it in paired comparison by
        # ``keep`` standard errors (0: always the best mean).
        self.keep = float(keep)
        if style not in STYLES:
            raise ValueError(f"ismcts: style is one of {', '.join(STYLES)}, not {style!r}")
        self.style = STYLES[style]
        # The style of opponents in the worlds where they are not PLAIN (default: ``style``);
        # ``expert``: the expert's rules, a diagnostic only (v15: what a model that is the
        # pool's expert itself is worth; a score against ``expert`` then no longer
        # measures play against an opponent whose habits the search does not know).
        if model and model not in NAMED:
            raise ValueError(f"ismcts: model is one of {', '.join(NAMED)}, not {model!r}")
        self.model = NAMED[model] if model else self.style
        self.tracker = Tracker()
        self.reader = PlainReader()
        # Deal every opponent what its moves reveal if it plays carefully (in every world
        # where it is not modelled as PLAIN; memory.CarefulReader).
        self.careful: CarefulReader | None = CarefulReader() if read else None
        # The move the search must beat (``keep``) and the order of candidates: the
        # heuristic bot playing this style, or (``prior=expert``) the expert's rules of
        # move choice without its exact endgame (v8, benchmarks/bots/README.md).
        if prior != "expert" and prior not in STYLES:
            raise ValueError(f"ismcts: prior is one of {', '.join(STYLES)}, expert, not {prior!r}")
        self.prior: HeuristicBot | ExpertBot = (
            ExpertBot(seed=seed, nodes=0) if prior == "expert" else HeuristicBot(style=prior)
        )
        # The solver's node budget once nothing is hidden (0: the rollout budget times
        # NODES_PER_ROLLOUT); the cap still bounds it.
        if nodes < 0:
            raise ValueError(f"ismcts: nodes must be >= 0, not {nodes}")
        self.nodes = int(nodes)
        # Two players: stop a rollout when ``cut`` more bouts have begun and score the
        # position with the learned evaluation (durak.bots.evaluate); 0 = to the end.
        if cut < 0:
            raise ValueError(f"ismcts: cut must be >= 0 bouts, not {cut}")
        self.cut = int(cut)
        # The learned value at the cut: the logistic fit of durak.bots.evaluate or the
        # network of durak.bots.value_net (36 cards).
        if value not in VALUES:
            raise ValueError(f"ismcts: value is one of {', '.join(VALUES)}, not {value!r}")
        self.value = VALUES[value]
        # Two players: stop a rollout at the first bout that begins with the talon empty
        # and score it with the learned value (the rules of thumb play endgames
        # carelessly, the bot exactly); with ``cut`` too, whichever comes first.
        self.empty = bool(empty)
        # More worlds for close calls: when the budget is spent and a candidate leads
        # the prior's move by more than ``close`` standard errors but not yet ``keep``,
        # go on up to ``extend`` rollouts in all (0: never; needs ``keep``).
        if extend < 0:
            raise ValueError(f"ismcts: extend must be >= 0 rollouts, not {extend}")
        self.extend = int(extend)
        self.close = float(close)
        # Who plays the rollouts: ``rules`` the styles above (policy.py), ``expert`` every
        # seat by the expert's rules without its exact endgame (expert_policy.py), except
        # the opponents ``plain``/``mixed`` make PLAIN or SIMPLE in a world; ``own`` this
        # seat's side by the expert's rules and the opponents by ``model`` (v13).
        if rollout not in ROLLOUTS:
            raise ValueError(f"ismcts: rollout is one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        self.expert_rollouts = rollout == "expert"
        self.own_rollouts = rollout in ("expert", "own")
        # Rollouts a move in a two-player game, in place of ``iterations`` (0: the same):
        # a game of two spends less CPU a rollout, so it can afford more within the mean
        # a move (v9, benchmarks/bots/README.md).
        if heads_up < 0:
            raise ValueError(f"ismcts: heads_up must be >= 0 rollouts, not {heads_up}")
        self.heads_up = int(heads_up)
        # Deal worlds from a particle filter over the other seats' hidden cards, weighted
        # by how likely their moves were for a careful player (durak.bots.belief; 0: off).
        if belief < 0:
            raise ValueError(f"ismcts: belief must be >= 0 particles, not {belief}")
        self.belief: Belief | None = (
            Belief(belief, eps, rng=random.Random(seed), plain=belief_plain) if belief else None
        )
        # ... only in games of at most this many players (0: any). With three and four
        # players it measured worse than the uniform deal with the suit gaps (v11).
        if belief_players < 0:
            raise ValueError(f"ismcts: belief_players must be >= 0, not {belief_players}")
        self.belief_players = int(belief_players)
        # Deal uniformly again when the model predicted an opponent's moves this deal at
        # less than ``fit`` on average (after FIT_MOVES of them): it misreads that player.
        if not 0.0 <= fit <= 1.0:
            raise ValueError(f"ismcts: fit must be in [0, 1], not {fit}")
        self.fit = float(fit)
        # ... and with ``hold``, for the rest of the deal once it misread one (a running
        # mean that climbs back over the line would turn the belief on again).
        self.hold = bool(hold)
        self._misread: tuple[int, set[int]] = (-1, set())  # (the belief's deal, seats)
        # A dear lead (a king, an ace or a trump led while the talon lasts and the hand
        # holds a cheaper plain card) replaces the prior's move only by ``dear`` standard
        # errors, if that is more than ``keep`` (0: ``keep`` as for any move).
        if dear < 0:
            raise ValueError(f"ismcts: dear must be >= 0 standard errors, not {dear}")
        self.dear = float(dear)
        # Search this seat's own next ``tree`` choices in the current bout (throw-ins,
        # passes, beats, takes after the candidate) with a tree over the public moves
        # since the root, UCB1 with ``explore``, the rules of thumb's choice for a node's
        # first ``warm`` visits (0: off; v14). PIMC alone judges a candidate by the rules
        # of thumb's play after it: one step of improvement on them; the tree lets the
        # rest of the bout be played as the search would play it.
        if tree < 0 or warm < 0 or explore < 0:
            raise ValueError("ismcts: tree, warm and explore must be >= 0")
        self.tree = int(tree)
        self.explore = float(explore)
        self.warm = int(warm)
        # Every rollout move is a uniformly random legal one with probability ``noise``
        # (0: off; v14): a judge that averages over nearby lines of play, not one.
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"ismcts: noise must be in [0, 1], not {noise}")
        self.noise = float(noise)
        # Policy switching (v15): judge a candidate by the best of several continuations
        # of this seat's side, ``style`` and each style of ``switch`` (names joined by
        # ``+``, ``expert`` for the expert's rules), each against the worst for it of the
        # opponents' model and each style of ``guard``. Every world plays each candidate
        # once a pair; a candidate's value is its best pair's mean, chosen over all the
        # worlds (not per world, which would use what the world hides). PIMC with one
        # continuation improves on that one policy; the best of several is at least as
        # good as each, and the worst of several replies keeps a candidate from looking
        # good only against a careless one.
        self.switch = _styles("switch", switch)
        self.guard = _styles("guard", guard)
        if (self.switch or self.guard) and (self.tree or cut or empty):
            raise ValueError(
                "ismcts: switch and guard play rollouts to the end: not with tree, cut or empty"
            )
        self._solver: Solver | None = None
        self._solver_for: tuple[object, ...] | None = None
        self.last_stats: dict[str, Any] = {}

    def reset(self) -> None:
        self.tracker.reset()
        self.reader.reset()
        if self.careful is not None:
            self.careful.reset()
        if self.belief is not None:
            self.belief.reset()
        self._misread = (-1, set())
        self._solver = None

    def observe(self, obs: Observation) -> None:
        self.tracker.update(obs)
        self.reader.update(obs)
        if self.careful is not None:
            self.careful.update(obs)
        belief = self._belief_for(obs.rules.players)
        if belief is not None:
            belief.observe(obs)

    def _belief_for(self, players: int) -> Belief | None:
        """The belief, if it deals the worlds of a game of ``players`` (``belief_players``)."""
        if self.belief is None or 0 < self.belief_players < players:
            return None
        return self.belief

    def choose(self, obs: Observation) -> Action:
        if not obs.legal:
            raise ValueError("not this seat's turn: no legal actions")
        self.observe(obs)
        if len(obs.legal) == 1:
            return obs.legal[0]
        if obs.bout >= LOOP_BOUTS and self.rng.random() < 0.3:
            # Break a circle of play that neither side leaves (see heuristic.LOOP_BOUTS).
            return self.rng.choice(obs.legal)
        return self.evaluate(obs, every_value=False)[0][0]

    # -- search ------------------------------------------------------------------------
    def evaluate(self, obs: Observation, every_value: bool = True) -> list[tuple[Action, float]]:
        """Every legal action with its estimated score for this seat (1 = not durak,
        0.5 = draw, 0 = durak), best first. With ``every_value`` off only the first
        entry is sure to be searched fully (what ``choose`` needs, cheaper for the
        solver)."""
        legal = list(obs.legal)
        if not legal:
            raise ValueError("not this seat's turn: no legal actions")
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
        # One table for the whole endgame: what an unfinished search proved about
        # positions still holds on the next move, so later solves get cheaper.
        fingerprint = (obs.dealer, obs.trump.index, obs.seat, obs.rules)
        if (
            self._solver is None
            or self._solver_for != fingerprint
            or len(self._solver.table) > 2_000_000
        ):
            self._solver = Solver(obs.seat)
            self._solver_for = fingerprint
        solver = self._solver
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
        seat = obs.seat
        first = self.prior.choose(obs)
        order = [first] + [a for a in legal if a is not first]
        alive = list(order)
        # Every candidate's results under each pair of continuations (this side's style
        # and ``switch``'s, by the opponents' model and ``guard``'s); without either, one.
        pairs = [(o, p) for o in [None, *self.switch] for p in [None, *self.guard]]
        series: dict[Action, list[list[float]]] = {a: [[] for _ in pairs] for a in order}
        # What a candidate is judged by: its one series, or (switching) its best pair's.
        results: dict[Action, list[float]] = {a: s[0] for a, s in series.items()}
        exclude = self.tracker.exclude(obs)
        careful = self.careful.exclude(obs) if self.careful is not None else None
        # Worlds where an opponent plays PLAIN also deal it what its PLAIN moves allow.
        read = self.reader.exclude(obs) if self.plain > 0 else None
        rng = self.rng
        team = obs.rules.team_of
        n = obs.rules.players
        rollouts = 0
        worlds = 0
        trees: dict[Action, dict[tuple[Action, ...], dict[Action, list[float]]]] = (
            {a: {} for a in order} if self.tree else {}
        )
        # The extension of close calls stops at half the cap (one measured move ran to
        # 0.503 s when it could go on to the move's own deadline).
        extend_stop = (
            Deadline(cpu=self.cap * EXTEND_SHARE) if self.extend > budget and self.cap > 0 else None
        )
        # The network knows 36 cards only; other decks play their rollouts out.
        cut = self.cut or (LONG if self.empty else 0)
        if n != 2 or (obs.rules.deck != 36 and self.value is value_net.value):
            cut = 0
        stop = obs.bout + cut
        belief = self._belief_for(n)
        if belief is not None:
            # ``choose`` queued ``obs`` already (a repeat is skipped); ``evaluate`` called
            # alone (``durak hint``) has only this one.
            belief.observe(obs)
            belief.sync()
            if self.fit > 0 and self._misreads(belief, seat, n, team):
                belief = None
        while True:
            mine = EXPERT if self.own_rollouts else self.style
            styles = [mine] * n
            for s in range(n):
                if team(s) != team(seat):
                    styles[s] = EXPERT if self.expert_rollouts else self.model
                    r = rng.random()
                    if r < self.plain:
                        styles[s] = PLAIN
                    elif r < self.plain + self.mixed:
                        styles[s] = SIMPLE
            ex = exclude
            if (read is not None and PLAIN in styles) or careful is not None:
                base = exclude or [0] * n
                plain_gaps = read or [0] * n
                careful_gaps = careful or [0] * n
                ex = [
                    b | (plain_gaps[s] if styles[s] == PLAIN else careful_gaps[s])
                    for s, b in enumerate(base)
                ]
            world = belief.world(obs, rng) if belief is not None else sample(obs, rng, ex)
            worlds += 1
            if cut or self.tree:
                for a in alive:
                    g = world.clone()
                    g._apply(a)
                    if cut:
                        results[a].append(
                            _cut_rollout(g, rng, styles, stop, seat, self.value, self.empty)
                        )
                    elif g._phase != OVER:
                        results[a].append(self._tree_rollout(g, trees[a], styles, seat, obs.bout))
                    else:
                        results[a].append(score(g, seat))
                    rollouts += 1
            else:
                rollouts += self._play_world(world, alive, styles, seat, pairs, series)
                if len(pairs) > 1:
                    for a in alive:
                        results[a] = _max_min(series[a], 1 + len(self.guard))
            if deadline is not None and deadline.passed():
                break
            if rollouts >= budget and (
                rollouts >= self.extend
                or (extend_stop is not None and extend_stop.passed())
                or not self._close(alive, results, first)
            ):
                break
            if worlds >= 4 and len(alive) > 1:
                alive = self._prune(alive, results, worlds)
                if len(alive) == 1 and self.time is None:
                    break
        n_alive = {a: i for i, a in enumerate(alive)}

        def mean(a: Action) -> float:
            return _mean(results[a])

        # Survivors first (by mean, ties to the prior's order), then the dropped ones.
        ranked = sorted(
            order,
            key=lambda a: (a not in n_alive, -mean(a), order.index(a)),
        )
        best = ranked[0]
        margin = self.keep
        if self.dear > margin and _dear_lead(best, obs):
            margin = self.dear
        if (
            margin > 0
            and best is not first
            and first in n_alive
            and not _significant(results[best], results[first], margin)
        ):
            ranked.remove(first)
            ranked.insert(0, first)
        self.last_stats = {
            "solver": False,
            "worlds": worlds,
            "rollouts": rollouts,
            "belief": belief is not None,
            "seconds": _time.perf_counter() - start,
        }
        return [(a, mean(a)) for a in ranked]

    def _rollout(self, g: Game, styles: list[int]) -> None:
        """Play ``g`` to its end: the rules of thumb of ``styles``, the expert's rules for
        ``EXPERT`` seats, a random move with probability ``noise``."""
        if self.noise:
            policy = partial(_noisy_action, styles=styles, rng=self.rng, p=self.noise)
            playout.rollout(g, policy, self.rng, 400)
        elif self.own_rollouts or EXPERT in styles:
            playout.rollout(g, partial(_mixed_action, styles=styles), self.rng, 400)
        else:
            rollout(g, self.rng, styles=styles)

    def _tree_rollout(
        self,
        g: Game,
        tree: dict[tuple[Action, ...], dict[Action, list[float]]],
        styles: list[int],
        seat: int,
        bout: int,
    ) -> float:
        """Play ``g`` to its end: this seat's first ``tree`` choices of bout ``bout`` by
        the tree (keyed by the moves since the candidate, all public), the rest by the
        rules of thumb; back the score up the tree's choices."""
        path: tuple[Action, ...] = ()
        chosen: list[tuple[dict[Action, list[float]], Action]] = []
        while g._phase != OVER and g.bout == bout and len(chosen) < self.tree:
            a = _mixed_action(g, styles)
            if g.to_act == seat:
                legal = g._generate()
                if len(legal) > 1:
                    node = tree.setdefault(path, {})
                    a = _ucb(node, legal, a, self.explore, self.warm)
                    chosen.append((node, a))
            g._apply(a)
            path += (a,)
        if g._phase != OVER:
            self._rollout(g, styles)
        r = score(g, seat)
        for node, a in chosen:
            st = node.setdefault(a, [0.0, 0.0])
            st[0] += r
            st[1] += 1.0
        return r

    def _play_world(
        self,
        world: Game,
        alive: list[Action],
        styles: list[int],
        seat: int,
        pairs: list[tuple[int | None, int | None]],
        series: dict[Action, list[list[float]]],
    ) -> int:
        """One rollout of every candidate in ``alive`` for each pair of styles (this
        seat's side, its opponents; None: as ``styles`` has it), appended to ``series``;
        the rollouts played."""
        team = world.rules.team_of
        done = 0
        for i, (own, opp) in enumerate(pairs):
            st = [
                (x if own is None else own)
                if team(s) == team(seat)
                else (x if opp is None else opp)
                for s, x in enumerate(styles)
            ]
            for a in alive:
                g = world.clone()
                g._apply(a)
                if g._phase != OVER:
                    self._rollout(g, st)
                series[a][i].append(score(g, seat))
                done += 1
        return done

    def _misreads(
        self, belief: Belief, seat: int, players: int, team: Callable[[int], int]
    ) -> bool:
        """Whether the belief's model misreads an opponent of ``seat`` (``fit``): now, or
        with ``hold`` at any move of this deal so far."""
        now = {
            s
            for s in range(players)
            if team(s) != team(seat) and _misread(belief.model_fit(s), self.fit)
        }
        if not self.hold:
            return bool(now)
        deal, seen = self._misread
        if deal != belief.deal:
            seen = set()
        seen |= now
        self._misread = (belief.deal, seen)
        return bool(seen)

    def _close(
        self, alive: list[Action], results: dict[Action, list[float]], first: Action
    ) -> bool:
        """Whether a candidate leads the prior's move by more than ``close`` standard
        errors (paired) without the ``keep`` margin yet: worth more worlds (``extend``)."""
        if self.keep <= 0 or first not in alive:
            return False
        rf = results[first]
        for a in alive:
            if a is first:
                continue
            z = _zscore(results[a], rf)
            if self.close < z <= self.keep:
                return True
        return False

    @staticmethod
    def _prune(
        alive: list[Action], results: dict[Action, list[float]], worlds: int
    ) -> list[Action]:
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


def _dear_lead(a: Action, obs: Observation) -> bool:
    """A king, an ace or a trump led at the start of a bout while the talon lasts and
    the hand keeps a plain card cheaper than it (the searcher's habit the issue found)."""
    if a.kind != ATTACK or obs.phase != Phase.ATTACK or obs.talon_size == 0 or obs.table:
        return False
    return dear_cards(a.cards, int(obs.hand), obs.trump_suit)


def dear_cards(mask: int, hand: int, trump_suit: int) -> bool:
    """Whether laying the cards ``mask`` out of ``hand`` gives away a trump or a king or
    an ace while a cheaper plain card stays in the hand."""
    trumps = SUIT_MASK[trump_suit]
    plain = [c >> 2 for c in iter_bits(hand & ~mask & ~trumps)]
    if not plain:
        return False
    if mask & trumps:
        return True
    top = max(c >> 2 for c in iter_bits(mask))
    return top >= KING and min(plain) < top


def _ucb(
    node: dict[Action, list[float]], legal: list[Action], default: Action, c: float, warm: int
) -> Action:
    """The tree's choice at ``node``: ``default`` (the rules of thumb's) for the first
    ``warm`` visits, then every untried action once, then UCB1 with constant ``c``."""
    total = sum(st[1] for st in node.values())
    if total < warm:
        return default
    best = default
    best_u = -1.0
    log_n = math.log(total + 1.0)
    for a in legal:
        st = node.get(a)
        if st is None or st[1] == 0:
            return a
        u = st[0] / st[1] + c * math.sqrt(log_n / st[1])
        if u > best_u:
            best, best_u = a, u
    return best


def _misread(fit: tuple[int, float], least: float) -> bool:
    """Whether a seat's moves read so far (``Belief.model_fit``) say the model misreads it."""
    moves, odds = fit
    return moves >= FIT_MOVES and odds < least


def _mixed_action(g: Game, styles: list[int]) -> Action:
    """The rollout action of whoever is to act: the expert's rules for an ``EXPERT`` seat,
    else the rules of thumb of its style."""
    seat = g.to_act
    assert seat is not None
    if styles[seat] == EXPERT:
        return expert_action(g)
    return rollout_action(g, styles)


def _noisy_action(g: Game, styles: list[int], rng: random.Random, p: float) -> Action:
    """A uniformly random legal action with probability ``p``, else :func:`_mixed_action`."""
    if rng.random() < p:
        legal = g._generate()
        return legal[int(rng.random() * len(legal))]
    return _mixed_action(g, styles)


def _cut_rollout(
    g: Game,
    rng: random.Random,
    styles: list[int],
    stop: int,
    seat: int,
    value: Callable[[Game, int], float] = evaluate.value,
    empty: bool = False,
) -> float:
    """Play ``g`` with the rules of thumb until bout ``stop`` begins, or with ``empty`` a
    bout begins with the talon empty (then the learned ``value`` of the position for
    ``seat``), or the deal ends (then its score)."""
    moves = 0
    while g._phase != OVER:
        if g._phase == OPEN and (g.bout >= stop or (empty and g.talon_size == 0)):
            return value(g, seat)
        if moves >= 400:  # a circle of play: finish the deal as rollouts do
            playout.rollout(g, partial(_mixed_action, styles=styles), rng, 400)
            break
        g._apply(_mixed_action(g, styles))
        moves += 1
    return score(g, seat)


def _mean(r: list[float]) -> float:
    return sum(r) / len(r) if r else 0.0


def _max_min(series: list[list[float]], width: int) -> list[float]:
    """The results of the best row's worst entry: ``series`` holds rows of ``width``
    (this side's continuations by the opponents' replies), best by mean."""
    rows = [series[i : i + width] for i in range(0, len(series), width)]
    return max((min(row, key=_mean) for row in rows), key=_mean)


def _styles(option: str, text: str) -> list[int]:
    """The styles an option names, joined by ``+`` (``expert``: the expert's rules)."""
    names = [name for name in text.split("+") if name]
    for name in names:
        if name not in NAMED:
            raise ValueError(
                f"ismcts: {option} names styles ({', '.join(NAMED)}) joined by '+', not {name!r}"
            )
    return [NAMED[name] for name in names]


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
