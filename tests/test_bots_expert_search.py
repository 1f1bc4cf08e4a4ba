"""The expert's rules as a rollout policy (:func:`durak.bots.expert.expert_action`): the very
choice of the expert without its exact endgame, computed from the engine's ints. The
searcher's options that used it (``prior=expert``, ``rollout=expert``, ``model=expert``)
measured no better and were removed (docs/bots.md, v8, v13, v15)."""

from __future__ import annotations

import random

import pytest

from durak import Game, Rules
from durak.bots.expert import ExpertBot, expert_action, expert_rollout
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
def test_the_rollout_and_the_bot_decide_from_the_same_view(rules: str) -> None:
    """The expert's rules are written once (``expert_choice``): the bot reads them from
    its observation's view, a rollout from the engine's ``Game.view``. The two views are
    equal at every position, so both play the same moves (and the bot without its exact
    endgame plays what the rollout plays)."""
    from durak.observation import VIEW_FIELDS

    bot = ExpertBot(nodes=0)
    r = Rules.parse(rules)
    rng = random.Random(0)
    checked = 0
    for seed in range(12):
        g = Game(r, seed=seed)
        while not g.is_over:
            legal = g.legal_actions()
            seat = g.to_act
            assert seat is not None
            v, w = g.view(seat), g.observation(seat).view()
            assert all(getattr(v, f) == getattr(w, f) for f in VIEW_FIELDS)
            if len(legal) > 1:
                assert expert_action(g) == bot.choose(g.observation(seat)), (rules, seed)
                checked += 1
            g.apply(rollout_action(g) if rng.random() < 0.5 else rng.choice(legal))
    assert checked > 200


def test_expert_rollout_finishes_the_deal() -> None:
    for seed in range(5):
        g = Game(Rules.parse("perevodnoy(players=4)"), seed=seed)
        expert_rollout(g, random.Random(seed))
        assert g.is_over
