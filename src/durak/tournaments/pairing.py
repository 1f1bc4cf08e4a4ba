"""Pairing: who sits with whom in the next round, for every format.

Each function takes the active entrants ranked best first (by the standings) and the
:class:`~durak.tournaments.standings.History` of the tables played, and returns tables
(seat 0 sits first) and byes. Pure functions: the same input pairs the same way.

**Swiss** (:func:`swiss`), the rules in the order they give way:

1. an odd field gives one bye, to the lowest-ranked entrant among those with the fewest
   byes (so nobody has a second bye before everyone had one), preferring, among those,
   the lowest for whom the rest can be paired without a repeat;
2. no two entrants meet twice while the round can be paired without it; when it cannot,
   the best-ranked unpaired takes the nearest below it not met, else the nearest;
3. by score: the best-ranked unpaired entrant plays the next best it has not met
   (adjacent, «Monrad» pairing, so the leaders meet each other);
4. seat colour (:func:`seat_pair`): the one who sat first less often (first minus second)
   sits first; level, the one who sat second at its latest table; still level, the
   higher-ranked.

>>> from durak.tournaments.standings import History
>>> r = swiss(["a", "b", "c", "d", "e"], History(), 1)
>>> [t.seats for t in r.tables], r.byes
([('a', 'b'), ('c', 'd')], ('e',))
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ArgumentError
from .model import Round, Table
from .standings import History

# Backtracking over pairings explores at most this many tries before the round is paired
# greedily (a huge field with every pairing met): no pairing may stall the server.
BUDGET = 50_000


def seat_pair(a: str, b: str, h: History) -> Table:
    """The 2-player table of ``a`` (ranked higher) and ``b``, colours balanced (rule 4).

    >>> h = History(); h.firsts["a"] = 1; h.last_first["a"] = True
    >>> seat_pair("a", "b", h).seats
    ('b', 'a')
    """
    ba, bb = h.balance(a), h.balance(b)
    if ba != bb:
        first = a if ba < bb else b
    else:
        la, lb = h.last_first.get(a), h.last_first.get(b)
        first = b if (la is not None and lb is not None and la and not lb) else a
    return Table((first, b if first == a else a))


def _match(players: list[str], h: History, budget: list[int]) -> list[tuple[str, str]] | None:
    """Pairs of ``players`` in rank order with no repeat, or None (or budget spent)."""
    if not players:
        return []
    p = players[0]
    for j in range(1, len(players)):
        q = players[j]
        if q in h.met[p]:
            continue
        budget[0] -= 1
        if budget[0] < 0:
            return None
        rest = players[1:j] + players[j + 1 :]
        m = _match(rest, h, budget)
        if m is not None:
            return [(p, q), *m]
    return None


def _greedy(players: list[str], h: History) -> list[tuple[str, str]]:
    """Rule 2's fallback: the best unpaired takes the nearest not met, else the nearest."""
    left = list(players)
    pairs = []
    while left:
        p = left.pop(0)
        q = next((x for x in left if x not in h.met[p]), left[0])
        left.remove(q)
        pairs.append((p, q))
    return pairs


def swiss(ranked: Sequence[str], h: History, number: int) -> Round:
    """Round ``number`` of a Swiss (the rules in the module's doc)."""
    if len(ranked) < 2:
        raise ArgumentError(f"entrants: two or more to pair, not {len(ranked)}")
    players = list(ranked)
    bye: tuple[str, ...] = ()
    if len(players) % 2:
        fewest = min(h.byes[p] for p in players)
        candidates = [p for p in reversed(players) if h.byes[p] == fewest]
        chosen = candidates[0]
        for c in candidates:
            if _match([p for p in players if p != c], h, [BUDGET]) is not None:
                chosen = c
                break
        bye = (chosen,)
        players.remove(chosen)
    pairs = _match(players, h, [BUDGET]) or _greedy(players, h)
    return Round(number, tuple(seat_pair(a, b, h) for a, b in pairs), bye)


def round_robin(seeded: Sequence[str], h: History, number: int) -> Round:
    """Round ``number`` (from 1) of a round robin by the circle method: the first seed
    stays, the others turn one place a round; with an odd field the one facing the empty
    place has the bye. ``len(seeded) - 1`` rounds (``len(seeded)`` when odd) meet
    everyone once. Colours by :func:`seat_pair` (the higher seed counts as higher).

    >>> [[t.seats for t in round_robin("abcd", History(), r).tables] for r in (1, 2, 3)]
    [[('a', 'd'), ('b', 'c')], [('a', 'c'), ('b', 'd')], [('a', 'b'), ('c', 'd')]]
    """
    p: list[str | None] = list(seeded)
    if len(p) % 2:
        p.append(None)
    n = len(p)
    if not 1 <= number <= n - 1:
        raise ArgumentError(f"number: a round from 1 to {n - 1}, not {number}")
    r = (number - 1) % (n - 1)
    rest = p[1:]
    arr = [p[0], *rest[len(rest) - r :], *rest[: len(rest) - r]]
    tables, byes = [], []
    for i in range(n // 2):
        a, b = arr[i], arr[n - 1 - i]
        if a is None or b is None:
            byes.append(b if a is None else a)
            continue
        hi, lo = (a, b) if seeded.index(a) < seeded.index(b) else (b, a)
        tables.append(seat_pair(hi, lo, h))
    return Round(number, tuple(tables), tuple(x for x in byes if x is not None))


def round_robin_rounds(entrants: int) -> int:
    """How many rounds a round robin of ``entrants`` takes."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def arena(waiting: Sequence[str], h: History, last: dict[str, str]) -> list[Table]:
    """An arena's seating of the entrants free now (ranked best first): each in turn,
    from the top, sits with the nearest below it in the ranking that was not its latest
    opponent (``last``), or with its latest opponent when nobody else is free. An odd
    one out waits for the next to come free.

    >>> [t.seats for t in arena(["a", "b", "c"], History(), {"a": "b"})]
    [('a', 'c')]
    """
    left = list(waiting)
    tables = []
    while len(left) >= 2:
        p = left.pop(0)
        q = next((x for x in left if last.get(p) != x), left[0])
        left.remove(q)
        tables.append(seat_pair(p, q, h))
    return tables


def groups(ranked: Sequence[str], size: int, teams: bool, h: History, number: int) -> Round:
    """Round ``number`` of a group event at tables of ``size`` (3-6): the field left
    after the byes is cut into tables in ranking order (the top ``size`` at table 1...).
    The ``len % size`` byes go to the lowest-ranked among those with the fewest byes.
    Seats: without teams, whoever sat first least often sits first, then by rank; in team
    play (sides are seats ``i % 2``) the ranks snake: 1 4 vs 2 3 at four, 1 4 5 vs 2 3 6
    at six, so each side has the same rank sum or nearly.

    >>> r = groups(list("abcdefg"), 3, False, History(), 1)
    >>> [t.seats for t in r.tables], r.byes
    ([('a', 'b', 'c'), ('d', 'e', 'f')], ('g',))
    >>> groups(list("abcd"), 4, True, History(), 1).tables[0].seats
    ('a', 'b', 'd', 'c')
    """
    if not 3 <= size <= 6 or (teams and size not in (4, 6)):
        raise ArgumentError(f"size: 3 to 6 players a table (4 or 6 with teams), not {size}")
    if len(ranked) < size:
        raise ArgumentError(f"entrants: at least {size} for tables of {size}, not {len(ranked)}")
    extra = len(ranked) % size
    order = {e: i for i, e in enumerate(ranked)}
    byes = sorted(ranked, key=lambda e: (h.byes[e], -order[e]))[:extra]
    seated = [e for e in ranked if e not in byes]
    tables = []
    for k in range(0, len(seated), size):
        g = seated[k : k + size]
        if teams:
            seats = []
            for j in range(0, size, 2):
                pair = [g[j], g[j + 1]]
                seats += pair if (j // 2) % 2 == 0 else pair[::-1]
        else:
            seats = sorted(g, key=lambda e: (h.firsts[e], order[e]))
        tables.append(Table(tuple(seats), teams))
    return Round(number, tuple(tables), tuple(sorted(byes, key=order.__getitem__)))
