"""Standings: each entrant's totals and its rank under the format's tie-breaks.

Tie-breaks, in order (the last key, the entrant's seed — the order they joined in — makes
every rank unique):

- **swiss**: points, Buchholz (the sum of the final points of every opponent met; a bye
  adds none), Sonneborn-Berger (each opponent's final points times the points scored
  against them: 1, 1/2 or 0), deal points, seed;
- **round_robin**: points, Sonneborn-Berger, deal points, seed (everyone meets everyone,
  so Buchholz says nothing);
- **arena**: points, deal points, fewer matches played (the same points in fewer
  matches), seed;
- **groups**: points, fewer deals lost as the durak, deals gone out first, seed.

>>> from durak.tournaments.model import Result, Round, Table
>>> t = Table(("ann", "bob"))
>>> r = Result(t, (1.0, 0.0), (2.0, 0.0), (0, 2))
>>> [(s.entrant, s.points) for s in standings("swiss", ["bob", "ann"], [r], [])]
[('ann', 1.0), ('bob', 0.0)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import ArgumentError
from .model import Result

TIEBREAKS: dict[str, tuple[str, ...]] = {
    "swiss": ("points", "buchholz", "sonneborn_berger", "deal_points", "seed"),
    "round_robin": ("points", "sonneborn_berger", "deal_points", "seed"),
    "arena": ("points", "deal_points", "fewer_played", "seed"),
    "groups": ("points", "fewer_duraks", "deal_points", "seed"),
}


@dataclass
class Standing:
    """One entrant's line of the table."""

    entrant: str
    seed: int
    rank: int = 0
    points: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    deal_points: float = 0.0
    duraks: int = 0
    played: int = 0
    byes: int = 0
    withdrawn: bool = False
    opponents: list[tuple[str, float]] = field(default_factory=list, repr=False)

    def key(self, fmt: str) -> tuple[float, ...]:
        """The sort key under ``fmt``'s tie-breaks (smaller ranks higher)."""
        keys = {
            "points": -self.points,
            "buchholz": -self.buchholz,
            "sonneborn_berger": -self.sonneborn_berger,
            "deal_points": -self.deal_points,
            "fewer_played": self.played,
            "fewer_duraks": self.duraks,
            "seed": self.seed,
        }
        return tuple(keys[k] for k in TIEBREAKS[fmt])

    def to_json(self) -> dict[str, Any]:
        """The line as JSON (without the opponents)."""
        d = asdict(self)
        del d["opponents"]
        return d


def standings(
    fmt: str,
    entrants: Sequence[str],
    results: Sequence[Result],
    byes: Sequence[tuple[str, float]],
    withdrawn: Collection[str] = (),
) -> list[Standing]:
    """The table: ``entrants`` in seed order, the ``results`` of every table played,
    ``byes`` as (entrant, points) pairs. Ranked best first."""
    if fmt not in TIEBREAKS:
        raise ArgumentError(f"format: one of {', '.join(TIEBREAKS)}, not {fmt!r}")
    lines = {e: Standing(e, i + 1, withdrawn=e in withdrawn) for i, e in enumerate(entrants)}
    for r in results:
        seats = r.table.seats
        for i, e in enumerate(seats):
            s = lines[e]
            s.points += r.points[i]
            s.deal_points += r.deal_points[i]
            s.duraks += r.duraks[i]
            s.played += 1
            if len(seats) == 2:
                s.opponents.append((seats[1 - i], r.points[i]))
    for e, pts in byes:
        lines[e].points += pts
        lines[e].byes += 1
    for s in lines.values():
        s.buchholz = sum(lines[o].points for o, _ in s.opponents)
        s.sonneborn_berger = sum(lines[o].points * got for o, got in s.opponents)
    ranked = sorted(lines.values(), key=lambda s: s.key(fmt))
    for i, s in enumerate(ranked):
        s.rank = i + 1
    return ranked


def text_table(fmt: str, table: Sequence[Standing]) -> str:
    """The standings as a text table with the format's tie-break columns.

    >>> print(text_table("groups", [Standing("ann", 1, 1, 5.0, duraks=1, played=2)]))
     #  entrant                  points  duraks  firsts  played
     1  ann                        5.00       1     0.0       2
    """
    swiss_like = fmt in ("swiss", "round_robin", "arena")
    head = f"{'#':>2}  {'entrant':<24} {'points':>6}"
    if fmt == "swiss":
        head += f" {'Buchholz':>8}"
    if fmt in ("swiss", "round_robin"):
        head += f" {'S-B':>6}"
    head += f" {'deals':>6}" if swiss_like else f" {'duraks':>7} {'firsts':>7}"
    lines = [head + f" {'played':>7}"]
    for s in table:
        row = f"{s.rank:>2}  {s.entrant + (' (w)' if s.withdrawn else ''):<24} {s.points:6.2f}"
        if fmt == "swiss":
            row += f" {s.buchholz:8.2f}"
        if fmt in ("swiss", "round_robin"):
            row += f" {s.sonneborn_berger:6.2f}"
        if swiss_like:
            row += f" {s.deal_points:6.1f}"
        else:
            row += f" {s.duraks:7d} {s.deal_points:7.1f}"
        lines.append(row + f" {s.played + s.byes:7d}")
    return "\n".join(lines)


def history(results: Sequence[Result]) -> History:
    """Who met whom and who sat first, from the tables played (see :class:`History`)."""
    h = History()
    for r in results:
        seats = r.table.seats
        for i, e in enumerate(seats):
            h.firsts[e] += 1 if i == 0 else 0
            h.seconds[e] += 1 if i > 0 else 0
            h.last_first[e] = i == 0
            for o in seats:
                if o != e:
                    h.met[e].add(o)
    return h


@dataclass
class History:
    """What pairing needs to know of the rounds played: ``met`` (each entrant's
    opponents and table mates), ``firsts``/``seconds`` (tables at which it sat first /
    not first), ``last_first`` (whether it sat first at its latest table), ``byes``."""

    met: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    firsts: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    seconds: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    last_first: dict[str, bool] = field(default_factory=dict)
    byes: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))

    def balance(self, e: str) -> int:
        """Tables sat first minus tables sat second: the «colour» balance."""
        return self.firsts[e] - self.seconds[e]
