"""The value types of a tournament: a table (who sits where), a round, a table's result.

An entrant is named by a string id (an account's name, ``bot:level2#3``...). Seat 0 of
a table sits first: in a 2-player match the first seat is the «colour» that Swiss
balances.

>>> t = Table(("ann", "bob"))
>>> t.seats, t.has("bob"), t.teams
(('ann', 'bob'), True, False)
>>> Round(1, (t,), byes=("cid",)).entrants()
('ann', 'bob', 'cid')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ArgumentError


@dataclass(frozen=True)
class Table:
    """One table of a round: entrant ids in seat order (seat 0 sits first). In team play
    seat ``i`` plays for side ``i % 2``, as the engine seats teams."""

    seats: tuple[str, ...]
    teams: bool = False

    def __post_init__(self) -> None:
        if len(set(self.seats)) != len(self.seats) or len(self.seats) < 2:
            raise ArgumentError(f"seats: two or more different entrants, not {self.seats}")

    def has(self, entrant: str) -> bool:
        """Whether ``entrant`` sits at this table."""
        return entrant in self.seats

    def to_json(self) -> dict[str, Any]:
        """The table as JSON."""
        return {"seats": list(self.seats), "teams": self.teams}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Table:
        """The table :meth:`to_json` wrote."""
        return Table(tuple(d["seats"]), bool(d.get("teams", False)))


@dataclass(frozen=True)
class Round:
    """A round: its number (from 1), its tables and the entrants with a bye."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    def entrants(self) -> tuple[str, ...]:
        """Everyone in the round, seated or with a bye."""
        return tuple(s for t in self.tables for s in t.seats) + self.byes

    def to_json(self) -> dict[str, Any]:
        """The round as JSON."""
        return {
            "number": self.number,
            "tables": [t.to_json() for t in self.tables],
            "byes": list(self.byes),
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Round:
        """The round :meth:`to_json` wrote."""
        tables = tuple(Table.from_json(t) for t in d["tables"])
        return Round(int(d["number"]), tables, tuple(d.get("byes", ())))


@dataclass(frozen=True)
class Result:
    """What one table scored, seat by seat (in the table's seat order).

    ``points``: what standings rank by (match points at 2-player tables, place points in
    groups). ``deal_points``: the deals' own score (2-player: 1 a deal not lost, 1/2 a
    draw; groups: 1 a deal gone out first). ``duraks``: deals lost as the durak.
    ``walkover``: decided without play (an absent or withdrawn entrant).
    ``game``: the match's record id on the server, if any.
    """

    table: Table
    points: tuple[float, ...]
    deal_points: tuple[float, ...]
    duraks: tuple[int, ...]
    walkover: bool = False
    game: str | None = None

    def __post_init__(self) -> None:
        n = len(self.table.seats)
        if not len(self.points) == len(self.deal_points) == len(self.duraks) == n:
            raise ArgumentError(f"points: one a seat ({n}), not {self.points}")

    def of(self, entrant: str) -> tuple[float, float, int]:
        """``entrant``'s points, deal points and deals lost as durak."""
        i = self.table.seats.index(entrant)
        return self.points[i], self.deal_points[i], self.duraks[i]

    def to_json(self) -> dict[str, Any]:
        """The result as JSON."""
        return {
            "table": self.table.to_json(),
            "points": list(self.points),
            "deal_points": list(self.deal_points),
            "duraks": list(self.duraks),
            "walkover": self.walkover,
            "game": self.game,
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Result:
        """The result :meth:`to_json` wrote."""
        return Result(
            Table.from_json(d["table"]),
            tuple(float(x) for x in d["points"]),
            tuple(float(x) for x in d["deal_points"]),
            tuple(int(x) for x in d["duraks"]),
            bool(d.get("walkover", False)),
            d.get("game"),
        )
