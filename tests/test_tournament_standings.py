"""Scoring and standings: each tie-break pinned by hand-built results (the test's name
says which), and the scoring of deals, walkovers and byes."""

from __future__ import annotations

import pytest

from durak.errors import ArgumentError
from durak.outcome import Outcome
from durak.tournaments import scoring
from durak.tournaments.model import Result, Table
from durak.tournaments.standings import standings, text_table


def win(a: str, b: str, deals: tuple[float, float] = (1.0, 0.0)) -> Result:
    """a beats b (a sits first)."""
    return Result(Table((a, b)), (1.0, 0.0), deals, (0, 1))


def draw(a: str, b: str) -> Result:
    return Result(Table((a, b)), (0.5, 0.5), (0.5, 0.5), (0, 0))


def ranks(fmt: str, entrants: str, results: list[Result]) -> str:
    return "".join(s.entrant for s in standings(fmt, list(entrants), results, []))


def test_points_rank_first() -> None:
    assert ranks("swiss", "abc", [win("c", "a"), win("c", "b"), win("a", "b")]) == "cab"


def test_swiss_buchholz_breaks_a_points_tie() -> None:
    """Buchholz: a, b and c have 1 point; a beat c (1 point), b beat d (0): a ahead of
    b though b is the better seed (c is between: Buchholz 1 like a, then S-B 0)."""
    results = [win("a", "c"), win("b", "d"), win("c", "d")]
    s = {x.entrant: x for x in standings("swiss", list("badc"), results, [])}
    assert (s["a"].buchholz, s["b"].buchholz) == (1.0, 0.0)
    assert ranks("swiss", "badc", results) == "acbd"


def test_swiss_sonneborn_berger_breaks_a_buchholz_tie() -> None:
    """Sonneborn-Berger: a and b have 1 point and Buchholz 2 each; a scored its point
    against x (the weaker), b half of its against y (the stronger): b ahead."""
    results = [win("a", "x"), draw("b", "x"), draw("b", "y"), win("y", "a")]
    s = {x.entrant: x for x in standings("swiss", list("bayx"), results, [])}
    # points: a 1, b 1, y 1.5, x 0.5; Buchholz a = x + y = 2.0, b = x + y = 2.0
    assert s["a"].points == s["b"].points == 1.0
    assert s["a"].buchholz == s["b"].buchholz == 2.0
    # S-B: a = 1 * x(0.5) + 0 * y = 0.5; b = 0.5 * 0.5 + 0.5 * 1.5 = 1.0
    assert (s["a"].sonneborn_berger, s["b"].sonneborn_berger) == (0.5, 1.0)
    assert ranks("swiss", "abyx", results) == "ybax"


def test_swiss_deal_points_then_seed_are_the_last_keys() -> None:
    """Deal points: a and b each beat one of c and d, same Buchholz and S-B; a won its
    match 2-0, b 2-1... here 2.0 vs 1.5 deal points. Then the seed: level twins keep
    the order they joined in."""
    results = [win("a", "c", (2.0, 0.0)), win("b", "d", (1.5, 0.5))]
    assert ranks("swiss", "bacd", results)[:2] == "ab"
    assert ranks("swiss", "bacd", [win("a", "c"), win("b", "d")])[:2] == "ba"


def test_a_bye_scores_a_point_and_adds_no_buchholz() -> None:
    s = standings("swiss", ["a", "b", "c"], [win("a", "b")], [("c", 1.0)])
    c = next(x for x in s if x.entrant == "c")
    assert (c.points, c.byes, c.buchholz, c.played) == (1.0, 1, 0.0, 0)


def test_round_robin_skips_buchholz() -> None:
    """Round robin: points, then S-B (no Buchholz): b has the higher S-B."""
    results = [
        win("a", "c"),
        win("b", "a"),
        win("c", "b"),
        win("a", "d"),
        win("b", "d"),
        win("d", "c"),
    ]
    # points: a 2, b 2, c 1, d 1; S-B: a = c(1) + d(1) = 2; b = a(2) + d(1) = 3
    assert ranks("round_robin", "abcd", results)[:2] == "ba"


def test_arena_fewer_matches_for_the_same_points_ranks_higher() -> None:
    """Arena: fewer matches played for the same points and deal points ranks higher."""
    results = [
        win("a", "c"),
        win("b", "d"),
        Result(Table(("b", "c")), (0.0, 1.0), (0.0, 1.0), (1, 0)),
    ]
    # a, b, c: 1 point, 1 deal point; a in one match, b and c in two: then the seed
    assert ranks("arena", "bacd", results) == "abcd"


def test_groups_fewer_duraks_break_a_points_tie() -> None:
    """Groups: points, then fewer deals lost as the durak: b and c both have 3 points,
    c lost once as durak, b twice; c ranks above b."""
    t = Table(("a", "b", "c"))
    results = [Result(t, (4.0, 3.0, 3.0), (2.0, 0.0, 0.0), (0, 2, 1))]
    assert ranks("groups", "abc", results) == "acb"


def test_groups_firsts_break_a_durak_tie() -> None:
    """Groups: then deals gone out first."""
    t = Table(("a", "b", "c"))
    results = [Result(t, (2.0, 2.0, 2.0), (0.0, 1.0, 1.0), (1, 1, 0))]
    assert ranks("groups", "abc", results) == "cba"


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ArgumentError):
        standings("knockout", ["a"], [], [])


def test_duel_scores_the_match_by_deal_points() -> None:
    t = Table(("a", "b"))
    level = scoring.duel(t, [Outcome(1, False, (0,)), Outcome(0, False, (1,))])
    assert (level.points, level.deal_points, level.duraks) == ((0.5, 0.5), (1.0, 1.0), (1, 1))
    lost = scoring.duel(t, [Outcome(0, False, (1,))])
    assert lost.points == (0.0, 1.0)


def test_group_place_points_by_the_order_out() -> None:
    """Places: first out n-1, then n-2..., the durak 0; firsts and duraks counted."""
    t = Table(("a", "b", "c", "d"))
    r = scoring.group(t, [Outcome(3, False, (2, 0, 1)), Outcome(0, False, (1, 2, 3))])
    assert r.points == (2.0 + 0.0, 1.0 + 3.0, 3.0 + 2.0, 0.0 + 1.0)
    assert r.deal_points == (0.0, 1.0, 1.0, 0.0) and r.duraks == (1, 0, 0, 1)


def test_group_teams_score_by_side() -> None:
    t = Table(("a", "b", "c", "d"), teams=True)
    r = scoring.group(t, [Outcome(1, False, (0, 2, 3), losers=(1,), losing_team=1)])
    assert r.points == (1.0, 0.0, 1.0, 0.0) and r.duraks == (0, 1, 0, 0)


def test_walkover_when_everyone_is_absent_nobody_scores() -> None:
    r = scoring.walkover(Table(("a", "b")), {"a", "b"}, 3)
    assert r.points == (0.0, 0.0) and r.duraks == (3, 3) and r.walkover


def test_text_table_has_the_tie_break_columns() -> None:
    s = standings("swiss", ["a", "b"], [win("a", "b")], [])
    out = text_table("swiss", s)
    assert "Buchholz" in out and "S-B" in out and out.splitlines()[1].split()[1] == "a"
