"""``durak bench``: the engine's speed in random legal play.

Full deals are played by choosing uniformly among ``legal_actions()`` and playing
the choice with ``apply`` (checked, the public path), per preset and player
count, and the rates are printed as games/s and actions/s.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from .argtypes import at_least, names_from, numbers_in
from .game import Game
from .rules import PRESETS, Rules, RulesError


def run_games(rules: Rules, games: int, seed: int = 0) -> tuple[int, float]:
    """Play ``games`` random deals; return (actions played, seconds)."""
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        g = Game(rules, seed=seed * 1_000_003 + i)
        while g.to_act is not None:
            legal = g.legal_actions()
            g.apply(legal[int(rng.random() * len(legal))])
            actions += 1
    return actions, time.perf_counter() - start


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=at_least(1), default=200, help="deals per row (default 200)")
    p.add_argument("--presets", default=",".join(n for n in PRESETS if n != "pagony"),
                   type=names_from(PRESETS, "preset"), help="comma-separated presets")
    p.add_argument("--players", default="2,3,4,5,6", type=numbers_in(2, 6),
                   help="comma-separated player counts")
    p.add_argument("--deck", type=int, default=36, choices=(24, 36, 52), help="cards in the deck")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals")


def run(args: argparse.Namespace) -> int:
    print(f"durak bench: random legal play, {args.games} deals a row, "
          f"Python {platform.python_version()} on {platform.machine()}")
    print(f"{'rules':<44} {'games/s':>9} {'actions/s':>10} {'actions/game':>13}")
    for name in args.presets.split(","):
        for players in (int(p) for p in args.players.split(",")):
            try:
                rules = Rules.preset(name.strip(), players=players, deck=args.deck)
            except RulesError as e:
                print(f"{name}({players}): skipped, {e}")
                continue
            n, dt = run_games(rules, args.games, args.seed)
            print(f"{str(rules):<44} {args.games / dt:>9.0f} {n / dt:>10.0f} "
                  f"{n / args.games:>13.1f}")
    return 0
