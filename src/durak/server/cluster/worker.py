"""One worker of a cluster (``RedisCluster``): its Redis, its beat, its channel, and
the parts it is made of (``leases``, ``relay``, ``rpc``, ``limits``), wired together
here. The list of live tables every worker shows (``summaries``) is kept here too."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import msgspec

from ...errors import UsageError
from ..limits import Guard, Limits
from ..lobby import Lobby, TableOp
from ..logins import Logins
from ..settings import Timings
from ..table import Connection, LiveTable
from .leases import HERE, Leases, lease_key
from .limits import SharedBucket, SharedGuard, SharedLockout, SharedTally
from .node import Handler
from .relay import Relays
from .rpc import Calls
from .wire import Message, Req, ReqResponse, decode, encode

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("durak.server")

REDIS_CONNECTIONS = 32  # a worker's connections to Redis (its pub/sub listener aside)
REDIS_SECONDS = 3.0  # the longest a worker waits on one call to Redis


class RedisCluster:
    """One worker of several (docs/scale.md). Made with the ``handler`` its relayed
    sockets' frames go to; joins the cluster with its lobby (``start``)."""

    # PLR0913: a worker's parts, one keyword each as create_app passes them
    def __init__(  # noqa: PLR0913
        self,
        url: str,
        limits: Limits,
        handler: Handler,
        worker: str | None = None,
        timings: Timings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``timings``: its lease and drain among them (``settings.Timings``); ``clock``:
        seconds, monotonic (a test gives its own: ``holds``)."""
        from redis.asyncio import BlockingConnectionPool, Redis

        times = timings or Timings()
        self.drain = times.drain
        self.beat = times.beat
        self.worker_ms = int(times.worker_gone * 1000)
        self.url = url
        self.limits = limits
        # Each process its own id, even restarted under the same name: an edge must see
        # that the owner of its sockets' table changed.
        self.worker = f"{worker or 'w'}.{secrets.token_hex(3)}"
        # A bounded pool that waits for a free connection (the default one raises when
        # many sockets' frames go out at once). Every call bounded (a Redis that hangs
        # must not hang a request: it is answered 503, app.DOWN), a connection waited
        # for as long.
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_SECONDS,
            socket_timeout=REDIS_SECONDS,
            socket_connect_timeout=REDIS_SECONDS,
            decode_responses=True,
        )
        self.redis: Redis = Redis(connection_pool=pool)
        self._lobby: Lobby | None = None
        self.live_workers: list[str] = [self.worker]
        self.leases = Leases(self, times.lease, clock)
        self.relays = Relays(self, handler)
        self.calls = Calls(self)
        self._tasks: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[Any]] = set()

    @property
    def lobby(self) -> Lobby:
        """The lobby this worker holds its tables in (once started)."""
        assert self._lobby is not None, "the worker has not started"
        return self._lobby

    def guard(self) -> Guard:
        return SharedGuard(self.limits, self.redis, self.worker)

    # What a lobby made for this worker shares with the others (lobby.Sharing): every
    # adoption takes a new epoch and stale writes are refused; its live tables are
    # counted here; its bots thinking and hints searched per address over every worker.
    fencing = True

    def registry(self, lobby: Lobby) -> RedisCluster:
        return self

    def tally(self, name: str, limit: int) -> SharedTally:
        return SharedTally(self.redis, self.worker, name, limit)

    def logins(self) -> Logins:
        lim, redis = self.limits, self.redis
        return Logins(
            lim,
            lambda name, rate, burst: SharedBucket(redis, name, rate, burst),
            SharedLockout(redis, lim.lock_after, lim.lock_first, lim.lock_max),
        )

    # -- the channel ---------------------------------------------------------------------
    @staticmethod
    def channel(worker: str) -> str:
        return f"durak:w:{worker}"

    async def publish(self, worker: str, message: Message) -> None:
        """``message`` to ``worker``, on its channel."""
        await self.redis.publish(self.channel(worker), encode(message))

    async def publish_text(self, worker: str, text: str) -> None:
        """A message already encoded (a relayed socket's outbox holds them so)."""
        await self.redis.publish(self.channel(worker), text)

    def spawn(self, coro: Awaitable[Any]) -> None:
        """Run ``coro`` in the background, kept until it ends."""
        task = asyncio.ensure_future(coro)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    # -- life ----------------------------------------------------------------------
    async def start(self, lobby: Lobby) -> None:
        """Join the cluster with ``lobby``: listen on this worker's channel, beat, and
        adopt the tables nobody holds (those the database has, too: the first worker
        after a full stop brings them back). ``lobby`` was made sharing this worker's
        counts (``Lobby(..., sharing=worker)``)."""
        if lobby.registry is not self:
            raise UsageError("a worker's lobby is made with Lobby(..., sharing=worker)")
        self._lobby = lobby
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
        lobby = self._lobby
        if lobby is not None:
            ids = list(lobby.tables)
            self.relays.moved_all()
            # Every table stopped and every write done (the database thread is drained)
            # before the leases go: the next owner must load everything this one stored.
            # (A write still running after the deadline is fenced: its table's next owner
            # takes a new epoch first, Store.take_table.)
            unstored = await lobby.close(left())
            with contextlib.suppress(Exception):
                async with asyncio.timeout(left()):
                    for table_id in ids:
                        await self.leases.release(table_id)
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

    # -- ownership (leases.Leases) and the lobby's registry (lobby.Registry) ------------
    async def where(self, table_id: str) -> str | None:
        """The worker that owns ``table_id``; None: this one (``Leases.where``)."""
        return await self.leases.where(table_id)

    async def adopt(self, table_id: str) -> bool:
        """Take ``table_id`` if nobody holds it and the database has it live; True if
        this worker holds it now."""
        return await self.leases.adopt_or_not(table_id) == HERE

    async def adopt_or_not(self, table_id: str) -> str:
        """``adopt``, saying why not (``Leases.adopt_or_not``)."""
        return await self.leases.adopt_or_not(table_id)

    @staticmethod
    def lease_key(table_id: str) -> str:
        """The Redis key of ``table_id``'s lease."""
        return lease_key(table_id)

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        """The present owner of each table (None: nobody holds its lease)."""
        got = await self.redis.mget([lease_key(t) for t in table_ids])
        return [None if o is None else str(o) for o in got]

    async def created(self, t: LiveTable) -> None:
        await self.leases.created(t)

    async def closed(self, table_id: str) -> None:
        await self.leases.closed(table_id)

    def fenced(self, table_id: str) -> None:
        self.leases.fenced(table_id)

    def holds(self, table_id: str) -> bool:
        return self.leases.holds(table_id)

    def outdated(self, table_id: str) -> None:
        self.leases.outdated(table_id)

    async def _seed_tables(self) -> None:
        """The live tables of the database listed in Redis (``durak:tables``), so that
        those nobody holds are adopted: when a worker starts, and again whenever Redis
        lost the list (flushed, or restarted without persistence)."""
        lobby = self.lobby
        ids = await lobby.store.run(lobby.store.store.live_table_ids)
        async with self.redis.pipeline(transaction=True) as p:
            if ids:
                p.sadd("durak:tables", *ids)
            p.set("durak:seeded", "1")
            await p.execute()

    # -- the relay (relay.Relays) and requests (rpc.Calls) -------------------------------
    def relayed(self, conn: Connection) -> bool:
        return self.relays.relayed(conn)

    async def relay(self, conn: Connection, owner: str, table_id: str, hello: str) -> None:
        await self.relays.relay(conn, owner, table_id, hello)

    async def forward(self, conn: Connection, text: str) -> None:
        await self.relays.forward(conn, text)

    async def unrelay(self, conn: Connection) -> None:
        await self.relays.unrelay(conn)

    async def table_op(self, op: TableOp) -> dict[str, Any]:
        """Run a request about a table on its owner (here, or over Redis)."""
        return await self.calls.table_op(op)

    # -- the live tables of every worker ---------------------------------------------------
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
            for key, owner in zip(twice, await self.owners(twice), strict=True):
                held = seen[key].get(str(owner))
                if held is not None:
                    out[key] = json.loads(held)
        return list(out.values())

    async def summaries(self, offset: int, limit: int) -> dict[str, Any]:
        """The public tables of every worker, newest first (each worker's list is at
        most a beat old; this worker's own is fresh)."""
        entries = [e for e in await self._live_entries() if e["summary"] is not None]
        fresh = {t.id: t for t in self.lobby.tables.values()}
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
                "since": self.leases.since.get(t.id, 0.0),
                "summary": t.summary() if t.invite_hash is None else None,
            }
        )

    async def publish_live(self, tables: list[LiveTable]) -> None:
        """``tables`` listed as this worker's (``summaries``) at once, not at its beat."""
        if tables:
            key = f"durak:live:{self.worker}"
            await self.redis.hset(key, mapping={t.id: self._entry(t) for t in tables})
            await self.redis.pexpire(key, self.worker_ms + 1000)

    # -- the beat ------------------------------------------------------------------------
    async def _beats(self) -> None:
        loop = asyncio.get_running_loop()
        slow = self.leases.ms / 2000  # half a lease
        while True:
            t = loop.time()
            await asyncio.sleep(self.beat)
            late = loop.time() - t - self.beat
            if late > slow:
                log.warning("worker %s: its beat came %.1f s late", self.worker, late)
            try:
                t = loop.time()
                await self._beat_once()
                await self.leases.renew()
                await self.leases.adopt_free()
                await self.relays.check_owners()
                self.relays.check_edges(set(self.live_workers))
                if loop.time() - t > slow:
                    log.warning("worker %s: a beat took %.1f s", self.worker, loop.time() - t)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("worker %s: the beat failed; trying again", self.worker)

    async def _beat_once(self) -> None:
        r = self.redis
        lobby = self.lobby
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
                self.receive(decode(msg["data"]))
            except msgspec.MsgspecError as e:
                log.warning("worker %s: not a message on its channel: %s", self.worker, e)
            except Exception:
                log.exception("worker %s: a message on its channel failed", self.worker)

    def receive(self, m: Message) -> None:
        """A message that came on this worker's channel, handed to the part it is for."""
        if self.relays.take(m):
            return
        if isinstance(m, Req):
            self.spawn(self.calls.serve(m))
        elif isinstance(m, ReqResponse):
            self.calls.answered(m)
