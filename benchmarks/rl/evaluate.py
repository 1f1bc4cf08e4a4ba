"""Every baseline against every rung of the bot ladder, on fixed paired deals.

Deal ``d`` is ``Game(podkidnoy, seed=SEED + d)``, played twice: the baseline in seat 0,
then in seat 1, against the same rung (so a deal's luck cancels out); the bots are made
afresh each game with seeds that follow from the deal's number. The same deals for every
baseline and rung. Score: 1 not durak, 1/2 draw, 0 durak; the interval is 95%, normal,
over deals (both games of a deal are one observation). Baselines: ``random`` (uniform
over the legal moves), any bot spec (``learned``, ``policy:PATH``), ``ppo:PATH`` (a
MaskablePPO model saved by ``ppo.py``, its deterministic policy on the env's encoder) and
``dmc:PATH`` (a checkpoint of ``dmc.py``'s Deep Monte-Carlo learner, its greedy ``Q``)::

    .venv/bin/python benchmarks/rl/evaluate.py --games 200 --slow-games 100 \
        --players random,learned,ppo:scratch/ppo.zip   # about 1 h of one core, most of it level 5
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time

import numpy as np
from scoring import Player, game_score  # beside this file (benchmarks/rl/scoring.py)

from durak import Game
from durak.actions import Action, encoding
from durak.bots import make
from durak.envs.bits import legal_indices
from durak.envs.encoding import Encoder, mask_of
from durak.envs.episode import learning_rules
from durak.rules import Rules

SLOW = ("level5",)  # rungs played on --slow-games only


def player(spec: str, rules: Rules, seed: int) -> Player:
    """A function (game, seat) -> action for a baseline's spec."""
    if spec == "random":
        rng = random.Random(seed)
        return lambda g, seat: g.legal_actions()[int(rng.random() * len(g.moves()))]
    if spec.startswith("ppo:"):
        return ppo_player(spec[4:], rules)
    if spec.startswith("dmc:"):
        return dmc_player(spec[4:], rules)
    bot = make(spec, seed=seed)
    return lambda g, seat: bot.choose(g.observation(seat))


_MODELS: dict[str, object] = {}


def ppo_player(path: str, rules: Rules) -> Player:
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    if path not in _MODELS:
        _MODELS[path] = MaskablePPO.load(path, device="cpu")
    model = _MODELS[path]
    assert isinstance(model, MaskablePPO)
    encoder, enc = Encoder(rules), encoding(rules)

    def play(g: Game, seat: int) -> Action:
        mask = mask_of(legal_indices(g), enc.size).astype(bool)
        action, _ = model.predict(encoder.encode(g, seat), action_masks=mask, deterministic=True)
        return enc.action(int(action))

    return play


def dmc_player(path: str, rules: Rules) -> Player:
    import dmc  # beside this file (benchmarks/rl/dmc.py); it imports torch

    key = "dmc:" + path
    if key not in _MODELS:
        _MODELS[key] = dmc.player(dmc.load(path, rules))
    play = _MODELS[key]
    assert callable(play)
    return play


def deal_score(rules: Rules, spec: str, rung: str, seed: int) -> float:
    """The baseline's mean score over the deal's two games (one from each seat)."""
    total = 0.0
    for seat in (0, 1):
        me = player(spec, rules, seed * 2 + seat)
        other = make(rung, seed=seed * 2 + seat + 1)
        total += game_score(Game(rules, seed=seed), seat, me, other)
    return total / 2


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--games", type=int, default=200, help="games a pairing (2 a deal)")
    p.add_argument("--slow-games", type=int, default=100, help="games against level 5")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--players", default="random,learned", help="comma-separated baselines")
    p.add_argument("--ladder", default="random,greedy,heuristic,expert,level5")
    args = p.parse_args()
    rules = learning_rules("podkidnoy")
    print(f"2-player podkidnoy, deals Game(rules, seed={args.seed} + d), each from both seats")
    print(f"load at the start {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M UTC')}")
    ladder = args.ladder.split(",")
    table: dict[str, list[str]] = {}
    for spec in args.players.split(","):
        row = []
        for rung in ladder:
            games = args.slow_games if rung in SLOW else args.games
            start = time.process_time()
            scores = [deal_score(rules, spec, rung, args.seed + d) for d in range(games // 2)]
            n = len(scores)
            mean = sum(scores) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / max(n - 1, 1))
            half = 1.96 * sd / math.sqrt(n)
            cell = f"{mean:.3f} [{max(mean - half, 0):.3f}, {min(mean + half, 1):.3f}] ({2 * n})"
            row.append(cell)
            cpu = time.process_time() - start
            print(f"{spec} vs {rung}: {cell}, {cpu:.0f} s CPU", flush=True)
        table[spec] = row
    print(f"\nload at the end {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M UTC')}")
    print("score [95% CI] (games) of each baseline (rows) against each rung (columns)\n")
    print("| baseline | " + " | ".join(ladder) + " |")
    print("|---|" + "---|" * len(ladder))
    for spec, row in table.items():
        print(f"| {spec} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
