"""determinize.sample: games rebuilt from one seat's view give that seat the same view,
and hold the seat's hand, the known cards and the right hand sizes."""

from __future__ import annotations

import random

import pytest

from durak import PRESETS, Game, Rules
from durak.determinize import sample

from .helpers import assert_cards_conserved


@pytest.mark.parametrize("preset", list(PRESETS))
def test_sampled_games_agree_with_the_view(preset: str) -> None:
    rng = random.Random(preset)
    for i in range(25):
        players = rng.randint(2, 4 if preset == "dvukhkozyrny" else 6)
        teams = {4: "2x2", 6: "3x3"}.get(players, "none") if rng.random() < 0.5 else "none"
        if preset == "dvukhkozyrny":
            teams = "none"  # (each seat its own trump: no teams)
        g = Game(Rules.preset(preset, players=players, teams=teams), seed=i)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            obs = g.observation(seat)
            d = sample(obs, rng)
            assert d.observation(seat) == obs
            assert_cards_conserved(d)
            for s in range(players):
                assert d.hands[s] & g.known[s] == g.known[s]
            assert d.legal_actions() == g.legal_actions()
            g.apply(rng.choice(g.legal_actions()))


def test_exclusions_are_honoured_when_possible() -> None:
    g = Game(Rules(players=3), seed=2)
    obs = g.observation(0)
    clubs = sum(1 << (r * 4 + 3) for r in range(13))
    for k in range(20):
        d = sample(obs, random.Random(k), exclude=[0, clubs, 0])
        assert not d.hands[1] & clubs


def test_a_sampled_game_keeps_the_whole_game_api() -> None:
    """A game from ``sample`` used to give an unrelated deal after ``undo()`` or
    ``fresh()``, and its ``record()`` wrote an empty deck that did not replay: now
    ``fresh()`` is the sampled position again, ``undo()`` goes back to it (not past it)
    and ``record()`` refuses, saying why."""
    from durak.actions import IllegalActionError
    from durak.record import RecordError

    rng = random.Random(7)
    g = Game(Rules(), seed=11)
    for _ in range(6):
        g.apply(rng.choice(g.legal_actions()))
    seat = g.to_act
    assert seat is not None
    obs = g.observation(seat)
    d = sample(obs, rng, before=g.history)
    start = d.observation(seat)
    hands = d.hands
    assert d.history == g.history
    played = []
    for _ in range(5):
        if d.is_over:
            break
        a = rng.choice(d.legal_actions())
        played.append(a)
        d.apply(a)
    after = d.clone()
    f = d.fresh()
    assert f.observation(seat) == start and f.hands == hands and f.history == g.history
    for a in played:
        f.apply(a)
    assert f.observation(seat) == after.observation(seat)
    assert [d.undo() for _ in played] == played[::-1]
    assert d.observation(seat) == start and d.hands == hands
    with pytest.raises(IllegalActionError, match="rebuilt from one seat's view"):
        d.undo()
    with pytest.raises(RecordError, match="rebuilt mid-deal"):
        d.record()
    # the real game's record still replays
    assert Game.from_record(g.record()).observation(seat) == obs


def test_restack_keeps_the_record_true() -> None:
    """A chance node reorders the talon (``restack``): the record and ``fresh()`` follow."""
    g = Game(Rules(), seed=4)
    g.restack(sorted(g.undrawn()))
    rng = random.Random(1)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    h = Game.from_record(g.record())
    assert h.outcome == g.outcome and h.history == g.history
    assert g.fresh().undrawn() == tuple(sorted(g.fresh().undrawn()))
