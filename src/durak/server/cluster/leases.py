"""Who owns each table: a lease ``durak:lease:<table>`` in Redis (the owner's id, a few
seconds long, renewed at every beat). When an owner dies its leases run out and any
worker adopts the table from the database. Redis is not the last word (a worker may
stall past its lease; Redis may lose its keys): the database is, through the table's
epoch (``store.Store.begin``), raised at each adoption and checked at every write."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from ...errors import DurakError
from ..store import StoreUnavailable
from ..table import LiveTable
from .node import Node
from .relay import RemoteConnection

log = logging.getLogger("durak.server")

# What an adoption came to (``Leases.adopt_or_not``).
HERE, TAKEN, GONE, MOVING = "here", "taken", "gone", "moving"

# Renew a lease if it is still ours, or take it again if it ran out and nobody took it
# meanwhile (this worker's beat came late): ARGV worker, milliseconds. 0: another has it.
RENEW_LUA = """
local held = redis.call('get', KEYS[1])
if held == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not held then
  redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
  return 1
end
return 0
"""

RELEASE_LUA = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class Moving(DurakError):
    """A live table that no worker can hold right now (its lease is settling): the
    client is to ask again shortly (a WebSocket error ``moving``, HTTP 503)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id[:64]!r} is moving between workers; try again")


def lease_key(table_id: str) -> str:
    return f"durak:lease:{table_id}"


class Leases:
    """This worker's leases: taking, renewing, releasing, and what it holds."""

    def __init__(self, node: Node, lease: float, clock: Callable[[], float]) -> None:
        """``lease``: seconds; ``clock``: seconds, monotonic (a test's own: ``holds``)."""
        self.node = node
        self.ms = int(lease * 1000)
        self.clock = clock
        self._renew = node.redis.register_script(RENEW_LUA)
        self._release = node.redis.register_script(RELEASE_LUA)
        self.adopting: dict[str, asyncio.Future[str]] = {}  # table -> its adoption's end
        self.since: dict[str, float] = {}  # table -> when this worker first held it
        # table -> when (``clock``) the last setting or renewal of its lease that took
        # was sent: the lease is surely this worker's until a lease after that.
        self.held_at: dict[str, float] = {}
        self.reloading: set[str] = set()

    async def release(self, table_id: str) -> None:
        """Let ``table_id``'s lease go, if it is still this worker's."""
        await self._release(keys=[lease_key(table_id)], args=[self.node.worker])

    async def where(self, table_id: str) -> str | None:
        """The worker that owns ``table_id``, or None when this one does (adopting it
        if nobody does) or no live table has that id. Raises ``Moving`` while the table
        is live but cannot be held by anyone right now (its lease settling: its last
        owner's row lock not yet released, Redis just emptied): ask again shortly."""
        lobby, redis = self.node.lobby, self.node.redis
        if table_id in lobby.tables or len(table_id) > 64:
            return None
        owner = await redis.get(lease_key(table_id))
        if owner is not None and owner != self.node.worker:
            return str(owner)
        got = await self.adopt_or_not(table_id)
        if got == TAKEN:  # another worker set the lease first
            owner = await redis.get(lease_key(table_id))
            if owner is None or owner == self.node.worker:
                raise Moving(table_id)
            return str(owner)
        if got == MOVING:
            raise Moving(table_id)
        return None

    async def adopt_or_not(self, table_id: str) -> str:
        """Take ``table_id`` if nobody holds it and the database has it live, saying
        what came of it: ``HERE`` (held here now), ``TAKEN`` (another worker set its
        lease first), ``GONE`` (no live table of that id), ``MOVING`` (live, but it
        cannot be taken now: its row is locked by a worker that stalled inside a write,
        until PostgreSQL ends that session; or the database is busy). Hellos for a table
        being adopted here wait for that adoption."""
        if table_id in self.node.lobby.tables:
            return HERE
        waiting = self.adopting.get(table_id)
        if waiting is not None:
            return await asyncio.shield(waiting)
        done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.adopting[table_id] = done
        got = GONE
        try:
            got = await self._take(table_id)
            return got
        finally:
            done.set_result(got)
            del self.adopting[table_id]

    async def _take(self, table_id: str) -> str:
        node, r = self.node, self.node.redis
        # A table not listed is not live, unless Redis lost the list (the marker gone
        # with it): then the database answers.
        if not await r.sismember("durak:tables", table_id) and await r.exists("durak:seeded"):
            return GONE
        key = lease_key(table_id)
        at = self.clock()
        if not await r.set(key, node.worker, nx=True, px=self.ms):
            return TAKEN
        try:
            t = await node.lobby.adopt(table_id)
        except StoreUnavailable as e:
            log.info("worker %s: table %s not taken yet: %s", node.worker, table_id, e)
            await self.release(table_id)
            return MOVING
        if t is None:
            await r.srem("durak:tables", table_id)
            await self.release(table_id)
            return GONE
        self.since[table_id] = time.time()
        self.held_at[table_id] = at
        await node.publish_live([t])
        log.info("worker %s adopted table %s", node.worker, table_id)
        return HERE

    async def created(self, t: LiveTable) -> None:
        at = self.clock()
        await self.node.redis.set(lease_key(t.id), self.node.worker, px=self.ms)
        self.held_at[t.id] = at
        await self.node.redis.sadd("durak:tables", t.id)
        self.since[t.id] = time.time()
        await self.node.publish_live([t])

    async def closed(self, table_id: str) -> None:
        self.held_at.pop(table_id, None)
        await self.node.redis.srem("durak:tables", table_id)
        await self.node.redis.hdel(f"durak:live:{self.node.worker}", table_id)
        await self.release(table_id)
        self.since.pop(table_id, None)

    def fenced(self, table_id: str) -> None:
        """Another worker took over a table held here (a write of it was fenced off: its
        epoch moved on, as when Redis lost its leases and two workers each thought the
        table theirs). Let go at once, before anything more of it is sent: sockets
        relayed from other workers are told it moved (their edges ask again where it
        is, and find the new owner), this worker's own sockets are closed (the pages
        connect again, to whichever worker); then it is dropped and its lease, if it
        is still this worker's, released."""
        node = self.node
        t = node.lobby.tables.pop(table_id, None)
        self.held_at.pop(table_id, None)
        if t is None:
            return
        log.warning("worker %s: table %s was taken over by another", node.worker, table_id)
        for c in list(t.conns):  # (closed: whatever the table still pushes is dropped)
            if isinstance(c, RemoteConnection):
                c.moved = True
            c.stop()
        self.since.pop(table_id, None)

        async def let_go() -> None:
            await t.close()
            await node.redis.hdel(f"durak:live:{node.worker}", table_id)
            await self.release(table_id)

        node.spawn(let_go())

    def holds(self, table_id: str) -> bool:
        """Whether this worker surely still holds ``table_id``'s lease: one of its
        settings or renewals took less than a lease ago. Not so after a stall past the
        lease (the process stopped, the machine starved): until a beat renews it, what
        the table was sent meanwhile (chat) is not shown, since another worker may have
        taken the table over and its players gone there."""
        at = self.held_at.get(table_id)
        return at is not None and self.clock() - at < self.ms / 1000

    def outdated(self, table_id: str) -> None:
        """Another worker stored a move of a table held here (it stalled past its lease
        and wrote before it noticed): load the table again from the database, as a new
        owner would; its sockets say hello again."""
        if table_id not in self.reloading:
            self.reloading.add(table_id)
            self.node.spawn(self._reload(table_id))

    async def _reload(self, table_id: str) -> None:
        node, lobby = self.node, self.node.lobby
        # Hellos that come meanwhile wait for the table (see adopt_or_not).
        done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.adopting[table_id] = done
        try:
            t = lobby.tables.get(table_id)
            if t is None:
                return
            log.warning("worker %s: table %s is behind its database", node.worker, table_id)
            here = []  # this worker's own sockets: kept open, seated again below
            for c in list(t.conns):
                if isinstance(c, RemoteConnection):
                    c.moved = True  # their edges say hello again, to whoever owns it
                else:
                    here.append((c, c.seat, c.token_hash))
                    t.detach(c)
            await lobby.drop(table_id)
            fresh = None
            if await node.redis.get(lease_key(table_id)) == node.worker:
                fresh = await lobby.adopt(table_id)
            for c, seat, token_hash in here:
                if fresh is None:
                    c.stop()  # the page connects again, to whoever owns the table
                    continue
                held = seat is not None and fresh.seats[seat].token_hash == token_hash
                fresh.attach(c, seat if held else None, token_hash if held else None)
        finally:
            done.set_result(HERE if table_id in lobby.tables else MOVING)
            del self.adopting[table_id]
            self.reloading.discard(table_id)

    async def renew(self) -> None:
        """Renew every lease of this worker's tables; a table whose lease another worker
        took (this one stalled past it) is let go."""
        node, lobby = self.node, self.node.lobby
        ids = list(lobby.tables)
        if not ids:
            return
        at = self.clock()
        async with node.redis.pipeline(transaction=False) as p:
            for i in ids:
                await self._renew(keys=[lease_key(i)], args=[node.worker, self.ms], client=p)
            kept = await p.execute()
        for table_id, ok in zip(ids, kept, strict=True):
            if ok:
                self.held_at[table_id] = at
                continue
            self.held_at.pop(table_id, None)
            # Another worker took it (this one stalled past its lease): let it go.
            log.warning("worker %s lost the lease of table %s", node.worker, table_id)
            t = lobby.tables.get(table_id)
            if t is not None:
                for c in t.conns:
                    if isinstance(c, RemoteConnection):
                        c.moved = True
            await lobby.drop(table_id)
            self.since.pop(table_id, None)

    async def adopt_free(self) -> None:
        """Adopt the live tables whose leases nobody holds."""
        ids = sorted(str(i) for i in await self.node.redis.smembers("durak:tables"))
        if not ids:
            return
        owners = await self.node.redis.mget([lease_key(i) for i in ids])
        for table_id, owner in zip(ids, owners, strict=True):
            if owner is None and table_id not in self.adopting:
                # Not awaited: a takeover may wait for a stalled owner's row lock, and
                # the beat must go on renewing this worker's own leases meanwhile.
                self.node.spawn(self._adopt_logged(table_id))

    async def _adopt_logged(self, table_id: str) -> None:
        try:
            await self.adopt_or_not(table_id)
        except Exception:
            log.exception("worker %s: adopting table %s failed", self.node.worker, table_id)
