"""The every-table network's features (durak.bots.tablenet): one layout for every table,
nothing a seat cannot see, the suits turned so the trump is slot 0."""

from __future__ import annotations

import random

import numpy as np
import pytest

from durak import Game, Rules
from durak.bots.tablenet import (
    ACTION_WIDTH,
    PLANES,
    RULES,
    STATE_SIZE,
    TableFeatures,
    reads,
    rules_row,
    turn_mask,
)
from durak.determinize import sample
from durak.learn.tables import draw

TABLES = [
    Rules.preset("podkidnoy"),
    Rules.preset("perevodnoy", players=3),
    Rules.preset("perevodnoy-proezdnoy", players=4, teams="2x2"),
    Rules.preset("podkidnoy", players=6, teams="3x3"),
    Rules.preset("podkidnoy", players=5, deck=52),
    Rules.preset("podkidnoy", players=2, deck=24),
    Rules.preset("beskozyrny", players=3),
    Rules.preset("piki-pikami", players=4),
    Rules.preset("dvukhkozyrny", players=3),
    Rules.preset("pogonny", players=4),
    Rules.preset("pagony", players=3),
    Rules.preset("prostoy", players=6),
]


def trumps(g: Game, seat: int) -> tuple[int, ...]:
    return g.observation(seat).trumps


@pytest.mark.parametrize("rules", TABLES, ids=str)
def test_a_seats_state_does_not_change_when_only_cards_hidden_from_it_change(rules: Rules) -> None:
    """No peeking: at every decision of random deals of every table kind, the state of the
    seat to act is the same in a world re-dealt from its observation (every hidden card
    moved) as in the real game."""
    f, rng = TableFeatures(), random.Random(7)
    for deal in range(3):
        g = Game(rules.with_action_limit(), seed=100 + deal)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            obs = g.observation(seat)
            world = sample(obs, rng)
            real = f.states([f.fields(g.view(seat), rules, trumps(g, seat))])
            other = f.states([f.fields(world.view(seat), rules, trumps(world, seat))])
            assert np.array_equal(real, other)
            g.apply(rng.choice(g.legal_actions()))


def test_the_trump_suit_is_slot_0_whatever_it_is() -> None:
    """Suit turning: a card of the trump suit lands in slot 0 of its rank, and the other
    suits keep their cyclic order."""
    assert turn_mask(0b0100, 2) == 0b0001  # (rank 2, suit 2) with suit 2 trump: slot 0
    assert turn_mask(0b1000, 2) == 0b0010
    assert turn_mask(0b0001, 2) == 0b0100
    assert turn_mask(1 << 51, 3) == 1 << 48
    for t in range(4):
        m = random.Random(t).getrandbits(52)
        assert turn_mask(m, t).bit_count() == m.bit_count()
    f = TableFeatures()
    for seed in range(20):
        g = Game(Rules.preset("podkidnoy", players=3), seed=seed)
        v = g.view(0)
        s = f.states([f.fields(v, g.rules)])[0]
        hand = s[:52]
        trumps_in_hand = sum(1 for c in range(52) if v.hand >> c & 1 and c % 4 == v.trump_suit)
        assert int(hand[0::4].sum()) == trumps_in_hand


def test_every_table_of_the_training_mix_has_the_one_layout() -> None:
    """One set of weights serves all: every table of the mix (and the named ones) gives
    STATE_SIZE floats and ACTION_WIDTH an action, and two tables that differ in a rule
    differ in the rules' part."""
    f, rng = TableFeatures(), random.Random(3)
    tables = TABLES + [draw(rng) for _ in range(30)]
    for rules in tables:
        assert reads(rules) == ""
        g = Game(rules, seed=1)
        seat = g.to_act
        assert seat is not None
        s = f.states([f.fields(g.view(seat), rules, trumps(g, seat))])
        assert s.shape == (1, STATE_SIZE)
        a = f.actions(g.legal_actions(), g.view(seat).trump_suit)
        assert a.shape == (len(g.legal_actions()), ACTION_WIDTH)
        assert len(rules_row(rules)) == len(RULES)
    assert rules_row(Rules.preset("podkidnoy")) != rules_row(Rules.preset("perevodnoy"))
    assert reads(Rules.preset("shulerskiy")) != ""


def test_the_seats_are_relative_to_the_decider_and_partners_are_marked() -> None:
    """In 2x2 the seat two places on is the partner; the seats past the table are empty,
    and the known-cards planes follow the seats from the decider's left."""
    f = TableFeatures()
    rules = Rules.preset("podkidnoy", players=4, teams="2x2")
    g = Game(rules, seed=4)
    s = f.states([f.fields(g.view(1), rules)])[0]
    seats = s[len(PLANES) * 52 :].reshape(-1)[: 6 * 14].reshape(6, 14)
    assert seats[:4, 0].tolist() == [1.0, 1.0, 1.0, 1.0]  # present
    assert seats[4:, 0].tolist() == [0.0, 0.0]
    assert seats[:4, 6].tolist() == [0.0, 0.0, 1.0, 0.0]  # partner: two seats on
