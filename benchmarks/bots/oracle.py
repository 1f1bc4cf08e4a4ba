"""What the searcher would score if it could see hidden cards: a diagnostic, not a bot.

    python benchmarks/bots/oracle.py RULES SPEC A:B [--mode full|hands]

Plays ``SPEC`` (an ``ismcts`` spec) against ``expert`` on deals A..B-1 of the pool's
seed (41; both seatings, as ``chunked.py`` deals them), with the searcher's sampled
worlds replaced by the true game: ``full`` gives it every hidden card and the talon's
order (rollouts are deterministic then, so a few rollouts a move say all), ``hands``
the opponent's hand but the talon in random order. Prints the score per deal and the
running mean (benchmarks/bots/README.md, v11). The expert plays as always.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import durak.arena as arena
import durak.bots.ismcts as ism
from durak.game import Game
from durak.observation import Observation
from durak.rules import Rules

CURRENT: list[Game] = []
MODE = ["full"]


def true_world(obs: Observation, rng: random.Random, exclude: object = None) -> Game:
    """The real game (``full``), or its hands with the talon reshuffled (``hands``)."""
    g = CURRENT[0]
    if MODE[0] == "full":
        return g.clone()
    return hands_world(g, obs, rng)


def hands_world(g: Game, obs: Observation, rng: random.Random) -> Game:
    """``g`` as ``obs``'s seat would search it knowing every hand: the talon reshuffled."""
    hands = [int(h) for h in g._hands]
    talon = list(g._talon[g._tp :])
    rng.shuffle(talon)
    return Game._from_view(obs, hands, talon)


def recorded_game(*args: Any, **kwargs: Any) -> Game:
    """The arena's game, kept where :func:`true_world` finds it (it changes in place)."""
    g = Game(*args, **kwargs)
    CURRENT[:] = [g]
    return g


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rules")
    ap.add_argument("spec")
    ap.add_argument("deals")
    ap.add_argument("--mode", choices=("full", "hands"), default="full")
    ap.add_argument("--seed", type=int, default=41)
    args = ap.parse_args()
    MODE[0] = args.mode
    ism.sample = true_world  # type: ignore[assignment]
    arena.Game = recorded_game  # type: ignore[assignment,misc]
    rules = Rules.parse(args.rules)
    lo, hi = map(int, args.deals.split(":"))
    total = 0.0
    games = 0
    for d in range(lo, hi):
        ds = arena.deal_seed(args.seed, d)
        deal = 0.0
        for k, seats in enumerate([(args.spec, "expert"), ("expert", args.spec)]):
            g = arena.play_game(rules, seats, ds, ds + k)
            me = seats.index(args.spec)
            o = g.outcome
            assert o is not None
            s = 0.5 if o.durak is None else (0.0 if o.durak == me else 1.0)
            deal += s
            total += s
            games += 1
        print(d, deal / 2, round(total / games, 3), flush=True)
    print("final", total / games, games)


if __name__ == "__main__":
    main()
