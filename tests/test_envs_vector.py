"""The vectorised environment: Gymnasium's vector contract, same-step autoreset, the
learner's view only, and opponents given as specs, bots or policies (issue 34)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium as gym  # noqa: E402

import durak.envs.gymnasium  # noqa: E402, F401  (registers the ids)
from durak import Game  # noqa: E402
from durak.bots import make  # noqa: E402
from durak.envs.bits import legal_indices  # noqa: E402
from durak.envs.episode import learning_presets, returns  # noqa: E402
from durak.envs.gymnasium import env_id  # noqa: E402
from durak.envs.vector import DurakVectorEnv  # noqa: E402

from .helpers import env_configs  # noqa: E402

PRESETS = learning_presets()  # (all of them, шулерский and двухкозырный included)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_id_has_a_vector_entry_point(preset: str) -> None:
    envs = gym.make_vec(env_id(preset), num_envs=3, vectorization_mode="vector_entry_point")
    obs, _ = envs.reset(seed=2)
    assert envs.observation_space.contains(obs)
    assert envs.action_masks().shape == (3, envs.single_action_space.n)
    for _ in range(30):
        obs, rewards, term, trunc, _ = envs.step(envs.sample_legal())
        assert envs.observation_space.contains(obs)
        assert rewards.shape == term.shape == trunc.shape == (3,)


def _views_match_the_games(envs: DurakVectorEnv, obs: dict[str, np.ndarray]) -> None:
    """Each row is the learner's own view of its deal: the encoder's vector of the game
    from the learner's seat and the engine's legal numbers, nothing of other seats."""
    for i in range(envs.num_envs):
        g, seat = envs.game(i), envs.seats[i]
        assert g.to_act == seat  # the learner always has the move when it is shown
        np.testing.assert_array_equal(obs["observation"][i], envs.encoder.encode(g, seat))
        assert np.flatnonzero(obs["action_mask"][i]).tolist() == sorted(legal_indices(g))


@pytest.mark.parametrize(
    "text",
    [
        "podkidnoy",
        "perevodnoy(players=3)",
        "podkidnoy(players=4,teams=2x2)",
        "beskozyrny(players=3)",  # issue 36
        "piki-pikami",
    ],
)
def test_rows_are_the_learners_views_and_autoreset_is_same_step(text: str) -> None:
    envs = DurakVectorEnv(8, text, opponents=["random", "greedy"])
    obs, _ = envs.reset(seed=5)
    _views_match_the_games(envs, obs)
    ended = 0
    for _ in range(150):
        obs, rewards, term, trunc, _ = envs.step(envs.sample_legal())
        done = term | trunc
        ended += int(done.sum())
        # a finished deal's row already shows the next deal: never an all-zero mask
        assert obs["action_mask"].any(axis=1).all()
        assert set(np.unique(rewards[~done])) <= {0.0}
        _views_match_the_games(envs, obs)
    assert ended > 0 and envs.deals_done == ended


def test_same_seed_same_play_and_illegal_action_ends_the_deal() -> None:
    a, b = DurakVectorEnv(4), DurakVectorEnv(4)
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    for _ in range(40):
        acts = a.sample_legal()
        # (both draw from their own generators, which must agree)
        np.testing.assert_array_equal(acts, b.sample_legal())
        oa, ra, *_ = a.step(acts)
        ob, rb, *_ = b.step(acts)
        np.testing.assert_array_equal(oa["observation"], ob["observation"])
        np.testing.assert_array_equal(ra, rb)
    # action 10**6 is never legal: that deal ends at -1, the others play on
    acts = a.sample_legal()
    acts[2] = 10**6
    _, rewards, term, _, _ = a.step(acts)
    assert rewards[2] == -1.0 and term[2]


def test_opponents_may_be_bots_and_policies() -> None:
    seen: list[int] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append(int(mask.sum()))
        assert observation.dtype == np.float32
        return int(np.flatnonzero(mask)[0])  # the lowest legal number

    envs = DurakVectorEnv(4, "podkidnoy(players=3)", opponents=[make("greedy"), policy])
    envs.reset(seed=1)
    for _ in range(50):
        envs.step(envs.sample_legal())
    assert seen and min(seen) >= 1
    with pytest.raises(TypeError, match="opponents"):
        DurakVectorEnv(2, opponents=[3.5])  # type: ignore[list-item]


def test_vector_env_plays_the_engines_deals() -> None:
    # the deal in each row is an ordinary engine game: its record replays exactly
    envs = DurakVectorEnv(2)
    envs.reset(seed=3)
    for _ in range(100):
        envs.step(envs.sample_legal())
    for i in range(envs.num_envs):
        g = envs.game(i)
        assert [str(a) for a in Game.from_record(g.record()).history] == [str(a) for a in g.history]


def test_single_env_takes_bots_and_policies_as_opponents() -> None:
    """Issue 34.2: DurakEnv's opponents= takes a Bot object and a policy, which is given
    the vector and the mask a learner in its seat would get (self-play: a past copy)."""
    from durak.envs.gymnasium import DurakEnv

    calls: list[tuple[int, int]] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append((observation.shape[0], int(mask.sum())))
        return int(np.flatnonzero(mask)[-1])

    env = DurakEnv("podkidnoy(players=3)", opponents=[make("greedy"), policy], seat=0)
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, term, trunc, info = env.step(int(legal[0]))
        done = term or trunc
    assert calls and all(size == env.encoder.size and n >= 1 for size, n in calls)
    with pytest.raises(TypeError, match="opponents"):
        DurakEnv(opponents=[42])  # type: ignore[list-item]


@pytest.mark.parametrize("text", env_configs(PRESETS))
def test_conformance_with_the_engine(text: str) -> None:
    """Every preset x 2-6 players x teams: each row is the engine's own deal
    ``Game(rules, seed=deal_seeds[i])`` replayed through the public ``apply``: its
    observation the single env's encoder of that game from the learner's seat, its mask
    exactly the engine's legal actions (numbered by ``Action.index``, not by the env's
    own table; with cheating, its cheats and calls too), a finished deal's reward the
    engine's outcome, its final observation that of the finished game, and the next deal
    shown at once (same-step autoreset)."""
    envs = DurakVectorEnv(4, text)
    rules, enc = envs.rules, envs.encoder
    obs, _ = envs.reset(seed=11)
    ended = 0
    for step in range(300):
        if step >= 60 and ended:
            break  # (random cheats and calls make some deals long: on until one ends)
        before = [envs.game(i) for i in range(4)]
        seats = envs.seats
        obs, rewards, term, trunc, info = envs.step(envs.sample_legal())
        for i in range(4):
            g, seat = envs.game(i), envs.seats[i]
            mirror = Game(rules, seed=envs.deal_seeds[i])
            for a in g.history:
                mirror.apply(a)
            assert mirror.to_act == seat
            np.testing.assert_array_equal(obs["observation"][i], enc.encode(mirror, seat))
            # (шулерский: the seat's cheats and calls too, the engine's own lists)
            offered = mirror.legal_actions() + mirror.cheats() + mirror.calls()
            legal = {a.index(rules) for a in offered}
            assert set(np.flatnonzero(obs["action_mask"][i]).tolist()) == legal
            if term[i] or trunc[i]:
                ended += 1
                old = before[i]
                assert old is not g and old.outcome is not None
                assert rewards[i] == returns(rules, old.outcome)[seats[i]]
                assert bool(trunc[i]) == old.outcome.truncated
                final = info["final_obs"][i]
                np.testing.assert_array_equal(final["observation"], enc.encode(old, seats[i]))
                assert not final["action_mask"].any()
            else:
                assert g is before[i] and rewards[i] == 0.0
    assert envs.deals_done == ended and ended > 0


def test_arrays_handed_out_are_never_written_again() -> None:
    """The output arrays come from a pool and are written again only when nobody else
    holds them: whatever a caller keeps (the dict, one array, a view of a row, a weak
    reference) stays as it was, as if each step returned copies."""
    import weakref

    envs = DurakVectorEnv(4)
    obs, _ = envs.reset(seed=2)
    kept = [(obs, {k: v.copy() for k, v in obs.items()})]
    row = obs["action_mask"][1]
    row_before = row.copy()
    ref_target, _, _, _, _ = envs.step(envs.sample_legal())
    weak = weakref.ref(ref_target["observation"])
    weak_before = ref_target["observation"].copy()
    ids = set()
    for _ in range(30):
        o, *_ = envs.step(envs.sample_legal())
        ids.add(id(o["observation"]))
        if len(kept) < 5:
            kept.append((o, {k: v.copy() for k, v in o.items()}))
    for held, snapshot in kept:
        for k in held:
            np.testing.assert_array_equal(held[k], snapshot[k])
    np.testing.assert_array_equal(row, row_before)
    target = weak()
    assert target is not None
    np.testing.assert_array_equal(target, weak_before)
    # arrays nobody kept were written again: a small pool, not a new pair each step
    assert len(ids) < 30


@pytest.mark.parametrize("sharded", [False, True])
def test_arrays_let_go_of_are_written_again_in_place(sharded: bool) -> None:
    """A caller that lets go of each step's arrays gets the same pair back every step
    (the step writes half the memory it would alternating two pairs); one that keeps
    the last step's observation (the usual ``obs, ... = envs.step(...)``) gets another
    pair, and what it keeps stays as it was. The sharded env's pool alike."""
    from durak.envs.shards import ShardedVectorEnv

    envs: Any = ShardedVectorEnv(6, "podkidnoy", shards=2) if sharded else DurakVectorEnv(4)
    try:
        envs.reset(seed=5)
        ids = set()
        for _ in range(10):
            envs.step(envs.sample_legal())
            ids.add(id(envs.action_masks().base))
        assert len(ids) == 1
        obs, *_ = envs.step(envs.sample_legal())
        before = obs["observation"].copy()
        nxt, *_ = envs.step(envs.sample_legal())
        assert nxt["observation"] is not obs["observation"]
        np.testing.assert_array_equal(obs["observation"], before)
    finally:
        envs.close()


def test_sharded_env_is_its_shards_side_by_side() -> None:
    """Issue 52.3: the deals split over worker processes are the one-process env's deals
    of each shard (seeded ``seed * shards + k``), row for row, step after step; the
    arrays handed out are never written again."""
    from durak.envs.shards import ShardedVectorEnv

    sharded = ShardedVectorEnv(7, "podkidnoy(players=3)", shards=2, history=4)
    try:
        obs, _ = sharded.reset(seed=3)
        parts = [DurakVectorEnv(n, "podkidnoy(players=3)", history=4) for n in (3, 4)]
        outs = [p.reset(seed=3 * 2 + k)[0] for k, p in enumerate(parts)]
        kept, before = obs["observation"], obs["observation"].copy()
        ended = 0
        for _ in range(60):
            for key in ("observation", "action_mask", "history"):
                np.testing.assert_array_equal(obs[key], np.concatenate([o[key] for o in outs]))
            actions = sharded.sample_legal()
            assert obs["action_mask"][np.arange(7), actions].all()  # legal, all of them
            obs, rewards, term, trunc, info = sharded.step(actions)
            steps = (
                [p.step(actions[:3]), p2.step(actions[3:])]
                if (p2 := parts[1]) and (p := parts[0])
                else []
            )
            outs = [s[0] for s in steps]
            np.testing.assert_array_equal(rewards, np.concatenate([s[1] for s in steps]))
            np.testing.assert_array_equal(term, np.concatenate([s[2] for s in steps]))
            np.testing.assert_array_equal(
                info["seat"], np.concatenate([s[4]["seat"] for s in steps])
            )
            # the ended deals' last views (written by the shards into shared memory)
            finals = [s[4].get("final_obs") for s in steps]
            for i in np.flatnonzero(term | trunc).tolist():
                part, row = (0, i) if i < 3 else (1, i - 3)
                theirs = finals[part]
                assert theirs is not None
                for key in ("observation", "action_mask", "history"):
                    np.testing.assert_array_equal(info["final_obs"][i][key], theirs[row][key])
            ended += int(term.sum() + trunc.sum())
        assert ended > 0 and sharded.moves == sum(p.moves for p in parts)
        assert sharded.deals_done == sum(p.deals_done for p in parts) == ended
        np.testing.assert_array_equal(kept, before)
    finally:
        sharded.close()


def test_sharded_env_swaps_opponents_in_every_shard() -> None:
    """set_opponents reaches the workers (self-play swaps past copies so); a bad spec
    raises in the caller."""
    from durak.envs.shards import ShardedVectorEnv

    sharded = ShardedVectorEnv(4, "podkidnoy", shards=2)
    try:
        sharded.reset(seed=1)
        sharded.set_opponents(["greedy"])
        for _ in range(20):
            obs, *_ = sharded.step(sharded.sample_legal())
        assert obs["action_mask"].any(axis=1).all()
        with pytest.raises(Exception, match="nosuchbot"):
            sharded.set_opponents(["nosuchbot"])
    finally:
        sharded.close()
