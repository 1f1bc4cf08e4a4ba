"""The socket relay: a browser may connect to any worker (its *edge*); its frames go to
the worker that owns its table, and what the owner sends the socket comes back to the
edge, tagged with the seat it was made for. The edge forwards a frame tagged with a seat
only to the socket the owner welcomed as that seat, so a seat's private view never
reaches another socket (``wire`` has the messages)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from dataclasses import dataclass

from ..table import Connection
from .node import Handler, Node
from .wire import (
    ConnectSri,
    DisconnectSri,
    DropSri,
    Message,
    MovedSri,
    TellSeat,
    TellSri,
    WelcomeSri,
    encode,
)

log = logging.getLogger("durak.server")


class RemoteConnection(Connection):
    """On the owner: a socket held by another worker (the edge). What the table pushes to
    it is tagged with the seat it was made for, at the moment it is pushed, and goes out
    on the edge's channel in order; the frames the client sends arrive in ``inbox``."""

    def __init__(self, node: Node, edge: str, sri: str, address: str) -> None:
        super().__init__(self._publish, self._closed, address)
        self.node, self.edge, self.sri = node, edge, sri
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.moved = False  # the table left this worker: the edge is to ask again
        self.silent = False  # the edge said bye: nothing more to tell it

    def push(self, text: str) -> None:
        super().push(encode(TellSeat(self.node.worker, self.sri, self.seat, text)))

    def welcome(self, text: str, seat: int | None) -> None:
        # (in the outbox's order, as every message: a WelcomeSri names the seat welcomed)
        Connection.push(self, encode(WelcomeSri(self.node.worker, self.sri, seat, text)))

    async def _publish(self, text: str) -> None:
        await self.node.publish_text(self.edge, text)

    async def _closed(self) -> None:
        self.inbox.put_nowait(None)  # its reader ends and forgets it
        if not self.silent:
            who, sri = self.node.worker, self.sri
            await self.node.publish(
                self.edge, MovedSri(who, sri) if self.moved else DropSri(who, sri)
            )


@dataclass
class Relay:
    """On the edge: a local socket whose table another worker owns."""

    sri: str
    conn: Connection
    table: str
    owner: str
    hello: str  # the client's hello, said again to a new owner after a failover
    seat: int | None = None  # as the owner's welcome named it


class Relays:
    """Both ends of the relay on one worker: the sockets relayed here from other edges
    (``remote``, owner side) and this worker's sockets relayed to other owners
    (``relays``, edge side)."""

    def __init__(self, node: Node, handler: Handler) -> None:
        self.node = node
        self.handler = handler
        self.remote: dict[tuple[str, str], RemoteConnection] = {}
        self.relays: dict[Connection, Relay] = {}
        self.by_sri: dict[str, Relay] = {}
        self._ids = itertools.count(1)

    def take(self, m: Message) -> bool:
        """Handle ``m`` if it is a message of the relay; whether it was."""
        match m:
            case ConnectSri() | TellSri():
                self._inbound(m)
            case DisconnectSri(edge=edge, sri=sri):
                self.bye((edge, sri))
            case WelcomeSri() | TellSeat():
                self._outbound(m)
            case DropSri(owner=owner, sri=sri) | MovedSri(owner=owner, sri=sri):
                relay = self.by_sri.get(sri)
                # Only the socket's present owner speaks for it: a worker that lost the
                # table (it stalled, or reloaded it) may still send a last word.
                if relay is not None and relay.owner == owner:
                    if isinstance(m, DropSri):
                        self._forget(relay)
                        relay.conn.stop()
                    else:
                        self.node.spawn(self.reroute(relay, wait=True))
            case _:
                return False
        return True

    # Owner side ----------------------------------------------------------------------
    def _inbound(self, m: ConnectSri | TellSri) -> None:
        key = (m.edge, m.sri)
        rc = self.remote.get(key)
        if rc is not None and rc.closed:  # its table closed or left: a fresh start
            self.bye(key)
            rc = None
        if rc is None:
            if not isinstance(m, ConnectSri):
                # This worker does not know the socket (it forgot an edge it thought
                # gone, or the table came here without it): the edge says hello again.
                self.node.spawn(self.node.publish(m.edge, MovedSri(self.node.worker, m.sri)))
                return
            rc = self.remote[key] = RemoteConnection(self.node, m.edge, m.sri, m.address)
            self.node.spawn(rc.writer())
            self.node.spawn(self._read(key, rc))
        rc.inbox.put_nowait(m.payload)

    async def _read(self, key: tuple[str, str], rc: RemoteConnection) -> None:
        while not rc.closed:
            raw = await rc.inbox.get()
            if raw is None:
                break
            try:
                await self.handler(rc, raw)
            except Exception:
                log.exception("worker %s: a relayed frame failed", self.node.worker)
        if self.remote.get(key) is rc:
            del self.remote[key]
        if rc.table is not None:
            rc.table.detach(rc)

    def bye(self, key: tuple[str, str]) -> None:
        """The socket ``key`` (edge, sri) relayed here left: forgotten, said nothing."""
        rc = self.remote.pop(key, None)
        if rc is not None:
            rc.silent = True
            if rc.table is not None:
                rc.table.detach(rc)
            rc.inbox.put_nowait(None)
            rc.stop()

    def moved_all(self) -> None:
        """Every socket relayed here is told its table moved when it closes."""
        for rc in self.remote.values():
            rc.moved = True

    def check_edges(self, alive: set[str]) -> None:
        """Sockets relayed from a worker that is gone: they left with it."""
        for key, rc in list(self.remote.items()):
            if rc.edge not in alive:
                self.bye(key)

    # Edge side -----------------------------------------------------------------------
    def relayed(self, conn: Connection) -> bool:
        return conn in self.relays

    async def relay(self, conn: Connection, owner: str, table_id: str, hello: str) -> None:
        """From now on ``conn`` talks to ``table_id`` on ``owner``, starting with its
        hello."""
        await self.unrelay(conn)
        if conn.table is not None:
            conn.table.detach(conn)
        relay = Relay(str(next(self._ids)), conn, table_id, owner, hello)
        self.relays[conn] = relay
        self.by_sri[relay.sri] = relay
        await self.node.publish(owner, ConnectSri(self.node.worker, relay.sri, conn.address, hello))

    async def forward(self, conn: Connection, text: str) -> None:
        relay = self.relays.get(conn)
        if relay is not None:
            m = TellSri(self.node.worker, relay.sri, conn.address, text)
            await self.node.publish(relay.owner, m)

    async def unrelay(self, conn: Connection) -> None:
        relay = self.relays.get(conn)
        if relay is not None:
            self._forget(relay)
            with contextlib.suppress(Exception):
                await self.node.publish(relay.owner, DisconnectSri(self.node.worker, relay.sri))

    def _forget(self, relay: Relay) -> None:
        self.relays.pop(relay.conn, None)
        self.by_sri.pop(relay.sri, None)

    def _outbound(self, m: WelcomeSri | TellSeat) -> None:
        relay = self.by_sri.get(m.sri)
        if relay is None or relay.owner != m.owner:
            return
        if isinstance(m, WelcomeSri):  # the owner seated this socket (None: a spectator)
            relay.seat = m.seat
            relay.conn.push(m.payload)
            return
        # A frame the owner made for a seat goes only to a socket welcomed as that seat.
        if m.seat is None or (relay.seat is not None and m.seat == relay.seat):
            relay.conn.push(m.payload)

    async def check_owners(self) -> None:
        """Sockets here whose table changed owner (its owner died): said hello again."""
        if not self.relays:
            return
        tables = sorted({r.table for r in self.relays.values()})
        owners = dict(zip(tables, await self.node.owners(tables), strict=True))
        for relay in list(self.relays.values()):
            owner = owners.get(relay.table)
            if owner != relay.owner and owner is not None:
                await self.reroute(relay)

    async def reroute(self, relay: Relay, wait: bool = False) -> None:
        """Say the relay's hello again, to whichever worker owns its table now (this one,
        adopting it, when nobody does)."""
        if self.by_sri.get(relay.sri) is not relay:
            return
        if wait:
            await asyncio.sleep(0.05)
        owner = await self.node.where(relay.table)
        if self.by_sri.get(relay.sri) is not relay:
            return
        if owner is None:
            self._forget(relay)
            await self.handler(relay.conn, relay.hello)
        elif owner != relay.owner or wait:
            relay.owner = owner
            hello = ConnectSri(self.node.worker, relay.sri, relay.conn.address, relay.hello)
            await self.node.publish(owner, hello)
