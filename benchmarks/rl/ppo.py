"""Baseline: sb3-contrib's MaskablePPO on one seat of 2-player podkidnoy, then the ladder.

Trains against ``--opponent`` (default ``greedy``) for ``--steps`` environment steps, then
plays the deterministic policy against each rung of the ladder on fixed deals, each deal
from both seats (the same deals ``evaluate.py`` uses for other players are not reused: these
are the Gymnasium env's own seeded deals), and prints a table of scores (1 not durak,
1/2 draw, 0 durak) with 95% intervals::

    .venv/bin/pip install sb3-contrib   # with torch: see the README's CPU-only torch line
    .venv/bin/python benchmarks/rl/ppo.py --steps 200000 > benchmarks/rl/ppo.txt   # about 10 min

The policy sees the encoder's vector; the mask comes from ``DurakEnv.action_masks()``.
"""

from __future__ import annotations

import argparse
import math
import time

import gymnasium as gym
import torch
from sb3_contrib import MaskablePPO

from durak.envs.gymnasium import DurakEnv


def score(model: MaskablePPO, opponent: str, deals: int, rules: str) -> tuple[float, float]:
    """Mean score and its 95% half-interval (deals clustered: both seats of a deal)."""
    per_deal = []
    for d in range(deals // 2):
        total = 0.0
        for seat in (0, 1):
            env = DurakEnv(rules=rules, opponents=[opponent], seat=seat)
            obs, _ = env.reset(seed=50_000 + d)
            done, reward = False, 0.0
            while not done:
                action, _ = model.predict(
                    obs["observation"], action_masks=env.action_masks(), deterministic=True
                )
                obs, reward, terminated, truncated, _ = env.step(int(action))
                done = terminated or truncated
            total += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
        per_deal.append(total / 2)
    n = len(per_deal)
    mean = sum(per_deal) / n
    var = sum((x - mean) ** 2 for x in per_deal) / max(n - 1, 1)
    return mean, 1.96 * math.sqrt(var / n)


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rules", default="podkidnoy")
    p.add_argument("--opponent", default="greedy")
    p.add_argument("--steps", type=int, default=200_000)
    p.add_argument("--games", type=int, default=200, help="evaluation games an opponent")
    p.add_argument("--ladder", default="random,greedy,heuristic,expert")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.set_num_threads(1)
    base_env = DurakEnv(rules=args.rules, opponents=[args.opponent])
    env = gym.wrappers.TransformObservation(
        base_env, lambda obs: obs["observation"], base_env.observation_space["observation"]
    )
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=2048,
                        batch_size=256, learning_rate=3e-4, ent_coef=0.01)  # fmt: skip
    start = time.process_time()
    model.learn(total_timesteps=args.steps)
    cpu = time.process_time() - start
    print(f"MaskablePPO, {args.steps} steps against {args.opponent}, {cpu:.0f} s of CPU")
    print(f"{'opponent':<12} {'games':>6}  score [95% CI]")
    for opp in args.ladder.split(","):
        mean, half = score(model, opp, args.games, args.rules)
        print(f"{opp:<12} {args.games:>6}  {mean:.3f} [{mean - half:.3f}, {mean + half:.3f}]")


if __name__ == "__main__":
    main()
