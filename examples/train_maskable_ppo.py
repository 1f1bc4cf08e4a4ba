"""Train sb3-contrib's MaskablePPO on one seat of 2-player podkidnoy against the random
bot, then play the trained policy against random and report how often it is not the durak.

Needs torch and sb3-contrib beside the ``rl`` extra:

    pip install -e ".[rl]" sb3-contrib
    python examples/train_maskable_ppo.py --steps 100000

The policy sees the encoder's vector (the mask is left out of its input: a wrapper keeps
``obs["observation"]``); ``DurakEnv.action_masks()``, which MaskablePPO finds through the
wrapper, tells it which actions are legal.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import torch
from sb3_contrib import MaskablePPO

from durak.envs.gymnasium import DurakEnv


def evaluate(model: MaskablePPO | None, games: int, rules: str, seed: int) -> float:
    """The policy's score (1 not durak, 1/2 draw, 0 durak) over ``games`` deals, the same
    deals (seeds) for every policy; ``None`` plays uniformly random legal actions."""
    env = DurakEnv(rules=rules, opponents=["random"])
    not_durak = 0.0
    for i in range(games):
        obs, _ = env.reset(seed=seed + i)
        done = False
        reward = 0.0
        while not done:
            mask = env.action_masks()
            if model is None:
                legal = mask.nonzero()[0]
                action = int(legal[env.np_random.integers(len(legal))])
            else:
                action, _ = model.predict(obs["observation"], action_masks=mask, deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        not_durak += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
    return not_durak / games


def main() -> None:
    p = argparse.ArgumentParser(description="MaskablePPO on durak vs the random bot")
    p.add_argument("--rules", default="podkidnoy")
    p.add_argument("--steps", type=int, default=100_000)
    p.add_argument("--games", type=int, default=1000, help="evaluation deals")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.set_num_threads(1)  # small networks: threads cost more than they give
    base_env = DurakEnv(rules=args.rules, opponents=["random"])
    env = gym.wrappers.TransformObservation(
        base_env, lambda obs: obs["observation"], base_env.observation_space["observation"]
    )
    model = MaskablePPO(
        "MlpPolicy",
        env,
        seed=args.seed,
        verbose=0,
        n_steps=2048,
        batch_size=256,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
    )
    start = time.process_time()
    model.learn(total_timesteps=args.steps)
    cpu = time.process_time() - start
    base = evaluate(None, args.games, args.rules, seed=10**6)
    score = evaluate(model, args.games, args.rules, seed=10**6)
    print(f"trained {args.steps} steps in {cpu:.0f} s of CPU")
    print(
        f"score against the random bot over {args.games} deals (1 not durak, 1/2 draw): "
        f"trained policy {score:.3f}, random policy {base:.3f}"
    )


if __name__ == "__main__":
    main()
