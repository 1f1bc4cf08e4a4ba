"""Deep Monte-Carlo (DouZero's learner) for 2-player tables, torch on the CPU: the trainer
of the shipped ``learned`` network (``src/durak/bots/data/learned.npz``).

DouZero (Zha et al. 2021) learns ``Q(s, a)`` with the action *encoded* (its cards as card
planes), scores every legal action with one forward pass and plays the best, explores
epsilon-greedily (0.01), and regresses each decision's ``Q(s, a)`` on the deal's final
return with a mean squared error: Monte-Carlo targets, no bootstrapping, each sample used
once. This module does the same:

- **actors**: ``envs`` deals at a time. ``self`` (the default, DouZero's way) has the
  learner in every seat (:class:`SelfPlay`: each step encodes the position of every deal's
  seat to act and scores all their legal actions in one batched forward pass) and every
  decision of both seats is a sample. Several rule sets (``podkidnoy,perevodnoy``) split
  these deals evenly (one network: their vectors and action tables have one layout; the
  first rule set is the curve's and the checkpoint's). A bot spec (``self,greedy``) puts
  a share of the deals in :class:`durak.envs.vector.DurakVectorEnv` against that bot
  instead (:class:`Actors`; the learner's seat only). A finished deal's decisions become
  samples ``(s, a, G)``;
- **target** ``G``: each seat's final reward, +1 not durak, -1 durak, 0 a draw (a deal cut
  off by the action limit is dropped); the tables' score is ``(G + 1) / 2``;
- **learner**: Adam (``lr``) on shuffled batches of ``batch`` samples as they come, each
  sample once, gradients clipped to 40 (DouZero's ``max_grad_norm``).

**Features** (:class:`durak.bots.viewnet.ViewFeatures`, what the shipped player reads).
The state is the environments' vector (:class:`durak.planes.Planes`, 315 floats for 36
cards), with the suits of every card plane turned so that the trump suit is slot 0. The
action is its kind one-hot (7), the card plane of the card(s) it lays (36), the card
plane of the table card it beats (36) and the number of cards laid / 4 (1): 80 floats.
The network (:class:`QNet`): state → 256 plus action → 256 (the state's part computed
once a position), ReLU, then 256 → 128 → 1.

**As an API**: :class:`Trainer` holds the actors and the learner; :meth:`Trainer.run`
trains for a CPU budget, :meth:`Trainer.policy` is the numpy network the bots play and
:meth:`Trainer.bot` a bot of it (``examples/tutorial_train.py`` is a walk through)::

    from durak.learn.dmc2 import Trainer
    from durak.learn.evaluate import pairing

    trainer = Trainer(rules="podkidnoy", envs=64, seed=0)
    trainer.run(cpu_seconds=60)                  # about 10,000 deals
    print(pairing(trainer.bot, "greedy", games=100))   # its score, 95% interval

**As a command** (``python -m durak.learn.dmc2``; ``benchmarks/rl/dmc.py`` calls it):
checkpoints (network, optimiser, counters) go to ``--save`` every ``--eval-every`` deals,
when the greedy policy's score against ``greedy`` and ``heuristic`` on ``--eval-deals``
fixed deals (``Game(rules, seed=90_000_000 + d)``, each from both seats; not the ladder's
deals) is added to ``--curve``; ``--resume`` goes on from ``--save`` (the counters, CPU
time included, carry on). ``python -m durak.learn.evaluate --players dmc:PATH`` plays a
checkpoint on the ladder; ``--export PATH`` writes ``--save``'s network as the ``.npz``
that ``durak.bots.make("policy:PATH")`` plays with numpy alone (the shipped ``learned``
is one)::

    nice -n 10 .venv/bin/python -m durak.learn.dmc2 --cpu-minutes 65 \\
        --eval-every 25000 --eval-deals 100 --save scratch/dmc.pt --curve scratch/dmc_curve.csv
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
import torch

from ..actions import Action
from ..bots import make
from ..bots.learned import LearnedBot
from ..bots.learned import QNet as NumpyQNet
from ..bots.viewnet import ViewFeatures
from ..envs.bits import legal_indices, legal_moves
from ..envs.episode import learning_rules, returns
from ..envs.vector import DurakVectorEnv
from ..errors import ArgumentError
from ..game import Game
from ..rules import Rules
from . import deepmc
from .deepmc import QNet as QNet  # re-exported: the torch network this trainer fits
from .deepmc import Sample, arguments, exported, log_point, save, weights
from .scoring import game_score

CURVE_SEED = 90_000_000  # the curve's fixed deals (the ladder's are 2026 + d)


def arrays(net: QNet) -> dict[str, Any]:
    """``net``'s weights as the arrays ``w1, b1, ...`` the numpy networks read."""
    return dict(weights(net))


def numpy_net(net: QNet, rules: Rules) -> NumpyQNet:
    """``net`` as the numpy network the learned player plays."""
    return NumpyQNet(arrays(net), rules)


def restore(st: dict[str, Any], rules: Rules) -> QNet:
    """The torch network of a checkpoint's state ``st``, for ``rules``' features."""
    f = ViewFeatures(rules)
    net = QNet(f.size, f.width)
    net.load_state_dict(st["net"])
    return net


def load(path: str, rules: Rules | None = None) -> NumpyQNet:
    """The numpy network of a checkpoint ``dmc.py`` saved (its rule set, or ``rules``)."""
    if not os.path.exists(path):
        raise ArgumentError(f"dmc: no checkpoint {path!r}")
    st = torch.load(path, map_location="cpu", weights_only=True)
    rules = rules or learning_rules(str(st["rules"]))
    return numpy_net(restore(st, rules), rules)


def export(checkpoint: str, path: str) -> None:
    """Write a checkpoint's network as the ``.npz`` that ``make("policy:PATH")`` plays
    (``src/durak/bots/data/learned.npz`` is one)."""
    st = torch.load(checkpoint, map_location="cpu", weights_only=True)
    rules = Rules.parse(str(st["rules"])).replace(action_limit=0)
    np.savez_compressed(path, rules=np.array(str(rules)), **arrays(restore(st, rules)))


def player(net: NumpyQNet) -> Callable[[Game, int], Action]:
    """``(game, seat) -> action``: the learned player with ``net`` in that seat."""
    bot = LearnedBot.of(net, "dmc")
    return lambda g, seat: bot.choose(g.observation(seat))


def score(net: NumpyQNet, opponent: str, deals: int) -> float:
    """``net``'s score against ``opponent`` on the curve's fixed deals, both seats."""
    me_play, rules, total = player(net), net.rules, 0.0
    assert rules is not None
    for d in range(deals):
        for seat in (0, 1):
            other = make(opponent, seed=d * 2 + seat)
            total += game_score(Game(rules, seed=CURVE_SEED + d), seat, me_play, other)
    return total / (2 * deals)


class Explorer:
    """Epsilon-greedy choices of many positions in one forward pass of ``Q``."""

    def __init__(self, f: ViewFeatures, eps: float, seed: int) -> None:
        self.f, self.eps, self.rng = f, eps, np.random.default_rng(seed)

    def __call__(
        self, net: QNet, s: np.ndarray, trump: np.ndarray, env_i: np.ndarray, act_i: np.ndarray
    ) -> np.ndarray:
        """Position ``i``'s action (turned state ``s[i]``, trump suit ``trump[i]``); its
        legal action numbers are ``act_i[env_i == i]`` (``env_i`` sorted)."""
        n = len(s)
        with torch.no_grad():
            q = net(
                torch.from_numpy(s),
                torch.from_numpy(self.f.actions[trump[env_i], act_i]),
                torch.from_numpy(env_i),
            ).numpy()
        counts = np.bincount(env_i, minlength=n)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        best = act_i[np.lexsort((-q, env_i))[starts]]
        pick = act_i[starts + (self.rng.random(n) * counts).astype(np.int64)]
        out: np.ndarray = np.where(self.rng.random(n) < self.eps, pick, best)
        return out


class SelfPlay(deepmc.Deals):
    """DouZero's self-play: ``n`` deals in which every seat is the learner (epsilon-greedy,
    one forward pass for all the deals' seats to act), every decision a sample."""

    def __init__(self, f: ViewFeatures, n: int, seed: int, eps: float) -> None:
        super().__init__()
        self.f, self.n, self.choose = f, n, Explorer(f, eps, seed)
        self.seed = seed * 1_000_003
        self.games = [self._deal() for _ in range(n)]
        self.obs = np.zeros((n, f.size), np.float32)
        # per deal and seat: the turned states, action numbers and trump suits played
        self.trace: list[list[Trace]] = [
            [([], [], []) for _ in range(f.rules.players)] for _ in range(n)
        ]

    def _deal(self) -> Game:
        self.seed += 1
        return Game(self.f.rules, seed=self.seed)

    def step(self, net: QNet) -> list[Sample]:
        f, n, obs = self.f, self.n, self.obs
        legal: list[list[int]] = []
        for i, g in enumerate(self.games):
            seat = g.to_act
            assert seat is not None
            obs[i] = f.view(g, seat)
            legal.append(legal_indices(g))
        s, trump = f.state(obs)
        env_i = np.repeat(np.arange(n), [len(x) for x in legal])
        act_i = np.fromiter((a for x in legal for a in x), np.int64, len(env_i))
        choice = self.choose(net, s, trump, env_i, act_i).tolist()
        out: list[Sample] = []
        for i, g in enumerate(self.games):
            seat = g.to_act
            assert seat is not None
            states, acts, trumps = self.trace[i][seat]
            states.append(s[i])
            acts.append(choice[i])
            trumps.append(int(trump[i]))
            g.play(legal_moves(g)[legal[i].index(choice[i])])
            if not g.is_over:
                continue
            out += self.samples(g, returns, partial(_sample, f, self.trace[i]))
            self.trace[i] = [([], [], []) for _ in range(f.rules.players)]
            self.games[i] = self._deal()
        return out


Trace = tuple[list[np.ndarray], list[int], list[int]]  # turned states, actions, trump suits


def _sample(f: ViewFeatures, trace: list[Trace], seat: int, g_k: float) -> Sample | None:
    """``seat``'s decisions of a finished deal with its return ``g_k`` (None: it made none)."""
    states, acts, trumps = trace[seat]
    ret = np.full(len(states), g_k, np.float32)
    return (np.stack(states), f.actions[trumps, acts], ret) if states else None


class Actors:
    """``n`` deals split over one vector env per opponent; :meth:`step` plays one move in
    each with epsilon-greedy ``Q`` and returns the samples of the deals that ended."""

    def __init__(
        self, f: ViewFeatures, n: int, opponents: list[str], seed: int, eps: float
    ) -> None:
        self.f, self.choose = f, Explorer(f, eps, seed)
        self.envs: list[DurakVectorEnv] = []
        self.now: list[dict[str, Any]] = []
        for k, name in enumerate(opponents):
            count = n // len(opponents) + (k < n % len(opponents))
            env = DurakVectorEnv(count, f.rules, [name])
            self.now.append(env.reset(seed=seed * 1000 + k)[0])
            self.envs.append(env)
        self.n = sum(e.num_envs for e in self.envs)
        self.trace_s: list[list[np.ndarray]] = [[] for _ in range(self.n)]
        self.trace_a: list[list[int]] = [[] for _ in range(self.n)]
        self.trace_t: list[list[int]] = [[] for _ in range(self.n)]
        self.deals = self.cut = 0

    def step(self, net: QNet) -> list[Sample]:
        f, n = self.f, self.n
        obs = np.concatenate([o["observation"] for o in self.now])
        mask = np.concatenate([o["action_mask"] for o in self.now]).view(bool)
        s, trump = f.state(obs)
        env_i, act_i = np.nonzero(mask)  # sorted by env
        choice = self.choose(net, s, trump, env_i, act_i)
        for i in range(n):
            self.trace_s[i].append(s[i])
            self.trace_a[i].append(int(choice[i]))
            self.trace_t[i].append(int(trump[i]))
        out: list[Sample] = []
        lo = 0
        for k, env in enumerate(self.envs):
            hi = lo + env.num_envs
            self.now[k], reward, term, trunc, _ = env.step(choice[lo:hi])
            for j in np.flatnonzero(term | trunc).tolist():
                i = lo + j
                if trunc[j]:
                    self.cut += 1  # cut off by the action limit: no outcome to learn
                else:
                    g = float(reward[j])
                    states = np.stack(self.trace_s[i])
                    acts = f.actions[self.trace_t[i], self.trace_a[i]]
                    out.append((states, acts, np.full(len(states), g, np.float32)))
                    self.deals += 1
                self.trace_s[i], self.trace_a[i], self.trace_t[i] = [], [], []
            lo = hi
        return out


COUNTERS = ("deals", "samples", "updates", "cpu", "cut")


class Learner(deepmc.Learner[QNet]):
    """The 2-player network's learner (:class:`durak.learn.deepmc.Learner`): a few
    batches' worth of samples mixed at a time."""

    def __init__(self, f: ViewFeatures, lr: float, batch: int, seed: int) -> None:
        super().__init__(QNet(f.size, f.width), lr, batch, seed, COUNTERS, mix=8)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = arguments(__doc__, 0.01, 128, 65.0, 20000, 100, "scratch/dmc.pt")
    p.add_argument("--rules", default="podkidnoy", help="a rule set, or several split evenly: a,b")
    p.add_argument("--opponents", default="self", help="self (every seat) and/or bot specs")
    p.add_argument("--deals", type=int, default=10**9, help="stop after this many deals")
    return p.parse_args(argv)


class Trainer:
    """A 2-player Deep Monte-Carlo run: the actors (self-play and/or deals against bots),
    the learner and the counters (``st``: deals, samples, updates, cpu, cut).

    ``rules``: a rule set name, or several split evenly (``"podkidnoy,perevodnoy"``);
    ``opponents``: ``"self"`` and/or bot specs, comma-separated; ``envs`` deals at a time;
    ``resume``: a checkpoint to go on from (its counters carry on). Torch runs on one
    thread (the actors step in Python between small batches).

    >>> t = Trainer(envs=4, batch=16, seed=1)
    >>> t.run(deals=4)
    >>> t.st["deals"] >= 4 and t.bot.name == "dmc"
    True
    """

    def __init__(  # noqa: PLR0913
        self,
        rules: str = "podkidnoy",
        opponents: str = "self",
        envs: int = 128,
        eps: float = 0.01,
        batch: int = 128,
        lr: float = 3e-4,
        seed: int = 0,
        resume: str | None = None,
    ) -> None:
        torch.set_num_threads(1)
        torch.manual_seed(seed)
        tables = [ViewFeatures(learning_rules(r)) for r in rules.split(",")]
        self.f = f = tables[0]  # the curve's and the checkpoint's rule set
        self.rules = f.rules
        if any(t.size != f.size or t.width != f.width for t in tables):
            raise ArgumentError(f"dmc: the rule sets {rules!r} do not share one network's layout")
        self.learner = Learner(f, lr, batch, seed)
        self.st = st = self.learner.st
        if resume:
            self.learner.restore(resume)
        self.names = names = opponents.split(",")
        bots = [x for x in names if x != "self"]
        share = envs * (len(names) - len(bots)) // len(names)
        seed += int(st["deals"])  # a resumed run plays other deals
        self.actors: list[SelfPlay | Actors] = []
        for k, t in enumerate(tables):  # the self-play deals, split over the rule sets
            part = share // len(tables) + (k < share % len(tables))
            if part:
                self.actors.append(SelfPlay(t, part, seed + 7919 * k, eps))
        if bots:
            self.actors.append(Actors(f, envs - share, bots, seed, eps))
        self.base = st["deals"]

    @property
    def net(self) -> QNet:
        """The torch network being trained."""
        return self.learner.net

    def step(self) -> None:
        """One move in every deal, the finished deals' samples fitted."""
        for actor in self.actors:
            self.learner.fit(actor.step(self.learner.net))
        self.st["deals"] = self.base + sum(a.deals for a in self.actors)
        self.st["cut"] = sum(a.cut for a in self.actors)

    def run(
        self,
        cpu_seconds: float = math.inf,
        deals: float = math.inf,
        wall_seconds: float = math.inf,
        every: float = math.inf,
        checkpoint: Callable[[Trainer], None] | None = None,
    ) -> None:
        """Train until the run's CPU time (``st["cpu"]``, every call's since the start)
        reaches ``cpu_seconds``, its deals ``deals`` or this call's wall time
        ``wall_seconds``; ``checkpoint(self)`` is called every ``every`` deals and at the
        end."""
        st, start, wall = self.st, time.process_time(), time.time()
        cpu0, next_at = st["cpu"], (st["deals"] // every + 1) * every

        def go_on() -> bool:
            st["cpu"] = cpu0 + time.process_time() - start
            in_wall = time.time() - wall < wall_seconds
            return bool(st["cpu"] < cpu_seconds and in_wall and st["deals"] < deals)

        while go_on():
            self.step()
            if st["deals"] >= next_at:
                next_at += every
                if checkpoint is not None:
                    checkpoint(self)
        if checkpoint is not None:
            checkpoint(self)

    def policy(self) -> NumpyQNet:
        """The network as the numpy one the learned player plays (a copy: training goes on
        without changing it)."""
        return numpy_net(self.learner.net, self.rules)

    @property
    def bot(self) -> LearnedBot:
        """A bot of the network as it is now (greedy in ``Q``), named ``dmc``."""
        return LearnedBot.of(self.policy(), "dmc")

    def save(self, path: str) -> None:
        """The checkpoint (network, optimiser, counters) to ``path``, atomically."""
        save(path, {**self.learner.state(), "rules": str(self.rules)})


def main(argv: Sequence[str] | None = None) -> None:
    """The command: train (or ``--export``) as the options say."""
    args = parse(argv)
    if exported(args, export):
        return
    if not args.resume and args.curve and os.path.exists(args.curve):
        os.remove(args.curve)  # a new run, a new curve
    trainer = Trainer(args.rules, args.opponents, args.envs, args.eps, args.batch, args.lr,
                      args.seed, args.save if args.resume else None)  # fmt: skip
    st = trainer.st
    if args.resume:
        print(f"resumed from {args.save} at {st['deals']:.0f} deals", flush=True)
    size = sum(p.numel() for p in trainer.net.parameters())
    print(f"{args.envs} deals at a time, {trainer.names}; {size} weights", flush=True)

    def checkpoint(t: Trainer) -> None:
        report(args, t)
        t.save(args.save)

    trainer.run(args.cpu_minutes * 60, args.deals, args.wall_minutes * 60, args.eval_every,
                checkpoint)  # fmt: skip
    print(f"stopped at {st['deals']:.0f} deals, {st['cpu']:.0f} s of CPU; {args.save}", flush=True)


def report(args: argparse.Namespace, trainer: Trainer) -> None:
    """Score the network on the curve's deals, print a line, add a row to ``--curve``."""
    learner = trainer.learner
    st, policy, t0 = learner.st, trainer.policy(), time.process_time()
    scores = {o: score(policy, o, args.eval_deals) for o in ("greedy", "heuristic")}
    st["cpu"] += time.process_time() - t0
    log_point(learner, ("deals", "samples", "updates", "cpu"), scores, args.curve)
