"""The game review: every decision of a finished deal judged from what its seat knew then.

For each decision with more than one legal action, the reviewed seat's
:class:`~durak.observation.Observation` (never the record's hidden cards) is handed to a
:class:`Judge`, which estimates, for every legal action, the chance that the seat ends
as the durak (its side loses, in team play) if it plays that action and everyone plays
on well. The strongest evaluator that reads the table does it:

- **the exact endgame** once two are left and nothing is hidden (the solver's values:
  0%, 50% or 100%, no uncertainty);
- **the learned network** where one reads the table (the 2-player network, else the
  every-table network, :mod:`durak.bots.tablenet`): each action played in ``worlds``
  worlds dealt by level 5's belief (2 players; uniformly consistent with all the seat
  knows at 3-6), each looked ahead ``depth`` moves with the network's moves on every seat
  (:mod:`durak.bots.lookahead`, level 6's search) and valued by the network; an action's
  value is the mean of that and the network's own ``Q`` of it (the two opinions level 6
  adds), its uncertainty the worlds' standard error;
- **level 5's rollouts** (:func:`durak.bots.hint.hint`) where no network reads the table
  (the cheating game).

A move's **loss** is how many points (of 100) of durak chance it adds over the best
action's; its **tag** follows the loss (:data:`TAGS`, thresholds :data:`THRESHOLDS`); a
seat's **accuracy** adapts lichess's game accuracy: each judged move scores
``103.1668 exp(-0.04354 counted) - 3.1669`` (100 for no loss, about 50 at 15 points, 0 by
80), clipped to [0, 100], where ``counted`` is the loss beyond the judge's own standard
error (``max(0, loss - error)``: a difference the judge cannot tell from its noise, the
best being a minimum over noisy estimates, is not held against the move); the seat's
accuracy is the mean of the moves' **volatility-weighted** arithmetic mean and their
harmonic mean (the harmonic one weighs the worst moves more). A move's weight is, as in
lichess, the standard deviation of the seat's durak chance over a window of its
decisions (its chance before each judged move of the deal and after its last; window
``clamp(moves / 10, 2, 8)``), clipped to [0.5, 12]: a move where little is at stake
counts less (:func:`volatility_weights`).
**Luck** is what the result owes to the cards rather than the moves: ``dealt`` is the
seat's chance of not being the durak at its first decision against the fair share
(1 - 1/players; 1/2 by sides in team play), ``drawn`` is the result (100 not the durak,
50 a draw, 0 the durak) minus that first chance plus the points the seat's own moves
lost; ``luck`` is their sum (so ``result = fair + luck - lost``).

>>> from durak import Game, Rules
>>> from durak.bots import make
>>> g = Game(Rules(), seed=3)
>>> bots = [make("heuristic", seed=1), make("greedy", seed=2)]
>>> while not g.is_over:
...     g.apply(bots[g.to_act].choose(g.observation(g.to_act)))
>>> r = review_game(g, Judge(worlds=4, depth=2, seed=0))
>>> {m.tag for m in r.moves} <= set(TAGS), len(r.seats)
(True, 2)
>>> all(0.0 <= s.accuracy <= 100.0 for s in r.seats)
True
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .actions import Action
from .bots.belief import BeliefWorlds
from .bots.learned import DEFAULT_WEIGHTS, TABLE_WEIGHTS, load_net, load_table
from .bots.lookahead import Network, world_values
from .bots.solver import Solver, Unsolved, perfect_information
from .bots.tablenet import reads as table_reads
from .determinize import sample
from .errors import ArgumentError
from .game import Game
from .observation import Observation

TAGS = ("best", "good", "inaccuracy", "mistake", "blunder")
# a move's tag: the first whose bound its loss (points of durak chance) stays under
THRESHOLDS = {"best": 1.0, "good": 4.0, "inaccuracy": 8.0, "mistake": 16.0}
REVIEW_VERSION = 1


def tag_of(loss: float) -> str:
    """The tag of a move that lost ``loss`` points of durak chance.

    >>> [tag_of(x) for x in (0.0, 2.0, 5.0, 10.0, 30.0)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    for tag, bound in THRESHOLDS.items():
        if loss < bound:
            return tag
    return "blunder"


def move_accuracy(loss: float) -> float:
    """lichess's per-move accuracy, on points of durak chance lost (0 → 100).

    >>> round(move_accuracy(0.0), 1), round(move_accuracy(15.0), 1), move_accuracy(100.0)
    (100.0, 50.5, 0.0)
    """
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def volatility_weights(chances: Sequence[float]) -> list[float]:
    """lichess's weights for the moves between ``chances`` (a seat's durak chance before
    each of its judged moves of a deal and after the last): move ``i``'s weight is the
    standard deviation of the chances over a window of ``clamp(moves / 10, 2, 8)`` of
    them (the first windows repeated for the first moves), clipped to [0.5, 12].

    >>> volatility_weights([50.0, 50.0, 70.0, 70.0])
    [0.5, 10.0, 0.5]
    """
    moves = len(chances) - 1
    if moves < 1:
        return []
    size = max(2, min(8, moves // 10))
    windows = [chances[:size]] * (size - 2)
    windows += [chances[i : i + size] for i in range(len(chances) - size + 1)]
    return [min(12.0, max(0.5, statistics.pstdev(w))) for w in windows]


def seat_accuracy(moves: Sequence[MoveReview]) -> float:
    """A seat's accuracy over its judged ``moves`` (in the order played, one deal or
    several): the mean of their volatility-weighted arithmetic and plain harmonic
    accuracy, each move's loss counted beyond the judge's error (100 with no judged move).
    """
    if not moves:
        return 100.0
    acc = [move_accuracy(max(0.0, m.loss - m.error)) for m in moves]
    weights: list[float] = []
    for deal in dict.fromkeys(m.deal for m in moves):
        mine = [m for m in moves if m.deal == deal]
        weights += volatility_weights([m.before for m in mine] + [mine[-1].after])
    mean = sum(a * w for a, w in zip(acc, weights, strict=True)) / sum(weights)
    harmonic = len(acc) / sum(1.0 / max(a, 1.0) for a in acc)
    return (mean + harmonic) / 2


@dataclass(frozen=True)
class Estimate:
    """One action's durak chance (0-100) and its standard error, and how it was found
    (``exact``, ``network``, ``rollouts``)."""

    durak: float
    error: float
    how: str


@dataclass
class MoveReview:
    """One judged decision: chances are the seat's durak chance in percent."""

    deal: int
    ply: int
    seat: int
    action: str
    best: str
    loss: float
    tag: str
    before: float
    after: float
    after_best: float
    error: float
    how: str
    legal: int


@dataclass
class SeatReview:
    """One seat over the reviewed deals (see the module docstring for the formulas)."""

    seat: int
    name: str
    accuracy: float
    tags: dict[str, int]
    moves: int
    lost: float
    luck: float
    dealt: float
    drawn: float
    result: float
    expected: float


@dataclass
class Review:
    """A record's review: its judged moves, per-seat figures and each deal's curve (the
    durak chance of every reviewed seat after each of its judged moves)."""

    rules: str
    names: list[str]
    moves: list[MoveReview] = field(default_factory=list)
    seats: list[SeatReview] = field(default_factory=list)
    deals: int = 0
    in_play: bool = False

    def to_json(self) -> dict[str, Any]:
        """The documented JSON form (docs/review.md, docs/review.schema.json)."""
        return {
            "version": REVIEW_VERSION,
            "rules": self.rules,
            "names": self.names,
            "deals": self.deals,
            "in_play": self.in_play,
            "thresholds": THRESHOLDS,
            "moves": [asdict(m) for m in self.moves],
            "seats": [asdict(s) for s in self.seats],
        }


class Judge:
    """The estimates of the module docstring; ``worlds`` and ``depth`` trade time for
    precision, ``seed`` makes a review repeatable. Deterministic for a seed: the same
    record gives the same review."""

    def __init__(
        self, worlds: int = 16, depth: int = 4, seed: int = 0, rollouts: int = 400
    ) -> None:
        if worlds < 1 or depth < 1 or rollouts < 1:
            raise ArgumentError("worlds, depth and rollouts: at least 1")
        self.worlds, self.depth, self.seed, self.rollouts = worlds, depth, seed, rollouts
        self.rng = random.Random(seed)
        self._two = load_net(DEFAULT_WEIGHTS)
        self._table = load_table(TABLE_WEIGHTS) if _exists(TABLE_WEIGHTS) else None

    def evaluator(self, obs: Observation) -> str:
        """Which evaluator judges ``obs``'s position: exact, network or rollouts."""
        if perfect_information(obs):
            return "exact"
        return "network" if self._network(obs) is not None else "rollouts"

    def _network(self, obs: Observation) -> Network | None:
        if self._two.reads(obs.rules):
            return self._two
        if self._table is not None and table_reads(obs.rules) == "":
            return self._table
        return None

    def estimates(self, obs: Observation, sampler: BeliefWorlds) -> list[Estimate]:
        """Each of ``obs.legal``'s estimate, in order."""
        if perfect_information(obs):
            exact = self._exact(obs)
            if exact is not None:
                return exact
        net = self._network(obs)
        if net is None:
            return self._rollouts(obs)
        return self._looked_ahead(net, obs, sampler)

    def _exact(self, obs: Observation) -> list[Estimate] | None:
        solver = Solver(obs.seat, max_nodes=200_000)
        try:
            values = dict(solver.action_values(sample(obs, self.rng)))
        except Unsolved:
            return None
        return [Estimate(50.0 * (1 - values[a]), 0.0, "exact") for a in obs.legal]

    def _rollouts(self, obs: Observation) -> list[Estimate]:
        from .bots.hint import hint

        scores = dict(hint(obs, iterations=self.rollouts, seed=self.rng.getrandbits(32)))
        # (a rollout estimate's error: that of a mean of about rollouts/actions outcomes)
        n = max(1, self.rollouts // len(obs.legal))
        return [
            Estimate(100 * (1 - scores[a]), 100 * 0.5 / math.sqrt(n), "rollouts") for a in obs.legal
        ]

    def _looked_ahead(
        self, net: Network, obs: Observation, sampler: BeliefWorlds
    ) -> list[Estimate]:
        import numpy as np

        legal = list(obs.legal)
        deal, _ = sampler.prepare(obs)
        worlds = [deal(self.rng) for _ in range(self.worlds)]
        root = net.q_of([worlds[0]], [legal])  # (the seat's own view: any world gives it)
        values = world_values(net, obs.seat, legal, worlds, self.depth)
        mean = values.mean(axis=1)
        err = values.std(axis=1) / math.sqrt(len(worlds))
        # (a network's Q may stray a little past ±1: a chance stays in [0, 100])
        value = np.clip((mean + root) / 2, -1.0, 1.0)
        return [
            Estimate(float(50.0 * (1 - v)), float(25.0 * e), "network")
            for v, e in zip(value, err, strict=True)
        ]


def _exists(path: str) -> bool:
    import os

    return os.path.exists(path)


def _fair(g: Game) -> float:
    """The fair chance (percent) of not being the durak at this table."""
    r = g.rules
    return 50.0 if r.teams != "none" else 100.0 * (1 - 1 / r.players)


def _result(g: Game, seat: int) -> float:
    o = g.outcome
    if o is None or o.durak is None:
        return 50.0
    return 0.0 if g.rules.team_of(o.durak) == g.rules.team_of(seat) else 100.0


Progress = Callable[[int, int], None]


def review_game(
    game: Game,
    judge: Judge,
    seats: Sequence[int] | None = None,
    deal: int = 1,
    progress: Progress | None = None,
    review: Review | None = None,
) -> Review:
    """The review of one deal (``seats``: whose decisions; all by default). Each decision
    is judged from its seat's observation alone. A deal still in play is reviewed up to
    its last move (the web's review of one's own seat during a deal): ``in_play`` is set
    and, with no result yet, it adds only moves, tags, accuracy and points lost to the
    seats' figures (no luck, result or expectation)."""
    rules = game.rules
    seats = list(range(rules.players)) if seats is None else list(seats)
    for s in seats:
        if not 0 <= s < rules.players:
            raise ArgumentError(f"seat: {s} is no seat of a {rules.players}-player game")
    if review is None:
        review = Review(str(rules), [f"Seat {s}" for s in range(rules.players)])
    samplers = {s: BeliefWorlds(seed=judge.seed * 31 + s) for s in seats}
    g = game.fresh()
    total = len(game.history)
    for ply, action in enumerate(game.history):
        if progress is not None:
            progress(ply, total)
        mover = g.to_act
        assert mover is not None
        for s, sampler in samplers.items():
            if s != mover:
                sampler.observe(g.observation(s))
        obs = g.observation(mover)
        if mover in samplers and len(obs.legal) > 1:
            review.moves.append(_judge_move(judge, obs, samplers[mover], action, deal, ply))
        g.apply(action)
    review.in_play = not game.is_over
    if not review.in_play:
        review.deals += 1
    _add_seats(review, game, seats, deal)
    return review


def _judge_move(
    judge: Judge, obs: Observation, sampler: BeliefWorlds, action: Action, deal: int, ply: int
) -> MoveReview:
    est = judge.estimates(obs, sampler)
    legal = list(obs.legal)
    i_best = min(range(len(legal)), key=lambda i: est[i].durak)
    i_played = legal.index(action)
    best, played = est[i_best], est[i_played]
    loss = max(0.0, played.durak - best.durak)
    return MoveReview(
        deal=deal,
        ply=ply,
        seat=obs.seat,
        action=str(action),
        best=str(legal[i_best]),
        loss=round(loss, 2),
        tag=tag_of(loss),
        before=round(best.durak, 2),
        after=round(played.durak, 2),
        after_best=round(best.durak, 2),
        error=round(max(best.error, played.error), 2),
        how=best.how,
        legal=len(legal),
    )


def _add_seats(review: Review, game: Game, seats: Sequence[int], deal: int) -> None:
    """Fold this deal into the per-seat figures (accumulated over a match's deals)."""
    by_seat = {s.seat: s for s in review.seats}
    fair = _fair(game)
    for s in seats:
        mine = [m for m in review.moves if m.seat == s and m.deal == deal]
        lost = sum(m.loss for m in mine)
        expected = result = dealt = drawn = 0.0
        if game.is_over:  # (a deal in play has no result yet: its luck is not known)
            expected = 100.0 - mine[0].before if mine else fair
            result = _result(game, s)
            dealt, drawn = expected - fair, result - expected + lost
        old = by_seat.get(s)
        if old is None:
            old = SeatReview(s, review.names[s], 0.0, dict.fromkeys(TAGS, 0), 0, 0.0, 0.0,
                             0.0, 0.0, 0.0, 0.0)  # fmt: skip
            review.seats.append(old)
            by_seat[s] = old
        for m in mine:
            old.tags[m.tag] += 1
        old.moves += len(mine)
        old.lost = round(old.lost + lost, 2)
        old.dealt = round(old.dealt + dealt, 2)
        old.drawn = round(old.drawn + drawn, 2)
        old.luck = round(old.dealt + old.drawn, 2)
        old.result = round(old.result + result, 2)
        old.expected = round(old.expected + expected, 2)
        every = [m for m in review.moves if m.seat == s]
        old.accuracy = round(seat_accuracy(every), 1)
    review.seats.sort(key=lambda x: x.seat)
