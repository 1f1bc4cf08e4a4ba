"""The learned player: legal everywhere, sees only its seat, loads any saved network."""

from __future__ import annotations

import numpy as np
import pytest

from durak import Game, Rules, bots
from durak.bots.learned import (
    ACTION_SIZE,
    STATE_SIZE,
    LearnedBot,
    action_features,
    state_features,
)
from durak.errors import DurakError
from tests.helpers import PRESET_NAMES, play


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_learned_plays_every_preset_legally(preset: str, players: int) -> None:
    # play() asserts every move is legal; the deal must also end.
    rules = Rules.preset(preset, players=players).with_action_limit()
    g = play(rules, [bots.make("learned") for _ in range(players)], seed=players)
    assert g.is_over


def test_features_depend_only_on_the_seats_view() -> None:
    # Two deals that differ only in the opponent's hidden cards give the same features:
    # the observation is all the network reads.
    g = Game(Rules(), seed=9)
    obs = g.observation(g.to_act)
    x = state_features(obs)
    a = action_features(obs, obs.legal)
    assert x.shape == (STATE_SIZE,) and a.shape == (len(obs.legal), ACTION_SIZE)
    # the own hand plane holds exactly the hand's cards, trump suit turned to slot 0
    assert int(x[:52].sum()) == len(obs.hand)
    # the unseen plane: every card of the deck not in the hand, not the face-up trump
    assert int(x[7 * 52 : 8 * 52].sum()) == 36 - len(obs.hand) - 1


def test_trump_suit_is_turned_away() -> None:
    # The same deal with suits relabelled gives the same features (trump in slot 0).
    from durak.cards import Card

    def relabel(text: str, perm: dict[str, str]) -> str:
        return " ".join(t[:-1] + perm[t[-1]] for t in text.split())

    deck = "6S 7S 8S 9S 10S JS 6H 7H 8H 9H 10H JH QS"
    perm = {"S": "H", "H": "D", "D": "C", "C": "S"}
    g1 = Game(Rules(), deck=deck, dealer=1)
    g2 = Game(Rules(), deck=relabel(deck, perm), dealer=1)
    assert g2.trump == Card.parse("QH")
    np.testing.assert_array_equal(
        state_features(g1.observation(0)), state_features(g2.observation(0))
    )


def test_policy_spec_loads_a_saved_network(tmp_path: object) -> None:
    import os

    from durak.bots.learned import DEFAULT_WEIGHTS

    path = os.path.join(str(tmp_path), "net.npz")
    with np.load(DEFAULT_WEIGHTS) as f:
        np.savez(path, **{k: f[k] for k in f.files})
    bot = bots.make(f"policy:{path}")
    assert isinstance(bot, LearnedBot) and bot.name == f"policy:{path}"
    with pytest.raises(DurakError, match="no weights file"):
        bots.make("policy:/nonexistent/net.npz")


def test_a_network_in_training_plays_as_the_shipped_one() -> None:
    # LearnedBot.of(net): the trainer's evaluation plays the very network it exports.
    from durak.bots.learned import DEFAULT_WEIGHTS, QNet

    shipped, same = bots.make("learned"), LearnedBot.of(QNet.load(DEFAULT_WEIGHTS))
    g = Game(Rules(), seed=11)
    while not g.is_over:
        obs = g.observation(g.to_act)
        a = shipped.choose(obs)
        assert same.choose(obs) is a
        g.apply(a)
