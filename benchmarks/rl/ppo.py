"""Baseline: sb3-contrib's MaskablePPO on the vectorised env (one seat of 2-player podkidnoy).

Trains on :class:`durak.envs.sb3.DurakSB3VecEnv` (``--envs`` deals stepped in one
compiled call) against ``--opponent`` for ``--steps`` learner steps, writes the score
of the deals that ended in each rollout (1 not durak, 1/2 draw, 0 durak) to ``--curve``
and saves the model to ``--save``; ``evaluate.py --ppo PATH`` then plays it on the
ladder's fixed paired deals::

    .venv/bin/python benchmarks/rl/ppo.py --steps 300000 --save scratch/ppo.zip \
        --curve benchmarks/rl/ppo_curve.csv   # 452 s of CPU measured (16 deals at a time)

The model is also saved every 10 rollouts while it trains (a checkpoint to evaluate).

The policy sees the encoder's vector (``durak.envs.encoding``); the mask comes from
``env_method("action_masks")``, as MaskablePPO asks any vectorised env.
"""

from __future__ import annotations

import argparse
import csv
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from durak.envs.sb3 import DurakSB3VecEnv


class Curve(BaseCallback):
    """Scores of the learner's finished deals, one row per rollout."""

    def __init__(self, path: str | None, save: str | None = None, every: int = 10) -> None:
        super().__init__()
        self.path = path
        self.save, self.every = save, every  # a checkpoint every ``every`` rollouts
        self.rows: list[tuple[int, int, float]] = []
        self._scores: list[float] = []
        self._deals = 0

    def _on_step(self) -> bool:
        dones = self.locals["dones"]
        rewards = self.locals["rewards"]
        for i in np.flatnonzero(dones).tolist():
            r = float(rewards[i])
            self._scores.append(1.0 if r > 0 else 0.5 if r == 0 else 0.0)
        return True

    def _on_rollout_end(self) -> None:
        if self._scores:
            self._deals += len(self._scores)
            score = sum(self._scores) / len(self._scores)
            self.rows.append((self.num_timesteps, self._deals, score))
            print(f"{self.num_timesteps:>8} steps {self._deals:>6} deals  score {score:.3f}")
            self._scores = []
        if self.save and len(self.rows) % self.every == 0:
            self.model.save(self.save)
        if self.path:
            with open(self.path, "w", newline="", encoding="utf-8") as f:
                w = csv.writer(f)
                w.writerow(["steps", "deals", "score"])
                w.writerows((s, d, f"{x:.4f}") for s, d, x in self.rows)


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rules", default="podkidnoy")
    p.add_argument("--opponent", default="greedy")
    p.add_argument("--steps", type=int, default=300_000)
    p.add_argument("--envs", type=int, default=16, help="deals stepped together")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--save", default="scratch/ppo.zip")
    p.add_argument("--curve", default=None, help="CSV of the rollouts' scores")
    args = p.parse_args()
    torch.set_num_threads(1)
    venv = DurakSB3VecEnv(args.envs, args.rules, [args.opponent])
    model = MaskablePPO("MlpPolicy", venv, seed=args.seed, verbose=0, n_steps=256,
                        batch_size=512, learning_rate=3e-4, ent_coef=0.01)  # fmt: skip
    start = time.process_time()
    model.learn(total_timesteps=args.steps, callback=Curve(args.curve, args.save))
    cpu = time.process_time() - start
    model.save(args.save)
    print(
        f"MaskablePPO, {args.steps} steps ({args.envs} deals at a time) against "
        f"{args.opponent}, {cpu:.0f} s of CPU; saved to {args.save}"
    )


if __name__ == "__main__":
    main()
