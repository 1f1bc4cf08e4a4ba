"""Self-play (issue 34.2): a policy as a bot that sees only its seat's view, a pool of the
learner's past copies as the vectorised env's opponents, refreshed during training."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

from durak import Game, Rules
from durak.arena import play_game
from durak.envs.encoding import Encoder
from durak.envs.episode import learning_rules
from durak.envs.sb3 import DurakSB3VecEnv, FrozenPolicy, SelfPlayCallback, snapshot
from durak.envs.selfplay import OpponentPool, PolicyBot


class Recorder:
    """A policy that plays the highest legal number and keeps what it was shown."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[np.ndarray] = []

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        self.seen.append(observation.copy())
        return int(np.flatnonzero(mask)[-1])


@pytest.mark.parametrize(
    "text", ["podkidnoy", "perevodnoy(players=3)", "podkidnoy(players=4,teams=2x2)"]
)
def test_a_policy_bot_sees_what_the_env_shows_that_seat(text: str) -> None:
    # the bot rebuilds a world from the seat's observation only; the encoder's vector of
    # that world is the vector of the real game (the encoder shows no hidden card)
    rules = learning_rules(text)
    enc, rec = Encoder(rules), Recorder()
    bot = PolicyBot(rules, rec)
    rng = random.Random(4)
    for deal in range(3):
        g = Game(rules, seed=deal)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            if rng.random() < 0.3:
                a = bot.choose(g.observation(seat))
                np.testing.assert_array_equal(rec.seen[-1], enc.encode(g, seat))
                assert a in g.legal_actions()
            else:
                legal = g.legal_actions()
                a = legal[int(rng.random() * len(legal))]
            g.apply(a)
    # whole games with the arena's own loop, and the bot survives pickling (Ray)
    again = pickle.loads(pickle.dumps(bot))
    g = play_game(rules, [again, "greedy"] + ["random"] * (rules.players - 2), 5, 5)
    assert g.is_over


def test_a_policy_bot_refuses_an_illegal_choice() -> None:
    bot = PolicyBot(Rules(), lambda obs, mask: int(np.flatnonzero(mask == 0)[0]))
    g = Game(Rules(), seed=1)
    with pytest.raises(ValueError, match="not legal"):
        bot.choose(g.observation(g.to_act or 0))


def test_selfplay_on_one_machine_plays_past_copies_of_the_learner() -> None:
    torch.set_num_threads(1)
    venv = DurakSB3VecEnv(num_envs=4, rules="podkidnoy")
    pool = OpponentPool(size=2, latest=1.0, seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    playing: list[object] = []

    class Watch(SelfPlayCallback):
        def _on_rollout_start(self) -> None:
            super()._on_rollout_start()
            playing.append(self.pool.current)

    model.learn(3 * 4 * 32, callback=Watch(venv, pool, every=1))  # three rollouts
    # a new frozen copy joined before each rollout and played it (latest=1.0); the pool
    # kept the last two
    assert playing == ["copy0", "copy1", "copy2"] and pool.names() == ["copy1", "copy2"]
    assert venv.venv.deals_done > 0
    # a copy is frozen: training on does not change what it plays
    frozen = snapshot(model, "frozen")
    obs = venv.reset()
    masks = venv.action_masks()
    frozen.deterministic = True
    before = [frozen(obs[i], masks[i]) for i in range(4)]
    model.learn(4 * 32)
    assert [frozen(obs[i], masks[i]) for i in range(4)] == before
    assert all(masks[i, a] for i, a in enumerate(before))
    assert isinstance(pickle.loads(pickle.dumps(frozen)), FrozenPolicy)


def test_pool_bad_input() -> None:
    with pytest.raises(ValueError, match="size"):
        OpponentPool(size=0)
    with pytest.raises(ValueError, match="probability"):
        OpponentPool(latest=2.0)
    with pytest.raises(ValueError, match="empty"):
        OpponentPool().pick()
