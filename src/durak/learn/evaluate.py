"""The ladder evaluator: a player against bots on fixed paired deals, with 95% intervals.

Deal ``d`` is ``Game(rules, seed=seed + d)`` (2-player podkidnoy and seed 2026 unless
told), played twice: the player in seat 0, then in seat 1, against the same rung (so a
deal's luck cancels out); the bots are made afresh each game with seeds that follow from
the deal's number. The same deals for every player and rung, so the same moves give the
same numbers. Score: 1 not durak, ½ draw, 0 durak; the interval is 95%, normal, over
deals (both games of a deal are one observation).

A player is given as a spec: ``random`` (uniform over the legal moves), any bot spec of
:func:`durak.bots.make` (``learned``, ``policy:PATH``, ``zoo:NAME``, ``level3``),
``ppo:PATH`` (a MaskablePPO model saved by ``benchmarks/rl/ppo.py``, its deterministic
policy on the env's encoder) or ``dmc:PATH`` (a checkpoint of :mod:`durak.learn.dmc2`,
its greedy ``Q``); or as a :class:`~durak.bots.Bot` itself (a network being trained).

>>> cell = pairing("greedy", "random", games=4)
>>> cell.games, 0.0 <= cell.mean <= 1.0
(4, True)

The command plays every player against every rung and prints the table
(``benchmarks/rl/evaluate.py`` calls it)::

    .venv/bin/python -m durak.learn.evaluate --games 200 --slow-games 100 \\
        --players random,learned,dmc:scratch/dmc.pt   # about 1 h of one core, most of it level 5
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action, encoding
from ..bots import Bot, make
from ..envs.bits import legal_indices
from ..envs.encoding import Encoder, mask_of
from ..envs.episode import learning_rules
from ..errors import ArgumentError
from ..game import Game
from ..rules import Rules
from .scoring import Player, bot_player, game_score

__all__ = ["SEED", "Cell", "cell_of", "deal_score", "main", "pairing", "player"]

SEED = 2026  # the ladder's deals: Game(rules, seed=2026 + d)
SLOW = ("level5",)  # rungs played on --slow-games only


def player(spec: str | Bot, rules: Rules, seed: int) -> Player:
    """A function ``(game, seat) -> action`` for a player's spec (or a bot)."""
    if not isinstance(spec, str):
        return bot_player(spec)
    if spec == "random":
        rng = random.Random(seed)
        return lambda g, seat: g.legal_actions()[int(rng.random() * len(g.moves()))]
    if spec.startswith("ppo:"):
        return ppo_player(spec[4:], rules)
    if spec.startswith("dmc:"):
        return dmc_player(spec[4:], rules)
    return bot_player(make(spec, seed=seed))


_MODELS: dict[str, object] = {}


def ppo_player(path: str, rules: Rules) -> Player:
    """A MaskablePPO model's deterministic policy (``sb3-contrib``, loaded once)."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    if path not in _MODELS:
        if not os.path.exists(path):
            raise ArgumentError(f"ppo: no model {path!r}")
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
    """A :mod:`durak.learn.dmc2` checkpoint's greedy player (torch, loaded once)."""
    from . import dmc2  # (torch: imported only for a dmc: spec)

    key = "dmc:" + path
    if key not in _MODELS:
        _MODELS[key] = dmc2.player(dmc2.load(path, rules))
    play = _MODELS[key]
    assert callable(play)
    return play


def deal_score(rules: Rules, spec: str | Bot, rung: str, seed: int) -> float:
    """The player's mean score over the deal's two games (one from each seat)."""
    total = 0.0
    for seat in (0, 1):
        me = player(spec, rules, seed * 2 + seat)
        other = make(rung, seed=seed * 2 + seat + 1)
        total += game_score(Game(rules, seed=seed), seat, me, other)
    return total / 2


@dataclass(frozen=True)
class Cell:
    """A mean score with its 95% interval (clipped to [0, 1]) over ``games`` games."""

    mean: float
    low: float
    high: float
    games: int

    def __str__(self) -> str:
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}] ({self.games})"


def cell_of(scores: Sequence[float], games_each: int) -> Cell:
    """The mean of per-deal ``scores`` (each the mean of ``games_each`` games) with its 95%
    normal interval over deals.

    >>> str(cell_of([1.0, 0.5, 0.0, 0.5], 2))
    '0.500 [0.100, 0.900] (8)'
    """
    n = len(scores)
    if n == 0:
        raise ArgumentError("no deals to score")
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / max(n - 1, 1))
    half = 1.96 * sd / math.sqrt(n)
    return Cell(mean, max(mean - half, 0.0), min(mean + half, 1.0), games_each * n)


def pairing(
    spec: str | Bot, rung: str, games: int = 200, rules: Rules | None = None, seed: int = SEED
) -> Cell:
    """``spec``'s score against ``rung`` over ``games`` games (``games // 2`` deals, each
    from both seats) of ``rules`` (2-player podkidnoy), the deals ``seed + d``."""
    rules = rules or learning_rules("podkidnoy")
    if rules.players != 2:
        raise ArgumentError("the ladder plays 2-player tables (durak.learn.leaderboard: more)")
    if games < 2:
        raise ArgumentError(f"games: at least 2 (one deal from both seats), not {games}")
    return cell_of([deal_score(rules, spec, rung, seed + d) for d in range(games // 2)], 2)


def main(argv: Sequence[str] | None = None) -> None:
    """The command: every player against every rung, a table of cells."""
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--games", type=int, default=200, help="games a pairing (2 a deal)")
    p.add_argument("--slow-games", type=int, default=100, help="games against level 5")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--rules", default="podkidnoy", help="a 2-player rule set")
    p.add_argument("--players", default="random,learned", help="comma-separated players")
    p.add_argument("--ladder", default="random,greedy,heuristic,expert,level5")
    args = p.parse_args(argv)
    rules = learning_rules(args.rules)
    print(f"{args.rules}, deals Game(rules, seed={args.seed} + d), each from both seats")
    print(f"load at the start {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M UTC')}")
    ladder = args.ladder.split(",")
    table: dict[str, list[str]] = {}
    for spec in args.players.split(","):
        row = []
        for rung in ladder:
            games = args.slow_games if rung in SLOW else args.games
            start = time.process_time()
            cell = str(pairing(spec, rung, games, rules, args.seed))
            row.append(cell)
            cpu = time.process_time() - start
            print(f"{spec} vs {rung}: {cell}, {cpu:.0f} s CPU", flush=True)
        table[spec] = row
    print(f"\nload at the end {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M UTC')}")
    print("score [95% CI] (games) of each player (rows) against each rung (columns)\n")
    print("| player | " + " | ".join(ladder) + " |")
    print("|---|" + "---|" * len(ladder))
    for spec, row in table.items():
        print(f"| {spec} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    import numpy as np

    np.seterr(all="ignore")
    main()
