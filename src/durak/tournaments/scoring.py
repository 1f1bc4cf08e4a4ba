"""How deals score: 2-player matches and multi-player groups, walkovers and byes.

A deal is anything with the engine's :class:`durak.outcome.Outcome` fields ``durak``
(the loser's seat or None for a draw), ``out_order`` (seats in the order they went out)
and ``losing_team`` (the losing side in team play, else None).

**2-player match** (Swiss, round robin, arena): a deal scores 1 to the player who is not
the durak, 1/2 each for a draw; the match scores 1 to the player with more deal points,
1/2 each when they are level, 0 to the other.

>>> from durak.outcome import Outcome
>>> t = Table(("ann", "bob"))
>>> r = duel(t, [Outcome(1, False, (0,)), Outcome(None, True, (0, 1))])
>>> r.points, r.deal_points, r.duraks
((1.0, 0.0), (1.5, 0.5), (0, 1))

**Group** (3-6 players): places by the order the players went out: the first out scores
``n - 1``, the next ``n - 2``..., the durak 0; players still in at a draw share the places
left (their mean). In team play a side scores 1 a deal it did not lose, 0 a lost one,
1/2 each a draw, for each of its members.

>>> place_points(4, Outcome(2, False, (1, 3, 0)))
(1.0, 3.0, 0.0, 2.0)
>>> place_points(3, Outcome(None, True, (0,)))
(2.0, 0.5, 0.5)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from ..errors import ArgumentError
from .model import Result, Table


class Deal(Protocol):
    """The fields of a deal's outcome that scoring reads."""

    @property
    def durak(self) -> int | None: ...

    @property
    def out_order(self) -> tuple[int, ...]: ...

    @property
    def losing_team(self) -> int | None: ...


def place_points(players: int, deal: Deal) -> tuple[float, ...]:
    """Each seat's place points in one deal of ``players`` (see the module's doc)."""
    pts = [0.0] * players
    placed = [s for s in deal.out_order if s != deal.durak]
    for i, s in enumerate(placed):
        pts[s] = float(players - 1 - i)
    rest = [s for s in range(players) if s not in placed and s != deal.durak]
    if rest:  # still in at a draw: the places left (down to 0 unless a durak takes it)
        left = range(players - 1 - len(placed), -1 if deal.durak is None else 0, -1)
        share = sum(left) / len(rest)
        for s in rest:
            pts[s] = share
    return tuple(pts)


def _side_points(players: int, deal: Deal) -> tuple[float, ...]:
    if deal.losing_team is None:
        if deal.durak is None:
            return (0.5,) * players
        return tuple(0.0 if s % 2 == deal.durak % 2 else 1.0 for s in range(players))
    return tuple(0.0 if s % 2 == deal.losing_team else 1.0 for s in range(players))


def duel(table: Table, deals: Sequence[Deal], game: str | None = None) -> Result:
    """The result of a 2-player match of ``deals`` (see the module's doc)."""
    if len(table.seats) != 2 or not deals:
        raise ArgumentError("deals: one or more deals of a 2-player table")
    dp = [0.0, 0.0]
    duraks = [0, 0]
    for d in deals:
        if d.durak is None:
            dp[0] += 0.5
            dp[1] += 0.5
        else:
            duraks[d.durak] += 1
            dp[1 - d.durak] += 1.0
    mp = (1.0, 0.0) if dp[0] > dp[1] else (0.0, 1.0) if dp[1] > dp[0] else (0.5, 0.5)
    return Result(table, mp, (dp[0], dp[1]), (duraks[0], duraks[1]), game=game)


def group(table: Table, deals: Sequence[Deal], game: str | None = None) -> Result:
    """The result of a group's ``deals`` at a table of 3-6 (see the module's doc)."""
    n = len(table.seats)
    if not deals:
        raise ArgumentError("deals: one or more deals")
    pts = [0.0] * n
    firsts = [0.0] * n
    duraks = [0] * n
    for d in deals:
        got = _side_points(n, d) if table.teams else place_points(n, d)
        for s in range(n):
            pts[s] += got[s]
        if d.out_order:
            firsts[d.out_order[0]] += 1.0
        if d.durak is not None:
            duraks[d.durak] += 1
    return Result(table, tuple(pts), tuple(firsts), tuple(duraks), game=game)


def walkover(table: Table, absent: Collection[str], deals: int) -> Result:
    """A table decided without play: each absent entrant loses every deal as the durak
    and scores 0; the present ones score as if they won every deal (2-player: the match
    and every deal; groups: the mean of the places above the durak's, ``n / 2`` a deal;
    teams: 1 a deal). When everyone is absent everyone scores 0.

    >>> walkover(Table(("ann", "bob")), {"bob"}, 2).points
    (1.0, 0.0)
    >>> walkover(Table(("a", "b", "c", "d")), {"d"}, 2).points
    (4.0, 4.0, 4.0, 0.0)
    """
    n = len(table.seats)
    here = [s not in absent for s in table.seats]
    everyone_away = not any(here)
    if n == 2:
        win, dwin = 1.0, float(deals)
    elif table.teams:
        win, dwin = float(deals), 0.0
    else:
        win, dwin = deals * n / 2, 0.0
    pts = tuple(win if h and not everyone_away else 0.0 for h in here)
    dps = tuple(dwin if h and not everyone_away else 0.0 for h in here)
    duraks = tuple(0 if h else deals for h in here)
    return Result(table, pts, dps, duraks, walkover=True)


def bye_points(table_size: int, deals: int, teams: bool) -> float:
    """What a bye scores: a match won at 2-player tables (1); in groups the mean place,
    ``(n - 1) / 2`` a deal (1/2 a deal in team play).

    >>> bye_points(2, 3, False), bye_points(4, 2, False), bye_points(4, 2, True)
    (1.0, 3.0, 1.0)
    """
    if table_size == 2:
        return 1.0
    return deals * (0.5 if teams else (table_size - 1) / 2)
