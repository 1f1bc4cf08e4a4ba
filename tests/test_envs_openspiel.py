"""The OpenSpiel game ``python_durak``: OpenSpiel's own random simulation test, true chance
nodes, resampling that keeps the information state, and OpenSpiel's ISMCTS and MCTS bots."""

from __future__ import annotations

import random
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from durak import Rules  # noqa: E402
from durak.envs import openspiel  # noqa: E402

# Short decks and hands keep the random deals short: the variants are what is tested.
VARIANTS = [
    "python_durak",
    "python_durak(variant=perevodnoy,players=3,deck=24)",
    "python_durak(variant=perevodnoy-proezdnoy,players=4,teams=2x2,deck=24,hand_size=4)",
    "python_durak(variant=prostoy,players=5,trump_exchange=on,hand_size=4)",
    "python_durak(variant=pagony,players=4,hand_size=4)",
    "python_durak(variant=podkidnoy,players=6,deck=24,hand_size=4)",  # every card dealt
    "python_durak(variant=pogonny,players=3,deck=24,hand_size=4)",
    # issue 36: no card turned; a fixed trump and «пики пиками»
    "python_durak(variant=beskozyrny,players=3,deck=24,hand_size=4)",
    "python_durak(variant=piki-pikami,players=2,deck=24,hand_size=4)",
    # шулерский (cheats and calls numbered) and двухкозырный (a trump per seat)
    "python_durak(variant=shulerskiy,players=3,deck=24,hand_size=4)",
    "python_durak(variant=dvukhkozyrny,players=3,deck=24,hand_size=4)",
]


@pytest.mark.parametrize("name", VARIANTS)
def test_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_serialize_and_parameters() -> None:
    game = pyspiel.load_game("python_durak(variant=perevodnoy,players=3,throwers=neighbours)")
    assert game.rules == Rules.parse("perevodnoy(players=3,throwers=neighbours)").replace(
        action_limit=1000
    )
    assert pyspiel.load_game(str(game)).rules == game.rules
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    assert openspiel.load(Rules.parse("prostoy(players=4)")).rules.players == 4
    with pytest.raises(Exception, match="variant"):
        pyspiel.load_game("python_durak(variant=chess)")
    with pytest.raises(Exception, match="action_limit"):
        pyspiel.load_game("python_durak(action_limit=0)")


def _random_until(state, rng: random.Random, moves: int):  # type: ignore[no-untyped-def]
    """Play random chance outcomes and moves until ``moves`` moves are made (or the end)."""
    made = 0
    while not state.is_terminal() and (made < moves or state.is_chance_node()):
        if state.is_chance_node():
            outs = state.chance_outcomes()
            state.apply_action(outs[rng.randrange(len(outs))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            made += 1
    return state


def test_deal_and_draws_are_true_chance_nodes() -> None:
    """The deal is one chance node per card, uniform over the cards not yet placed; after
    a bout, every card drawn from the talon is a chance node over the cards still in it."""
    game = pyspiel.load_game("python_durak")
    s = game.new_initial_state()
    for placed in range(13):  # 12 cards dealt, then the face-up trump
        assert s.is_chance_node()
        outs = s.chance_outcomes()
        assert len(outs) == 36 - placed
        assert sum(p for _, p in outs) == pytest.approx(1.0)
        s.apply_action(outs[0][0])
    assert not s.is_chance_node()
    rng = random.Random(0)
    draws = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outs = s.chance_outcomes()
            # uniform over the cards still in the talon (the face-up trump not counted)
            assert len(outs) == len(s.d.pool) == s.d.game.talon_size - 1 - len(s.d.chosen)
            assert all(p == pytest.approx(1 / len(outs)) for _, p in outs)
            draws += 1
            s.apply_action(outs[rng.randrange(len(outs))][0])
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    assert draws == 36 - 13  # every card of the talon but the face-up trump


def test_no_trump_dealt_makes_the_first_lead_a_lot() -> None:
    """RULES.md 2: nobody holds a trump, no_trump_lead=lot: the lot is a chance node."""
    game = pyspiel.load_game("python_durak")
    s = game.new_initial_state()
    spades_hearts = [c for c in range(36) if c % 4 in (0, 1)][:12]
    for c in spades_hearts + [2]:  # then the 6♦: diamonds are trumps, and nobody has one
        s.apply_action(c)
    assert s.is_chance_node() and [a for a, _ in s.chance_outcomes()] == [0, 1]
    s.apply_action(1)
    assert s.current_player() == 1


def test_resampling_keeps_the_information_state() -> None:
    rng = random.Random(4)
    for name in VARIANTS[:5]:
        game = pyspiel.load_game(name)
        changed = 0
        for k in range(6):
            s = _random_until(game.new_initial_state(), rng, 3 + 7 * k)
            if s.is_terminal():
                continue
            p = s.current_player()
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            for _ in range(3):
                r = s.resample_from_infostate(p, sampler)
                assert r.information_state_string(p) == s.information_state_string(p)
                assert r.observation_string(p) == s.observation_string(p)
                assert r.information_state_tensor(p) == s.information_state_tensor(p)
                assert r.legal_actions() == s.legal_actions()
                if str(r) != str(s):
                    changed += 1
                _random_until(r, rng, 1000)  # a resampled state plays on to the end
                assert r.is_terminal()
        assert changed > 0, name


def test_information_state_hides_other_hands() -> None:
    game = pyspiel.load_game("python_durak(variant=perevodnoy,players=3)")
    s = _random_until(game.new_initial_state(), random.Random(1), 5)
    p = s.current_player()
    other = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    for q in range(3):
        if q != p and other.d.game.hand(q) != s.d.game.hand(q):
            # the other seat's view differs, the player's does not
            assert other.information_state_string(q) != s.information_state_string(q)
            break
    assert other.information_state_string(p) == s.information_state_string(p)


def test_openspiel_ismcts_and_mcts_bots_play() -> None:
    game = pyspiel.load_game("python_durak(deck=24)")
    rng = np.random.RandomState(0)
    ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, ev, 2.0, 8, random_state=rng),
        mcts.MCTSBot(game, 2.0, 8, ev, random_state=rng),
    ]
    s = game.new_initial_state()
    moves = 0
    while not s.is_terminal() and moves < 8:
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(outs[rng.randint(len(outs))][0])
        else:
            a = bots[s.current_player()].step(s)
            assert a in s.legal_actions()
            s.apply_action(a)
            moves += 1
    assert moves == 8


def test_example_ismcts_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parent.parent / "examples" / "openspiel_ismcts.py"
    argv = sys.argv
    sys.argv = [str(path), "--game", "python_durak(deck=24)", "--games", "1", "--simulations", "4"]
    try:
        runpy.run_path(str(path), run_name="__main__")
    finally:
        sys.argv = argv
    assert "was not the durak in" in capsys.readouterr().out


def test_cut_off_deal_is_terminal_with_zero_returns() -> None:
    """RULES.md 5 action_limit: the deal ends after that many moves, with no result."""
    game = pyspiel.load_game("python_durak(players=3,action_limit=6)")
    assert game.max_game_length() == 6 + 36 + 1
    s = _random_until(game.new_initial_state(), random.Random(2), 1000)
    assert s.is_terminal() and s.returns() == [0.0, 0.0, 0.0]
    assert s.d.game.outcome.truncated and len(s.d.game.history) == 6


def test_python_side_answers_are_pyspiels() -> None:
    """The state answers legal_actions() and is_chance_node() in Python (fewer calls
    through pybind11); at every node of random deals they equal pyspiel's own C++ answers
    (chance outcomes at a chance node, nothing for a player not on move or at the end), an
    illegal action is refused and changes nothing, and a clone keeps its own legal
    numbers."""
    game = pyspiel.load_game("python_durak(variant=perevodnoy,players=3,deck=24)")
    rng = random.Random(5)
    nodes = 0
    for _ in range(3):
        s = game.new_initial_state()
        while True:
            assert s.is_chance_node() == pyspiel.State.is_chance_node(s)
            assert s.legal_actions() == pyspiel.State.legal_actions(s)
            for p in range(game.num_players()):
                assert s.legal_actions(p) == pyspiel.State.legal_actions(s, p)
            nodes += 1
            if s.is_terminal():
                assert s.legal_actions() == []
                break
            legal = s.legal_actions()
            if not s.is_chance_node():
                wrong = next(a for a in range(game.num_distinct_actions()) if a not in legal)
                before, history = str(s), s.history()
                with pytest.raises(Exception, match="not legal"):
                    s.apply_action(wrong)
                assert str(s) == before and s.legal_actions() == legal
                assert s.history() == history
                twin = s.clone()
                twin.apply_action(legal[0])
                assert s.legal_actions() == legal
            s.apply_action(legal[rng.randrange(len(legal))])
    assert nodes > 100


def _random_live_states(game: object, n: int, seed: int) -> list[object]:
    """States at players' moves from random play (chance outcomes random too)."""
    rng = random.Random(seed)
    out = []
    s = game.new_initial_state()  # type: ignore[attr-defined]
    while len(out) < n:
        if s.is_terminal():
            s = game.new_initial_state()  # type: ignore[attr-defined]
        elif s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            out.append(s.clone())
            s.apply_action(rng.choice(s.legal_actions()))
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_observers_honour_private_and_public_info(players: int) -> None:
    """Issue 34.4: PrivateInfoType.NONE drops the own hand (and its string is the same
    for every player), SINGLE_PLAYER keeps it, ALL_PLAYERS holds every hand;
    public_info=False keeps only the private planes."""
    game = pyspiel.load_game(f"python_durak(players={players})")
    cards = 36

    def obs_type(private: object, public: bool = True) -> object:
        return pyspiel.IIGObservationType(
            perfect_recall=False, public_info=public, private_info=private
        )

    own = game.make_py_observer(obs_type(pyspiel.PrivateInfoType.SINGLE_PLAYER))
    none = game.make_py_observer(obs_type(pyspiel.PrivateInfoType.NONE))
    every = game.make_py_observer(obs_type(pyspiel.PrivateInfoType.ALL_PLAYERS))
    private_only = game.make_py_observer(
        obs_type(pyspiel.PrivateInfoType.SINGLE_PLAYER, public=False)
    )
    names = own.encoder.plane_names
    unseen = slice(names.index("unseen") * cards, (names.index("unseen") + 1) * cards)
    for state in _random_live_states(game, 40, players):
        g = state.d.game  # type: ignore[attr-defined]
        lo = openspiel.Encoder(g.rules).lo
        for p in range(players):
            hand = np.zeros(cards, np.float32)
            for c in g.hand(p):
                hand[c.index - lo] = 1.0
            known = np.zeros(cards, np.float32)
            for c in g.known[p]:
                known[c.index - lo] = 1.0
            own.set_from(state, p)
            np.testing.assert_array_equal(own.tensor[:cards], hand)
            none.set_from(state, p)
            # the public hand plane: only the cards of the hand everyone knows; the rest
            # of the hand is unseen, as the talon and the other hands are
            np.testing.assert_array_equal(none.tensor[:cards], known)
            np.testing.assert_array_equal(none.tensor[unseen], own.tensor[unseen] + hand - known)
            rest = np.ones(own.encoder.size, bool)
            rest[:cards] = rest[unseen] = False
            np.testing.assert_array_equal(none.tensor[rest], own.tensor[rest])
            every.set_from(state, p)
            for r in range(1, players):
                i = every.encoder.plane_names.index(f"hand_+{r}")
                other = np.zeros(cards, np.float32)
                for c in g.hand((p + r) % players):
                    other[c.index - lo] = 1.0
                np.testing.assert_array_equal(every.tensor[i * cards : (i + 1) * cards], other)
            private_only.set_from(state, p)
            np.testing.assert_array_equal(private_only.tensor[:cards], hand)
            assert not private_only.tensor[cards:].any()
        texts = {none.string_from(state, p) for p in range(players)}
        assert len(texts) == 1  # the public string is one for all
        # and no hidden card shows in it: hands dealt again from any player's view leave it
        rng = random.Random(7)
        for p in range(players):
            other = state.resample_from_infostate(p, rng.random)  # type: ignore[attr-defined]
            assert none.string_from(other, 0) in texts


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_public_observation_shows_no_private_card(players: int) -> None:
    """Issue 52.1: the public tensor (PrivateInfoType.NONE) is a function of public facts
    only. Two deals that differ only in cards nobody can place in public (the observer's
    own hand included) give the same tensor, in every seat of many positions, while the
    player's own tensor (SINGLE_PLAYER) does change, and once the own ``unseen`` plane
    gave the hand away."""
    deck = 36 if players <= 4 else 52
    game = pyspiel.load_game(f"python_durak(players={players},deck={deck})")
    public = game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        )
    )
    own = game.make_py_observer()
    rng = random.Random(players)
    twins = hands_changed = own_changed = 0
    for state in _random_live_states(game, 40, 100 + players):
        g = state.d.game  # type: ignore[attr-defined]
        tensors = []
        for p in range(players):
            public.set_from(state, p)
            tensors.append(public.tensor.copy())
        # the cards seat q cannot see dealt again (resample_from_infostate: the public
        # history and every card seen go into a hand kept): every other hand changes,
        # the observer's own among them, and the talon
        for q in range(players):
            twin = state.resample_from_infostate(q, rng.random)  # type: ignore[attr-defined]
            h = twin.d.game
            # (Game.from_view drops the cards of q's own hand known to all, a public fact
            # the other seats' views hold: put them back, as a true re-deal keeps them)
            h.state()[1][q] = g.state()[1][q]
            assert g.table == h.table and g.discard == h.discard and g.known == h.known
            twins += 1
            for p in range(players):
                public.set_from(twin, p)
                np.testing.assert_array_equal(public.tensor, tensors[p])
                if g.hand(p) != h.hand(p):
                    hands_changed += 1
                    own.set_from(state, p)
                    mine = own.tensor.copy()
                    own.set_from(twin, p)
                    own_changed += not np.array_equal(own.tensor, mine)
    # the test can fail: most hands were dealt again, and the own view saw it each time
    assert twins == 40 * players
    assert hands_changed > twins * (players - 1) // 2
    assert own_changed == hands_changed


@pytest.mark.parametrize("variant", ["shulerskiy", "dvukhkozyrny"])
def test_random_sim_test_serializes_cheats_and_per_seat_trumps(variant: str) -> None:
    """The two rule sets the environments once refused, through OpenSpiel's own checker
    with serialisation: шулерский's cheats and calls are actions like the others, and
    двухкозырный's trumps survive a state's round trip."""
    game = pyspiel.load_game(f"python_durak(variant={variant},players=3,deck=24,hand_size=4)")
    assert game.num_distinct_actions() == game.rules.num_actions
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
