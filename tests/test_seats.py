"""The seat driver (durak.seats): the moments bots are called at, the one check a seat,
and the one error every bot raises when it is not its turn."""

from __future__ import annotations

from typing import Any

import pytest

import durak.seats
from durak import Game, Rules
from durak.actions import Action
from durak.bots import REGISTRY, BaseBot, legal_of, make
from durak.errors import ArgumentTypeError, StateError, TurnError, UsageError
from durak.observation import Observation
from durak.seats import Chooser, Seats


class Recorder(BaseBot):
    """Plays the first legal move and writes down every call: (what, seat, moves so far,
    read from the test's game)."""

    name = "recorder"

    def __init__(self, calls: list[tuple[str, int, int]], game: Game) -> None:
        self.calls, self.game = calls, game
        self.seat = -1

    def reset(self) -> None:
        self.calls.append(("reset", self.seat, -1))

    def observe(self, obs: Observation) -> None:
        self.calls.append(("observe", obs.seat, len(self.game.history)))

    def choose(self, obs: Observation) -> Action:
        self.calls.append(("choose", obs.seat, len(self.game.history)))
        return legal_of(obs)[0]


def test_every_bot_resets_first_then_sees_every_position_once_from_its_own_seat() -> None:
    calls: list[tuple[str, int, int]] = []
    g = Game(Rules.preset("podkidnoy", players=3), seed=4)
    seats = Seats(Recorder(calls, g) for _ in range(3))
    seats.reset(g)
    seats.play(g)
    assert g.is_over
    assert [c[0] for c in calls[:3]] == ["reset"] * 3
    seen = [(seat, ply) for what, seat, ply in calls[3:]]
    moves = len(g.history)
    # each of the 3 seats saw each position before the end exactly once: by observing
    # it, or by choosing in it when it was its turn
    assert sorted(seen) == [(s, p) for s in range(3) for p in range(moves)]
    replay = Game(g.rules, seed=4)
    for what, seat, ply in calls[3:]:
        while len(replay.history) < ply:
            replay.apply(g.history[len(replay.history)])
        assert (what == "choose") == (replay.to_act == seat), (what, seat, ply)


def test_a_player_is_checked_once_when_it_sits_down_not_each_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checks: list[int] = []
    real = durak.seats.seated

    def counted(seat: int, player: object) -> Any:
        checks.append(seat)
        return real(seat, player)

    monkeypatch.setattr(durak.seats, "seated", counted)
    seats = Seats([make("greedy"), make("random", seed=1)])
    g = Game(Rules(), seed=2)
    seats.reset(g)
    seats.play(g)
    assert g.is_over and len(g.history) > 20
    assert checks == [0, 1]
    seats.seat(1, make("greedy"))
    assert checks == [0, 1, 1]


def test_a_choose_only_player_sits_as_a_chooser_and_anything_else_is_refused() -> None:
    class Plain:
        name = "plain"

        def choose(self, obs: Observation) -> Action:
            return obs.legal[-1]

    class HalfBot(Plain):
        def reset(self) -> None:
            pass

    g = Game(Rules(), seed=6)
    seats = Seats(Plain() if s == g.to_act else None for s in range(2))
    bot = seats[g.to_act or 0]
    assert isinstance(bot, Chooser) and bot.name == "plain"
    assert seats.choose(g) == g.legal_actions()[-1]
    for wrong in ("greedy", HalfBot(), 3):
        with pytest.raises(ArgumentTypeError, match="^seat 1: a bot"):
            Seats([None, wrong])


def test_play_stops_at_a_seat_played_from_outside_and_choose_refuses_it() -> None:
    seats = Seats([None, make("greedy")])
    g = Game(Rules(), seed=1)
    seats.reset(g)
    for _ in range(5):
        seats.play(g)
        if g.is_over:
            break
        assert g.to_act == 0
        with pytest.raises(TurnError, match="seat 0 is to act and no bot plays it"):
            seats.choose(g)
        g.apply(g.legal_actions()[0])
        seats.show(g)


def test_the_clock_counts_each_seats_moves_and_a_deal_past_the_limit_is_refused() -> None:
    clock = [[0, 0.0, 0.0, 0.0, 0.0] for _ in range(2)]
    g = Game(Rules(), seed=3)
    seats = Seats([make("greedy"), make("heuristic", seed=2)])
    seats.reset(g)
    seats.play(g, clock)
    replay, made = Game(Rules(), seed=3), [0, 0]
    for a in g.history:
        made[replay.to_act or 0] += 1
        replay.apply(a)
    assert [int(c[0]) for c in clock] == made
    assert all(c[1] >= c[2] >= 0 and c[3] >= c[4] >= 0 for c in clock)
    with pytest.raises(UsageError, match="no end after 10 moves"):
        Seats([make("greedy"), make("greedy")]).play(Game(Rules(), seed=3), limit=10)
    with pytest.raises(TurnError, match="the deal is over"):
        seats.choose(g)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_bot_raises_the_one_turn_error_on_another_seats_view(name: str) -> None:
    rules = Rules.preset("shulerskiy") if name in ("cheater", "catcher") else Rules()
    g = Game(rules, seed=5)
    bot = make(name, seed=1)
    assert isinstance(bot, BaseBot)
    other = 1 - (g.to_act or 0)
    with pytest.raises(TurnError, match="not this seat's turn") as e:
        bot.choose(g.observation(other))
    # the one error is a StateError, and a ValueError for callers of old
    assert isinstance(e.value, StateError) and isinstance(e.value, ValueError)
