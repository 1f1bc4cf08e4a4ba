"""The PettingZoo and Gymnasium environments and the shared encoder (issue: learning
environments). PettingZoo's and Gymnasium's own conformance checks, rewards, the cut-off of
endless deals, and that no seat's observation carries cards hidden from it."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium as gym  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from durak import Action, Game, Rules  # noqa: E402
from durak.cards import CardSet  # noqa: E402
from durak.determinize import sample  # noqa: E402
from durak.enums import Kind
from durak.envs.bits import legal_indices, legal_moves, view_key  # noqa: E402
from durak.envs.encoding import Encoder  # noqa: E402
from durak.envs.episode import learning_presets, learning_rules  # noqa: E402
from durak.envs.gymnasium import DurakEnv, env_id  # noqa: E402
from durak.envs.pettingzoo import env  # noqa: E402
from durak.errors import IllegalActionError  # noqa: E402

from .helpers import env_configs  # noqa: E402

PRESETS = learning_presets()  # (all of them, шулерский and двухкозырный included)


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", category=UserWarning)


@pytest.mark.parametrize("rules", env_configs(PRESETS))
def test_pettingzoo_api_and_seed_tests(rules: str) -> None:
    """PettingZoo's api_test and seed_test on every preset x 2-6 players x teams."""
    api_test(env(rules=rules), num_cycles=60)
    seed_test(lambda: env(rules=rules), num_cycles=30)


def test_pettingzoo_with_pettingzoos_own_wrappers_passes_api_test() -> None:
    api_test(env(rules="perevodnoy(players=3)", wrappers=True), num_cycles=60)


@pytest.mark.parametrize("illegal_at", [None, 0, 7])
def test_wrapped_env_plays_as_the_plain_one_and_keeps_pettingzoos_checks(
    illegal_at: int | None,
) -> None:
    """Issue 52.2: env(wrappers=True) sends a legal step straight to the env; the deal,
    the rewards and the observations are the plain env's, numpy numbers included, and an
    illegal action still goes through PettingZoo's TerminateIllegalWrapper (-1 for the
    offender, every agent done) and a step before reset through its order checks."""
    from pettingzoo.utils.env_logger import EnvLogger

    EnvLogger.suppress_output()
    wrapped, plain = (
        env(rules="podkidnoy(players=3)", wrappers=True),
        env(rules="podkidnoy(players=3)"),
    )
    with pytest.raises(Exception, match="reset"):
        wrapped.step(0)
    wrapped.reset(seed=4)
    plain.reset(seed=4)
    steps = 0
    for agent, other in zip(wrapped.agent_iter(), plain.agent_iter(), strict=True):
        assert agent == other
        obs, rew, term, trunc, _ = wrapped.last()
        obs2, rew2, term2, trunc2, _ = plain.last()
        np.testing.assert_array_equal(obs["observation"], obs2["observation"])
        np.testing.assert_array_equal(obs["action_mask"], obs2["action_mask"])
        assert (rew, term, trunc) == (rew2, term2, trunc2)
        if term or trunc:
            wrapped.step(None)
            plain.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        if steps == illegal_at:
            bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
            wrapped.step(bad)
            assert wrapped.rewards[agent] == -1.0
            assert all(wrapped.terminations.values())
            break
        # (a numpy number in the wrapped env, an int in the plain one: the same action)
        wrapped.step(legal[steps % len(legal)])
        plain.step(int(legal[steps % len(legal)]))
        steps += 1
    if illegal_at is None:
        assert wrapped.unwrapped.game.history == plain.unwrapped.game.history
        assert wrapped.rewards == plain.rewards and steps > 20
    with pytest.raises(AssertionError, match="step"):  # PettingZoo's loop check, kept
        wrapped.reset(seed=1)
        for _ in wrapped.agent_iter():
            pass


def _play_out(e, pick=lambda legal: legal[0]):  # type: ignore[no-untyped-def]
    steps = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(pick(legal)))
        steps += 1
    return steps


def test_pettingzoo_rewards_durak_minus_one_others_share() -> None:
    e = env(rules="podkidnoy(players=3)")
    rng = random.Random(2)
    seen = set()
    for seed in range(6):
        e.reset(seed=seed)
        totals = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            totals[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        seen.add(tuple(sorted(totals.values())))
    assert seen <= {(-1.0, 0.5, 0.5), (0.0, 0.0, 0.0)}
    assert (-1.0, 0.5, 0.5) in seen


def test_pettingzoo_team_rewards_per_side() -> None:
    e = env(rules="podkidnoy(players=4,teams=2x2)")
    e.reset(seed=4)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    vals = [totals[f"player_{i}"] for i in range(4)]
    assert vals[0] == vals[2] and vals[1] == vals[3] and vals[0] == -vals[1]


def test_pettingzoo_mask_is_zero_off_move_and_matches_engine() -> None:
    e = env(rules="perevodnoy(players=4)")
    e.reset(seed=1)
    g = e.unwrapped.game
    for agent in e.possible_agents:
        mask = e.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        if agent == e.agent_selection:
            assert sorted(np.flatnonzero(mask)) == sorted(legal_indices(g))
        else:
            assert not mask.any()


def test_pettingzoo_illegal_action_ends_deal_with_penalty() -> None:
    e = env()
    e.reset(seed=3)
    bad = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[-1])
    who = e.agent_selection
    e.step(bad)
    assert all(e.terminations.values())
    assert e.rewards[who] == -1.0 and sum(e.rewards.values()) == -1.0
    with pytest.raises(ValueError):
        e2 = env()
        e2.reset(seed=3)
        e2.step(10**6)


def test_pettingzoo_steps_play_the_engines_deal_and_observations_follow_it() -> None:
    """The compiled step and the per-state observation cache: a deal played through the env
    (actions given as int and as numpy integers) is the engine's deal with the same moves;
    every observation equals a fresh encoding of the engine's position, also when asked
    twice or for a seat not on move, and stays as it was after later steps; out-of-bounds
    actions and None raise and change nothing."""
    rules = "perevodnoy(players=3)"
    e = env(rules=rules)
    e.reset(seed=5)
    g = e.unwrapped.game
    twin = g.clone()
    enc = Encoder(g.rules)
    rng = random.Random(2)
    steps = 0
    kept: list[tuple[np.ndarray, bytes]] = []
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        assert seat == twin.to_act
        for other in e.possible_agents:  # asked twice: the same, and what the engine shows
            s = e.possible_agents.index(other)
            for o in (e.observe(other), e.observe(other)):
                assert o["observation"].tobytes() == enc.encode(twin, s).tobytes()
                assert o["action_mask"].nonzero()[0].tolist() == (
                    sorted(legal_indices(twin)) if s == seat else []
                )
        with pytest.raises(ValueError):
            e.step(-1)
        with pytest.raises(ValueError):
            e.step(None)
        assert e.agent_selection == agent and not any(e.terminations.values())
        kept += [
            (obs["observation"], obs["observation"].tobytes()),
            (obs["action_mask"], obs["action_mask"].tobytes()),
        ]
        legal = obs["action_mask"].view(bool).nonzero()[0]
        pick = legal[rng.randrange(len(legal))]
        twin.apply(Action.from_index(int(pick), twin.rules))
        e.step(pick if steps % 2 else int(pick))  # a numpy integer, then an int
        steps += 1
    assert twin.to_act is None and steps > 20
    assert all(a.tobytes() == b for a, b in kept)
    assert e.unwrapped.game.history == twin.history


def test_pettingzoo_env_copied_mid_deal_plays_on_alone() -> None:
    """A deep copy or a pickle of the env mid-deal (as tree search over an env does) has
    the same position, legal actions and observations, and playing it leaves the original
    as it was."""
    import copy
    import pickle

    e = env(rules="perevodnoy(players=3)")
    e.reset(seed=4)
    for _ in range(7):
        e.step(int(e.observe(e.agent_selection)["action_mask"].view(bool).nonzero()[0][-1]))
    before = e.observe(e.agent_selection)
    history = list(e.unwrapped.game.history)
    for f in (copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        assert f.agent_selection == e.agent_selection
        obs = f.observe(f.agent_selection)
        assert obs["observation"].tobytes() == before["observation"].tobytes()
        assert obs["action_mask"].tobytes() == before["action_mask"].tobytes()
        f.step(int(obs["action_mask"].view(bool).nonzero()[0][0]))
        assert len(f.unwrapped.game.history) == len(history) + 1
        assert e.unwrapped.game.history == history
        assert e.observe(e.agent_selection)["action_mask"].tobytes() == (
            before["action_mask"].tobytes()
        )


def test_pettingzoo_registry_makes_the_env() -> None:
    import pettingzoo

    if not hasattr(pettingzoo, "make"):
        pytest.fail("the installed PettingZoo has no registry")
    e = pettingzoo.make("aec", "durak/durak_v0", rules="prostoy(players=3)")
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert e.metadata["name"] == "durak_v0"


def test_truncated_deal_is_truncated_not_terminated() -> None:
    """RULES.md 5 action_limit: a deal cut off is reported as a truncation, reward 0."""
    e = env(rules="podkidnoy(players=3,action_limit=5)")
    e.reset(seed=0)
    assert _play_out(e) == 5
    g = e.unwrapped.game
    assert g.outcome is not None and g.outcome.truncated and g.outcome.durak is None
    # after the loop every agent was stepped dead; check the flags a fresh run leaves
    e.reset(seed=0)
    for _ in range(5):
        obs = e.observe(e.agent_selection)
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert all(r == 0.0 for r in e.rewards.values())

    ge = DurakEnv(rules="podkidnoy(players=3,action_limit=5)", opponents=["greedy"], seat=0)
    obs, _ = ge.reset(seed=0)
    done = False
    while not done:
        obs, reward, terminated, truncated, _ = ge.step(int(ge.action_masks().nonzero()[0][0]))
        done = terminated or truncated
    assert truncated and not terminated and reward == 0.0


def test_endless_deal_ends_with_action_limit() -> None:
    """Three players who always take: without a limit the cards go round for ever."""
    g = Game(Rules(players=3, action_limit=400), seed=5)
    while not g.is_over:
        legal = g.legal_actions()
        take = [a for a in legal if a.kind == Kind.TAKE]
        g.apply(take[0] if take else legal[0])
    assert g.outcome is not None and g.outcome.truncated and len(g.history) == 400


def test_gymnasium_check_env_and_registered_ids() -> None:
    check_env(
        DurakEnv(rules="perevodnoy(players=3)", opponents=["greedy", "random"]),
        skip_render_check=False,
    )
    for name in PRESETS:
        e = gym.make(env_id(name), opponents=["random"])
        obs, info = e.reset(seed=1)
        assert obs["action_mask"].sum() == len(info["legal"]) > 0
        e.close()
    check_env(gym.make("durak/Podkidnoy-v0", opponents=["level3"]).unwrapped)


def test_gymnasium_action_masks_and_rewards() -> None:
    e = DurakEnv(rules="podkidnoy", opponents=["random"])
    rewards = []
    for seed in range(4):
        obs, _ = e.reset(seed=seed)
        done = False
        while not done:
            m = e.action_masks()
            assert m.dtype == bool and (m == obs["action_mask"].astype(bool)).all()
            obs, r, terminated, truncated, _ = e.step(int(m.nonzero()[0][-1]))
            done = terminated or truncated
        rewards.append(r)
    assert set(rewards) <= {-1.0, 0.0, 1.0}
    obs, _ = e.reset(seed=0)
    illegal = int((~e.action_masks()).nonzero()[0][0])
    _, r, terminated, truncated, info = e.step(illegal)
    assert r == -1.0 and terminated and info["illegal"]


def _positions(rules: Rules, count: int, seed: int = 0) -> list[Game]:
    rng = random.Random(seed)
    out = []
    g = Game(rules, seed=seed)
    while len(out) < count:
        if g.is_over:
            g = Game(rules, seed=rng.randrange(10**9))
            continue
        legal = legal_moves(g)  # (шулерский: cheats and calls too)
        g.apply(legal[rng.randrange(len(legal))])
        if rng.random() < 0.2:
            out.append(g.clone())
    return out


@pytest.mark.parametrize(
    "text",
    [
        "podkidnoy(players=2)",
        "perevodnoy(players=4)",
        "perevodnoy-proezdnoy(players=3)",
        "podkidnoy(players=6,teams=3x3)",
        "podkidnoy(players=2,deck=24,trump_exchange=on)",
        "beskozyrny(players=3)",
        "piki-pikami(players=2,trump_exchange=on)",
        "shulerskiy(players=3)",  # the cheat planes, and the calls in the mask
        "dvukhkozyrny(players=3)",
    ],
)
def test_changing_only_hidden_cards_changes_nothing_a_seat_sees(text: str) -> None:
    """No secrets: a seat's encoding and view key are the same in every game that differs
    from the real one only in cards hidden from that seat (other hands, the talon)."""
    rules = Rules.parse(text)
    enc = Encoder(rules)
    priv = Encoder(rules, privileged=True)
    rng = random.Random(1)
    differ = 0
    for g in _positions(rules, 25):
        for seat in range(rules.players):
            other = sample(g.observation(seat), rng)
            assert (enc.encode(g, seat) == enc.encode(other, seat)).all()
            assert view_key(g, seat) == view_key(other, seat)
            if seat == g.to_act:
                assert legal_indices(g) == legal_indices(other)
            if [int(h) for h in g.hands] != [int(h) for h in other.hands]:
                differ += 1
                assert (priv.encode(g, seat) != priv.encode(other, seat)).any()
    assert differ > 10  # the check above was not vacuous


def test_encoder_planes_hold_what_they_name() -> None:
    rules = Rules(players=3)
    enc = Encoder(rules)
    names = enc.describe()
    for g in _positions(rules, 10, seed=3):
        seat = g.to_act
        assert seat is not None
        x = enc.encode(g, seat)
        on = {names[i] for i in np.flatnonzero(x[: enc.planes_size])}
        assert {n.split(":")[1] for n in on if n.startswith("hand:")} == {
            str(c) for c in g.hand(seat)
        }
        assert {n.split(":")[1] for n in on if n.startswith("discard:")} == {
            str(c) for c in g.discard
        }
        table = {str(a) for a, _ in g.table} | {str(b) for _, b in g.table if b}
        assert {n.split(":")[1] for n in on if n.startswith(("attack_", "beating"))} == table
        left = (seat + 1) % 3
        assert x[names.index("hand_size_+1")] == pytest.approx(len(g.hand(left)) / 36)
        assert x[names.index(f"phase_{g.phase}")] == 1.0


def test_pettingzoo_state_is_the_whole_deal_and_render_test_passes() -> None:
    """Issue 34.5: state() is the global state (every hand) whoever is to act, in
    state_space; PettingZoo's render_test passes (human mode prints and returns None)."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: env(render_mode=render_mode))
    e = env(rules="podkidnoy(players=3)")
    e.reset(seed=4)
    names = e.unwrapped._state_encoder.plane_names  # noqa: SLF001 (the test reads the layout)
    cards = 36
    g = e.unwrapped.game
    rng = random.Random(4)
    for _agent in e.agent_iter(max_iter=60):
        st = e.unwrapped.state()
        assert e.unwrapped.state_space.contains(st)
        # every hand is in it, from seat 0's side
        for r, name in enumerate(["hand", "hand_+1", "hand_+2"]):
            i = names.index(name)
            assert int(st[i * cards : (i + 1) * cards].sum()) == len(g.hand(r))
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize(
    ("text", "suit"), [("beskozyrny(players=3)", None), ("piki-pikami(players=2)", "♦")]
)
def test_the_trump_flags_follow_the_rules_trump(text: str, suit: str | None) -> None:
    """Issue 36 (docs/envs.md): the trump_suit_* flags are the rules' trump suit (♦ in
    «пики пиками», whatever card is turned), none of them without a trump (бескозырный);
    the trump plane holds the turned card, empty when none is turned."""
    rules = Rules.parse(text)
    enc = Encoder(rules)
    names = enc.describe()
    flags = [f"trump_suit_{s}" for s in "♠♥♦♣"]
    for g in _positions(rules, 12, seed=5):
        seat = g.to_act
        assert seat is not None
        x = enc.encode(g, seat)
        on = {f for f in flags if x[names.index(f)] == 1.0}
        assert on == (set() if suit is None else {f"trump_suit_{suit}"})
        trump_plane = {n for i, n in enumerate(names) if n.startswith("trump_card:") and x[i]}
        if g.trump is None:
            assert not trump_plane
        else:
            assert trump_plane == {f"trump_card:{g.trump}"}


def test_cheats_and_calls_have_numbers_only_with_cheating() -> None:
    """Issue 36 (docs/envs.md, the action encoding): with cheating, cheats and calls are
    numbered after the honest actions, whose numbers stay those of every other rule set
    (the learned player's weights depend on them); without it they have none."""
    honest, shuler = Rules(), Rules.preset("shulerskiy")
    assert honest.num_actions == 1608 and shuler.num_actions == 1608 + 36 * 36 + 2 * 36
    for deck, size in ((24, 786 + 24 * 24 + 48), (52, 3152 + 52 * 52 + 104)):
        assert shuler.replace(deck=deck).num_actions == size
    for text, number in (("~6♥/6♠", 1608 + 1), ("~A♦/A♣", 1608 + 36 * 36 - 2), ("~6♠", 2904)):
        a = Action.parse(text)
        assert a.index(shuler) == number and Action.from_index(number, shuler) is a
    assert Action.parse("?A♣").index(shuler) == shuler.num_actions - 1
    for i in range(shuler.num_actions):  # every number, both ways
        assert Action.from_index(i, shuler).index(shuler) == i
        if i < honest.num_actions:
            assert Action.from_index(i, shuler) is Action.from_index(i, honest)
    with pytest.raises(IllegalActionError, match="only with cheating"):
        Action.parse("?6♣").index(honest)
    with pytest.raises(IllegalActionError, match="out of range"):
        Action.from_index(1608, honest)


def _cheat_when_stuck(rules: Rules) -> Callable[[np.ndarray, np.ndarray], int]:
    """An opponent policy that lays its lowest honest card when it has one, else cheats
    if it can (its lowest cheat number), else takes or passes: it never calls."""
    honest = Rules.preset("podkidnoy", deck=rules.deck).num_actions
    calls = rules.num_actions - rules.deck

    def policy(_obs: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        laying = legal[(legal >= 6) & (legal < honest)]  # (not take, pass, exchange)
        cheats = legal[(legal >= honest) & (legal < calls)]
        pick = laying if len(laying) else cheats if len(cheats) else legal
        return int(pick[0])

    return policy


def test_shulerskiy_mask_offers_the_call_on_an_opponents_cheat_and_step_plays_it() -> None:
    """шулерский (docs/rules.md 11) in the Gymnasium env: the learner's mask is its honest
    moves, cheats and calls, with a call on every card another seat laid this bout
    (honest or not: the mask tells nothing a seat cannot see); the cheat planes show what
    is public (the cheat, who laid it); stepping the call's number plays it: the cheat is
    caught and goes back to the cheater's hand."""
    rules = Rules.preset("shulerskiy")
    e = DurakEnv("shulerskiy", opponents=[_cheat_when_stuck(rules)], seat=0)
    names = e.encoder.describe()
    obs, _ = e.reset(seed=2)
    g = e.game
    assert g is not None
    honest_calls = 0
    for _ in range(500):
        o = g.observation(0)
        offered = {a.index(rules) for a in o.legal + o.cheats + o.calls}
        assert set(np.flatnonzero(obs["action_mask"]).tolist()) == offered
        table = sum(a.bit | (b.bit if b is not None else 0) for a, b in g.table)
        by_others = CardSet(table & ~int(o.laid[0]) & ~int(o.called))
        assert {a.cards for a in o.calls} == {c.bit for c in by_others}
        honest_calls += len(by_others) - len(CardSet(int(o.cheated) & int(by_others)))
        cheats = CardSet(int(o.cheated) & int(by_others))
        if cheats:
            break
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, term, trunc, _ = e.step(int(legal[legal < 1608][0]))  # honest moves only
        if term or trunc:
            obs, _ = e.reset()
            g = e.game
            assert g is not None
    else:
        raise AssertionError("the opponent never cheated")
    assert honest_calls > 0  # calls were offered on honest cards too
    card = next(iter(cheats))
    x = obs["observation"]
    assert x[names.index(f"cheated:{card}")] == 1.0 and x[names.index(f"laid_+1:{card}")] == 1.0
    assert x[names.index(f"laid_self:{card}")] == 0.0
    call = Action.parse(f"?{card}")
    assert obs["action_mask"][call.index(rules)] == 1
    before = len(g.history)
    e.step(call.index(rules))
    assert g.history[before] is call
    caught = g.clone()  # (the deal just after the call: the opponent may have played on)
    while len(caught.history) > before + 1:
        caught.undo()
    assert card in caught.hand(1) and card not in caught.observation(0).cheated


def test_dvukhkozyrny_observation_holds_each_seats_trump() -> None:
    """двухкозырный (docs/rules.md 12): the trump_suit_* flags are the observing seat's
    own trump, trump_+k_* that of the seat k places to its left; no card is turned under
    the talon, the turned cards are in the discard for every seat to see."""
    hands = "6S 7S 8S 6H 7H 8H 6D 7D 8D 6C 7C 8C 9S 9H 9D 10S 10H 10D"
    rules = Rules.preset("dvukhkozyrny", players=3)
    # dealt from the dealer's left (seat 0), then one card turned for each seat, in turn
    g = Game(rules, deck=hands + " KH AD QC", dealer=2)
    assert g.observation(0).trumps == (1, 2, 3)  # ♥ ♦ ♣
    enc = Encoder(learning_rules(rules))
    names = enc.describe()
    for seat, own, left, right in ((0, "♥", "♦", "♣"), (1, "♦", "♣", "♥"), (2, "♣", "♥", "♦")):
        x = enc.encode(g, seat)
        on = {n for i, n in enumerate(names) if n.startswith("trump") and x[i] == 1.0}
        assert on == {f"trump_suit_{own}", f"trump_+1_{left}", f"trump_+2_{right}"}
        assert {n for i, n in enumerate(names) if n.startswith("discard:") and x[i]} == {
            "discard:K♥",
            "discard:A♦",
            "discard:Q♣",
        }
