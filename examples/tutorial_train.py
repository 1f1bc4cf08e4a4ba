# %% [markdown]
# # Tutorial: from nothing to beating `greedy`, in a few CPU minutes
#
# A percent-format script: each `# %%` is a notebook cell (Jupyter, VS Code and
# `jupytext --to ipynb` read it as one), and it runs as a plain script too:
#
#     .venv/bin/python examples/tutorial_train.py                      # about 6 min of one core
#     .venv/bin/python examples/tutorial_train.py --cpu-seconds 30     # a short run, about 1 min
#
# It needs the `rl` extra and torch (docs/envs.md, "Install"). What it does:
#
# 1. looks at the learning environment (`durak.envs.vector.DurakVectorEnv`): the vector a
#    seat sees, the mask of its legal actions, a reward at the end of a deal;
# 2. trains DouZero's Deep Monte-Carlo learner (`durak.learn.dmc2.Trainer`) by self-play
#    in 2-player podkidnoy, from random weights, for a CPU budget;
# 3. scores the trained network against `random` and `greedy` on the evaluator's fixed
#    paired deals (`durak.learn.evaluate.pairing`, 95% intervals);
# 4. saves it as the `.npz` that `durak.bots.make("policy:PATH")` plays with numpy alone.

# %%
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np

from durak.bots import make
from durak.envs.vector import DurakVectorEnv
from durak.learn.dmc2 import Trainer, export
from durak.learn.evaluate import pairing

# The budget: CPU seconds of training (a notebook keeps the default), games a pairing.
parser = argparse.ArgumentParser(description="train a Deep Monte-Carlo agent from nothing")
parser.add_argument("--cpu-seconds", type=float, default=300.0, help="training budget")
parser.add_argument("--games", type=int, default=200, help="evaluation games a pairing")
parser.add_argument("--envs", type=int, default=64, help="self-play deals at a time")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args([] if "ipykernel" in sys.modules else sys.argv[1:])
cpu_start = time.process_time()

# %% [markdown]
# ## 1. The environment
#
# `DurakVectorEnv(n, rules, opponents)` steps `n` deals at once, the learner in one seat
# and bots in the others. An observation is a dict: `observation`, the seat's view as
# floats (the same vector for every env of the package), and `action_mask`, one entry per
# action number of the rule set (1 where the action is legal). The reward comes at the
# end of a deal: +1 not the durak, -1 the durak, 0 a draw.

# %%
env = DurakVectorEnv(4, "podkidnoy", opponents=["random"])
obs, _ = env.reset(seed=args.seed)
print("observation", obs["observation"].shape, "mask", obs["action_mask"].shape)
rng = np.random.default_rng(args.seed)
finished, rewards = 0, []
while finished < 20:  # random legal play: what an untrained agent does
    legal = [np.flatnonzero(m) for m in obs["action_mask"]]
    obs, reward, term, trunc, _ = env.step(np.array([rng.choice(x) for x in legal]))
    done = term | trunc
    finished += int(done.sum())
    rewards += reward[done].tolist()
print(f"random play against random: mean reward {np.mean(rewards):+.2f} over {finished} deals")

# %% [markdown]
# ## 2. Training: Deep Monte-Carlo self-play
#
# The network scores `Q(s, a)` for every legal action from the state's vector and the
# action's card planes; the agent plays the best one (exploring 1% of the time), in
# *both* seats of `envs` deals at once, and regresses each decision's `Q` on the deal's
# final outcome for that seat. No bot is needed to learn from: the opponent is itself.

# %%
trainer = Trainer(rules="podkidnoy", opponents="self", envs=args.envs, seed=args.seed)


def progress(t: Trainer) -> None:
    print(f"{t.st['deals']:8.0f} deals  {t.st['updates']:7.0f} updates  {t.st['cpu']:5.0f} s CPU")


trainer.run(cpu_seconds=args.cpu_seconds, every=5000, checkpoint=progress)

# %% [markdown]
# ## 3. How strong is it?
#
# `pairing(player, rung, games)` plays `games // 2` fixed deals, each from both seats
# (a deal's luck cancels out), and gives the mean score (1 not the durak, ½ a draw, 0
# the durak) with its 95% interval over deals. 0.5 is an even match.

# %%
bot = trainer.bot
against_random = pairing(bot, "random", games=args.games)
against_greedy = pairing(bot, "greedy", games=args.games)
print(f"against random: {against_random}")
print(f"against greedy: {against_greedy}")

# %% [markdown]
# ## 4. Keep it: a `policy:` bot, numpy only
#
# The checkpoint holds the torch network and the optimiser; `export` writes the weights
# as the `.npz` any bot spec can name: `durak arena --bots policy:PATH greedy`.

# %%
with tempfile.TemporaryDirectory() as folder:
    trainer.save(os.path.join(folder, "tutorial.pt"))
    export(os.path.join(folder, "tutorial.pt"), os.path.join(folder, "tutorial.npz"))
    saved = make(f"policy:{os.path.join(folder, 'tutorial.npz')}")
    print("saved and loaded as", saved.name.replace(folder, "..."))

cpu = time.process_time() - cpu_start
result = {
    "deals": int(trainer.st["deals"]),
    "train_cpu_s": round(trainer.st["cpu"], 1),
    "total_cpu_s": round(cpu, 1),
    "random": round(against_random.mean, 4),
    "greedy": round(against_greedy.mean, 4),
    "greedy_low": round(against_greedy.low, 4),
    "games": against_greedy.games,
}
print("RESULT", json.dumps(result))
