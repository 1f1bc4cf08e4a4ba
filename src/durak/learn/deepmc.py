"""What the two Deep Monte-Carlo trainers share (:mod:`durak.learn.dmc`, the every-table
network, and :mod:`durak.learn.dmc2`, the 2-player one): the learner that fits a Q network
to the returns self-play sampled, the atomic checkpoint write, and a learning curve's row.

A checkpoint is a ``torch.save`` dict: ``net`` and ``opt`` (the state dicts) and the run's
counters (deals, updates, CPU seconds...), which ``--resume`` goes on from.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import numpy as np
import torch
from torch import nn

Sample = tuple[np.ndarray, np.ndarray, np.ndarray]  # states, actions' rows, returns
Net = TypeVar("Net", bound=nn.Module)


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


def save(path: str, state: dict[str, Any]) -> None:
    """Whole or not at all (a run stopped while writing keeps the last checkpoint)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    torch.save(state, path + ".tmp")
    os.replace(path + ".tmp", path)


def log_row(row: dict[str, str], curve: str | None) -> None:
    """A curve point: printed as ``key value`` pairs, and added to the CSV ``curve`` (its
    header written first when the file is new)."""
    print(" ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    if curve:
        os.makedirs(os.path.dirname(curve) or ".", exist_ok=True)
        new = not os.path.exists(curve)
        with open(curve, "a", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=list(row))
            if new:
                w.writeheader()
            w.writerow(row)
