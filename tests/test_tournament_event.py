"""A tournament's life (durak.tournaments.event): join, leave, start, rounds, results,
withdraw, forfeit, the arena's clock (injected: no test waits), storage."""

from __future__ import annotations

import json
import random

import pytest

from durak.errors import ArgumentError, StateError
from durak.tournaments.event import Settings, Tournament
from durak.tournaments.model import Result


def event(fmt: str = "swiss", n: int = 4, **kw: object) -> Tournament:
    t = Tournament(Settings(fmt, **kw))  # type: ignore[arg-type]
    for i in range(n):
        t.join(f"p{i}")
    return t


def play_round(t: Tournament, rng: random.Random) -> None:
    """Every waiting table: seat 0 wins or loses at random (2-player), or places at random."""
    for (n, i), table in t.pending().items():
        k = len(table.seats)
        order = list(range(k))
        rng.shuffle(order)
        pts = tuple(float(k - 1 - order.index(s)) for s in range(k))
        duraks = tuple(int(pts[s] == 0) for s in range(k))
        if k == 2:
            t.record(n, i, Result(table, pts, pts, duraks))
        else:
            t.record(n, i, Result(table, pts, tuple(float(p == k - 1) for p in pts), duraks))


def test_join_and_leave_before_the_start_only() -> None:
    """Join twice, leave when not in, join or leave after the start: refused, nothing
    changes."""
    t = event(n=2)
    with pytest.raises(StateError):
        t.join("p0")
    with pytest.raises(StateError):
        t.leave("stranger")
    t.join("p2")
    t.leave("p2")
    assert t.entrants == ["p0", "p1"]
    t.start()
    for call in (t.join, t.leave):
        with pytest.raises(StateError):
            call("p1" if call == t.leave else "late")
    assert t.entrants == ["p0", "p1"]


def test_full_and_too_few() -> None:
    t = event(n=2, max_entrants=2)
    with pytest.raises(StateError, match="full"):
        t.join("p2")
    g = event("groups", n=3, table_size=4)
    with pytest.raises(StateError):
        g.start()
    assert g.state == "open"


def test_bad_settings_are_refused() -> None:
    for fmt, kw in [
        ("knockout", {}),
        ("swiss", {"table_size": 3}),
        ("groups", {"table_size": 7}),
        ("groups", {"table_size": 5, "teams": True}),
        ("swiss", {"rounds": 0}),
        ("swiss", {"deals": 1000}),
    ]:
        with pytest.raises(ArgumentError):
            Settings(fmt, **kw)  # type: ignore[arg-type]


def test_a_swiss_runs_its_rounds_and_finishes() -> None:
    t = event(n=8, rounds=5)
    rng = random.Random(1)
    t.start()
    while t.state == "running":
        play_round(t, rng)
        t.advance()
    assert len(t.rounds) == 5 and t.state == "finished"
    assert sum(s.points for s in t.standings()) == 5 * 4  # a point a match
    met = [frozenset(x.seats) for r in t.rounds for x in r.tables]
    assert len(met) == len(set(met))


def test_no_round_before_the_last_one_is_done() -> None:
    t = event(n=4)
    t.start()
    assert t.advance() is None and len(t.rounds) == 1
    with pytest.raises(StateError):
        t.record(1, 5, Result(t.rounds[0].tables[0], (1.0, 0.0), (1.0, 0.0), (0, 1)))
    table = t.rounds[0].tables[0]
    t.record(1, 0, Result(table, (1.0, 0.0), (1.0, 0.0), (0, 1)))
    with pytest.raises(StateError):  # recorded already
        t.record(1, 0, Result(table, (0.0, 1.0), (0.0, 1.0), (1, 0)))


def test_withdraw_forfeits_the_table_and_is_not_paired_again() -> None:
    """Withdraw: the table it sits at is a walkover, later rounds leave it out, its
    standing stays in the table marked withdrawn."""
    t = event(n=4, rounds=3)
    r1 = t.start()
    assert r1 is not None
    quitter = r1.tables[0].seats[1]
    t.withdraw(quitter)
    res = t.results[(1, 0)]
    assert res.walkover and res.of(quitter)[0] == 0.0 and res.of(r1.tables[0].seats[0])[0] == 1.0
    play_round(t, random.Random(2))
    r2 = t.advance()
    assert r2 is not None and quitter not in r2.entrants() and len(r2.byes) == 1
    assert next(s for s in t.standings() if s.entrant == quitter).withdrawn
    with pytest.raises(StateError):
        t.withdraw(quitter)


def test_round_robin_withdrawal_makes_its_matches_walkovers() -> None:
    t = event("round_robin", n=4)
    t.start()
    t.withdraw("p3")
    rng = random.Random(3)
    while t.state == "running":
        play_round(t, rng)
        t.advance()
    p3 = [r for r in t.results.values() if r.table.has("p3")]
    assert len(p3) == 3 and all(r.walkover and r.of("p3")[0] == 0.0 for r in p3)


def test_forfeit_of_an_absent_player() -> None:
    t = event("groups", n=4, table_size=4, deals=2, rounds=1)
    t.start()
    t.forfeit(1, 0, {"p2"})
    r = t.results[(1, 0)]
    assert r.of("p2") == (0.0, 0.0, 2) and r.of("p0")[0] == 4.0
    with pytest.raises(StateError):
        t.forfeit(1, 0, {"p1"})  # decided already


def test_groups_of_twelve_at_four_run_to_the_end() -> None:
    t = event("groups", n=12, table_size=4, rounds=3)
    t.start()
    rng = random.Random(4)
    while t.state == "running":
        play_round(t, rng)
        t.advance()
    assert len(t.rounds) == 3 and all(len(r.tables) == 3 for r in t.rounds)
    assert [s.rank for s in t.standings()] == list(range(1, 13))


def test_arena_seats_the_free_within_its_window() -> None:
    """Arena: tables while the (injected) clock is inside the window, the free seated at
    once, nothing after the window; it finishes when the last table is done; late joins."""
    now = [1000.0]
    t = Tournament(Settings("arena", minutes=10), clock=lambda: now[0])
    for e in ("a", "b", "c"):
        t.join(e)
    r1 = t.start()
    assert r1 is not None and len(r1.tables) == 1  # c waits
    t.join("d")  # a late entrant
    r2 = t.advance()
    assert r2 is not None and set(r2.tables[0].seats) == {"c", "d"}
    t.record(1, 0, Result(r1.tables[0], (1.0, 0.0), (1.0, 0.0), (0, 1)))
    now[0] += 601  # the window closed: a and b are free but not seated
    assert (t.advance(), t.state) == (None, "running")
    t.record(2, 0, Result(r2.tables[0], (1.0, 0.0), (1.0, 0.0), (0, 1)))
    assert (t.advance(), t.state) == (None, "finished")


def test_storage_round_trip_keeps_everything() -> None:
    t = event(n=5, rounds=3)
    t.start()
    play_round(t, random.Random(5))
    t.advance()
    t.withdraw("p4")
    back = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    assert back.to_json() == t.to_json()
    assert [s.to_json() for s in back.standings()] == [s.to_json() for s in t.standings()]
