"""The expert's rules as a rollout policy (:mod:`durak.bots.expert_policy`): the very
choice of the expert without its exact endgame, computed from the engine's ints. The
searcher's options that used it (``prior=expert``, ``rollout=expert``, ``model=expert``)
measured no better and were removed (docs/bots.md, v8, v13, v15)."""

from __future__ import annotations

import random

import pytest

from durak import Game, Rules
from durak.bots.expert import ExpertBot
from durak.bots.expert_policy import expert_action, expert_rollout
from durak.bots.policy import rollout_action

VARIANTS = [
    "podkidnoy",
    "perevodnoy",
    "podkidnoy(players=3)",
    "perevodnoy-proezdnoy",
    "podkidnoy(players=4,teams=2x2)",
    "prostoy(players=3)",
]


@pytest.mark.parametrize("rules", VARIANTS)
def test_expert_policy_matches_the_expert(rules: str) -> None:
    """On full games, the rollout version makes the very choice of the expert without its
    exact endgame, at every position with a choice."""
    bot = ExpertBot(nodes=0)
    r = Rules.parse(rules)
    rng = random.Random(0)
    checked = 0
    for seed in range(12):
        g = Game(r, seed=seed)
        while not g.is_over:
            legal = g.legal_actions()
            if len(legal) > 1:
                assert expert_action(g) == bot.choose(g.observation(g.to_act)), (rules, seed)
                checked += 1
            g.apply(rollout_action(g) if rng.random() < 0.5 else rng.choice(legal))
    assert checked > 200


def test_expert_rollout_finishes_the_deal() -> None:
    for seed in range(5):
        g = Game(Rules.parse("perevodnoy(players=4)"), seed=seed)
        expert_rollout(g, random.Random(seed))
        assert g.is_over
