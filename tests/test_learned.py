"""The learned player: legal everywhere, sees only its seat, loads any saved network; the
self-play network's features (durak.bots.viewnet) lose nothing and turn the trump suit to
slot 0; it plays the tables it reads and the imitation network the rest (issue 34.3)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from durak import Game, Rules, bots
from durak.bots.learned import (
    ACTION_SIZE,
    DEFAULT_WEIGHTS,
    STATE_SIZE,
    LearnedBot,
    action_features,
    state_features,
)
from durak.bots.viewnet import ACTION_KINDS, ViewFeatures
from durak.determinize import sample
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


# --- the self-play network (durak.bots.viewnet's features, the shipped learned.npz) ---

SELF_PLAY_NET = DEFAULT_WEIGHTS


def test_every_action_number_comes_back_from_its_features() -> None:
    f = ViewFeatures(Rules())
    for t in range(4):
        assert [f.decode(f.actions[t, i], t) for i in range(f.num_actions)] == list(
            range(f.num_actions)
        )


def test_an_attack_is_its_kind_and_its_cards_with_the_trump_suit_turned_to_slot_0() -> None:
    f = ViewFeatures(Rules())
    row = f.actions[2, 25]  # 25: attack with 7♠+7♦; trump ♦ (suit 2)
    kinds = len(ACTION_KINDS)
    assert row[:kinds].tolist() == [1, 0, 0, 0, 0, 0, 0]  # attack
    # 7 is the second rank (slots 4-7): 7♦, a trump, in slot 0 of it; 7♠ turned to slot 2
    assert np.flatnonzero(row[kinds : kinds + 36]).tolist() == [4, 6]
    assert not row[kinds + 36 : kinds + 72].any()  # no table card beaten
    assert row[-1] == 0.5  # two cards laid


def test_the_state_turn_moves_the_hand_so_that_trumps_are_slot_0() -> None:
    from durak.envs.encoding import Encoder

    rules = Rules()
    f, enc = ViewFeatures(rules), Encoder(rules)
    for seed in range(8):
        g = Game(rules, seed=seed)
        x = f.view(g, 0)
        assert (x == enc.encode(g, 0)).all()  # the environments' vector, no other
        turned, trump = f.state(x[None, :])
        t = int(trump[0])
        assert g.trump_suit == t
        hand = [c.index - enc.lo for c in g.hand(0)]
        want = sorted(c - c % 4 + (c % 4 - t) % 4 for c in hand)
        assert np.flatnonzero(turned[0, :36]).tolist() == want
        assert turned[0, f.trump_cols].tolist() == [1, 0, 0, 0]


@pytest.mark.parametrize("preset", ["podkidnoy", "perevodnoy"])
def test_the_vector_the_player_makes_from_its_observation_is_the_real_games(preset: str) -> None:
    # No secrets: the bot has only the Observation and deals the hidden cards of a world
    # at random (determinize.sample); the vector of that world must be the real game's
    # at every position of whole deals, so the hidden cards change nothing it reads.
    rules = Rules.preset(preset)
    f, rng, other_worlds = ViewFeatures(rules), random.Random(5), 0
    for seed in range(4):
        g = Game(rules, seed=seed)
        players = [bots.make("greedy"), bots.make("learned")]
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            obs = g.observation(seat)
            world = sample(obs, rng)
            other_worlds += world.hand(1 - seat) != g.hand(1 - seat)
            np.testing.assert_array_equal(f.view(world, seat), f.view(g, seat))
            g.apply(players[seat].choose(obs))
    assert other_worlds > 50  # (the worlds did deal the hidden cards otherwise)


def test_learned_plays_the_self_play_network_where_it_reads_the_table() -> None:
    # Issue 46: the 2-player self-play network at the tables it reads, the every-table
    # network at every other but the cheating game (the imitation network plays it).
    from durak.bots.learned import TABLE_WEIGHTS
    from durak.bots.tablenet import reads

    learned = bots.make("learned")
    assert isinstance(learned, LearnedBot)
    self_play, imitation = learned.nets
    assert self_play.features is not None and learned.table is not None
    assert imitation.features is None  # (for the cheating game alone)
    two = [Rules(), Rules.preset("perevodnoy"), Rules.preset("prostoy")]
    others = [
        Rules.preset("podkidnoy", players=3),
        Rules.preset("podkidnoy", deck=24),
        Rules.preset("podkidnoy", deck=52),
        Rules.preset("beskozyrny", players=2),
        Rules.preset("pogonny", players=2),
        Rules.preset("dvukhkozyrny", players=2),
    ]
    assert all(self_play.reads(r) for r in two)
    assert not any(self_play.reads(r) for r in others)
    assert all(reads(r) == "" for r in two + others)
    # the move is the one network's or the other's
    table_alone = bots.make(f"policy:{TABLE_WEIGHTS}")
    cheating = Rules.preset("shulerskiy", players=3)
    for rules, alone in [
        (Rules(), LearnedBot.of(self_play)),
        (others[0], table_alone),
        (cheating, LearnedBot.of(imitation)),
    ]:
        g = Game(rules, seed=3)
        for _ in range(12):
            obs = g.observation(g.to_act)
            a = learned.choose(obs)
            assert alone.choose(obs) is a
            g.apply(a)


def test_a_self_play_network_alone_refuses_a_table_it_cannot_read() -> None:
    bot = bots.make(f"policy:{SELF_PLAY_NET}")
    g = Game(Rules.preset("podkidnoy", players=3), seed=1)
    before = g.state()
    with pytest.raises(DurakError, match="cannot play"):
        bot.choose(g.observation(g.to_act))
    assert g.state() == before


def test_learned_with_the_endgame_on_plays_the_solvers_move_once_nothing_is_hidden() -> None:
    # learned:endgame=on (issue 35): with two left and nothing hidden the exact solver's
    # move, before that the network's.
    from durak.bots.solver import Solver, perfect_information

    bot, plain = bots.make("learned:endgame=on"), bots.make("learned")
    solved = 0
    for seed in range(6):
        g = Game(Rules(), seed=seed)
        greedy = bots.make("greedy")
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            obs = g.observation(seat)
            if seat == 0 and len(obs.legal) > 1:
                a = bot.choose(obs)
                if perfect_information(obs):
                    want, _ = Solver(seat).best_action(g)
                    assert a == want
                    solved += 1
                else:
                    assert a == plain.choose(obs)
                g.apply(a)
            else:
                g.apply(greedy.choose(obs))
    assert solved >= 6


def _positions(count: int, seed: int) -> list[Game]:
    """Positions of 2-player podkidnoy deals played by greedy, cards still hidden."""
    out = []
    greedy = bots.make("greedy")
    for d in range(count):
        g = Game(Rules(), seed=seed + d)
        for _ in range(8 + 3 * d):
            if g.is_over or g.talon_size <= 1:
                break
            g.apply(greedy.choose(g.observation(g.to_act)))  # type: ignore[arg-type]
        if not g.is_over:
            out.append(g)
    return out


def test_look_ahead_values_a_finished_line_by_its_outcome_and_a_cut_one_by_the_network() -> None:
    # The level-6 look-ahead (issue 35): played far enough every deal ends and is valued
    # by its outcome for the seat (+1 the other durak, -1 itself); cut after one move
    # a line is valued by the network's best Q of the seat to act, negated for the other.
    from durak.bots.learned import QNet, view_features
    from durak.bots.lookahead import look_ahead
    from durak.playout import outcome_value

    net = QNet.load(DEFAULT_WEIGHTS)
    games = _positions(6, seed=40)
    ended = [g.clone() for g in games]
    values = look_ahead(net, ended, 0, depth=400)
    assert all(g.is_over for g in ended)
    assert [int(v) for v in values] == [outcome_value(g, 0) for g in ended]
    assert {int(v) for v in values} <= {-1, 0, 1} and len(set(values.tolist())) > 1
    f = view_features(Rules())
    cut = [g.clone() for g in games]
    values = look_ahead(net, cut, 0, depth=1)
    for g0, g, v in zip(games, cut, values, strict=True):
        assert len(g.history) > len(g0.history)  # one move (and any forced ones) played
        if g.is_over:
            continue
        mover = g.to_act
        assert mover is not None
        s, trump = f.state(f.view(g, mover)[None, :])
        rows = f.actions[int(trump[0]), [_number(g, a) for a in g.moves()]]
        best = float(net.scores(s[0], rows).max())
        assert v == pytest.approx(best if mover == 0 else -best, abs=1e-5)
    with pytest.raises(ValueError, match="depth"):
        look_ahead(net, [games[0].clone()], 0, depth=0)


def test_the_look_ahead_plays_the_best_mean_plus_prior() -> None:
    # Level 6's choice (issue 35): each candidate's mean look-ahead value over the same
    # worlds plus its prior (the network's own Q at the root, weighted); zeros: the
    # look-ahead alone; a prior large enough overturns the look-ahead's order.
    from durak.bots.learned import QNet
    from durak.bots.lookahead import best_looked_ahead, mean_values

    net, rng, overturned = QNet.load(DEFAULT_WEIGHTS), random.Random(3), 0
    for g in _positions(6, seed=41):
        obs = g.observation(g.to_act)  # type: ignore[arg-type]
        ranked = list(obs.legal[:3])
        if len(ranked) < 2:
            continue
        deals = [sample(obs, rng) for _ in range(8)]
        mean = mean_values(net, obs.seat, ranked, deals, 6)
        zeros = [0.0] * len(ranked)
        assert best_looked_ahead(net, obs, ranked, deals, 6, zeros) == ranked[int(mean.argmax())]
        worst = int(mean.argmin())
        if mean[worst] < mean.max():
            prior = [0.0] * len(ranked)
            prior[worst] = float(mean.max() - mean[worst]) + 0.01
            assert best_looked_ahead(net, obs, ranked, deals, 6, prior) == ranked[worst]
            overturned += 1
    assert overturned >= 2


def _number(g: Game, a: object) -> int:
    from durak.actions import encoding

    return encoding(g.rules).index_of(a)  # type: ignore[arg-type]


def test_learned_with_worlds_plays_one_of_the_networks_best_moves() -> None:
    # learned:worlds=N (level 6's search): the move is one of the network's ``width`` best
    # (width 1: the network's own move, move for move); with nothing hidden the search is
    # off (the endgame's move); the same seed plays the same deal.
    plain = bots.make("learned")
    one = bots.make("learned:worlds=4,width=1", seed=1)
    two = [bots.make("learned:worlds=8,width=2", seed=s) for s in (1, 1)]
    net = plain.nets[0]  # type: ignore[attr-defined]
    f = net.features
    differs = 0
    for seed in range(3):
        g = Game(Rules(), seed=seed)
        for b in (one, *two):
            b.reset()  # type: ignore[attr-defined]
        while not g.is_over:
            obs = g.observation(g.to_act)  # type: ignore[arg-type]
            for b in (one, *two):
                b.observe(obs)  # type: ignore[attr-defined]
            a = one.choose(obs)
            assert a == plain.choose(obs)
            b1, b2 = (b.choose(obs) for b in two)
            assert b1 == b2
            if len(obs.legal) > 1:
                s, trump = f.state(f.view(g, obs.seat)[None, :])
                rows = f.actions[int(trump[0]), [_number(g, x) for x in obs.legal]]
                q = net.scores(s[0], rows)
                top2 = {obs.legal[i] for i in np.argsort(-q, kind="stable")[:2]}
                assert b1 in top2
                differs += b1 != a
            g.apply(b1)
    assert differs > 0  # the look-ahead did change some moves
    # prior: the network's own Q counts beside the look-ahead's mean; large, it decides
    trusting = bots.make("learned:worlds=8,prior=1000000", seed=1)
    g = Game(Rules(), seed=7)
    while not g.is_over:
        obs = g.observation(g.to_act)  # type: ignore[arg-type]
        trusting.observe(obs)  # type: ignore[attr-defined]
        a = trusting.choose(obs)
        assert a == plain.choose(obs)
        g.apply(a)
    with pytest.raises(ValueError, match="prior"):
        bots.make("learned:worlds=4,prior=-1")
    with pytest.raises(ValueError, match="depth"):
        bots.make("learned:worlds=4,depth=0")


def test_level6_plays_alike_in_deals_that_differ_only_in_cards_hidden_from_it() -> None:
    # No secrets (issue 35): level 6's look-ahead deals its worlds from what its seat has
    # seen, never from the real hands. Two deals differ only in a card of the opponent's
    # hand swapped with one of the talon; the opponent makes the same moves in both.
    # Until the swapped cards show, seat 0 sees the same and level 6 (same seed) plays
    # the same moves; a peek at the real hands would part them.
    from durak.cards import cards_of, deck_mask

    rules, looked = Rules(), 0
    for seed in (2, 5, 6):
        deck = cards_of(deck_mask(rules.deck))
        random.Random(seed).shuffle(deck)
        a = Game(rules, seed=seed, deck=deck)
        trump = a.trump
        assert trump is not None
        # (the opponent's best trump for the talon's last card, the last drawn)
        x = max(a.hand(1), key=lambda c: (c.suit == trump.suit, c.rank))
        y = deck[-1]
        b = Game(rules, seed=seed, deck=[y if c == x else x if c == y else c for c in deck])
        assert b.hand(1) != a.hand(1) and b.hand(0) == a.hand(0)
        six = [bots.make("level6", seed=3), bots.make("level6", seed=3)]
        other = bots.make("greedy")
        while not a.is_over and a.observation(0) == b.observation(0):
            obs = a.observation(0)
            for bot, g in zip(six, (a, b), strict=True):
                bot.observe(g.observation(0))  # type: ignore[attr-defined]
            if a.to_act == 0:
                moves = [bot.choose(g.observation(0)) for bot, g in zip(six, (a, b), strict=True)]
                assert moves[0] == moves[1]
                looked += len(obs.legal) > 1 and int(obs.unseen) != 0
                move = moves[0]
            else:
                move = other.choose(a.observation(1))
                if move not in b.legal_actions():
                    break  # (it plays the swapped card: the deals part here)
            a.apply(move)
            b.apply(move)
    assert looked >= 8  # (the look-ahead did choose in the stretch compared)


TABLE_RULES = [
    Rules.preset("podkidnoy", players=3),
    Rules.preset("perevodnoy", players=4, teams="2x2"),
    Rules.preset("perevodnoy-proezdnoy", players=6, teams="3x3"),
    Rules.preset("podkidnoy", players=5, deck=52),
    Rules.preset("podkidnoy", deck=24),
    Rules.preset("beskozyrny", players=3),
    Rules.preset("piki-pikami"),
    Rules.preset("dvukhkozyrny", players=4),
    Rules.preset("pogonny", players=3),
    Rules.preset("pagony", players=4),
]


@pytest.mark.parametrize("rules", TABLE_RULES, ids=str)
def test_learned_plays_every_table_with_the_every_table_network(rules: Rules) -> None:
    # Issue 46: make("learned") reads every table (the every-table network where the
    # 2-player one does not), legally, to the end of the deal; its move is the network's
    # best Q from the seat's own view.
    from durak.bots.tablenet import TableNet

    bot = bots.make("learned")
    assert isinstance(bot, LearnedBot) and isinstance(bot.table, TableNet)
    net = bot.table
    g = Game(rules.with_action_limit(), seed=3)
    chosen = 0
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        obs = g.observation(seat)
        a = bot.choose(obs)
        assert a in g.legal_actions()
        two_player = any(n.features is not None and n.reads(rules) for n in bot.nets)
        if len(obs.legal) > 1 and not two_player:
            q = net.scores(obs.view(), rules, obs.legal, obs.trumps)
            if not _perfect(obs):
                assert a == obs.legal[int(np.argmax(q))]
                chosen += 1
        g.apply(a)
    assert chosen > 0 or rules.players == 2


def _perfect(obs: object) -> bool:
    from durak.bots.solver import perfect_information

    return perfect_information(obs)  # type: ignore[arg-type]


def test_level6_with_the_every_table_network_looks_ahead_at_three_players_without_peeking() -> None:
    # Level 6's search at N players (issue 46): the every-table network's best moves looked
    # ahead in worlds dealt from the seat's view; two deals that differ only in cards
    # hidden from seat 0 (a card of seat 1's hand swapped with one deep in the talon) give
    # the same moves until the swapped cards show.
    from durak.cards import cards_of, deck_mask

    rules, looked = Rules.preset("podkidnoy", players=3), 0
    spec = "learned:endgame=on,worlds=8,fallback=level5"
    for seed in (2, 5):
        deck = cards_of(deck_mask(rules.deck))
        random.Random(seed).shuffle(deck)
        a = Game(rules, seed=seed, deck=deck)
        x, y = max(a.hand(1)), deck[-2]
        b = Game(rules, seed=seed, deck=[y if c == x else x if c == y else c for c in deck])
        assert b.hand(1) != a.hand(1) and b.hand(0) == a.hand(0)
        six = [bots.make(spec, seed=3), bots.make(spec, seed=3)]
        others = [bots.make("greedy"), bots.make("greedy")]
        while not a.is_over and a.observation(0) == b.observation(0):
            obs = a.observation(0)
            for bot, g in zip(six, (a, b), strict=True):
                bot.observe(g.observation(0))  # type: ignore[attr-defined]
            if a.to_act == 0:
                moves = [bot.choose(g.observation(0)) for bot, g in zip(six, (a, b), strict=True)]
                assert moves[0] == moves[1]
                looked += len(obs.legal) > 1 and int(obs.unseen) != 0
                move = moves[0]
            else:
                s = a.to_act
                assert s is not None
                move = others[s - 1].choose(a.observation(s))
                if move not in b.legal_actions():
                    break
            a.apply(move)
            b.apply(move)
    assert looked >= 4


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules.preset("perevodnoy", players=3), Rules.preset("pogonny", players=4),
     Rules.preset("beskozyrny"), Rules.preset("podkidnoy", players=4, teams="2x2", deck=52)],
    ids=str,
)  # fmt: skip
def test_a_seats_vector_from_its_view_alone_is_the_games(rules: Rules) -> None:
    # Issue 48: the learned player encodes its seat's SeatView without a game
    # (Planes.encode_view); the bytes are those of the environments' encoder of the real
    # game, for every seat at every step.
    from durak.planes import Planes

    p, rng = Planes(rules), random.Random(1)
    g = Game(rules.with_action_limit(), seed=2)
    while not g.is_over:
        for s in range(rules.players):
            assert p.encode_view(g.view(s)) == p.encode(g, s)
        g.apply(rng.choice(g.legal_actions()))
    with pytest.raises(ValueError, match="per_player"):
        Planes(Rules.preset("dvukhkozyrny")).encode_view(g.view(0))
