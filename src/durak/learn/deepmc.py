"""What the two Deep Monte-Carlo trainers share (:mod:`durak.learn.dmc`, the every-table
network, and :mod:`durak.learn.dmc2`, the 2-player one): the Q network's shape and its
export, the learner that fits it to the returns self-play sampled, the count of finished
deals that turns one into samples, the command's common options, the atomic checkpoint
write, and a learning curve's row.

A checkpoint is a ``torch.save`` dict: ``net`` and ``opt`` (the state dicts) and the run's
counters (deals, updates, CPU seconds...), which ``--resume`` goes on from.
"""

from __future__ import annotations

import argparse
import csv
import os
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import numpy as np
import torch
from torch import nn

from ..game import Game
from ..outcome import Outcome
from ..rules import Rules

Sample = tuple[np.ndarray, np.ndarray, np.ndarray]  # states, actions' rows, returns
Net = TypeVar("Net", bound=nn.Module)
HIDDEN = (256, 256, 128)


class QNet(nn.Module):
    """``Q(s, a)``: state → ``hidden[0]`` plus action → ``hidden[0]`` (the state's part
    computed once a position), ReLU, then the rest of the layers down to 1."""

    def __init__(self, state: int, action: int, hidden: Sequence[int] = HIDDEN) -> None:
        super().__init__()
        self.hidden = list(hidden)
        self.s = nn.Linear(state, hidden[0])
        self.a = nn.Linear(action, hidden[0], bias=False)
        layers: list[nn.Module] = []
        for w_in, w_out in zip(hidden, hidden[1:], strict=False):
            layers += [nn.ReLU(), nn.Linear(w_in, w_out)]
        layers += [nn.ReLU(), nn.Linear(hidden[-1], 1)]
        self.rest = nn.Sequential(*layers)

    def forward(self, s: torch.Tensor, a: torch.Tensor, row: torch.Tensor) -> torch.Tensor:
        """Q of actions ``a`` (m, width) in states ``s[row]`` (``s`` is (n, size))."""
        q: torch.Tensor = self.rest(self.s(s)[row] + self.a(a))[:, 0]
        return q


def weights(net: QNet) -> dict[str, np.ndarray]:
    """``net`` as the arrays ``w1, b1, ...`` the numpy networks read (both trainers'
    export): the first layer the state's and the action's weights stacked."""
    sd = {k: v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    out = {"w1": np.concatenate([sd["s.weight"].T, sd["a.weight"].T]), "b1": sd["s.bias"]}
    rest = sorted(
        {k.rsplit(".", 1)[0] for k in sd if k.startswith("rest.")},
        key=lambda k: int(k.split(".")[1]),
    )
    for i, k in enumerate(rest, start=2):
        out[f"w{i}"], out[f"b{i}"] = sd[f"{k}.weight"].T.copy(), sd[f"{k}.bias"]
    return out


class Deals:
    """The actors' count of finished deals: ``deals`` learned from, ``cut`` dropped."""

    def __init__(self) -> None:
        self.deals = self.cut = 0

    def samples(
        self,
        g: Game,
        gains: Callable[[Rules, Outcome], Sequence[float]],
        sample: Callable[[int, float], Sample | None],
    ) -> list[Sample]:
        """The finished deal ``g``'s samples: ``sample(seat, G)`` for every seat (None: it
        made no decision), ``G`` its ``gains``; none for a deal the action limit cut off
        (no outcome to learn)."""
        outcome = g.outcome
        assert outcome is not None
        if outcome.truncated:
            self.cut += 1
            return []
        self.deals += 1
        made = (sample(seat, g_k) for seat, g_k in enumerate(gains(g.rules, outcome)))
        return [x for x in made if x is not None]


class Learner(Generic[Net]):
    """The network, its optimiser and the run's ``counters``; :meth:`fit` pools samples
    until ``mix`` batches' worth are in, then steps on every full batch of them, each
    sample once, in a shuffled order (many deals' samples mixed in a batch)."""

    # PLR0913: the trainer's settings, one each
    def __init__(  # noqa: PLR0913
        self, net: Net, lr: float, batch: int, seed: int, counters: Sequence[str], mix: int
    ) -> None:
        self.net = net
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.batch, self.mix, self.rng = batch, mix, np.random.default_rng(seed)
        self.pool: list[Sample] = []
        self.pooled = 0
        self.losses: list[float] = []
        self.st: dict[str, float] = dict.fromkeys(counters, 0)

    def fit(self, samples: list[Sample]) -> None:
        self.pool += samples
        self.pooled += sum(len(x[2]) for x in samples)
        if self.pooled < self.mix * self.batch:
            return
        s, a, g = (torch.from_numpy(np.concatenate([x[k] for x in self.pool])) for k in range(3))
        order = torch.from_numpy(self.rng.permutation(len(g)))
        for k in range(0, len(g) - self.batch + 1, self.batch):
            idx = order[k : k + self.batch]
            q = self.net(s[idx], a[idx], torch.arange(len(idx)))
            loss = nn.functional.mse_loss(q, g[idx])
            self.opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            nn.utils.clip_grad_norm_(self.net.parameters(), 40.0)  # DouZero's max_grad_norm
            self.opt.step()
            self.losses.append(float(loss.detach()))
            self.st["updates"] += 1
        self.st["samples"] += len(g)
        self.pool, self.pooled = [], 0

    def state(self) -> dict[str, Any]:
        """The checkpoint's dict (see the module)."""
        return {"net": self.net.state_dict(), "opt": self.opt.state_dict(), **self.st}

    def restore(self, path: str) -> None:
        old = torch.load(path, map_location="cpu", weights_only=True)
        self.net.load_state_dict(old["net"])
        self.opt.load_state_dict(old["opt"])
        self.st.update({k: float(old.get(k, 0)) for k in self.st})

    def mean_loss(self) -> float:
        """The mean loss since the last call (NaN with no update), and a fresh start."""
        loss = sum(self.losses) / len(self.losses) if self.losses else float("nan")
        self.losses = []
        return loss


# PLR0913: the options whose defaults differ between the trainers, one keyword each
def arguments(  # noqa: PLR0913
    doc: str | None,
    eps: float,
    batch: int,
    cpu_minutes: float,
    eval_every: int,
    eval_deals: int,
    save: str,
) -> argparse.ArgumentParser:
    """The command line both trainers read (``doc``'s first paragraph its description);
    a trainer adds its own options."""
    p = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    p.add_argument("--envs", type=int, default=128, help="deals played at a time")
    p.add_argument("--eps", type=float, default=eps, help="exploration")
    p.add_argument("--batch", type=int, default=batch)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--cpu-minutes", type=float, default=cpu_minutes, help="CPU budget")
    p.add_argument("--wall-minutes", type=float, default=1e9, help="wall budget of this call")
    p.add_argument("--eval-every", type=int, default=eval_every, help="deals between curve points")
    p.add_argument("--eval-deals", type=int, default=eval_deals)
    p.add_argument("--save", default=save)
    p.add_argument("--curve", default=None, help="CSV of the scores on the fixed deals")
    p.add_argument("--resume", action="store_true", help="go on from --save")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--export", default=None, help="write --save's network to this .npz and stop")
    return p


def exported(args: argparse.Namespace, export: Callable[[str, str], None]) -> bool:
    """Whether the command asked for ``--export PATH`` alone: then ``export(checkpoint,
    path)`` has written ``--save``'s network there, and said so."""
    if not args.export:
        return False
    export(args.save, args.export)
    print(f"{args.save} -> {args.export}", flush=True)
    return True


def save(path: str, state: dict[str, Any]) -> None:
    """Whole or not at all (a run stopped while writing keeps the last checkpoint)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    torch.save(state, path + ".tmp")
    os.replace(path + ".tmp", path)


def log_point(
    learner: Learner[Any], counters: Sequence[str], scores: dict[str, float], curve: str | None
) -> None:
    """A curve point: the learner's ``counters`` (``cpu`` as ``cpu_s``), its mean loss
    since the last point, the ``scores`` and the load, printed as ``key value`` pairs and
    added to the CSV ``curve`` (its header written first when the file is new)."""
    st = learner.st
    row = {("cpu_s" if k == "cpu" else k): f"{st[k]:.0f}" for k in counters}
    row["loss"] = f"{learner.mean_loss():.4f}"
    row.update({k: f"{v:.4f}" for k, v in scores.items()})
    row["load"] = f"{os.getloadavg()[0]:.1f}"
    print(" ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    if curve:
        os.makedirs(os.path.dirname(curve) or ".", exist_ok=True)
        new = not os.path.exists(curve)
        with open(curve, "a", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=list(row))
            if new:
                w.writeheader()
            w.writerow(row)
