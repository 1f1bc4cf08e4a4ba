"""A cluster whose worker stalls, or whose services fail, on the real PostgreSQL and Redis
the suite starts (tests/services.py); docs/scale.md, "A worker that stalls". Each test
puts a worker at the exact point it is about: a session of the test holds a table's row
as a worker stopped inside a write does, the clock a worker reads is the test's, and
what is awaited is an event (a session waiting on a lock), never a stretch of time.

Invariants: a takeover never waits on the thread that stores the other tables' moves,
and waits for a stalled owner's row at most the stall bound; a live table is never
answered ``no_table`` while its lease settles, and that answer costs no guess; no cap
of live tables is beaten by creates that arrive together, on one process or over
workers; a table let go arms nothing more; a worker whose Redis does not answer says
503 with Retry-After; the sockets of a worker that has just started count at once; a
stale owner shows no chat; proxy headers are trusted from nobody unless told."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("redis")

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.exc import DBAPIError  # noqa: E402

from durak.server import assist  # noqa: E402
from durak.server.app import create_app, handle_frame  # noqa: E402
from durak.server.cluster import GONE, HERE, MOVING, Moving, RedisCluster  # noqa: E402
from durak.server.limits import Limits  # noqa: E402
from durak.server.lobby import Lobby, LobbyError  # noqa: E402
from durak.server.protocol import ProtocolError  # noqa: E402
from durak.server.settings import Timings
from durak.server.store import Store  # noqa: E402
from durak.server.table import Connection, hash_token  # noqa: E402

from . import services  # noqa: E402
from .services import free_port  # noqa: E402
from .test_server import TestClient  # noqa: E402
from .waiting import until, until_async  # noqa: E402

pytestmark = pytest.mark.timeout(120)

TWO = {"seats": [{"kind": "human"}] * 2, "turn_timer": 0}
ANNA, BORIS = "198.51.100.7", "203.0.113.9"


async def _nothing_relayed(conn: Connection, text: str) -> None:
    raise AssertionError("nothing is relayed here")


@contextlib.asynccontextmanager
async def workers(
    pg_url: str,
    redis_url: str,
    busy: tuple[float, ...] = (2.0, 2.0),
    limits: Limits | None = None,
    clock: Any = time.monotonic,
) -> AsyncIterator[tuple[list[RedisCluster], list[Lobby]]]:
    """Workers a, b, ... (one per ``busy``: its database lock timeout) in this process,
    on an emptied database and Redis. Leases of 120 s: no beat comes during a test, so
    the order of what happens is the test's."""
    services.empty_database(pg_url)
    import redis

    redis.Redis.from_url(redis_url).flushall()
    lim = limits or Limits()
    names = "abc"[: len(busy)]
    clusters = [
        RedisCluster(redis_url, lim, _nothing_relayed, n, Timings(lease=120), clock) for n in names
    ]
    lobbies = [
        Lobby(Store(pg_url, busy_timeout=b), Timings(bot_pace=0, deal_pause=0), lim, sharing=c)
        for b, c in zip(busy, clusters, strict=True)
    ]
    for c, lobby in zip(clusters, lobbies, strict=True):
        await c.start(lobby)
    try:
        yield clusters, lobbies
    finally:
        for c in clusters:
            await c.stop()


class Stalled:
    """A worker stopped inside a write of ``table_id``: a session that holds the table's
    row (as ``Store.begin``'s epoch check does) and then says nothing."""

    def __init__(self, url: str, table_id: str) -> None:
        self.engine = create_engine(url)
        self.conn = self.engine.connect()
        self.tx = self.conn.begin()
        self.conn.execute(
            text("UPDATE durak_tables SET epoch = epoch WHERE id = :t"), {"t": table_id}
        )

    def stall_bound(self, ms: int) -> None:
        """From now on PostgreSQL ends this session once idle this long in its
        transaction, as it does every worker's (``store.postgres_options``)."""
        self.conn.execute(text(f"SET idle_in_transaction_session_timeout = {ms}"))

    def release(self) -> None:
        with contextlib.suppress(Exception):
            self.tx.rollback()
        with contextlib.suppress(Exception):
            self.conn.close()
        self.engine.dispose()


async def until_a_session_waits_on_a_lock(url: str) -> None:
    """Until some session of the database waits on a lock (the takeover reached it)."""
    engine = create_engine(url)

    def waiting() -> int:
        with engine.connect() as c:
            q = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            return int(c.execute(text(q)).scalar_one())

    try:
        await until_async(lambda: asyncio.to_thread(waiting), "the takeover to wait on the row")
    finally:
        engine.dispose()


async def never() -> None:
    """A task that would never end."""
    await asyncio.Event().wait()


class Sink:
    """A connection in this process; what it is sent, decoded, in ``got``."""

    FLUSH = '{"type": "_flushed"}'  # (a marker of the test's, never shown in ``got``)

    def __init__(self, address: str = ANNA) -> None:
        self.got: list[dict[str, Any]] = []
        self.conn = Connection(self._send, None, address)
        self.task = asyncio.ensure_future(self.conn.writer())
        self._through = asyncio.Event()

    async def _send(self, text: str) -> None:
        if text == self.FLUSH:
            self._through.set()
        else:
            self.got.append(json.loads(text))

    async def flushed(self) -> list[dict[str, Any]]:
        """Everything pushed so far, once sent: a marker pushed after it came through
        the writer (its outbox is first in, first out)."""
        self._through.clear()
        self.conn.push(self.FLUSH)
        async with asyncio.timeout(60):
            await self._through.wait()
        return self.got


def test_a_takeover_waits_for_a_stalled_owners_row_off_the_thread_that_stores_moves(
    pg_url: str, redis_url: str
) -> None:
    """a holds table T and stalls inside a write of it (its row held); its lease runs
    out and b takes T over, waiting for the row (a lock timeout of 60 s here, so it
    waits for as long as the test says). Meanwhile a person takes a seat at b's own
    table U: stored at once, while the takeover still waits. (With the takeover on the
    thread that stores b's tables' moves, U's write waited behind it.) When the row is
    let go, b has T."""

    async def scenario() -> None:
        async with workers(pg_url, redis_url, busy=(2.0, 60.0)) as (clusters, (a, b)):
            t_id = (await a.create(TWO, owner=ANNA))["table"]
            u_id = (await b.create(TWO, owner=BORIS))["table"]
            stalled = Stalled(pg_url, t_id)
            try:
                await clusters[1].redis.delete(RedisCluster.lease_key(t_id))  # ran out
                take = asyncio.ensure_future(clusters[1].adopt_or_not(t_id))
                await until_a_session_waits_on_a_lock(pg_url)
                joined = await b.join(u_id, {"name": "Vera"}, address="192.0.2.1")
                assert joined["seat"] == 1
                assert not take.done()  # U's write did not wait for T's row
            finally:
                stalled.release()
            assert await take == HERE
            assert t_id in b.tables

    asyncio.run(scenario())


def test_a_stalled_owners_row_is_freed_within_the_stall_bound_and_meanwhile_hellos_hear_moving(
    pg_url: str, redis_url: str
) -> None:
    """a stalls inside a write of T. b cannot take T while a holds its row: the takeover
    gives up after b's lock timeout (0.2 s), lets the lease go again, and a hello for T
    is answered ``moving`` (the page asks again), never ``no_table``, and costs no
    guess; a hello for a table that does not exist still does. Once the stalled session
    has been idle in its transaction for the stall bound, PostgreSQL ends it, and the
    next try takes T. Every session of a worker carries those bounds."""

    async def scenario() -> None:
        lim = Limits(token_tries_burst=1)
        async with workers(pg_url, redis_url, busy=(2.0, 0.2), limits=lim) as (clusters, lobbies):
            a, b = lobbies
            cb = clusters[1]
            t_id = (await a.create(TWO, owner=ANNA))["table"]
            stalled = Stalled(pg_url, t_id)
            try:
                await cb.redis.delete(cb.lease_key(t_id))
                assert await cb.adopt_or_not(t_id) == MOVING
                assert await cb.redis.get(cb.lease_key(t_id)) is None  # let go again
                with pytest.raises(Moving):
                    await cb.where(t_id)
                guard = cb.guard()
                sink = Sink()
                hello = json.dumps({"type": "hello", "v": 1, "table": t_id})
                for _ in range(3):
                    await handle_frame(b, guard, cb, sink.conn, hello)
                codes = [m.get("code") for m in await sink.flushed()]
                assert codes == ["moving"] * 3, codes
                assert await guard.token_tries.available(sink.conn.address)  # no guess
                nowhere = json.dumps({"type": "hello", "v": 1, "table": "no-such-table"})
                await handle_frame(b, guard, cb, sink.conn, nowhere)
                assert (await sink.flushed())[-1]["code"] == "no_table"
                assert not await guard.token_tries.available(sink.conn.address)  # counted

                stalled.stall_bound(300)

                async def taken_over() -> bool:
                    got = await cb.adopt_or_not(t_id)
                    assert got in (MOVING, HERE), got
                    return got == HERE

                await until_async(taken_over, "b to take the table over")
                with pytest.raises(DBAPIError):  # PostgreSQL ended the stalled session
                    stalled.conn.execute(text("SELECT 1"))
            finally:
                stalled.release()
            with b.store.store.engine.connect() as c:
                show = {
                    k: c.execute(text(f"SHOW {k}")).scalar_one()
                    for k in ("lock_timeout", "idle_in_transaction_session_timeout")
                }
            assert show == {"lock_timeout": "200ms", "idle_in_transaction_session_timeout": "5s"}

    asyncio.run(scenario())


def test_a_table_listed_nowhere_after_redis_emptied_is_taken_from_the_database(
    pg_url: str, redis_url: str
) -> None:
    """Redis restarted empty (its list of tables and the marker gone) before any beat
    listed them again: a hello for a live table finds it in the database and takes it
    over, instead of answering ``no_table``; an id the database does not have is
    still no table."""

    async def scenario() -> None:
        async with workers(pg_url, redis_url) as (clusters, (a, b)):
            t_id = (await a.create(TWO, owner=ANNA))["table"]
            await a.drop(t_id)  # a is gone (its copy with it); the row stays live
            await clusters[1].redis.flushall()
            assert await clusters[1].where(t_id) is None
            assert t_id in b.tables
            assert await clusters[1].adopt_or_not("no-such-table") == GONE

    asyncio.run(scenario())


def creates(lobby: Lobby, owners: list[str]) -> list[Any]:
    """``create`` for every owner, all started before any is stored."""
    return [lobby.create(TWO, owner=o) for o in owners]


async def made(calls: list[Any]) -> tuple[int, list[int]]:
    """How many of ``calls`` made a table, and the statuses of the refusals."""
    got = await asyncio.gather(*calls, return_exceptions=True)
    refused = [g.status for g in got if isinstance(g, LobbyError)]
    assert all(isinstance(g, dict | LobbyError) for g in got), got
    return len(got) - len(refused), refused


def test_creates_that_arrive_together_never_beat_the_caps_on_one_process(
    tmp_path: Path,
) -> None:
    """One process on SQLite: 30 creates from one address at once make exactly 4
    tables (the per-address cap), 30 from 30 addresses of one network exactly 16 (the
    network's), and creates from everywhere stop at the server's cap. (Checked before
    the insert, all 30 passed the check: 30 tables.)"""

    async def scenario() -> None:
        lobby = Lobby(Store(f"sqlite:///{tmp_path / 'caps.db'}"), limits=Limits(max_tables=30))
        try:
            assert await made(creates(lobby, [ANNA] * 30)) == (4, [429] * 26)
            near = [f"198.51.100.{i}" for i in range(100, 130)]
            assert await made(creates(lobby, near)) == (12, [429] * 18)  # 16 with ANNA's 4
            far = [f"192.0.{i}.1" for i in range(30)]
            assert await made(creates(lobby, far)) == (14, [503] * 16)  # 30 in all
        finally:
            await lobby.close()

    asyncio.run(scenario())


def test_creates_that_arrive_together_on_two_workers_never_beat_the_caps(
    pg_url: str, redis_url: str
) -> None:
    """Two workers on one PostgreSQL: 15 creates from one address on each, all at once,
    make exactly 4 tables over both; 15 + 15 from one network exactly 16."""

    async def scenario() -> None:
        async with workers(pg_url, redis_url) as (_, (a, b)):
            assert await made(creates(a, [ANNA] * 15) + creates(b, [ANNA] * 15)) == (
                4,
                [429] * 26,
            )
            near = [f"198.51.100.{i}" for i in range(100, 130)]
            calls = creates(a, near[:15]) + creates(b, near[15:])
            assert await made(calls) == (12, [429] * 18)
            assert len(a.tables) + len(b.tables) == 16

    asyncio.run(scenario())


def test_a_table_let_go_arms_no_clock_and_tries_no_more_writes(pg_url: str, redis_url: str) -> None:
    """a holds a table of two people with a turn clock of 1 s; b takes it over (Redis
    lost a's lease). a's clock runs out: the stand-in's move is fenced off, and a lets
    the table go. From then on the copy a held arms nothing: no clock, no retried write
    (it kept retrying and re-arming its clock for the life of the process)."""

    async def scenario() -> None:
        async with workers(pg_url, redis_url) as (clusters, (a, b)):
            spec = {**TWO, "turn_timer": 1}
            made_ = await a.create(spec, owner=ANNA)
            t_id = made_["table"]
            await a.join(t_id, {"name": "Boris"}, address=BORIS)
            ta = a.tables[t_id]
            assert ta.status == "playing" and ta.task is not None  # its clock runs
            closed = a.events.next("closed", t_id)  # a lets its copy go, and closes it
            await clusters[1].redis.delete(clusters[1].lease_key(t_id))
            assert await clusters[1].adopt(t_id)
            async with asyncio.timeout(30):
                await closed  # (its clock ran out: the stand-in's write was fenced off)
            # (the done callbacks of the tasks it waited for)
            await until_async(lambda: not ta.later, "the table's tasks done")
            assert t_id not in a.tables and (ta.task is None or ta.task.done())
            assert ta.let_go
            ta.schedule()
            ta.spawn(never())
            assert ta.task is None and not ta.later and ta.deadline is None
            assert not ta.retrying

    asyncio.run(scenario())


def test_a_worker_whose_redis_hangs_answers_503_with_retry_after(pg_url: str) -> None:
    """The worker's Redis stops answering (SIGSTOP: connections open, no reply): its
    HTTP requests are answered 503 with Retry-After within the bound of a Redis call,
    not 500 and not never; once Redis answers again, so does the worker."""
    services.empty_database(pg_url)
    rd = services.redis(own=True)
    url = next(rd)
    try:
        app = create_app(pg_url, timings=Timings(bot_pace=0), redis_url=url, worker="w")
        with TestClient(app) as client:
            assert client.get("/api/tables").status_code == 200
            with services.paused(url):
                for res in (
                    client.get("/api/tables"),
                    client.post("/api/tables", json=TWO),
                ):
                    assert res.status_code == 503, res.text
                    assert res.headers["retry-after"].isdigit()
            assert client.get("/api/tables").status_code == 200
    finally:
        rd.close()


def test_the_sockets_of_a_worker_just_started_count_on_every_worker_at_once(
    pg_url: str, redis_url: str
) -> None:
    """b starts after a (a's list of live workers, made at its last beat, does not name
    b yet: no beat comes during the test). An address opens 3 sockets on b; on a it may
    open one more, not four (its cap is 4): b's count is summed from the start."""

    async def scenario() -> None:
        lim = Limits(connections_per_address=4)
        async with workers(pg_url, redis_url, busy=(2.0,), limits=lim) as (clusters, _):
            late = RedisCluster(redis_url, lim, _nothing_relayed, "late", Timings(lease=120))
            await late.start(Lobby(Store(pg_url), limits=lim, sharing=late))
            try:
                assert late.worker not in clusters[0].live_workers
                on_late, on_a = late.guard(), clusters[0].guard()
                assert [await on_late.connect(ANNA) for _ in range(3)] == [True] * 3
                assert [await on_a.connect(ANNA) for _ in range(2)] == [True, False]
                await on_late.disconnect(ANNA)
                assert await on_a.connect(ANNA)
            finally:
                await late.stop()

    asyncio.run(scenario())


def test_a_stale_owner_shows_no_chat_it_received_after_its_lease(
    pg_url: str, redis_url: str
) -> None:
    """a holds a table of two people. A chat is shown to both while a's lease is surely
    its own; after a stall past the lease (the clock a reads moved on by more than a
    lease, and no renewal came: the process was stopped), a chat that reaches a is
    refused with ``moving`` and shown to nobody: another worker may hold the table
    now, and its players be there."""
    now = [1000.0]

    async def scenario() -> None:
        async with workers(pg_url, redis_url, busy=(2.0,), clock=lambda: now[0]) as (_, (a,)):
            made_ = await a.create(TWO, owner=ANNA)
            t_id = made_["table"]
            joined = await a.join(t_id, {"name": "Boris"}, address=BORIS)
            t = a.tables[t_id]
            anna, boris = Sink(), Sink(BORIS)
            t.attach(anna.conn, 0, hash_token(made_["token"]))
            t.attach(boris.conn, 1, hash_token(joined["token"]))
            await assist.chat(anna.conn, "hello")
            now[0] += 119.0  # within the lease (120 s)
            await assist.chat(anna.conn, "still here")
            now[0] += 2.0  # past it: a stalled
            with pytest.raises(ProtocolError) as e:
                await assist.chat(anna.conn, "after the stall")
            assert e.value.code == "moving"
            said = [m["text"] for m in await boris.flushed() if m["type"] == "chat"]
            assert said == ["hello", "still here"]

    asyncio.run(scenario())


def serve(*args: str) -> tuple[subprocess.Popen[bytes], str]:
    """``durak serve`` on an in-memory SQLite, started: the process and its URL."""
    port = free_port()
    run = "import sys; from durak.cli import main; sys.exit(main(sys.argv[1:]))"
    cmd = [sys.executable, "-c", run, "serve", "--port", str(port), "--db", "sqlite://"]
    cmd += ["--log-level", "warning", "--limit", "creates_burst=100", *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"

    def listening() -> bool:
        assert proc.poll() is None, "durak serve exited"
        with contextlib.suppress(httpx.HTTPError):
            return httpx.get(f"{url}/api/meta", timeout=2).status_code == 200
        return False

    until(listening, "durak serve to listen")
    return proc, url


@pytest.mark.parametrize(
    ("options", "made_"), [((), 4), (("--forwarded-allow-ips", "127.0.0.1"), 5)]
)
def test_proxy_headers_are_trusted_only_from_the_addresses_given(
    options: tuple[str, ...], made_: int
) -> None:
    """A local process sends X-Forwarded-For with a new address each time to make five
    tables (an address may hold four). By default no proxy is trusted: every create
    counts against the sender's own address, and the fifth is refused. Told to trust
    127.0.0.1 (the load balancer's address), each create counts against the address
    the header names."""
    proc, url = serve(*options)
    try:
        codes = [
            httpx.post(
                f"{url}/api/tables", json=TWO, headers={"X-Forwarded-For": f"192.0.{i}.9"}
            ).status_code
            for i in range(5)
        ]
        assert codes == [201] * made_ + [429] * (5 - made_), codes
    finally:
        proc.terminate()
        proc.wait(15)
