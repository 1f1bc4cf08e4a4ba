"""``durak bench``: the engine's speed in random legal play.

Full deals are played by choosing uniformly among the legal actions, per preset and
player count, two ways: through the public path (``legal_actions()`` and the checked
``apply``, as any caller plays), and through the playout loop of :mod:`durak.playout`
(which runs inside the compiled engine). Rates are per CPU-second of this process, so
that other work on the machine disturbs them less.

It says which engine runs (compiled or pure Python, :mod:`durak.build`); ``--compare``
runs the compiled and the pure-Python engine side by side in this one process, checks
they play the same games and prints the ratios.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import random
import time
from types import ModuleType

import durak

from . import build
from .argtypes import at_least, names_from, numbers_in
from .rules import PRESETS, Rules, RulesError


def run_games(
    rules: Rules, games: int, seed: int = 0, package: ModuleType = durak
) -> tuple[int, float]:
    """Play ``games`` random deals through the public path with ``package``'s engine;
    return (actions played, CPU seconds)."""
    game_class = package.Game
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for i in range(games):
        g = game_class(rules, seed=seed * 1_000_003 + i)
        while g.to_act is not None:
            legal = g.legal_actions()
            g.apply(legal[int(rng.random() * len(legal))])
            actions += 1
    return actions, time.process_time() - start


def run_loop(
    rules: Rules, games: int, seed: int = 0, package: ModuleType = durak
) -> tuple[int, float]:
    """The same deals (same seeds, same choices) played by ``package``'s playout loop."""
    random_games = importlib.import_module(package.__name__ + ".playout").random_games
    start = time.process_time()
    actions: int = random_games(rules, games, seed)
    return actions, time.process_time() - start


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=at_least(1), default=200, help="deals per row (default 200)")
    p.add_argument(
        "--presets",
        default=",".join(n for n in PRESETS if n != "pagony"),
        type=names_from(PRESETS, "preset"),
        help="comma-separated presets",
    )
    p.add_argument(
        "--players",
        default="2,3,4,5,6",
        type=numbers_in(2, 6),
        help="comma-separated player counts",
    )
    p.add_argument("--deck", type=int, default=36, choices=(24, 36, 52), help="cards in the deck")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals")
    p.add_argument(
        "--compare",
        action="store_true",
        help="run the compiled and the pure-Python engine side by side, print both and their ratio",
    )


def _rows(args: argparse.Namespace) -> list[Rules]:
    out = []
    for name in args.presets.split(","):
        for players in (int(p) for p in args.players.split(",")):
            try:
                out.append(Rules.preset(name.strip(), players=players, deck=args.deck))
            except RulesError as e:
                print(f"{name}({players}): skipped, {e}")
    return out


def run(args: argparse.Namespace) -> int:
    print(
        f"durak bench: random legal play, {args.games} deals a row, "
        f"Python {platform.python_version()} on {platform.machine()}"
    )
    print(f"engine: {build.engine_name()}; rates per CPU-second")
    if args.compare:
        return _compare(args)
    print(
        f"{'rules':<44} {'games/s':>9} {'actions/s':>10} {'actions/game':>13} {'loop games/s':>13}"
    )
    for rules in _rows(args):
        n, dt = run_games(rules, args.games, args.seed)
        _, dl = run_loop(rules, args.games, args.seed)
        print(
            f"{str(rules):<44} {args.games / dt:>9.0f} {n / dt:>10.0f} "
            f"{n / args.games:>13.1f} {args.games / dl:>13.0f}"
        )
    return 0


def _compare(args: argparse.Namespace) -> int:
    if not build.is_compiled():
        print(
            "durak bench --compare: this install runs the pure-Python engine (no compiled "
            "modules; see DURAK_PURE and the install notice), so there is nothing to compare"
        )
        return 1
    pure = build.load_pure()
    print(
        "games/s of the public path (legal_actions + apply) and of the playout loop, "
        "compiled vs pure Python"
    )
    print(
        f"{'rules':<44} {'public':>8} {'pure':>7} {'ratio':>6}   "
        f"{'loop':>8} {'pure':>7} {'ratio':>6}   {'loop/pure public':>16}"
    )
    games, seed = args.games, args.seed
    for rules in _rows(args):
        prules = pure.Rules.parse(str(rules))
        # Each engine runs twice, alternating, and keeps its faster run: a burst of other
        # work on the machine then hurts both alike, or neither.
        best: dict[str, float] = {}
        counts: dict[str, int] = {}
        for _ in range(2):
            for key, fn, pkg, r in (
                ("public", run_games, durak, rules),
                ("pure", run_games, pure, prules),
                ("loop", run_loop, durak, rules),
                ("loop_pure", run_loop, pure, prules),
            ):
                n, dt = fn(r, games, seed, pkg)
                best[key] = min(best.get(key, dt), dt)
                counts[key] = n
        if len(set(counts.values())) != 1:
            print(f"{str(rules):<44} MISMATCH: actions played {counts}")
            return 1
        rate = {k: games / v for k, v in best.items()}
        print(
            f"{str(rules):<44} {rate['public']:>8.0f} {rate['pure']:>7.0f} "
            f"{rate['public'] / rate['pure']:>5.2f}x   {rate['loop']:>8.0f} "
            f"{rate['loop_pure']:>7.0f} {rate['loop'] / rate['loop_pure']:>5.2f}x   "
            f"{rate['loop'] / rate['pure']:>15.2f}x"
        )
    return 0
