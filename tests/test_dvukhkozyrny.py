"""двухкозырный (``trump=per_player``, docs/rules.md 12): the option and its refusals,
what each seat sees of the trumps, a view rebuilt for search, the bots playing it, and
the environments refusing it. The hand-built rule cases are in
``conformance/10_dvukhkozyrny.toml``; random play in ``test_invariants.py``."""

from __future__ import annotations

import random

import pytest

from durak import Game, Rules, RulesError
from durak.bots import level, make
from durak.cards import NO_TRUMP

from .helpers import play


def test_the_option_round_trips_and_refuses_what_does_not_fit() -> None:
    r = Rules.preset("dvukhkozyrny", players=4, deck=52)
    assert str(r) == "dvukhkozyrny(players=4,deck=52)" and Rules.parse(str(r)) == r
    assert Rules.parse("perevodnoy(trump=per_player)").trump == "per_player"
    for bad, why in (
        ({"players": 5}, "players: trump=per_player is for 2 to 4"),
        ({"players": 4, "teams": "2x2"}, "teams: 2x2 is not played with trump=per_player"),
        ({"trump_exchange": True}, "trump_exchange: on is not played"),
        ({"scoring": "pagony"}, "scoring: pagony is not played"),
        ({"players": 4, "deck": 24}, "and a trump card each need more than a 24-card deck"),
    ):
        with pytest.raises(RulesError, match=why):
            Rules.preset("dvukhkozyrny", **bad)


def test_each_seat_sees_every_trump_and_beats_with_its_own() -> None:
    g = Game(Rules.preset("dvukhkozyrny", players=3), seed=11)
    turned = [c for c in g.deck[18:21]]
    trumps = tuple(turned[(s - g.dealer - 1) % 3].suit for s in range(3))
    assert g.trump is None and g.trump_suit == NO_TRUMP
    assert set(g.discard) == set(turned) and g.talon_size == 36 - 18 - 3
    for s in range(3):
        obs = g.observation(s)
        assert obs.trumps == trumps and obs.trump_suit == trumps[s] and obs.trump is None
        assert obs.view().trump_suit == g.view(s).trump_suit == trumps[s]


def test_a_rebuilt_view_plays_on_like_the_game() -> None:
    rng = random.Random(3)
    rules = Rules.preset("dvukhkozyrny", players=3).with_action_limit()
    for _ in range(5):
        g = Game(rules, seed=rng.randrange(2**32))
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            obs = g.observation(seat)
            d = Game.from_view(obs, [int(h) for h in g.hands], g.undrawn())
            assert d.observation(seat) == obs and d.legal_actions() == g.legal_actions()
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_bots_play_it_to_the_end(players: int) -> None:
    rules = Rules.preset("dvukhkozyrny", players=players).with_action_limit()
    for i, bot in enumerate([level(n, seed=n) for n in (1, 2, 3, 4)] + [make("expert")]):
        g = play(rules, [bot] + [make("heuristic", seed=s) for s in range(1, players)], i)
        assert g.outcome is not None


def test_the_environments_play_it() -> None:
    """Issue 36: the environments play двухкозырный (each seat's trump is in the
    observation: tests/test_envs.py)."""
    from durak.envs.episode import learning_rules

    assert learning_rules("dvukhkozyrny").trump == "per_player"


def test_the_replay_names_each_seats_trump() -> None:
    from durak.replay import replay_text

    g = Game(Rules.preset("dvukhkozyrny", players=3), seed=2)
    rng = random.Random(1)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    trumps = g.observation(0).trumps
    first_deal = replay_text(g.record(), "en").splitlines()[1]
    for s, t in enumerate(trumps):
        assert f"Player {s} {'♠♥♦♣'[t]}" in first_deal, first_deal  # (default names)
