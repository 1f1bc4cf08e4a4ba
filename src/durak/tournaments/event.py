"""A tournament's life: entrants join and leave, it starts, rounds are paired, results
come in, entrants withdraw or forfeit, and it finishes with its standings.

The clock is injected (``clock()``, seconds): only the arena's window reads it.

>>> t = Tournament(Settings("swiss", rounds=1))
>>> for e in ("ann", "bob", "cid"):
...     t.join(e)
>>> r = t.start()
>>> [x.seats for x in r.tables], r.byes
([('ann', 'bob')], ('cid',))
>>> t.forfeit(1, 0, {"bob"})
>>> t.advance() is None, t.state
(True, 'finished')
>>> [(s.entrant, s.points) for s in t.standings()]
[('ann', 1.0), ('cid', 1.0), ('bob', 0.0)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import asdict, dataclass
from typing import Any, Literal

from ..errors import ArgumentError, StateError
from . import pairing
from .model import Result, Round, Table
from .scoring import bye_points, walkover
from .standings import TIEBREAKS, History, Standing, history, standings

State = Literal["open", "running", "finished"]


@dataclass(frozen=True)
class Settings:
    """What kind of event: ``format`` (swiss, round_robin, arena, groups), ``rounds``
    (swiss and groups; a round robin plays every pairing once), ``table_size`` (2, or
    3-6 for groups), ``teams`` (groups at 4 or 6: 2x2 or 3x3), ``deals`` a match,
    ``max_entrants``, ``minutes`` (the arena's window)."""

    format: str
    rounds: int = 3
    table_size: int = 2
    teams: bool = False
    deals: int = 1
    max_entrants: int = 64
    minutes: float = 30.0

    def __post_init__(self) -> None:
        if self.format not in TIEBREAKS:
            raise ArgumentError(f"format: one of {', '.join(TIEBREAKS)}, not {self.format!r}")
        grouped = self.format == "groups"
        if grouped and not 3 <= self.table_size <= 6:
            raise ArgumentError(f"table_size: 3 to 6 for groups, not {self.table_size}")
        if not grouped and self.table_size != 2:
            raise ArgumentError(f"table_size: {self.format} plays at tables of 2")
        if self.teams and (not grouped or self.table_size not in (4, 6)):
            raise ArgumentError("teams: only in groups at tables of 4 (2x2) or 6 (3x3)")
        if not 1 <= self.rounds <= 100 or not 1 <= self.deals <= 100:
            raise ArgumentError("rounds, deals: 1 to 100")
        if not 2 <= self.max_entrants <= 1024 or not 0 < self.minutes <= 24 * 60:
            raise ArgumentError("max_entrants: 2 to 1024; minutes: up to a day")

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON."""
        return asdict(self)


class Tournament:
    """One event (see the module's doc). Every call that cannot be made now raises a
    :class:`~durak.errors.StateError` and changes nothing."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.clock = clock
        self.state: State = "open"
        self.entrants: list[str] = []
        self.withdrawn: set[str] = set()
        self.rounds: list[Round] = []
        self.results: dict[tuple[int, int], Result] = {}
        self.byes: list[tuple[str, float]] = []
        self.started_at = 0.0

    # -- entrants ----------------------------------------------------------------------
    def join(self, entrant: str) -> None:
        """Enter ``entrant`` (before the start; an arena also takes late entrants)."""
        late_ok = self.settings.format == "arena" and self.state == "running"
        if self.state != "open" and not late_ok:
            raise StateError(f"join: the tournament is {self.state}")
        if not entrant or entrant in self.entrants:
            raise StateError(f"join: {entrant!r} is in already")
        if len(self.entrants) >= self.settings.max_entrants:
            raise StateError(f"join: full ({self.settings.max_entrants} entrants)")
        self.entrants.append(entrant)

    def leave(self, entrant: str) -> None:
        """Take ``entrant`` out before the start."""
        if self.state != "open" or entrant not in self.entrants:
            raise StateError(f"leave: {entrant!r} is not waiting for the start")
        self.entrants.remove(entrant)

    def withdraw(self, entrant: str) -> None:
        """``entrant`` stops playing: a table it sits at is a walkover now; it is not
        paired again (in a round robin its scheduled matches are walkovers)."""
        if self.state != "running" or entrant not in self.active():
            raise StateError(f"withdraw: {entrant!r} is not playing")
        self.withdrawn.add(entrant)
        for (n, i), table in self.pending().items():
            if table.has(entrant):
                self.forfeit(n, i, {entrant} | (self.withdrawn & set(table.seats)))

    def active(self) -> list[str]:
        """The entrants still playing, in seed order."""
        return [e for e in self.entrants if e not in self.withdrawn]

    # -- rounds ------------------------------------------------------------------------
    def start(self) -> Round | None:
        """Start: the first round (None for an arena with nobody to seat yet)."""
        need = self.settings.table_size
        if self.state != "open" or len(self.entrants) < need:
            raise StateError(f"start: needs an open tournament and {need} or more entrants")
        self.state = "running"
        self.started_at = self.clock()
        return self.advance()

    def pending(self) -> dict[tuple[int, int], Table]:
        """The tables seated and without a result, by (round, index)."""
        return {
            (r.number, i): t
            for r in self.rounds
            for i, t in enumerate(r.tables)
            if (r.number, i) not in self.results
        }

    def ends_at(self) -> float:
        """When an arena's window closes (the clock's seconds)."""
        return self.started_at + 60 * self.settings.minutes

    def advance(self) -> Round | None:
        """The next round if the tables allow one now, else None; finishes the event
        when no more rounds will come. An arena seats whoever is free."""
        if self.state != "running":
            return None
        s = self.settings
        if s.format == "arena":
            return self._seat_arena()
        if self.pending():
            return None
        number = len(self.rounds) + 1
        ranked = [x.entrant for x in self.standings() if not x.withdrawn]
        h = self.history()
        last = (
            pairing.round_robin_rounds(len(self.entrants))
            if s.format == "round_robin"
            else s.rounds
        )
        if number > last or len(ranked) < s.table_size:
            self.state = "finished"
            return None
        if s.format == "swiss":
            rnd = pairing.swiss(ranked, h, number)
        elif s.format == "round_robin":
            rnd = pairing.round_robin(self.entrants, h, number)
        else:
            rnd = pairing.groups(ranked, s.table_size, s.teams, h, number)
        return self._open(rnd)

    def _open(self, rnd: Round) -> Round:
        self.rounds.append(rnd)
        # a round robin's bye scores nothing: everyone has one in an odd field
        worth = 0.0 if self.settings.format == "round_robin" else None
        for e in rnd.byes:
            if e not in self.withdrawn:
                s = self.settings
                self.byes.append(
                    (e, bye_points(s.table_size, s.deals, s.teams) if worth is None else worth)
                )
        for i, t in enumerate(rnd.tables):
            gone = self.withdrawn & set(t.seats)
            if gone:
                self.forfeit(rnd.number, i, gone)
        return rnd

    def _seat_arena(self) -> Round | None:
        busy = {e for t in self.pending().values() for e in t.seats}
        if self.clock() >= self.ends_at():
            if not busy:
                self.state = "finished"
            return None
        free = [x.entrant for x in self.standings() if not x.withdrawn and x.entrant not in busy]
        last: dict[str, str] = {}
        for _key, r in sorted(self.results.items()):
            a, b = r.table.seats
            last[a], last[b] = b, a
        tables = pairing.arena(free, self.history(), last)
        if not tables:
            return None
        return self._open(Round(len(self.rounds) + 1, tuple(tables)))

    # -- results -----------------------------------------------------------------------
    def record(self, number: int, index: int, result: Result) -> None:
        """The result of table ``index`` of round ``number``."""
        table = self.pending().get((number, index))
        if table is None or result.table != table:
            raise StateError(f"record: no such table waiting in round {number}: {index}")
        self.results[(number, index)] = result

    def forfeit(self, number: int, index: int, absent: Collection[str]) -> None:
        """Table ``index`` of round ``number`` is a walkover against ``absent``."""
        table = self.pending().get((number, index))
        if table is None or not set(absent) <= set(table.seats) or not absent:
            raise StateError(f"forfeit: no such table or entrants in round {number}")
        self.record(number, index, walkover(table, absent, self.settings.deals))

    def history(self) -> History:
        """Who met whom, seats and byes, from everything played."""
        h = history([self.results[k] for k in sorted(self.results)])
        for e, _ in self.byes:
            h.byes[e] += 1
        return h

    def standings(self) -> list[Standing]:
        """The table now, best first."""
        played = [self.results[k] for k in sorted(self.results)]
        return standings(self.settings.format, self.entrants, played, self.byes, self.withdrawn)

    # -- storage -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Everything the event is, as JSON (what the server stores)."""
        return {
            "settings": self.settings.to_json(),
            "state": self.state,
            "entrants": list(self.entrants),
            "withdrawn": sorted(self.withdrawn),
            "rounds": [r.to_json() for r in self.rounds],
            "results": [[n, i, r.to_json()] for (n, i), r in sorted(self.results.items())],
            "byes": [list(b) for b in self.byes],
            "started_at": self.started_at,
        }

    @staticmethod
    def from_json(d: dict[str, Any], clock: Callable[[], float] = time.time) -> Tournament:
        """The event :meth:`to_json` wrote."""
        t = Tournament(Settings(**d["settings"]), clock)
        t.state = d["state"]
        t.entrants = list(d["entrants"])
        t.withdrawn = set(d["withdrawn"])
        t.rounds = [Round.from_json(r) for r in d["rounds"]]
        t.results = {(int(n), int(i)): Result.from_json(r) for n, i, r in d["results"]}
        t.byes = [(str(e), float(p)) for e, p in d["byes"]]
        t.started_at = float(d["started_at"])
        return t
