"""One live table: its seats, its match, its connections, its bots and its clocks.

``LiveTable`` is a small core (``tablecore``) with its jobs beside it, each in a module
of its own: ``tableviews`` (what it shows), ``tableseating`` (seats and connections),
``tabledeals`` (the move pipeline and the deal lifecycle), ``tableclock`` (bots,
stand-ins and turn clocks), ``tablerestore`` (rebuilding it from the database).

Nobody can stall a table: a person on the move has the turn clock (a stand-in bot moves
for them when it runs out); a person with no connection for the grace period is away,
and a stand-in plays all their moves until they come back with their token; when every
other person is away past the forfeit time, a player present may claim the win.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from .tablecore import (
    LOG_TAIL,
    OUTBOX_LIMIT,
    RETRY_DELAYS,
    Host,
    Seat,
    commitment,
    hash_token,
    mix_seed,
)
from .tabledeals import forfeit_result, forfeit_seats, forfeit_text
from .tablerestore import TableRestore

log = logging.getLogger("durak.server")

__all__ = [
    "LOG_TAIL",
    "OUTBOX_LIMIT",
    "RETRY_DELAYS",
    "Connection",
    "Host",
    "LiveTable",
    "Seat",
    "commitment",
    "forfeit_result",
    "forfeit_seats",
    "forfeit_text",
    "hash_token",
    "mix_seed",
]


class Connection:
    """One client's outbox: a writer task drains it, so that a slow client never holds
    up its table or the others."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]] | None = None,
        address: str = "",
    ) -> None:
        self._send = send
        self._close = close
        self.address = address
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: LiveTable | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.closed = False

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= OUTBOX_LIMIT:
            log.warning("dropping a client that does not read its messages")
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def welcome(self, text: str, seat: int | None) -> None:
        """Push ``text``, the ``welcome`` that seats this connection as ``seat`` (None: a
        spectator); a relayed connection tells its edge which seat it was welcomed as."""
        self.push(text)

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                if self._close is not None:
                    with contextlib.suppress(Exception):
                        await self._close()
                return
            try:
                await self._send(text)
            except UnicodeError:  # a message that cannot be sent is skipped, never the writer
                log.exception("a message could not be encoded")
            except Exception:  # the client is gone; its reader ends the connection
                self.closed = True
                return

    def stop(self) -> None:
        self.closed = True
        self.queue.put_nowait(None)


class LiveTable(TableRestore[Connection]):
    """A table in memory: every job of it (see the module's docstring). Public
    coroutines take the lock; ``_`` methods expect it held."""

    def attach(self, conn: Connection, seat: int | None, token_hash: str | None) -> None:
        """Put ``conn`` at this table as ``seat`` (None: a spectator); a connection already
        here just changes seat. Only a seat going on- or offline is announced, once:
        spectators come and go unannounced, and a repeated hello announces nothing."""
        before = self._online()
        self.conns.add(conn)
        conn.table, conn.seat, conn.token_hash = self, seat, token_hash
        conn.push(self.message(seat))
        self._presence_changed(before)

    def detach(self, conn: Connection) -> None:
        if conn in self.conns:
            before = self._online()
            self.conns.discard(conn)
            if not self.conns:
                self.alone_since = self.lobby.clock.monotonic()
            self._presence_changed(before)
        conn.table = conn.seat = None
