"""Deep Monte-Carlo self-play at every table: the trainer of the every-table network.

DouZero's learner (Zha et al. 2021), as ``benchmarks/rl/dmc.py`` ran it for the 2-player
network, widened to every table: ``--envs`` deals at a time, each dealt with a rule set
drawn from :mod:`durak.learn.tables` (2-6 players, teams, every deck, trump kind and
scoring); **every seat of every deal is the learner** (one network, one forward pass a
step for all the deals' seats to act), choosing epsilon-greedily; each decision is a
sample ``(s, a, G)`` with ``G`` the seat's outcome: +1 not the durak (in teams: its side
does not lose), -1 the durak, 0 a draw (a deal cut off by the action limit is dropped).
So ``Q(s, a)`` is the expected outcome of the deciding seat, and ``(1 - Q) / 2`` about
its chance of ending as the durak. The features are :mod:`durak.bots.tablenet`'s; the
learner is Adam on shuffled batches, each sample once, gradients clipped to 40.

Every ``--eval-every`` deals the greedy policy is scored on fixed deals (the curve:
its durak rate at 3 players against two ``heuristic`` bots, and its score in 2-player
podkidnoy against ``heuristic``, each deal from every seat), a row goes to ``--curve`` and
the checkpoint (network, optimiser, counters) to ``--save``; ``--resume`` goes on from
it, counters and CPU time included. ``--export PATH`` writes ``--save``'s network as the
``.npz`` the bots play with numpy alone::

    nice -n 10 .venv/bin/python -m durak.learn.dmc --cpu-minutes 60 --resume \\
        --save benchmarks/rl/checkpoints/table.pt --curve benchmarks/rl/table_curve.csv
    .venv/bin/python -m durak.learn.dmc --save benchmarks/rl/checkpoints/table.pt \\
        --export src/durak/bots/data/table.npz
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np
import torch

from ..actions import Action
from ..bots import make
from ..bots.tablenet import (
    ACTION_WIDTH,
    STATE_SIZE,
    Fields,
    TableFeatures,
    TableNet,
    trumps_of,
)
from ..game import Game, Outcome
from ..rules import Rules
from ..seats import Seats
from . import deepmc
from .deepmc import QNet as QNet  # re-exported: the torch network this trainer fits
from .deepmc import Sample, arguments, exported, log_point, save, weights
from .tables import draw

CURVE_SEED = 91_000_000  # the curve's fixed deals


Trace = tuple[list[np.ndarray], list[np.ndarray]]  # a seat's states and actions' rows


def qnet() -> QNet:
    """The every-table network, untrained: its features' widths, the shared layers."""
    return QNet(STATE_SIZE, ACTION_WIDTH)


def outcomes(rules: Rules, outcome: Outcome) -> list[float]:
    """Each seat's ``G``: +1 not the durak (its side does not lose), -1 the durak, 0 a draw.

    >>> from durak import Rules
    >>> outcomes(Rules(players=3), Outcome(durak=1, draw=False, out_order=(0, 2)))
    [1.0, -1.0, 1.0]
    """
    n = rules.players
    if outcome.durak is None:
        return [0.0] * n
    if rules.teams != "none":
        lose = rules.team_of(outcome.durak)
        return [-1.0 if rules.team_of(s) == lose else 1.0 for s in range(n)]
    return [-1.0 if s == outcome.durak else 1.0 for s in range(n)]


class SelfPlay(deepmc.Deals):
    """``n`` deals of the table mix, every seat the learner (epsilon-greedy, one forward
    pass for all the deals' seats to act); a finished deal's decisions become samples."""

    def __init__(self, n: int, seed: int, eps: float) -> None:
        super().__init__()
        self.f, self.n, self.eps = TableFeatures(), n, eps
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.games = [self._deal() for _ in range(n)]
        self.trumps = [trumps_of(g) for g in self.games]
        self.trace: list[list[Trace]] = [
            [([], []) for _ in range(g.rules.players)] for g in self.games
        ]
        self.decisions = 0

    def _deal(self) -> Game:
        return Game(draw(self.rng), seed=self.rng.getrandbits(48))

    def step(self, net: QNet) -> list[Sample]:
        f, n = self.f, self.n
        fields: list[Fields] = []
        legal: list[list[Action]] = []
        rows: list[np.ndarray] = []
        for i, g in enumerate(self.games):
            seat = g.to_act
            assert seat is not None
            v = g.view(seat)
            fields.append(f.fields(v, g.rules, self.trumps[i]))
            moves = list(g.moves())  # (the engine's own list, valid until the next play)
            legal.append(moves)
            rows.append(f.actions(moves, v.trump_suit))
        s = f.states(fields)
        counts = np.array([len(x) for x in legal])
        env_i = np.repeat(np.arange(n), counts)
        a = np.concatenate(rows)
        with torch.no_grad():
            q = net(torch.from_numpy(s), torch.from_numpy(a), torch.from_numpy(env_i)).numpy()
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        best = np.maximum.reduceat(q, starts)
        out: list[Sample] = []
        explore = self.np_rng.random(n) < self.eps
        for i, g in enumerate(self.games):
            lo, k = int(starts[i]), int(counts[i])
            if explore[i]:
                j = int(self.np_rng.integers(k))
            else:
                j = int(np.flatnonzero(q[lo : lo + k] == best[i])[0])
            seat = g.to_act
            assert seat is not None
            states, acts = self.trace[i][seat]
            states.append(s[i])
            acts.append(a[lo + j])
            g.play(legal[i][j])
            self.decisions += 1
            if not g.is_over:
                continue
            out += self.samples(g, outcomes, partial(_sample, self.trace[i]))
            self.games[i] = self._deal()
            self.trumps[i] = trumps_of(self.games[i])
            self.trace[i] = [([], []) for _ in range(self.games[i].rules.players)]
        return out


def _sample(trace: list[Trace], seat: int, g_k: float) -> Sample | None:
    """``seat``'s decisions of a finished deal with its return ``g_k`` (None: it made none)."""
    states, acts = trace[seat]
    ret = np.full(len(states), g_k, np.float32)
    return (np.stack(states), np.stack(acts), ret) if states else None


COUNTERS = ("deals", "samples", "updates", "cpu", "cut", "decisions")


class Learner(deepmc.Learner[QNet]):
    """The every-table network's learner (:class:`durak.learn.deepmc.Learner`): many
    deals' samples mixed in a batch."""

    def __init__(self, lr: float, batch: int, seed: int) -> None:
        super().__init__(qnet(), lr, batch, seed, COUNTERS, mix=16)


def greedy_player(net: TableNet) -> Callable[[Game], Action]:
    """The network's best move for the seat to act (from that seat's view alone)."""

    def play(g: Game) -> Action:
        seat = g.to_act
        assert seat is not None
        legal = g.legal_actions()
        if len(legal) == 1:
            return legal[0]
        q = net.scores(g.view(seat), g.rules, legal, trumps_of(g))
        return legal[int(np.argmax(q))]

    return play


def durak_rate(net: TableNet, rules: Rules, opponent: str, deals: int) -> float:
    """How often ``net`` in one seat (every seat in turn) ends as the durak against
    ``opponent`` bots in the others, on the curve's fixed deals (a draw counts half)."""
    play, n, total = greedy_player(net), rules.players, 0.0
    for d in range(deals):
        for me in range(n):
            g = Game(rules, seed=CURVE_SEED + d)
            seats = Seats(None if s == me else make(opponent, seed=d * n + s) for s in range(n))
            seats.reset(g)
            while not seats.play(g).is_over:  # (the bots move up to ``me``'s turn)
                g.apply(play(g))
                seats.show(g)
            out = g.outcome
            assert out is not None
            if out.durak is None:
                total += 0.5 if not out.truncated else 0.0
            elif out.durak == me or (
                rules.teams != "none" and rules.team_of(out.durak) == rules.team_of(me)
            ):
                total += 1.0
    return total / (deals * n)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    return arguments(__doc__, 0.02, 256, 60.0, 10_000, 40, "scratch/table.pt").parse_args(argv)


def export(checkpoint: str, path: str) -> None:
    """Write a checkpoint's network as the ``.npz`` :class:`TableNet` loads."""
    st = torch.load(checkpoint, map_location="cpu", weights_only=True)
    net = qnet()
    net.load_state_dict(st["net"])
    np.savez_compressed(path, **weights(net))  # type: ignore[arg-type]


def report(args: argparse.Namespace, learner: Learner) -> None:
    """Score the network on the curve's deals, print a line, add a row to ``--curve``."""
    st, t0 = learner.st, time.process_time()
    net = TableNet(weights(learner.net))
    three = durak_rate(net, Rules.preset("podkidnoy", players=3), "heuristic", args.eval_deals)
    two = 1.0 - durak_rate(net, Rules.preset("podkidnoy"), "heuristic", args.eval_deals)
    scores = {"durak3_vs_heuristic": three, "score2_vs_heuristic": two}
    st["cpu"] += time.process_time() - t0
    log_point(learner, ("deals", "decisions", "updates", "cpu"), scores, args.curve)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(argv)
    if exported(args, export):
        return
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    learner = Learner(args.lr, args.batch, args.seed)
    st = learner.st
    if args.resume and os.path.exists(args.save):
        learner.restore(args.save)
        print(f"resumed from {args.save} at {st['deals']:.0f} deals", flush=True)
    actor = SelfPlay(args.envs, args.seed * 1_000_003 + int(st["deals"]), args.eps)
    base, base_cut, base_dec = st["deals"], st["cut"], st["decisions"]
    start, wall = time.process_time(), time.time()
    cpu0 = st["cpu"]
    next_eval = (base // args.eval_every + 1) * args.eval_every
    size = sum(p.numel() for p in learner.net.parameters())
    print(f"{args.envs} deals at a time, every table; {size} weights", flush=True)

    def go_on() -> bool:
        st["cpu"] = cpu0 + time.process_time() - start
        return bool(
            time.process_time() - start < args.cpu_minutes * 60
            and time.time() - wall < args.wall_minutes * 60
        )

    while go_on():
        learner.fit(actor.step(learner.net))
        st["deals"] = base + actor.deals
        st["cut"] = base_cut + actor.cut
        st["decisions"] = base_dec + actor.decisions
        if st["deals"] >= next_eval:
            next_eval += args.eval_every
            report(args, learner)
            save(args.save, learner.state())
    save(args.save, learner.state())
    print(f"stopped at {st['deals']:.0f} deals, {st['cpu']:.0f} s of CPU; {args.save}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
