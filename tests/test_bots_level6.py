"""Level 6: the learned network as a model of the opponent (``learned.MoveOdds``), the
particle filter weighing its guesses by it (``Belief(model=...)``), and the bot."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from durak import Game, Rules
from durak.actions import Action
from durak.bots import make
from durak.bots.belief import Belief
from durak.bots.ismcts import ISMCTSBot
from durak.bots.learned import LearnedBot, MoveOdds, action_features, load, state_features
from durak.bots.level6 import EPS, Level6Bot
from durak.observation import Observation


def _worlds_after(seed: int, plies: int, n: int) -> tuple[Observation, list[Game]]:
    """Seat 0's view of a deal ``plies`` moves in with seat 1 to act, and ``n`` worlds of
    it: the same public position, other cards in seat 1's hand."""
    g = Game(Rules(), seed=seed)
    for _ in range(plies):
        g.apply(g.legal_actions()[0])
    while g.to_act != 1:
        g.apply(g.legal_actions()[0])
    obs = g.observation(0)
    belief = Belief(particles=n, rng=random.Random(seed))
    belief.observe(obs)
    belief.sync()
    rng = random.Random(seed)
    return obs, [belief.world(obs, rng) for _ in range(n)]


def _naive_odds(world: Game, seat: int, seen: Action) -> float:
    """The network's softmax probability of ``seen`` from the seat's own observation of
    ``world``, one world at a time (what MoveOdds computes in one batch)."""
    view = world.observation(seat)
    legal = world.moves()
    q = load().scores(state_features(view), action_features(view, legal))
    e = np.exp(q - q.max())
    return float(sum(x for a, x in zip(legal, e, strict=True) if a == seen) / e.sum())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_move_odds_are_the_networks_softmax_in_each_world(seed: int) -> None:
    # The batch writes only the hand and unseen planes anew per world: it must give
    # every world exactly what the network says from that world's own observation.
    obs, worlds = _worlds_after(seed, 3, 12)
    assert len({int(w.hand(1)) for w in worlds}) > 1  # the worlds differ in seat 1's hand
    seen = worlds[0].moves()[-1]
    got = MoveOdds().odds(obs, worlds, [seen])
    want = [_naive_odds(w, 1, seen) if seen in w.moves() else 0.0 for w in worlds]
    assert got == pytest.approx(want, abs=1e-5)


def test_move_odds_sum_to_one_over_the_legal_moves_and_peak_at_the_learned_move() -> None:
    obs, worlds = _worlds_after(4, 2, 1)
    w = worlds[0]
    legal = w.moves()
    odds = [MoveOdds().odds(obs, [w], [a])[0] for a in legal]
    assert sum(odds) == pytest.approx(1.0, abs=1e-5)
    best = legal[int(np.argmax(odds))]
    assert LearnedBot().choose(w.observation(1)) == best


class _Fixed:
    """A move model that believes a guess by whether seat 1 holds one card (a test's)."""

    def __init__(self, card: int) -> None:
        self.card = card
        self.hands: list[int] = []  # seat 1's hand in each world asked about

    def odds(self, p: Observation, worlds: Sequence[Game], moves: Sequence[Action]) -> list[float]:
        self.hands = [int(w.hand(1)) for w in worlds]
        return [0.9 if h >> self.card & 1 else 0.1 for h in self.hands]


def test_belief_weighs_each_guess_by_the_models_odds() -> None:
    g = Game(Rules(), seed=6)
    while g.to_act != 1:
        g.apply(g.legal_actions()[0])
    before = g.observation(0)
    hidden = int(before.unseen)
    card = next(c for c in range(52) if hidden >> c & 1)
    model = _Fixed(card)
    belief = Belief(particles=64, eps=0.01, rng=random.Random(1), model=model)
    belief.observe(before)
    belief.sync()
    g.apply(g.legal_actions()[0])
    belief.observe(g.observation(0))
    belief.sync()
    # Every guess was asked about (seat 1 had a choice in each), and its weight became
    # eps + (1 - eps) * the odds of its world (resampling, which would set them all
    # equal again, did not happen: few guesses hold the card).
    assert len(model.hands) == 64
    held = [h >> card & 1 for h in model.hands]
    assert 0 < sum(held) < 64 / 3
    want = [0.01 + 0.99 * (0.9 if x else 0.1) for x in held]
    assert belief.weights == pytest.approx(want)
    n, fit = belief.model_fit(1)
    assert n == 1 and fit == pytest.approx(sum(0.9 if x else 0.1 for x in held) / 64)


def test_a_belief_with_a_model_refuses_a_plain_share() -> None:
    with pytest.raises(ValueError, match="plain"):
        Belief(particles=8, plain=0.5, model=_Fixed(0))


def test_make_level6_is_level_5s_search_with_the_learned_reading() -> None:
    bot = make("level6", seed=3)
    assert isinstance(bot, Level6Bot) and isinstance(bot, ISMCTSBot)
    five = make("level5", seed=3)
    assert isinstance(five, ISMCTSBot)
    assert (bot.iterations, bot.heads_up, bot.nodes, bot.cap, bot.model, bot.decision) == (
        five.iterations,
        five.heads_up,
        five.nodes,
        five.cap,
        five.model,
        five.decision,
    )
    belief = bot.worlds.belief  # type: ignore[attr-defined]
    assert isinstance(belief.model, MoveOdds) and belief.eps == EPS
    with pytest.raises(ValueError, match="no option 'iterations'"):
        make("level6:iterations=5")


def test_level6_reads_the_opponent_with_the_network_in_a_game_of_two() -> None:
    g = Game(Rules(), seed=8)
    bot = Level6Bot(seed=1)
    bot.reset()
    while not g.is_over:
        obs = g.observation(0)
        if g.to_act != 0:
            bot.observe(obs)
            g.apply(g.legal_actions()[0])
            continue
        g.apply(bot.choose(obs))
        if bot.last_stats.get("belief") and bot.worlds.belief.moves_read:  # type: ignore[attr-defined]
            break  # a move searched in worlds dealt after reading the opponent's moves
    assert bot.last_stats["belief"] is True
    belief = bot.worlds.belief  # type: ignore[attr-defined]
    assert isinstance(belief.model, MoveOdds) and belief.moves_read > 0


def test_level6_plays_level5s_moves_with_three_players() -> None:
    # The belief reads games of two only: with three players both deal uniform worlds
    # from the same seed, so they rank every move alike (no CPU cap: nothing timed).
    g = Game(Rules(players=3), seed=2)
    six, five = Level6Bot(seed=1, cap=0.0), make("level5", seed=1, cap=0.0)
    assert isinstance(five, ISMCTSBot)
    obs = g.observation(g.to_act)
    ranked = six.evaluate(obs)
    assert six.last_stats["belief"] is False
    assert ranked == five.evaluate(obs)
