"""OpenSpiel's own ISMCTS bot playing Durak through ``python_durak``.

ISMCTS (information-set Monte Carlo tree search) searches from the bot's information set:
each simulation starts from ``state.resample_from_infostate``, which deals the cards the
bot cannot see again, consistently with what it has seen. Here it plays against
OpenSpiel's uniform random bot, chance nodes (the deal, every draw) played by sampling
``chance_outcomes()``, and the script prints how often it was not the durak.

    python examples/openspiel_ismcts.py --games 10 --simulations 100
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import durak.envs.openspiel  # noqa: F401  (registers python_durak)


def play(game: pyspiel.Game, bots: list[pyspiel.Bot], rng: np.random.RandomState) -> list[float]:
    """One deal; the returns of each seat."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def main(argv: list[str] | None = None) -> float:
    p = argparse.ArgumentParser(description="ISMCTS vs random on python_durak")
    p.add_argument("--game", default="python_durak(variant=podkidnoy,players=2)")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--simulations", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    game = pyspiel.load_game(args.game)
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rng
    )
    n = game.num_players()
    not_durak = 0
    for i in range(args.games):
        seat = i % n  # the searcher takes every seat in turn
        bots: list[pyspiel.Bot] = [
            pyspiel.make_uniform_random_bot(s, args.seed + i) for s in range(n)
        ]
        bots[seat] = searcher
        ret = play(game, bots, rng)
        not_durak += ret[seat] >= 0
        print(f"game {i + 1}: ISMCTS in seat {seat}, returns {ret}")
    rate = not_durak / args.games
    print(
        f"ISMCTS ({args.simulations} simulations) was not the durak in "
        f"{not_durak} of {args.games} games ({rate:.0%}) against random play"
    )
    return rate


if __name__ == "__main__":
    main()
