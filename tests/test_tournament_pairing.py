"""Pairing rules of every format, each pinned by a hand-built history (the rule a test
pins is in its name and docstring), and property tests: no repeat while avoidable, at
most one bye each, everyone seated once a round."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from durak.errors import ArgumentError
from durak.tournaments import pairing
from durak.tournaments.model import Result, Table
from durak.tournaments.standings import History, history


def played(*pairs: tuple[str, str]) -> History:
    """A history of 2-player tables, seat 0 first, each won by seat 0."""
    return history([Result(Table(p), (1.0, 0.0), (1.0, 0.0), (0, 1)) for p in pairs])


def test_swiss_pairs_by_score_adjacent() -> None:
    """Rule 3: the best unpaired plays the next best (1-2, 3-4...)."""
    r = pairing.swiss(list("abcdef"), History(), 1)
    assert [set(t.seats) for t in r.tables] == [{"a", "b"}, {"c", "d"}, {"e", "f"}]
    assert r.byes == ()


def test_swiss_avoids_a_repeat_by_taking_the_next_below() -> None:
    """Rule 2: a met b, so a takes c and b takes d."""
    r = pairing.swiss(list("abcd"), played(("a", "b")), 2)
    assert [set(t.seats) for t in r.tables] == [{"a", "c"}, {"b", "d"}]


def test_swiss_backtracks_so_nobody_repeats() -> None:
    """Rule 2 over rule 3: a-b, c-d would leave e-f who met; the pairing backtracks."""
    h = played(("a", "c"), ("e", "f"), ("b", "d"))
    r = pairing.swiss(list("abcdef"), h, 2)
    pairs = [frozenset(t.seats) for t in r.tables]
    assert frozenset("ef") not in pairs and frozenset("ac") not in pairs
    assert frozenset("bd") not in pairs
    assert pairs[0] == frozenset("ab")  # rule 3 still: the leaders meet


def test_swiss_repeats_when_it_cannot_be_avoided() -> None:
    """Rule 2's fallback: two entrants who met play again rather than not at all."""
    r = pairing.swiss(["a", "b"], played(("a", "b")), 2)
    assert [set(t.seats) for t in r.tables] == [{"a", "b"}]


def test_swiss_bye_goes_to_the_lowest_without_one() -> None:
    """Rule 1: e is lowest but had a bye, so d has it."""
    h = History()
    h.byes["e"] = 1
    assert pairing.swiss(list("abcde"), h, 2).byes == ("d",)
    assert pairing.swiss(list("abcde"), History(), 1).byes == ("e",)


def test_swiss_bye_moves_up_to_avoid_a_repeat() -> None:
    """Rule 1: with c the bye, a-b repeats; with b the bye (next lowest), a-c is new."""
    h = played(("a", "b"))
    r = pairing.swiss(list("abc"), h, 2)
    assert r.byes == ("b",) and set(r.tables[0].seats) == {"a", "c"}


def test_colour_the_one_who_sat_first_less_sits_first() -> None:
    """Rule 4: b sat first twice, a never: a sits first though b ranks higher."""
    h = played(("b", "x"), ("b", "y"), ("z", "a"))
    assert pairing.seat_pair("b", "a", h).seats == ("a", "b")


def test_colour_alternates_when_balanced() -> None:
    """Rule 4: level balances, a sat first at its latest table, so b sits first."""
    h = played(("x", "a"), ("a", "y"), ("b", "z"), ("w", "b"))
    assert h.balance("a") == h.balance("b") == 0
    assert pairing.seat_pair("a", "b", h).seats == ("b", "a")


def test_colour_the_higher_ranked_sits_first_when_all_is_level() -> None:
    """Rule 4's last key."""
    assert pairing.seat_pair("a", "b", History()).seats == ("a", "b")


def test_round_robin_meets_everyone_once_with_one_bye_each() -> None:
    """Circle method: n - 1 rounds (n when odd), every pair once, every entrant one bye
    in an odd field, and seat colours balanced: within one of even in an even field
    (the best an odd number of matches allows), within two in an odd one."""
    for n in (4, 5, 6, 7):
        names = [f"p{i}" for i in range(n)]
        results: list[Result] = []
        byes: list[str] = []
        pairs = []
        for k in range(1, pairing.round_robin_rounds(n) + 1):
            r = pairing.round_robin(names, history(results), k)
            byes += r.byes
            for t in r.tables:
                pairs.append(frozenset(t.seats))
                results.append(Result(t, (1.0, 0.0), (1.0, 0.0), (0, 1)))
        assert sorted(map(sorted, pairs)) == sorted(
            map(sorted, map(frozenset, itertools.combinations(names, 2)))
        )
        assert sorted(byes) == (names if n % 2 else [])
        h = history(results)
        assert all(abs(h.balance(e)) <= 1 + n % 2 for e in names)


def test_round_robin_refuses_a_round_past_the_last() -> None:
    with pytest.raises(ArgumentError):
        pairing.round_robin(list("abcd"), History(), 4)


def test_arena_seats_the_nearest_but_not_the_latest_opponent() -> None:
    """Arena: a's nearest is b, its latest opponent: a sits with c; b with d."""
    tables = pairing.arena(list("abcd"), History(), {"a": "b", "b": "a"})
    assert [set(t.seats) for t in tables] == [{"a", "c"}, {"b", "d"}]


def test_arena_seats_the_latest_opponent_when_nobody_else_is_free() -> None:
    tables = pairing.arena(["a", "b"], History(), {"a": "b", "b": "a"})
    assert [set(t.seats) for t in tables] == [{"a", "b"}]


def test_groups_cut_by_rank_and_byes_to_the_lowest_without_one() -> None:
    """Groups: tables in ranking order; the remainder's byes to the lowest with fewest."""
    h = History()
    h.byes["h"] = 1
    r = pairing.groups(list("abcdefgh"), 3, False, h, 2)
    assert r.byes == ("f", "g")
    assert [set(t.seats) for t in r.tables] == [set("abc"), set("deh")]


def test_groups_seat_first_who_sat_first_least() -> None:
    """Groups: a and b sat first once each, c never: c sits first, then by rank."""
    h = History()
    h.firsts["a"] = h.firsts["b"] = 1
    assert pairing.groups(list("abc"), 3, False, h, 2).tables[0].seats == ("c", "a", "b")


def test_groups_teams_snake_the_ranks() -> None:
    """Teams: sides are seats i % 2; 1 4 vs 2 3 at four, 1 4 5 vs 2 3 6 at six."""
    four = pairing.groups(list("abcd"), 4, True, History(), 1).tables[0]
    assert four.seats[0::2] == ("a", "d") and four.seats[1::2] == ("b", "c") and four.teams
    six = pairing.groups(list("abcdef"), 6, True, History(), 1).tables[0]
    assert six.seats[0::2] == ("a", "d", "e") and six.seats[1::2] == ("b", "c", "f")


def test_groups_refuse_bad_sizes() -> None:
    with pytest.raises(ArgumentError):
        pairing.groups(list("abcdefg"), 7, False, History(), 1)
    with pytest.raises(ArgumentError):
        pairing.groups(list("abcde"), 5, True, History(), 1)
    with pytest.raises(ArgumentError):
        pairing.groups(list("ab"), 3, False, History(), 1)


def _repeat_free_exists(players: list[str], h: History) -> bool:
    if not players:
        return True
    p = players[0]
    return any(
        q not in h.met[p] and _repeat_free_exists([x for x in players[1:] if x != q], h)
        for q in players[1:]
    )


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), rounds=st.integers(1, 8), seed=st.randoms(use_true_random=False))
def test_swiss_properties(n: int, rounds: int, seed: object) -> None:
    """Property: over random results, each round seats everyone once (one bye when odd),
    nobody meets twice while a repeat-free pairing exists, and nobody has a second bye
    before everyone had one."""
    import random

    rng = seed if isinstance(seed, random.Random) else random.Random(0)
    names = [f"p{i}" for i in range(n)]
    results: list[Result] = []
    byes: dict[str, int] = dict.fromkeys(names, 0)
    points: dict[str, float] = dict.fromkeys(names, 0.0)
    for k in range(1, rounds + 1):
        h = history(results)
        for e, b in byes.items():
            h.byes[e] = b
        ranked = sorted(names, key=lambda e: (-points[e], names.index(e)))
        r = pairing.swiss(ranked, h, k)
        assert sorted(r.entrants()) == sorted(names)
        assert len(r.byes) == n % 2
        pairs = [frozenset(t.seats) for t in r.tables]
        if any(max(p) in h.met[min(p)] for p in pairs):
            rest = [e for e in ranked if e not in r.byes]
            assert not _repeat_free_exists(rest, h), "a repeat while avoidable"
        for e in r.byes:
            assert byes[e] == min(byes.values()), "a second bye before everyone had one"
            byes[e] += 1
            points[e] += 1
        for t in r.tables:
            w = rng.choice([0, 1])
            results.append(Result(t, (1.0 - w, float(w)), (1.0 - w, float(w)), (w, 1 - w)))
            points[t.seats[0]] += 1 - w
            points[t.seats[1]] += w
    if rounds <= n:
        assert max(byes.values()) <= 1


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 14), size=st.integers(3, 6), rounds=st.integers(1, 6))
def test_groups_properties(n: int, size: int, rounds: int) -> None:
    """Property: every round seats everyone once, tables all of ``size``, byes spread
    (nobody a second bye before everyone had one)."""
    if n < size:
        return
    names = [f"p{i}" for i in range(n)]
    h = History()
    for k in range(1, rounds + 1):
        r = pairing.groups(names, size, False, h, k)
        assert sorted(r.entrants()) == sorted(names)
        assert all(len(t.seats) == size for t in r.tables)
        for e in r.byes:
            assert h.byes[e] == min(h.byes[x] for x in names)
            h.byes[e] += 1
        for t in r.tables:
            h.firsts[t.seats[0]] += 1
