"""Several workers behind one address: tables owned by leases in Redis, sockets relayed
over Redis pub/sub, limits counted in Redis, everything else in the shared database
(docs/scale.md has the picture).

Two implementations of one interface, chosen once in ``app.create_app``:

- ``Local``: one process holds every table (``durak serve``, the default). Nothing
  crosses a process; this is the path the server always had.
- ``RedisCluster``: one of several workers (``durak serve --redis URL --db
  postgresql://...``, or ``--workers N`` on one machine). Each table is *owned* by one
  worker at a time: a lease ``durak:lease:<table>`` (the owner's id, a few seconds
  long, renewed every second). A browser may connect to any worker (the *edge*): its
  frames go to the owner on the owner's channel ``durak:w:<worker>``, and what the owner
  sends that socket comes back on the edge's channel, tagged with the seat the owner
  built it for. The edge forwards a frame tagged with a seat only to the socket the
  owner welcomed as that seat, so a seat's private view never reaches another socket.
  When an owner dies its leases run out; any worker then adopts the table from the
  database (every confirmed action was stored before anyone was told of it, so a replay
  gives back the game, its seats and tokens, and its turn clock from the stored time of
  the last move), and the edges send their sockets' hellos to the new owner.

Redis is not the last word on who owns a table (a worker may stall past its lease;
Redis may lose its keys): the database is. Each adoption raises the table's epoch in
the database, and every write of the table checks it (``store.Store.begin``), so of two
workers that both hold a table only the one that took it last can store anything; the
other lets the table go as soon as a write of it is refused (``RedisCluster.fenced``).

Frames on a worker's channel are ``kind``, then fields, separated by NUL (no JSON
around JSON): ``hello`` (edge -> owner: a client's hello, which opens the socket on the
owner), ``in`` (edge -> owner: a client's other frames), ``bye`` (edge -> owner: the
socket left), ``hi`` (owner -> edge: the welcome, with the seat it gives the socket),
``out`` (owner -> edge: a frame for a socket, with its seat), ``drop``
(owner -> edge: close the socket), ``moved`` (owner -> edge: the table left this
worker; ask again), ``rpc``/``ret`` (an HTTP request about a table, run by its owner).
``out``, ``drop`` and ``moved`` name their sender: an edge takes them only from the
socket's present owner (a worker that stalled past its lease may still send some).

>>> split_frame(frame("out", "w.1a2b3c", "7", "", '{"type": "pong"}'), 5)
['out', 'w.1a2b3c', '7', '', '{"type": "pong"}']
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import ArgumentError, DurakError, UsageError
from .limits import Bucket, Guard, Limits, Tally
from .lobby import Lobby, LobbyError
from .logins import Lockout, Logins
from .store import StoreUnavailable
from .table import Connection, LiveTable

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("durak.server")

# What a client's frame is handed to on the worker that owns its table (app.py's
# message handling: hello, act, claim, chat...). Written out here so that this module
# does not import the app, which imports it.
Handler = Callable[[Connection, str], Awaitable[object]]

# How long a table's lease lasts unless renewed (``durak serve --lease``). A worker beats
# (renews its leases, looks for free tables) six times a lease, and is gone when it has
# not beaten for 5/3 of a lease.
LEASE_SECONDS = 3.0
# How long a worker told to stop (SIGTERM) waits for its database and Redis before it
# leaves anyway (``durak serve --drain``): first for its sockets' requests to end, then
# for its tables' writes. What it could not store then is logged, and it exits with 1.
DRAIN_SECONDS = 5.0
CALL_SECONDS = 5.0  # how long an edge waits for the owner to answer a request
REDIS_CONNECTIONS = 32  # a worker's connections to Redis (its pub/sub listener aside)
REDIS_SECONDS = 3.0  # the longest a worker waits on one call to Redis
SEP = "\x00"
# What an adoption came to (``RedisCluster.adopt_or_not``).
HERE, TAKEN, GONE, MOVING = "here", "taken", "gone", "moving"


def services_down() -> tuple[type[BaseException], ...]:
    """The errors that mean the cluster's services do not answer: a request that meets
    one is answered 503 with Retry-After (``app``)."""
    try:
        from redis.exceptions import RedisError
    except ImportError:  # (one process without the cluster's extra)
        return (StoreUnavailable,)
    return (StoreUnavailable, RedisError)


class Moving(DurakError):
    """A live table that no worker can hold right now (its lease is settling): the
    client is to ask again shortly (a WebSocket error ``moving``, HTTP 503)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id[:64]!r} is moving between workers; try again")


def frame(kind: str, *parts: str) -> str:
    """One message on a worker's channel."""
    return SEP.join((kind, *parts))


def split_frame(text: str, n: int) -> list[str]:
    """A frame's ``n`` parts (the last may hold NULs of its own: it is a client's text)."""
    return text.split(SEP, n - 1)


class Local:
    """One process: every table is held here. ``where`` always answers here (None)."""

    worker = "local"

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.lobby: Lobby | None = None

    def guard(self) -> Guard:
        return Guard(self.limits)

    def logins(self) -> Logins:
        return Logins(self.limits)

    async def start(self, lobby: Lobby, handle: Handler) -> None:
        self.lobby = lobby
        n = await lobby.restore()
        if n:
            log.info("restored %d tables", n)

    async def stop(self) -> list[str]:
        """Stop every table and store all there is to store: one process waits as long
        as that takes (SQLite's own lock timeout bounds each write), and leaves as it
        always did; a write its tables were still retrying is logged (a restart records
        a deal's end from the stored actions). Returns nothing left to report."""
        if self.lobby is not None:
            for what in await self.lobby.close():
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

    async def table_op(  # noqa: PLR0913 - one request's parts, as Lobby.op takes them
        self,
        name: str,
        table_id: str,
        body: dict[str, Any],
        account_id: int | None,
        address: str | None,
        guesser: bool,
    ) -> dict[str, Any]:
        assert self.lobby is not None
        return await self.lobby.op(name, table_id, body, account_id, address, guesser)

    async def summaries(self, offset: int, limit: int) -> dict[str, Any]:
        assert self.lobby is not None
        return self.lobby.summaries(offset, limit)


# -- Redis ---------------------------------------------------------------------------

# A token bucket per key, on Redis's clock (workers' clocks may differ): ARGV rate,
# burst, cost (1: take a token, 0: only look). Returns 1 when a token was there.
BUCKET_LUA = """
local t = redis.call('time')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local rate, burst, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('hmget', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
if tokens < 1 then return 0 end
if cost > 0 then
  redis.call('hset', KEYS[1], 'tokens', tostring(tokens - cost), 'at', tostring(now))
  redis.call('pexpire', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
end
return 1
"""

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

# One more of something a key holds (an address's open sockets, its bots thinking) if
# the live workers' counts leave room and no one waits ahead: KEYS[1] the key's hash
# (worker -> its count), KEYS[2] its line (a sorted set of waiters "worker|n" by the
# time they came); ARGV limit, this worker, this waiter ("" for none: not put in line).
# A worker is live while its key durak:worker:<id> is there: looked up here, in the
# same step, so a worker that has just started counts at once, on every worker; the
# count of a worker that is gone is not summed, and its waiters leave the line.
TAKE_LUA = """
local function live(w) return redis.call('exists', 'durak:worker:' .. w) == 1 end
local n = 0
local counts = redis.call('hgetall', KEYS[1])
for i = 1, #counts, 2 do
  if counts[i] == ARGV[2] or live(counts[i]) then n = n + tonumber(counts[i + 1]) end
end
local free = tonumber(ARGV[1]) - n
if free > 0 then
  local ahead = 0
  for _, m in ipairs(redis.call('zrange', KEYS[2], 0, -1)) do
    if m == ARGV[3] then break end
    local w = string.match(m, '^(.*)|')
    if w == ARGV[2] or live(w) then ahead = ahead + 1
    else redis.call('zrem', KEYS[2], m) end
  end
  if ahead < free then
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('expire', KEYS[1], 86400)
    if ARGV[3] ~= '' then redis.call('zrem', KEYS[2], ARGV[3]) end
    return 1
  end
end
if ARGV[3] ~= '' then
  local t = redis.call('time')
  redis.call('zadd', KEYS[2], 'NX', tonumber(t[1]) * 1000000 + tonumber(t[2]), ARGV[3])
  redis.call('expire', KEYS[2], 3600)
end
return 0
"""


# One fewer of what KEYS[1]'s key holds on worker ARGV[1], in one step: between a
# decrement and a separate delete, a take could count one that the delete then forgets.
GIVE_LUA = """
if redis.call('hincrby', KEYS[1], ARGV[1], -1) <= 0 then redis.call('hdel', KEYS[1], ARGV[1]) end
return 1
"""


class SharedBucket(Bucket):
    """A token bucket every worker spends from: its state is a Redis hash per key."""

    def __init__(self, redis: Redis, name: str, rate: float, burst: int) -> None:
        super().__init__(rate, burst)
        self.redis, self.name = redis, name
        self._script = redis.register_script(BUCKET_LUA)

    async def _ask(self, key: str, cost: int) -> bool:
        got = await self._script(
            keys=[f"durak:rate:{self.name}:{key}"], args=[self.rate, self.burst, cost]
        )
        return bool(got)

    async def acquire(self, key: str) -> bool:
        return await self._ask(key, 1)

    async def available(self, key: str) -> bool:
        return await self._ask(key, 0)


# A wrong password for KEYS[1]: ARGV after, first, most; returns the lock's seconds.
MISS_LUA = """
local t = redis.call('time')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local after, first, most = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local misses = (tonumber(redis.call('hget', KEYS[1], 'misses')) or 0) + 1
local lock = 0
if misses >= after then lock = math.min(most, first * 2 ^ (misses - after)) end
redis.call('hset', KEYS[1], 'misses', misses, 'until', tostring(now + lock))
redis.call('expire', KEYS[1], 86400)
return tostring(lock)
"""

LOCKED_LUA = """
local t = redis.call('time')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local til = tonumber(redis.call('hget', KEYS[1], 'until')) or 0
return tostring(math.max(0, til - now))
"""


class SharedLockout(Lockout):
    """Wrong passwords in a row per account name, counted over every worker."""

    def __init__(self, redis: Redis, after: int, first: float, most: float) -> None:
        super().__init__(after, first, most)
        self.redis = redis
        self._miss = redis.register_script(MISS_LUA)
        self._locked = redis.register_script(LOCKED_LUA)

    async def locked_for(self, key: str) -> float:
        return float(await self._locked(keys=[f"durak:lock:{key}"]))

    async def missed(self, key: str) -> float:
        args = [self.after, self.first, self.most]
        return float(await self._miss(keys=[f"durak:lock:{key}"], args=args))

    async def passed(self, key: str) -> None:
        await self.redis.delete(f"durak:lock:{key}")


class SharedTally(Tally):
    """How many of something each key holds at once, over every worker: a Redis hash per
    key (worker -> its count), of which only the live workers' counts are summed, so the
    places a worker held are free again once it is gone (its beat stopped); those who
    wait stand in one line in Redis, in the order they came, whichever worker they are
    on."""

    poll = 0.05  # seconds between two looks while waiting (each is a round trip)

    def __init__(self, cluster: RedisCluster, name: str, limit: int) -> None:
        super().__init__(limit)
        self.cluster, self.name = cluster, name
        self._take = cluster.redis.register_script(TAKE_LUA)
        self._give = cluster.redis.register_script(GIVE_LUA)
        self._waiters = itertools.count(1)

    def key(self, key: str) -> str:
        return f"durak:{self.name}:{key}"

    async def _ask(self, key: str, waiter: str) -> bool:
        c = self.cluster
        got = await self._take(
            keys=[self.key(key), self.key(key) + ":line"],
            args=[self.limit, c.worker, waiter],
        )
        return bool(got)

    async def acquire(self, key: str) -> bool:
        return await self._ask(key, "")

    async def release(self, key: str) -> None:
        await self._give(keys=[self.key(key)], args=[self.cluster.worker])

    async def wait(self, key: str, seconds: float) -> bool:
        waiter = f"{self.cluster.worker}|{next(self._waiters)}"
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        got = False
        try:
            while not (got := await self._ask(key, waiter)):
                if loop.time() >= end:
                    return False
                await asyncio.sleep(self.poll)
            return True
        finally:
            if not got:  # out of the line (given up, or cancelled)
                with contextlib.suppress(Exception):
                    await self.cluster.redis.zrem(self.key(key) + ":line", waiter)


class SharedGuard(Guard):
    """The limits of one address over every worker: buckets and open sockets in Redis."""

    def __init__(self, limits: Limits, cluster: RedisCluster) -> None:
        redis = cluster.redis
        super().__init__(limits, lambda name, rate, burst: SharedBucket(redis, name, rate, burst))
        self.sockets = SharedTally(cluster, "sockets", limits.connections_per_address)


class RemoteConnection(Connection):
    """On the owner: a socket held by another worker (the edge). What the table pushes to
    it is tagged with the seat it was made for, at the moment it is pushed, and goes out
    on the edge's channel in order; the frames the client sends arrive in ``inbox``."""

    def __init__(self, cluster: RedisCluster, edge: str, cid: str, address: str) -> None:
        super().__init__(self._publish, self._closed, address)
        self.cluster, self.edge, self.cid = cluster, edge, cid
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.moved = False  # the table left this worker: the edge is to ask again
        self.silent = False  # the edge said bye: nothing more to tell it

    def push(self, text: str) -> None:
        seat = "" if self.seat is None else str(self.seat)
        super().push(frame("out", self.cluster.worker, self.cid, seat, text))

    def welcome(self, text: str, seat: int | None) -> None:
        # (in the outbox's order, as every frame: kind "hi" names the seat welcomed)
        tag = "" if seat is None else str(seat)
        Connection.push(self, frame("hi", self.cluster.worker, self.cid, tag, text))

    async def _publish(self, text: str) -> None:
        await self.cluster.publish(self.edge, text)

    async def _closed(self) -> None:
        self.inbox.put_nowait(None)  # its reader ends and forgets it
        if not self.silent:
            await self.cluster.publish(
                self.edge,
                frame("moved" if self.moved else "drop", self.cluster.worker, self.cid),
            )


@dataclass
class Relay:
    """On the edge: a local socket whose table another worker owns."""

    cid: str
    conn: Connection
    table: str
    owner: str
    hello: str  # the client's hello, said again to a new owner after a failover
    seat: int | None = None  # as the owner's welcome named it


class RedisCluster:
    """One worker of several (see the module's docstring)."""

    def __init__(
        self,
        url: str,
        limits: Limits,
        worker: str | None = None,
        lease: float = LEASE_SECONDS,
        drain: float = DRAIN_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``clock``: seconds, monotonic (a test gives its own: ``holds``)."""
        from redis.asyncio import BlockingConnectionPool, Redis

        if lease < 1.0:
            raise ArgumentError(f"a lease of {lease:g} s: at least 1 s")
        if not drain > 0:
            raise ArgumentError(f"a drain of {drain:g} s: more than 0 s")
        self.drain = drain
        self.lease_ms = int(lease * 1000)
        self.beat = lease / 6
        self.worker_ms = int(lease * 5 / 3 * 1000)
        self.url = url
        self.limits = limits
        # Each process its own id, even restarted under the same name: an edge must see
        # that the owner of its sockets' table changed.
        self.worker = f"{worker or 'w'}.{secrets.token_hex(3)}"
        # A bounded pool that waits for a free connection (the default one raises when
        # many sockets' frames go out at once).
        # Every call bounded (a Redis that hangs must not hang a request: it is answered
        # 503, app.DOWN), a connection waited for as long.
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_SECONDS,
            socket_timeout=REDIS_SECONDS,
            socket_connect_timeout=REDIS_SECONDS,
            decode_responses=True,
        )
        self.redis: Redis = Redis(connection_pool=pool)
        self._renew = self.redis.register_script(RENEW_LUA)
        self._release = self.redis.register_script(RELEASE_LUA)
        self.lobby: Lobby | None = None
        self.handle: Handler | None = None
        self.live_workers: list[str] = [self.worker]
        self.remote: dict[tuple[str, str], RemoteConnection] = {}
        self.relays: dict[Connection, Relay] = {}
        self.by_cid: dict[str, Relay] = {}
        self.calls: dict[str, asyncio.Future[tuple[int, Any]]] = {}
        self.adopting: dict[str, asyncio.Future[str]] = {}  # table -> its adoption's end
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[Any]] = set()
        self.since: dict[str, float] = {}  # table -> when this worker first held it
        # table -> when (``clock``) the last setting or renewal of its lease that took
        # was sent: the lease is surely this worker's until a lease after that.
        self.held_at: dict[str, float] = {}
        self.clock = clock
        self.reloading: set[str] = set()

    def guard(self) -> Guard:
        return SharedGuard(self.limits, self)

    def share(self, lobby: Lobby) -> None:
        """Count ``lobby``'s bots thinking and hints searched per address over every
        worker (``Limits.bots_per_address``, ``hints_per_address``), not per process."""
        lobby.bot_slots = SharedTally(self, "bots", self.limits.bots_per_address)
        lobby.hint_slots = SharedTally(self, "hints", self.limits.hints_per_address)

    def logins(self) -> Logins:
        lim, redis = self.limits, self.redis
        return Logins(
            lim,
            lambda name, rate, burst: SharedBucket(redis, name, rate, burst),
            SharedLockout(redis, lim.lock_after, lim.lock_first, lim.lock_max),
        )

    # -- keys ----------------------------------------------------------------------
    @staticmethod
    def lease_key(table_id: str) -> str:
        return f"durak:lease:{table_id}"

    def channel(self, worker: str) -> str:
        return f"durak:w:{worker}"

    async def publish(self, worker: str, text: str) -> None:
        await self.redis.publish(self.channel(worker), text)

    # -- life ----------------------------------------------------------------------
    async def start(self, lobby: Lobby, handle: Handler) -> None:
        """Join the cluster: listen on this worker's channel, beat, and adopt the tables
        nobody holds (those the database has, too: the first worker after a full stop
        brings them back)."""
        self.lobby, self.handle = lobby, handle
        lobby.registry = self
        lobby.fencing = True  # every adoption takes a new epoch; stale writes are refused
        self.share(lobby)
        lobby.start_watch()
        # (listed before the first beat, which would otherwise find the list missing and
        # warn that Redis lost it)
        await self._seed_tables()
        await self._beat_once()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.channel(self.worker))
        self._tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._beats()),
        ]
        log.info("worker %s joined the cluster at %s", self.worker, self.url)

    async def stop(self) -> list[str]:
        """Leave: the tables held here are let go at once (their leases deleted), so
        other workers adopt them without waiting for the leases to run out. Within
        ``drain`` seconds, whatever the database and Redis do: what could not be stored
        by then is logged and returned (a worker must not hang on a database or a Redis
        that stopped answering; every action a player was shown was stored before it
        was shown, and the next owner records a deal's end from the stored actions)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + self.drain

        def left() -> float:
            return max(0.0, end - loop.time())

        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=left())
        unstored: list[str] = []
        lobby = self.lobby
        if lobby is not None:
            ids = list(lobby.tables)
            for rc in self.remote.values():
                rc.moved = True
            # Every table stopped and every write done (the database thread is drained)
            # before the leases go: the next owner must load everything this one stored.
            # (A write still running after the deadline is fenced: its table's next owner
            # takes a new epoch first, Store.take_table.)
            unstored = await lobby.close(left())
            with contextlib.suppress(Exception):
                async with asyncio.timeout(left()):
                    for table_id in ids:
                        await self._release(keys=[self.lease_key(table_id)], args=[self.worker])
        with contextlib.suppress(Exception):
            async with asyncio.timeout(left()):
                await self.redis.delete(f"durak:worker:{self.worker}", f"durak:live:{self.worker}")
                await self.redis.srem("durak:workers", self.worker)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(max(0.1, left())):
                await self.redis.aclose()
        if unstored:
            log.error(
                "worker %s: stopped after %g s without storing: %s",
                self.worker,
                self.drain,
                "; ".join(unstored),
            )
        return unstored

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    # -- ownership -------------------------------------------------------------------
    async def where(self, table_id: str) -> str | None:
        """The worker that owns ``table_id``, or None when this one does (adopting it
        if nobody does) or no live table has that id. Raises ``Moving`` while the table
        is live but cannot be held by anyone right now (its lease settling: its last
        owner's row lock not yet released, Redis just emptied): ask again shortly."""
        lobby = self.lobby
        assert lobby is not None
        if table_id in lobby.tables or len(table_id) > 64:
            return None
        owner = await self.redis.get(self.lease_key(table_id))
        if owner is not None and owner != self.worker:
            return str(owner)
        got = await self.adopt_or_not(table_id)
        if got == TAKEN:  # another worker set the lease first
            owner = await self.redis.get(self.lease_key(table_id))
            if owner is None or owner == self.worker:
                raise Moving(table_id)
            return str(owner)
        if got == MOVING:
            raise Moving(table_id)
        return None

    async def adopt(self, table_id: str) -> bool:
        """Take ``table_id`` if nobody holds it and the database has it live; True if
        this worker holds it now."""
        return await self.adopt_or_not(table_id) == HERE

    async def adopt_or_not(self, table_id: str) -> str:
        """``adopt``, saying why not: ``HERE`` (held here now), ``TAKEN`` (another
        worker set its lease first), ``GONE`` (no live table of that id), ``MOVING``
        (live, but it cannot be taken now: its row is locked by a worker that stalled
        inside a write, until PostgreSQL ends that session; or the database is busy).
        Hellos for a table being adopted here wait for that adoption."""
        lobby = self.lobby
        assert lobby is not None
        if table_id in lobby.tables:
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
        lobby = self.lobby
        assert lobby is not None
        r = self.redis
        # A table not listed is not live, unless Redis lost the list (the marker gone
        # with it): then the database answers.
        if not await r.sismember("durak:tables", table_id) and await r.exists("durak:seeded"):
            return GONE
        key = self.lease_key(table_id)
        at = self.clock()
        if not await r.set(key, self.worker, nx=True, px=self.lease_ms):
            return TAKEN
        try:
            t = await lobby.adopt(table_id)
        except StoreUnavailable as e:
            log.info("worker %s: table %s not taken yet: %s", self.worker, table_id, e)
            await self._release(keys=[key], args=[self.worker])
            return MOVING
        if t is None:
            await r.srem("durak:tables", table_id)
            await self._release(keys=[key], args=[self.worker])
            return GONE
        self.since[table_id] = time.time()
        self.held_at[table_id] = at
        await self._publish_live([t])
        log.info("worker %s adopted table %s", self.worker, table_id)
        return HERE

    # Registry (lobby.Registry): live tables counted over every worker.
    async def created(self, t: LiveTable) -> None:
        at = self.clock()
        await self.redis.set(self.lease_key(t.id), self.worker, px=self.lease_ms)
        self.held_at[t.id] = at
        await self.redis.sadd("durak:tables", t.id)
        self.since[t.id] = time.time()
        await self._publish_live([t])

    async def closed(self, table_id: str) -> None:
        self.held_at.pop(table_id, None)
        await self.redis.srem("durak:tables", table_id)
        await self.redis.hdel(f"durak:live:{self.worker}", table_id)
        await self._release(keys=[self.lease_key(table_id)], args=[self.worker])
        self.since.pop(table_id, None)

    def fenced(self, table_id: str) -> None:
        """Another worker took over a table held here (a write of it was fenced off: its
        epoch moved on, as when Redis lost its leases and two workers each thought the
        table theirs). Let go at once, before anything more of it is sent: sockets
        relayed from other workers are told it moved (their edges ask again where it
        is, and find the new owner), this worker's own sockets are closed (the pages
        connect again, to whichever worker); then it is dropped and its lease, if it
        is still this worker's, released."""
        lobby = self.lobby
        assert lobby is not None
        t = lobby.tables.pop(table_id, None)
        self.held_at.pop(table_id, None)
        if t is None:
            return
        log.warning("worker %s: table %s was taken over by another", self.worker, table_id)
        for c in list(t.conns):  # (closed: whatever the table still pushes is dropped)
            if isinstance(c, RemoteConnection):
                c.moved = True
            c.stop()
        self.since.pop(table_id, None)

        async def let_go() -> None:
            await t.close()
            await self.redis.hdel(f"durak:live:{self.worker}", table_id)
            await self._release(keys=[self.lease_key(table_id)], args=[self.worker])

        self._spawn(let_go())

    async def _seed_tables(self) -> None:
        """The live tables of the database listed in Redis (``durak:tables``), so that
        those nobody holds are adopted: when a worker starts, and again whenever Redis
        lost the list (flushed, or restarted without persistence)."""
        lobby = self.lobby
        assert lobby is not None
        ids = await lobby.store.run(lobby.store.store.live_table_ids)
        async with self.redis.pipeline(transaction=True) as p:
            if ids:
                p.sadd("durak:tables", *ids)
            p.set("durak:seeded", "1")
            await p.execute()

    def holds(self, table_id: str) -> bool:
        """Whether this worker surely still holds ``table_id``'s lease: one of its
        settings or renewals took less than a lease ago. Not so after a stall past the
        lease (the process stopped, the machine starved): until a beat renews it, what
        the table was sent meanwhile (chat) is not shown, since another worker may have
        taken the table over and its players gone there."""
        at = self.held_at.get(table_id)
        return at is not None and self.clock() - at < self.lease_ms / 1000

    def outdated(self, table_id: str) -> None:
        """Another worker stored a move of a table held here (it stalled past its lease
        and wrote before it noticed): load the table again from the database, as a new
        owner would; its sockets say hello again."""
        if table_id not in self.reloading:
            self.reloading.add(table_id)
            self._spawn(self._reload(table_id))

    async def _reload(self, table_id: str) -> None:
        lobby = self.lobby
        assert lobby is not None
        # Hellos that come meanwhile wait for the table (see adopt).
        done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.adopting[table_id] = done
        try:
            t = lobby.tables.get(table_id)
            if t is None:
                return
            log.warning("worker %s: table %s is behind its database", self.worker, table_id)
            here = []  # this worker's own sockets: kept open, seated again below
            for c in list(t.conns):
                if isinstance(c, RemoteConnection):
                    c.moved = True  # their edges say hello again, to whoever owns it
                else:
                    here.append((c, c.seat, c.token_hash))
                    t.detach(c)
            await lobby.drop(table_id)
            fresh = None
            if await self.redis.get(self.lease_key(table_id)) == self.worker:
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

    async def _live_entries(self) -> list[dict[str, Any]]:
        """The live tables every worker listed at its last beat, each once (a table just
        adopted from a worker that died may still be on the dead one's list)."""
        seen: dict[str, dict[str, str]] = {}  # table -> worker -> its entry
        for w in self.live_workers:
            for table_id, text in (await self.redis.hgetall(f"durak:live:{w}")).items():
                seen.setdefault(str(table_id), {})[w] = str(text)
        out = {key: json.loads(next(iter(by.values()))) for key, by in seen.items()}
        twice = sorted(key for key, by in seen.items() if len(by) > 1)
        if twice:  # the lease holder's entry is the one that counts
            owners = await self.redis.mget([self.lease_key(key) for key in twice])
            for key, owner in zip(twice, owners, strict=True):
                held = seen[key].get(str(owner))
                if held is not None:
                    out[key] = json.loads(held)
        return list(out.values())

    async def summaries(self, offset: int, limit: int) -> dict[str, Any]:
        """The public tables of every worker, newest first (each worker's list is at
        most a beat old; this worker's own is fresh)."""
        lobby = self.lobby
        assert lobby is not None
        entries = [e for e in await self._live_entries() if e["summary"] is not None]
        fresh = {t.id: t for t in lobby.tables.values()}
        listed = []
        for e in entries:
            t = fresh.get(e["summary"]["id"])
            listed.append((e["since"], t.summary() if t is not None else e["summary"]))
        listed.sort(key=lambda x: -float(x[0]))
        page = [s for _, s in listed[offset : offset + limit]]
        return {"tables": page, "total": len(listed), "offset": offset, "limit": limit}

    def _entry(self, t: LiveTable) -> str:
        return json.dumps(
            {
                "owner": t.owner,
                "status": t.status,
                "since": self.since.get(t.id, 0.0),
                "summary": t.summary() if t.invite_hash is None else None,
            }
        )

    async def _publish_live(self, tables: list[LiveTable]) -> None:
        if tables:
            key = f"durak:live:{self.worker}"
            await self.redis.hset(key, mapping={t.id: self._entry(t) for t in tables})
            await self.redis.pexpire(key, self.worker_ms + 1000)

    # -- the beat ------------------------------------------------------------------------
    async def _beats(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(self.beat)
            late = loop.time() - t - self.beat
            if late > self.lease_ms / 2000:
                log.warning("worker %s: its beat came %.1f s late", self.worker, late)
            try:
                t = loop.time()
                await self._beat_once()
                await self._renew_leases()
                await self._adopt_free()
                await self._check_relays()
                await self._check_edges()
                if loop.time() - t > self.lease_ms / 2000:
                    log.warning("worker %s: a beat took %.1f s", self.worker, loop.time() - t)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("worker %s: the beat failed; trying again", self.worker)

    async def _beat_once(self) -> None:
        r = self.redis
        lobby = self.lobby
        assert lobby is not None
        async with r.pipeline(transaction=True) as p:
            p.set(f"durak:worker:{self.worker}", "1", px=self.worker_ms)
            p.sadd("durak:workers", self.worker)
            key = f"durak:live:{self.worker}"
            p.delete(key)
            if lobby.tables:
                p.hset(key, mapping={t.id: self._entry(t) for t in lobby.tables.values()})
                p.pexpire(key, self.worker_ms + 1000)
                p.sadd("durak:tables", *lobby.tables)  # (again, if Redis lost it)
            p.exists("durak:seeded")
            seeded = (await p.execute())[-1]
        if not seeded:  # Redis lost its keys: the database's live tables listed again
            log.warning("worker %s: Redis lost the list of tables; listing it again", self.worker)
            await self._seed_tables()
        workers = sorted(str(w) for w in await r.smembers("durak:workers"))
        alive = await r.mget([f"durak:worker:{w}" for w in workers]) if workers else []
        self.live_workers = [w for w, a in zip(workers, alive, strict=True) if a is not None]
        gone = [w for w, a in zip(workers, alive, strict=True) if a is None]
        if gone:
            await r.srem("durak:workers", *gone)

    async def _renew_leases(self) -> None:
        lobby = self.lobby
        assert lobby is not None
        ids = list(lobby.tables)
        if not ids:
            return
        ms = self.lease_ms
        at = self.clock()
        async with self.redis.pipeline(transaction=False) as p:
            for i in ids:
                await self._renew(keys=[self.lease_key(i)], args=[self.worker, ms], client=p)
            kept = await p.execute()
        for table_id, ok in zip(ids, kept, strict=True):
            if ok:
                self.held_at[table_id] = at
            else:
                self.held_at.pop(table_id, None)
                # Another worker took it (this one stalled past its lease): let it go.
                log.warning("worker %s lost the lease of table %s", self.worker, table_id)
                t = lobby.tables.get(table_id)
                if t is not None:
                    for c in t.conns:
                        if isinstance(c, RemoteConnection):
                            c.moved = True
                await lobby.drop(table_id)
                self.since.pop(table_id, None)

    async def _adopt_free(self) -> None:
        ids = sorted(str(i) for i in await self.redis.smembers("durak:tables"))
        if not ids:
            return
        owners = await self.redis.mget([self.lease_key(i) for i in ids])
        for table_id, owner in zip(ids, owners, strict=True):
            if owner is None and table_id not in self.adopting:
                # Not awaited: a takeover may wait for a stalled owner's row lock, and
                # the beat must go on renewing this worker's own leases meanwhile.
                self._spawn(self._adopt_logged(table_id))

    async def _adopt_logged(self, table_id: str) -> None:
        try:
            await self.adopt(table_id)
        except Exception:
            log.exception("worker %s: adopting table %s failed", self.worker, table_id)

    async def _check_relays(self) -> None:
        """Sockets here whose table changed owner (its owner died): said hello again."""
        if not self.relays:
            return
        tables = sorted({r.table for r in self.relays.values()})
        owners = dict(
            zip(tables, await self.redis.mget([self.lease_key(t) for t in tables]), strict=True)
        )
        for relay in list(self.relays.values()):
            owner = owners.get(relay.table)
            if owner != relay.owner and owner is not None:
                await self._reroute(relay)

    async def _check_edges(self) -> None:
        """Sockets relayed from a worker that is gone: they left with it."""
        alive = set(self.live_workers)
        for key, rc in list(self.remote.items()):
            if rc.edge not in alive:
                self._bye(key)

    # -- the channel ---------------------------------------------------------------------
    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("worker %s: reading its channel failed", self.worker)
                await asyncio.sleep(0.5)
                continue
            if msg is None or msg.get("type") != "message":
                continue
            try:
                self._on_frame(str(msg["data"]))
            except Exception:
                log.exception("worker %s: a bad frame on its channel", self.worker)

    def _on_frame(self, text: str) -> None:
        kind = text.split(SEP, 1)[0]
        if kind in ("in", "hello"):
            _, edge, cid, address, raw = split_frame(text, 5)
            self._inbound(edge, cid, address, raw, kind == "hello")
        elif kind == "bye":
            _, edge, cid = split_frame(text, 3)
            self._bye((edge, cid))
        elif kind in ("out", "hi"):
            _, sender, cid, seat, raw = split_frame(text, 5)
            self._outbound(sender, cid, seat, raw, kind == "hi")
        elif kind in ("drop", "moved"):
            _, sender, cid = split_frame(text, 3)
            relay = self.by_cid.get(cid)
            # Only the socket's present owner speaks for it: a worker that lost the
            # table (it stalled, or reloaded it) may still send a last word.
            if relay is not None and relay.owner == sender:
                if kind == "drop":
                    self._forget(relay)
                    relay.conn.stop()
                else:
                    self._spawn(self._reroute(relay, wait=True))
        elif kind == "rpc":
            _, caller, rid, body = split_frame(text, 4)
            self._spawn(self._serve_call(caller, rid, json.loads(body)))
        elif kind == "ret":
            _, rid, status, body = split_frame(text, 4)
            fut = self.calls.pop(rid, None)
            if fut is not None and not fut.done():
                fut.set_result((int(status), json.loads(body)))

    # Owner side ----------------------------------------------------------------------
    def _inbound(self, edge: str, cid: str, address: str, raw: str, hello: bool) -> None:
        key = (edge, cid)
        rc = self.remote.get(key)
        if rc is not None and rc.closed:  # its table closed or left: a fresh start
            self._bye(key)
            rc = None
        if rc is None:
            if not hello:
                # This worker does not know the socket (it forgot an edge it thought
                # gone, or the table came here without it): the edge says hello again.
                self._spawn(self.publish(edge, frame("moved", self.worker, cid)))
                return
            rc = self.remote[key] = RemoteConnection(self, edge, cid, address)
            self._spawn(rc.writer())
            self._spawn(self._read(key, rc))
        rc.inbox.put_nowait(raw)

    async def _read(self, key: tuple[str, str], rc: RemoteConnection) -> None:
        handle = self.handle
        assert handle is not None
        while not rc.closed:
            raw = await rc.inbox.get()
            if raw is None:
                break
            try:
                await handle(rc, raw)
            except Exception:
                log.exception("worker %s: a relayed frame failed", self.worker)
        if self.remote.get(key) is rc:
            del self.remote[key]
        if rc.table is not None:
            rc.table.detach(rc)

    def _bye(self, key: tuple[str, str]) -> None:
        rc = self.remote.pop(key, None)
        if rc is not None:
            rc.silent = True
            if rc.table is not None:
                rc.table.detach(rc)
            rc.inbox.put_nowait(None)
            rc.stop()

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
        self.by_cid[relay.cid] = relay
        await self.publish(owner, frame("hello", self.worker, relay.cid, conn.address, hello))

    async def forward(self, conn: Connection, text: str) -> None:
        relay = self.relays.get(conn)
        if relay is not None:
            await self.publish(relay.owner, frame("in", self.worker, relay.cid, conn.address, text))

    async def unrelay(self, conn: Connection) -> None:
        relay = self.relays.get(conn)
        if relay is not None:
            self._forget(relay)
            with contextlib.suppress(Exception):
                await self.publish(relay.owner, frame("bye", self.worker, relay.cid))

    def _forget(self, relay: Relay) -> None:
        self.relays.pop(relay.conn, None)
        self.by_cid.pop(relay.cid, None)

    def _outbound(self, sender: str, cid: str, seat: str, raw: str, welcome: bool) -> None:
        relay = self.by_cid.get(cid)
        if relay is None or relay.owner != sender:
            return
        if welcome:  # the owner seated this socket (``seat``; "": a spectator)
            relay.seat = int(seat) if seat.isdigit() else None
            relay.conn.push(raw)
            return
        # A frame the owner made for a seat goes only to a socket welcomed as that seat.
        if seat == "" or (relay.seat is not None and seat == str(relay.seat)):
            relay.conn.push(raw)

    async def _reroute(self, relay: Relay, wait: bool = False) -> None:
        """Say the relay's hello again, to whichever worker owns its table now (this one,
        adopting it, when nobody does)."""
        if self.by_cid.get(relay.cid) is not relay:
            return
        if wait:
            await asyncio.sleep(0.05)
        owner = await self.where(relay.table)
        if self.by_cid.get(relay.cid) is not relay:
            return
        if owner is None:
            self._forget(relay)
            handle = self.handle
            assert handle is not None
            await handle(relay.conn, relay.hello)
        elif owner != relay.owner or wait:
            relay.owner = owner
            await self.publish(
                owner, frame("hello", self.worker, relay.cid, relay.conn.address, relay.hello)
            )

    # Requests about a table (HTTP) ------------------------------------------------------
    async def table_op(  # noqa: PLR0913 - one request's parts, as Lobby.op takes them
        self,
        name: str,
        table_id: str,
        body: dict[str, Any],
        account_id: int | None,
        address: str | None,
        guesser: bool,
    ) -> dict[str, Any]:
        """Run a request about ``table_id`` on its owner (here, or over Redis)."""
        lobby = self.lobby
        assert lobby is not None
        for _ in range(3):
            try:
                owner = await self.where(table_id)
            except Moving as e:
                raise LobbyError(str(e), 503) from None
            if owner is None:
                return await lobby.op(name, table_id, body, account_id, address, guesser)
            rid = f"{self.worker}:{next(self._ids)}"
            fut: asyncio.Future[tuple[int, Any]] = asyncio.get_running_loop().create_future()
            self.calls[rid] = fut
            args = [name, table_id, body, account_id, address, guesser]
            await self.publish(owner, frame("rpc", self.worker, rid, json.dumps(args)))
            try:
                status, answer = await asyncio.wait_for(fut, CALL_SECONDS)
            except TimeoutError:
                self.calls.pop(rid, None)
                raise LobbyError("the table's worker did not answer; try again", 503) from None
            if status == 0:
                continue  # it moved on the way: ask again
            if status >= 400:
                raise LobbyError(str(answer.get("error", "refused")), status)
            result: dict[str, Any] = answer
            return result
        raise LobbyError("the table is moving between workers; try again", 503)

    async def _serve_call(self, caller: str, rid: str, args: list[Any]) -> None:
        lobby = self.lobby
        assert lobby is not None
        name, table_id, body, account_id, address, guesser = args
        status, answer = 200, {}
        if table_id not in lobby.tables:
            status = 0
        else:
            try:
                answer = await lobby.op(name, table_id, body, account_id, address, guesser)
            except LobbyError as e:
                status, answer = e.status, {"error": str(e)}
        await self.publish(caller, frame("ret", rid, str(status), json.dumps(answer)))


Cluster = Local | RedisCluster
