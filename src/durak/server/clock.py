"""The time the lobby and its tables read, and the moments they announce.

``Clock`` is the machine's (``time.monotonic``, ``time.time``, ``asyncio.sleep``);
``ManualClock`` stands still until a test moves it, so turn clocks, grace periods and
pauses happen when the test says, on a busy machine as on an idle one. ``Events``
tells a waiter when a table reached a named moment (a deal started, a move stored, a
table let go), instead of a sleep that hopes it did.

>>> c = ManualClock(start=100.0, wall=1_700_000_000.0)
>>> c.monotonic(), c.time()
(100.0, 1700000000.0)
>>> c.advance(2.5); c.monotonic(), c.time()
(102.5, 1700000002.5)
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time


class Clock:
    """The machine's clock."""

    def monotonic(self) -> float:
        """Seconds that only go forward (turn clocks, grace periods, idleness)."""
        return time.monotonic()

    def time(self) -> float:
        """Seconds since the epoch (what a client is told: a turn's deadline)."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock."""
        await asyncio.sleep(seconds)


class ManualClock(Clock):
    """A clock that moves only by ``advance`` (from any thread: a test drives a server
    running on another thread's event loop). A sleeper wakes once the clock reached its
    time, in the order of those times."""

    def __init__(self, start: float = 1000.0, wall: float = 1_700_000_000.0) -> None:
        self._lock = threading.Lock()
        self._now = start
        self._to_wall = wall - start
        self._sleepers: list[tuple[float, int, asyncio.AbstractEventLoop, asyncio.Future[None]]]
        self._sleepers = []
        self._order = itertools.count()

    def monotonic(self) -> float:
        with self._lock:
            return self._now

    def time(self) -> float:
        with self._lock:
            return self._now + self._to_wall

    async def sleep(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if seconds <= 0:
                woken.set_result(None)
            else:
                entry = (self._now + seconds, next(self._order), loop, woken)
                heapq.heappush(self._sleepers, entry)
        await woken

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``, waking every sleeper whose time came."""
        with self._lock:
            self._now += seconds
            due = []
            while self._sleepers and self._sleepers[0][0] <= self._now:
                due.append(heapq.heappop(self._sleepers))
        for _, _, loop, woken in due:
            if not loop.is_closed():
                loop.call_soon_threadsafe(_wake, woken)

    def sleeping(self) -> int:
        """How many sleepers wait for this clock (those cancelled since included)."""
        with self._lock:
            return sum(1 for *_, f in self._sleepers if not f.done())


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():  # (cancelled meanwhile)
        woken.set_result(None)


class Events:
    """Named moments of the tables (``"deal"``: a deal started, ``"moved"``: a move
    stored and shown, ``"ended"``: a deal's end stored (its result, its ratings),
    ``"refused"``: a write of the table refused by the database, ``"let_go"``: a table
    taken over by another worker let go here, ``"closed"``), for whoever waits for one.
    Nothing is kept when nobody waits."""

    def __init__(self) -> None:
        self._waiting: list[tuple[str, str | None, asyncio.Future[str]]] = []

    def emit(self, name: str, table_id: str) -> None:
        """``table_id`` reached the moment ``name``."""
        left = []
        for want, table, fut in self._waiting:
            if fut.done():
                continue
            if want == name and table in (None, table_id):
                fut.set_result(table_id)
            else:
                left.append((want, table, fut))
        self._waiting = left

    def next(self, name: str, table_id: str | None = None) -> asyncio.Future[str]:
        """The next time ``name`` happens (to ``table_id``, or to any table): the table's
        id. Ask before whatever makes it happen."""
        fut: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._waiting.append((name, table_id, fut))
        return fut
