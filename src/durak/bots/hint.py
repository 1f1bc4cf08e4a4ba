"""Hints: every legal action of a position with the searcher's estimate, best first.

The estimate is the expected score of the player to act (1 = not the durak, 1/2 = a
draw, 0 = the durak) after that action, from the determinized search of
:mod:`durak.bots.ismcts`, or exact when the talon is empty and two are left. Only the
acting seat's Observation is used: a hint never peeks at hidden cards.

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=4)
>>> ranked = hint(g, iterations=40, seed=1)
>>> sorted(str(a) for a, _ in ranked) == sorted(str(a) for a in g.legal_actions())
True
>>> all(0.0 <= v <= 1.0 for _, v in ranked)
True

From the command line, for a game or match record file (``--deal N``: that deal of a
match, by default the last; ``--ply N``: the position after N actions of it)::

    durak hint game.txt --ply 12 --time 1
    durak hint match.txt --deal 2 --ply 30
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..actions import Action
from ..errors import ArgumentError, TurnError
from ..game import Game
from ..match import record_deals
from ..observation import Observation
from ..record import RecordError
from .ismcts import ISMCTSBot


def hint(
    position: Game | Observation,
    time: float | None = None,
    iterations: int | None = None,
    seed: int | None = None,
    **options: Any,
) -> list[tuple[Action, float]]:
    """Every legal action of the seat to act, with its estimated score, best first.

    ``position``: a Game (its acting seat's observation is used) or that seat's
    Observation. Budget: ``time`` seconds or ``iterations`` rollouts (default 2000).
    """
    if isinstance(position, Game):
        if position.to_act is None:
            raise TurnError("the deal is over: nobody is to act")
        obs = position.observation(position.to_act)
    else:
        obs = position
    if not obs.legal:
        raise TurnError(f"seat {obs.seat} is not to act in this position")
    if time is None and iterations is None:
        iterations = 2000
    options.setdefault("cap", 0.0)  # a hint may think as long as it is told
    bot = ISMCTSBot(time=time, iterations=iterations, seed=seed, **options)
    return bot.evaluate(obs)


def position_at(game: Game, ply: int | None) -> Game:
    """The game after its first ``ply`` actions (None: as it stands)."""
    if ply is None:
        return game
    if not 0 <= ply <= len(game.history):
        raise ArgumentError(f"--ply: 0..{len(game.history)}, not {ply}")
    g = game.fresh()
    for a in game.history[:ply]:
        g.play(a)
    return g


def deal_of(text: str, deal: int | None = None) -> Game:
    """Deal ``deal`` (1..; None: the last) of a game or match record."""
    deals, _ = record_deals(text)
    if deal is None:
        return deals[-1]
    if not 1 <= deal <= len(deals):
        raise ArgumentError(f"--deal: the record holds deals 1..{len(deals)}, not {deal}")
    return deals[deal - 1]


def _trump(obs: Observation) -> str:
    """The turned card, with the trump suit when that card does not name it (a fixed
    trump), or «none» (trump=none)."""
    suit = "♠♥♦♣"[obs.trump_suit] if obs.trump_suit < 4 else "none"
    if obs.trump is None:
        return suit
    return str(obs.trump) if obs.trump.suit == obs.trump_suit else f"{suit} ({obs.trump} turned)"


def describe(obs: Observation) -> str:
    table = " ".join(f"{a}/{b}" if b else str(a) for a, b in obs.table) or "-"
    return (
        f"seat {obs.seat} to act ({obs.phase}), bout {obs.bout + 1}, trump {_trump(obs)}, "
        f"talon {obs.talon_size}\n"
        f"hand: {obs.hand}\n"
        f"table: {table}\n"
        f"hand sizes: {' '.join(str(n) for n in obs.hand_sizes)}"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a game or match record file ('-' reads standard input)")
    parser.add_argument(
        "--deal",
        type=int,
        default=None,
        help="in a match record, the deal to read, 1.. (default: the last)",
    )
    parser.add_argument(
        "--ply",
        type=int,
        default=None,
        help="the position after this many actions (default: the end)",
    )
    parser.add_argument(
        "--time", type=float, default=None, help="seconds of search (default: --iterations decides)"
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="rollouts of search (default 2000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the search")


def run(args: argparse.Namespace) -> int:
    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            with open(args.record, encoding="utf-8") as f:
                text = f.read()
        game = position_at(deal_of(text, args.deal), args.ply)
        if game.to_act is None:
            raise TurnError("the deal is over at this point; choose an earlier --ply")
        obs = game.observation(game.to_act)
        ranked = hint(obs, time=args.time, iterations=args.iterations, seed=args.seed)
    except (OSError, RecordError, ValueError) as e:
        print(f"durak hint: {e}", file=sys.stderr)
        return 2
    print(describe(obs))
    for i, (a, v) in enumerate(ranked, 1):
        print(f"{i:3}. {str(a):<14} {v:.3f}")
    return 0
