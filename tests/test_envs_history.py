"""``history=K`` on every environment (issue 52.4): the last K moves as (seat counted from
the observer, action number), oldest first, padded with -1; in the space; the same moves
the engine played; and nothing hidden in it."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from durak import Game, Rules  # noqa: E402
from durak.envs.bits import legal_indices  # noqa: E402
from durak.envs.episode import learning_rules  # noqa: E402
from durak.envs.gymnasium import DurakEnv  # noqa: E402
from durak.envs.history import History  # noqa: E402
from durak.envs.pettingzoo import env as pz_env  # noqa: E402
from durak.envs.vector import DurakVectorEnv  # noqa: E402

K = 6


def _seats_of(g: Game) -> list[int]:
    """Who played each move of ``g``, found by replaying the deal from its seed."""
    replay = Game(g.rules, seed=g.seed)
    seats = []
    for a in g.history:
        assert replay.to_act is not None
        seats.append(replay.to_act)
        replay.apply(a)
    return seats


def _expected(g: Game, seats: list[int] | None, seat: int, k: int = K) -> np.ndarray:
    """The rows as the docs define them, from the game's own history."""
    if seats is None:
        seats = _seats_of(g)
    n = g.rules.players
    rows = [(-1, -1)] * max(0, k - len(g.history)) + [
        ((s - seat) % n, a.index(g.rules)) for s, a in list(zip(seats, g.history, strict=True))[-k:]
    ]
    return np.array(rows, np.int32)


@pytest.mark.parametrize(
    "text", ["podkidnoy", "perevodnoy(players=4,teams=2x2)", "shulerskiy(players=3)"]
)
def test_pettingzoo_history_is_the_last_moves(text: str) -> None:
    e = pz_env(rules=text, history=K)
    e.reset(seed=3)
    space = e.observation_space("player_0")
    seats: list[int] = []
    rng = random.Random(0)
    steps = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        g = e.unwrapped.game
        seat = e.agent_name_mapping[agent]
        assert space.contains(obs)
        np.testing.assert_array_equal(obs["history"], _expected(g, seats, seat))
        # every other seat sees the same moves, its own way round
        other = (seat + 1) % g.rules.players
        np.testing.assert_array_equal(
            e.observe(f"player_{other}")["history"], _expected(g, seats, other)
        )
        if term or trunc:
            e.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        seats.append(seat)
        e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    assert steps > K


@pytest.mark.parametrize("text", ["podkidnoy", "podkidnoy(players=3)"])
def test_gymnasium_history_counts_the_opponents_moves(text: str) -> None:
    e = DurakEnv(rules=text, opponents=["random", "greedy"], history=K)
    obs, info = e.reset(seed=4)
    for _ in range(3):
        done = False
        while not done:
            g, seat = e.game, info["seat"]
            assert g is not None and e.observation_space.contains(obs)
            np.testing.assert_array_equal(obs["history"], _expected(g, None, seat))
            # (opponents' moves are in it, not only the learner's own: the replay's seats)
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, term, trunc, info = e.step(int(legal[0]))
            done = term or trunc
        obs, info = e.reset()


def test_vector_history_rows_and_final_observation() -> None:
    envs = DurakVectorEnv(6, "perevodnoy(players=3)", opponents=["random"], history=K)
    obs, _ = envs.reset(seed=2)
    assert envs.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    ended = 0
    for _ in range(120):
        for i in range(envs.num_envs):
            g, seat = envs.game(i), envs.seats[i]
            np.testing.assert_array_equal(obs["history"][i], _expected(g, None, seat))
        obs, _, term, trunc, info = envs.step(envs.sample_legal())
        if "final_obs" in info:
            for i in np.flatnonzero(info["_final_obs"]):
                assert info["final_obs"][i]["history"].shape == (K, 2)
                ended += 1
    assert ended > 0


def test_openspiel_history_observer() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from durak.envs import openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_durak(players=3)")
    obs = game.make_py_observer(None, {"history": K})
    rng = random.Random(1)
    s = game.new_initial_state()
    seats: list[int] = []
    checked = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        g = s.d.game
        for p in range(3):
            obs.set_from(s, p)
            np.testing.assert_array_equal(obs.dict["history"], _expected(g, seats, p))
            assert obs.tensor.shape == (openspiel.Encoder(g.rules).size + 2 * K,)
            checked += 1
        seats.append(s.current_player())
        s.apply_action(rng.choice(s.legal_actions()))
    assert checked > 3 * K


def test_history_shows_nothing_hidden() -> None:
    """Two deals that differ only in cards hidden from a seat (the other hands, the talon),
    played the same moves, give that seat the same history: it is a function of the
    public moves only."""
    rules = learning_rules("podkidnoy(players=3)")
    h = History(rules, K)
    rng = random.Random(5)
    compared = 0
    for deal in range(20):
        g = Game(rules, seed=deal)
        seats: list[int] = []
        for _ in range(rng.randrange(1, 30)):
            if g.to_act is None:
                break
            seats.append(g.to_act)
            g.play(g.moves()[rng.randrange(len(g.moves()))])
        if g.to_act is None:
            continue
        from durak.determinize import sample

        seat = g.to_act
        twin = sample(g.observation(seat), random.Random(deal), before=g.history)
        assert twin.hands[seat] == g.hands[seat]
        assert [int(x) for x in twin.hands] != [int(x) for x in g.hands] or len(twin.undrawn()) < 2
        np.testing.assert_array_equal(h.rows(twin, seats, seat), h.rows(g, seats, seat))
        assert legal_indices(twin) == legal_indices(g)
        compared += 1
    assert compared > 10


def test_history_space_and_padding() -> None:
    rules = Rules(players=4)
    h = History(rules, 3)
    g = Game(rules, seed=1)
    rows = h.rows(g, [], 0)
    assert rows.tolist() == [[-1, -1]] * 3 and h.space.contains(rows)
    assert h.space.shape == (3, 2) and h.space.dtype == np.int32
    with pytest.raises(ValueError, match="history"):
        History(rules, 0)


def test_gymnasium_history_with_bots_that_watch_every_move() -> None:
    # A bot that remembers (observe) is played one move at a time; the learner's move
    # that ends the deal counts in the history too (it once did not: an IndexError).
    e = DurakEnv(rules="podkidnoy(players=3)", opponents=["level4:iterations=5"], history=K)
    obs, info = e.reset(seed=4)
    for _ in range(2):
        done = False
        while not done:
            g, seat = e.game, info["seat"]
            assert g is not None
            np.testing.assert_array_equal(obs["history"], _expected(g, None, seat))
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, term, trunc, info = e.step(int(legal[0]))
            done = term or trunc
        obs, info = e.reset()
