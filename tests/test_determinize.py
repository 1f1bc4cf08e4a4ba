"""determinize.sample: games rebuilt from one seat's view give that seat the same view,
and hold the seat's hand, the known cards and the right hand sizes."""

from __future__ import annotations

import random

import pytest

from durak import PRESETS, Game, Rules
from durak.determinize import sample

from .helpers import assert_cards_conserved


@pytest.mark.parametrize("preset", list(PRESETS))
def test_sampled_games_agree_with_the_view(preset: str) -> None:
    rng = random.Random(preset)
    for i in range(25):
        players = rng.randint(2, 6)
        teams = {4: "2x2", 6: "3x3"}.get(players, "none") if rng.random() < 0.5 else "none"
        g = Game(Rules.preset(preset, players=players, teams=teams), seed=i)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            obs = g.observation(seat)
            d = sample(obs, rng)
            assert d.observation(seat) == obs
            assert_cards_conserved(d)
            for s in range(players):
                assert d.hands[s] & g.known[s] == g.known[s]
            assert d.legal_actions() == g.legal_actions()
            g.apply(rng.choice(g.legal_actions()))


def test_exclusions_are_honoured_when_possible() -> None:
    g = Game(Rules(players=3), seed=2)
    obs = g.observation(0)
    clubs = sum(1 << (r * 4 + 3) for r in range(13))
    for k in range(20):
        d = sample(obs, random.Random(k), exclude=[0, clubs, 0])
        assert not d.hands[1] & clubs
