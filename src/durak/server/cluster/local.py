"""One process: every table is held here, nothing crosses a process (``durak serve``,
the default)."""

from __future__ import annotations

import logging
from typing import Any

from ...errors import UsageError
from ..limits import Guard, Limits
from ..lobby import Alone, Lobby, TableOp
from ..logins import Logins
from ..table import Connection

log = logging.getLogger("durak.server")


class Local(Alone):
    """One process: every table is held here. ``where`` always answers here (None);
    its lobby shares nothing (``lobby.Alone``)."""

    worker = "local"

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._lobby: Lobby | None = None

    def guard(self) -> Guard:
        return Guard(self.limits)

    def logins(self) -> Logins:
        return Logins(self.limits)

    @property
    def lobby(self) -> Lobby:
        """The lobby of every table (once started)."""
        assert self._lobby is not None, "the server has not started"
        return self._lobby

    async def start(self, lobby: Lobby) -> None:
        self._lobby = lobby
        n = await lobby.restore()
        if n:
            log.info("restored %d tables", n)

    async def stop(self) -> list[str]:
        """Stop every table and store all there is to store: one process waits as long
        as that takes (SQLite's own lock timeout bounds each write), and leaves as it
        always did; a write its tables were still retrying is logged (a restart records
        a deal's end from the stored actions). Returns nothing left to report."""
        if self._lobby is not None:
            for what in await self._lobby.close():
                log.warning("not stored: %s", what)
        return []

    async def where(self, table_id: str) -> str | None:
        """The worker that owns ``table_id``; None: this one (or no such table)."""
        return None

    def relayed(self, conn: Connection) -> bool:
        return False

    async def relay(self, conn: Connection, owner: str, table_id: str, hello: str) -> None:
        raise UsageError("one process relays nothing")

    async def forward(self, conn: Connection, text: str) -> None:
        raise UsageError("one process relays nothing")

    async def unrelay(self, conn: Connection) -> None:
        pass

    async def table_op(self, op: TableOp) -> dict[str, Any]:
        """Run a request about a table: here."""
        return await self.lobby.op(op)

    async def summaries(self, offset: int, limit: int) -> dict[str, Any]:
        return self.lobby.summaries(offset, limit)
