"""The searcher with the expert's move choice: ``ismcts:prior=expert`` (the move the
search must beat) and ``ismcts:rollout=expert`` (rollouts by the expert's rules,
:func:`durak.bots.expert.expert_action`); benchmarks/bots/README.md, v8."""

from __future__ import annotations

import random
import time

import pytest

import durak.bots.ismcts as ism
from durak import Game, Rules
from durak.bots import make
from durak.bots.expert import ExpertBot, expert_action, expert_rollout
from durak.bots.ismcts import EXPERT, ISMCTSBot
from durak.bots.policy import CAREFUL, rollout_action

from .helpers import play

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


def test_the_new_options_are_accepted_and_misspellings_refused() -> None:
    bot = make("ismcts:iterations=20,prior=expert,rollout=expert")
    assert isinstance(bot, ISMCTSBot)
    assert isinstance(bot.prior, ExpertBot) and bot.prior.nodes == 0
    assert bot.expert_rollouts
    plain = make("ismcts:iterations=20")
    assert isinstance(plain, ISMCTSBot) and not plain.expert_rollouts
    with pytest.raises(ValueError, match="prior"):
        make("ismcts:prior=exprt")
    with pytest.raises(ValueError, match="rollout"):
        make("ismcts:rollout=exprt")
    with pytest.raises(ValueError, match="no option 'rollouts'"):
        make("ismcts:rollouts=expert")
    with pytest.raises(ValueError, match="no option 'priors'"):
        make("ismcts:priors=expert")


def test_prior_expert_plays_the_experts_move_unless_the_search_can_tell() -> None:
    g = Game(Rules(), seed=5)
    obs = g.observation(g.to_act or 0)
    expert = ExpertBot(nodes=0).choose(obs)
    assert ISMCTSBot(iterations=40, seed=1, keep=1e9, prior="expert").choose(obs) == expert


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=30,plain=0,keep=2,prior=expert",
        "ismcts:iterations=30,plain=0,keep=2,rollout=expert",
        "ismcts:iterations=30,plain=0.5,rollout=expert,prior=expert,cut=2",
        "ismcts:iterations=30,plain=0,keep=2,rollout=own,model=careful,prior=expert",
    ],
)
@pytest.mark.parametrize(
    "rules", ["podkidnoy", "perevodnoy(players=3)", "podkidnoy(players=4,teams=2x2)"]
)
def test_the_searcher_with_expert_choices_plays_legal_moves(spec: str, rules: str) -> None:
    r = Rules.parse(rules)
    play(r, [make(spec, seed=s) if s == 0 else make("expert") for s in range(r.players)], 7)


@pytest.mark.parametrize(
    ("rollout", "side"),
    [
        # ``own``: this seat's side by the expert's rules, the opponents by ``model``.
        ("own", (EXPERT, CAREFUL)),
        ("expert", (EXPERT, EXPERT)),
        ("rules", None),  # the rules of thumb alone never reach the expert's rules
    ],
)
def test_who_plays_the_rollouts_by_the_experts_rules(
    monkeypatch: pytest.MonkeyPatch, rollout: str, side: tuple[int, int] | None
) -> None:
    seen: set[tuple[int, ...]] = set()
    mixed = ism._mixed_action

    def spy(g: Game, styles: list[int]) -> object:
        seen.add(tuple(styles))
        return mixed(g, styles)

    monkeypatch.setattr(ism, "_mixed_action", spy)
    g = Game(Rules.parse("podkidnoy(players=4,teams=2x2)"), seed=3)
    seat = g.to_act or 0
    bot = ISMCTSBot(iterations=8, seed=1, plain=0, model="careful", rollout=rollout)
    assert bot.choose(g.observation(seat)) in g.legal_actions()
    if side is None:
        assert not seen
    else:  # 2x2: the seats two apart are this seat's side
        mine, theirs = side
        assert seen == {tuple(mine if (s - seat) % 2 == 0 else theirs for s in range(4))}


def test_expert_rollouts_respect_the_cap() -> None:
    g = Game(Rules.preset("perevodnoy", players=3), seed=4)
    obs = g.observation(g.to_act or 0)
    bot = ISMCTSBot(iterations=10**8, seed=1, cap=0.05, rollout="expert", prior="expert")
    t = time.process_time()
    assert bot.choose(obs) in obs.legal
    assert time.process_time() - t < 0.05 + 0.1  # the cap, and one world's margin
    assert 0 < bot.last_stats["rollouts"] < 10**8
