"""The engine's public surface (issue 2, point 4): construction, clone, undo, records,
observations and errors."""

from __future__ import annotations

import random

import pytest

from durak import Game, IllegalActionError, Observation, RecordError, Rules
from durak.cards import Card

from .helpers import snapshot

DECK = "6S 7S 8S 9S 10S JS 6H 7H 8H 9H 10H JH QS"


def test_explicit_deck_deals_from_the_dealers_left() -> None:
    """RULES.md 1: one card at a time, clockwise from the dealer's left; the next card is
    the trump, under the talon, drawn last."""
    g = Game(Rules(), deck=DECK, dealer=1)
    assert str(g.hand(0)) == "6♠ 6♥ 8♠ 8♥ 10♠ 10♥"
    assert str(g.hand(1)) == "7♠ 7♥ 9♠ 9♥ J♠ J♥"
    assert str(g.trump) == "Q♠" and g.talon_size == 24
    assert g.to_act == 0 and g.attacker == 0 and g.defender == 1


def test_bad_construction_is_refused() -> None:
    with pytest.raises(ValueError, match="deck"):
        Game(Rules(), deck="6S 6S")
    with pytest.raises(ValueError, match="deck"):
        Game(Rules(deck=24), deck="6S")
    with pytest.raises(ValueError, match="dealer"):
        Game(Rules(), seed=1, dealer=5)


def test_seed_fixes_the_deal() -> None:
    a, b = Game(Rules(players=4), seed=99), Game(Rules(players=4), seed=99)
    assert a.deck == b.deck and a.dealer == b.dealer and a.hands == b.hands


def test_illegal_actions_say_why_and_change_nothing() -> None:
    g = Game(Rules(), deck=DECK, dealer=1)
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="does not hold"):
        g.apply("7S")
    with pytest.raises(IllegalActionError, match="not possible now"):
        g.apply("take")
    with pytest.raises(IllegalActionError, match="not an action"):
        g.apply("7 of spades")
    assert snapshot(g) == before
    g.apply("6S")
    with pytest.raises(IllegalActionError, match="does not beat"):
        g.apply("6S/7H")
    assert isinstance(IllegalActionError("x"), ValueError)


def test_clone_is_independent() -> None:
    g = Game(Rules.preset("perevodnoy", players=3), seed=5)
    c = g.clone()
    rng = random.Random(1)
    for _ in range(30):
        if c.is_over:
            break
        c.apply(rng.choice(c.legal_actions()))
    assert snapshot(g) == snapshot(Game(Rules.preset("perevodnoy", players=3), seed=5))


def test_undo_restores_every_step() -> None:
    g = Game(Rules.preset("perevodnoy", players=4, teams="2x2"), seed=8)
    rng = random.Random(2)
    states = []
    while not g.is_over:
        states.append(snapshot(g))
        g.apply(rng.choice(g.legal_actions()))
    for st in reversed(states[-15:]):
        g.undo()
        assert snapshot(g) == st
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        Game(Rules(), seed=1).undo()


def test_record_is_readable_and_replays() -> None:
    g = Game(Rules.preset("podkidnoy", players=3), seed=21)
    rng = random.Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    text = g.record(names=["Аня", "Bob", "bot"])
    assert '[Rules "podkidnoy(players=3)"]' in text
    assert '[Seat0 "Аня"]' in text and "1. " in text
    again = Game.from_record(text)
    assert again.outcome == g.outcome and [str(a) for a in again.history] == [
        str(a) for a in g.history
    ]
    # A record whose moves were tampered with is refused, naming the move.
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[i] = lines[i].replace(":", ":K♣", 1) if "K♣" not in lines[i] else lines[i] + " 0:7♠"
    with pytest.raises(RecordError):
        Game.from_record("\n".join(lines))


def test_record_of_unfinished_game_continues() -> None:
    g = Game(Rules(), seed=2)
    for _ in range(10):
        g.apply(g.legal_actions()[0])
    again = Game.from_record(g.record())
    assert snapshot(again)[4:] == snapshot(g)[4:] or again.hands == g.hands
    assert again.to_act == g.to_act and again.legal_actions() == g.legal_actions()


def test_observation_holds_what_the_seat_may_know() -> None:
    g = Game(Rules(players=3), seed=4)
    o = g.observation(1)
    assert isinstance(o, Observation)
    assert o.hand == g.hand(1) and o.trump == g.trump and o.talon_size == g.talon_size
    assert o.hand_sizes == (6, 6, 6)
    assert not o.known[0] and not o.known[2]
    assert (o.legal != ()) == (g.to_act == 1)
    with pytest.raises(AttributeError):
        o.hand = 0  # type: ignore[misc]


def test_six_players_on_36_cards_trump_is_the_last_card_dealt() -> None:
    """RULES.md 1: the deal used every card: the last card dealt names the trump and stays
    in the dealer's hand (seen by everyone)."""
    g = Game(Rules(players=6), seed=3, dealer=2)
    last = Card.from_index(g.deck[-1])
    assert g.trump == last and g.talon_size == 0
    assert last in g.hand(2)
    assert last in g.observation(4).known[2]


def test_public_state_of_the_contract() -> None:
    """DESIGN.md's contract: hands[seat] iterates Cards, table pairs, trump, talon_size,
    attacker, defender, discard."""
    g = Game(Rules(), deck=DECK, dealer=1)
    assert [str(c) for c in g.hands[0]] == ["6♠", "6♥", "8♠", "8♥", "10♠", "10♥"]
    assert all(isinstance(c, Card) for c in g.hands[1])
    g.apply("6S")
    assert [(str(a), b) for a, b in g.table] == [("6♠", None)]
    g.apply("6S/7S")
    assert [(str(a), str(b)) for a, b in g.table] == [("6♠", "7♠")]
    assert [str(x) for x in g.legal_actions()] == ["6♥", "pass"]
    g.apply("pass")  # бито: the defender attacks next
    assert (g.attacker, g.defender, g.to_act) == (1, 0, 1)
    assert str(g.discard) == "6♠ 7♠" and g.table == []
    assert g.talon_size == 22 and len(g.hands[0]) == len(g.hands[1]) == 6
