"""What a cluster of workers (``durak serve --redis``) does when its services fail
under it (docs/scale.md): a worker told to stop while its PostgreSQL and Redis hang
still leaves within its drain bound; two workers that both believe they own a table
(Redis lost its leases) never write two lines of its history, the one taken over last
wins and the other lets go before it shows anything; and a table taken over from the
database still counts against its creator's cap of live tables."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("redis")
pytest.importorskip("websockets")

from sqlalchemy import create_engine, select  # noqa: E402

from durak.server.clock import ManualClock  # noqa: E402
from durak.server.cluster import RedisCluster  # noqa: E402
from durak.server.limits import Limits  # noqa: E402
from durak.server.lobby import Lobby  # noqa: E402
from durak.server.protocol import ProtocolError  # noqa: E402
from durak.server.settings import Timings
from durak.server.store import Store, actions_t, deals_t  # noqa: E402
from durak.server.table import Connection, LiveTable, hash_token  # noqa: E402

from . import services  # noqa: E402
from .test_server import hello, next_of, play_out, sync  # noqa: E402
from .test_server_stalls import Stalled, until_a_session_waits_on_a_lock  # noqa: E402
from .test_server_workers import Worker, two_player_table  # noqa: E402
from .waiting import until, until_async  # noqa: E402

pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]

DRAIN = 2.0  # seconds: ``durak serve --drain`` in the test below
LEAVING = 30.0  # seconds a process may take to leave once its drain is over (load)


@pytest.fixture
def own_services() -> Iterator[tuple[str, str]]:
    """A PostgreSQL and a Redis for one test alone (it stops them; the session's servers
    other tests use are left alone)."""
    pg, rd = services.postgres(own=True), services.redis(own=True)
    try:
        yield next(pg), next(rd)
    finally:
        pg.close()
        rd.close()


def test_a_worker_told_to_stop_while_its_services_hang_leaves_within_its_drain_bound(
    own_services: tuple[str, str],
) -> None:
    """A worker is inside a write for sure: a person's join waits for the table's row,
    which a session of the test holds (the worker's lock timeout is a minute here), as
    PostgreSQL shows (the session waits on a lock). Then its PostgreSQL and Redis stop
    answering (SIGSTOP: alive, connections open, no reply, as a hung machine or a
    dropped network). Told to stop (SIGTERM), it gives its sockets' requests
    ``--drain`` seconds, its tables' writes as long again, then leaves: within twice
    the bound (and a margin for a busy machine), with exit status 1 and a log naming
    the write it could not finish. (Without the bound it waited for the database
    thread forever: the database's answer never comes.)"""
    db, redis_url = own_services
    w = Worker("d", db, redis_url, "--drain", str(DRAIN), "--db-lock-timeout", "60")
    w.start()
    stalled = None
    joining = None
    try:
        w.wait_ready()
        with w.http() as http:
            made = http.post(
                "/api/tables", json={"seats": [{"kind": "human"}] * 2, "turn_timer": 0}
            ).json()
        stalled = Stalled(db, made["table"])

        def join() -> None:
            with contextlib.suppress(httpx.HTTPError):  # (the worker leaves meanwhile)
                httpx.post(f"{w.url}/api/tables/{made['table']}/join", json={}, timeout=60)

        joining = threading.Thread(target=join, daemon=True)
        joining.start()
        asyncio.run(until_a_session_waits_on_a_lock(db))  # the join's write is pending
        assert w.proc is not None
        with services.paused(db, redis_url):
            t0 = time.monotonic()
            w.proc.send_signal(signal.SIGTERM)
            try:
                code = w.proc.wait(2 * DRAIN + LEAVING)
            finally:
                took = time.monotonic() - t0
        # (bounded, not forever: the margin is for a busy machine, never the point)
        assert took < 2 * DRAIN + LEAVING, f"the worker took {took:.1f} s to stop"
        # stopped without storing everything (if not, the log says what it did)
        assert code == 1, (code, Path(w.log.name).read_text()[-3000:])
        w.log.flush()
        said = Path(w.log.name).read_text()
        assert re.search(r"without storing: set_seat\(", said), said[-3000:]
    finally:
        if stalled is not None:
            stalled.release()
        if joining is not None:
            joining.join(30)
        w.stop(told=True)


class Client:
    """A connection of a person or a spectator, in this process: what it is sent is
    kept in ``texts``."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.conn = Connection(self._send, None, "198.51.100.7")
        self.task = asyncio.ensure_future(self.conn.writer())

    async def _send(self, text: str) -> None:
        self.texts.append(text)

    def states(self) -> list[dict[str, Any]]:
        return [m for m in map(json.loads, self.texts) if m["type"] == "state"]


async def play_deal(t: LiveTable, clients: list[Client]) -> None:
    """Each seat plays its first legal action until the deal in play is over."""
    for _ in range(2000):
        g = t.game
        if t.status != "playing" or g is None or g.is_over:
            return
        seat = g.to_act
        assert seat is not None
        await t.act(clients[seat].conn, t.state, str(g.observation(seat).legal[0]))
    raise AssertionError("the deal did not end")


def test_two_owners_of_one_table_write_one_history_and_the_stale_one_shows_nothing(
    pg_url: str, redis_url: str
) -> None:
    """Workers a and b (one PostgreSQL, one Redis). a holds a table of two people; the
    first of its two deals is played to its end on a, whose next deal starts after a
    pause. Meanwhile Redis is flushed (a restart without persistence does the same)
    and b, finding no lease, takes the table over from the database: both now hold it
    and both start the second deal, and the players try to move on both. The fencing
    token decides: b took the table last, so a's first write of it is refused, a lets
    it go (its sockets closed) and shows no second deal to anyone; the database holds
    one line of history (one row per deal, every action in turn: the table restores),
    every state any client was sent is what the database holds, and the table plays
    to its end through b. (Without the token both stored a second deal.)"""
    services.empty_database(pg_url)
    import redis

    redis.Redis.from_url(redis_url).flushall()

    async def scenario() -> None:
        limits = Limits()

        # Long leases: no beat comes in between (the first beat is 20 s away), so the
        # order of what happens is the test's, not the clocks'.
        async def handle(conn: Connection, text: str) -> None:
            raise AssertionError("nothing is relayed here")

        clusters = [
            RedisCluster(redis_url, limits, handle, name, Timings(lease=120)) for name in "ab"
        ]
        # The pause between deals on a clock the test moves: each owner's next deal is
        # tried when the test says, however busy the machine.
        clock = ManualClock()
        lobbies = [
            Lobby(
                Store(pg_url),
                timings=Timings(bot_pace=0, deal_pause=1.0),
                limits=limits,
                clock=clock,
                sharing=c,
            )
            for c in clusters
        ]

        for c, lobby in zip(clusters, lobbies, strict=True):
            await c.start(lobby)
        a, b = lobbies
        everyone: list[Client] = []
        try:
            made = await a.create(
                {"seats": [{"kind": "human"}] * 2, "deals": 2, "turn_timer": 0},
                owner="198.51.100.7",
            )
            tid = made["table"]
            joined = await a.join(tid, {"name": "Boris"}, address="203.0.113.9")
            tokens = [hash_token(made["token"]), hash_token(joined["token"])]
            ta = a.tables[tid]
            on_a = [Client(), Client()]
            everyone += on_a
            for seat, cl in enumerate(on_a):
                ta.attach(cl.conn, seat, tokens[seat])
            await play_deal(ta, on_a)
            assert ta.pending is not None  # the second deal comes after the pause

            # Redis loses everything; b finds the table without a lease and takes it.
            a_let_go = a.events.next("let_go", tid)  # (asked before either can happen)
            b_dealt = b.events.next("deal", tid)
            r = clusters[1].redis
            await r.flushall()
            await r.sadd("durak:tables", tid)
            assert await clusters[1].adopt(tid)
            tb = b.tables[tid]
            on_b = [Client(), Client()]
            everyone += on_b
            for seat, cl in enumerate(on_b):
                tb.attach(cl.conn, seat, tokens[seat])
            # Both pauses over: each owner tries to start deal 2; b does, a is fenced off.
            # (The clock is moved on until both happened: a pause may begin again as the
            # players' sockets come, and a sleeper that began after a move waits for the
            # next one. Nothing else here reads this clock.)
            both = asyncio.gather(a_let_go, b_dealt)

            def moved_on() -> bool:
                if not both.done():
                    clock.advance(1.0)
                return both.done()

            await until_async(moved_on, "deal 2 on b, a let go")
            await both

            # Both try to play.
            for t, clients in ((ta, on_a), (tb, on_b)):
                g = t.game
                if g is not None and not g.is_over and g.to_act is not None:
                    seat = g.to_act
                    with contextlib.suppress(ProtocolError):  # (a refusal is a fine answer)
                        await t.act(clients[seat].conn, t.state, str(g.observation(seat).legal[0]))
            let_go = tid not in a.tables and all(cl.conn.closed for cl in on_a)
            await play_deal(tb, on_b)
            assert tb.status == "finished" and tb.deal_no == 2
        finally:
            for c in clusters:
                await c.stop()
        for cl in everyone:  # the clients' writers end (their connections were stopped)
            cl.conn.stop()
            await asyncio.wait_for(cl.task, 10)

        # One line of history: one row per deal, each deal's actions in turn.
        engine = create_engine(pg_url)
        try:
            with engine.connect() as db:
                deals = db.execute(
                    select(deals_t.c.id, deals_t.c.deal_no)
                    .where(deals_t.c.table_id == tid)
                    .order_by(deals_t.c.deal_no)
                ).all()
                played = {
                    d.deal_no: [
                        a.action
                        for a in db.execute(
                            select(actions_t.c.action)
                            .where(actions_t.c.deal_id == d.id)
                            .order_by(actions_t.c.ply)
                        )
                    ]
                    for d in deals
                }
        finally:
            engine.dispose()
        assert [d.deal_no for d in deals] == [1, 2], deals
        check = Lobby(Store(pg_url), timings=Timings(bot_pace=0, deal_pause=0))
        try:
            assert await check.restore() == 1
            assert check.tables[tid].status == "finished"  # the actions replay in turn
        finally:
            await check.close()
        # No client was sent a move the database does not hold.
        shown = 0
        for cl in everyone:
            for m in cl.states():
                if m["match"] is None or m["obs"] is None:
                    continue
                log = [e["action"] for e in m["log"]]
                stored = played[m["match"]["deal"]]
                assert stored[m["log_start"] : m["log_start"] + len(log)] == log
                shown += 1
        assert shown > 20
        assert let_go  # a let the table go, its sockets closed

    asyncio.run(scenario())


@pytest.fixture
def pair(pg_url: str, redis_url: str) -> Iterator[tuple[Worker, Worker, Any]]:
    """Workers a and b (leases of 1 s) on an emptied database and Redis, and a client
    of that Redis (answers as text); both stopped after the test."""
    services.empty_database(pg_url)
    import redis

    r = redis.Redis.from_url(redis_url, decode_responses=True)
    r.flushall()
    a, b = (Worker(name, pg_url, redis_url, "--lease", "1") for name in "ab")
    for w in (a, b):
        w.start()
    try:
        for w in (a, b):
            w.wait_ready()
        yield a, b, r
    finally:
        for w in (a, b):
            w.stop()


def test_a_table_taken_over_still_counts_against_its_creators_cap(
    pair: tuple[Worker, Worker, Any],
) -> None:
    """One address makes as many tables as it may (4) on worker a; a is killed with
    SIGKILL and b takes them over from the database. Once a is gone from the cluster
    (its own list of tables with it), b still knows who made them: the address cannot
    make a fifth. (Before, a table taken over had no creator, and the cap counted 0.)"""
    a, b, r = pair
    made = []
    with a.http() as http:
        for _ in range(4):
            res = http.post("/api/tables", json={"seats": [{"kind": "human"}] * 2})
            assert res.status_code == 201, res.text
            made.append(res.json()["table"])
        res = http.post("/api/tables", json={"seats": [{"kind": "human"}] * 2})
        assert res.status_code == 429, res.text
    a.kill()
    # b holds every table, and a is out of the cluster's count (its beat stopped).

    def taken_over() -> bool:
        owners = {r.get(f"durak:lease:{t}") for t in made}
        workers = list(r.scan_iter("durak:worker:*"))
        return len(owners) == 1 and None not in owners and len(workers) == 1

    until(taken_over, "b to hold every table, a out of the count")
    # (the count is the database's: no beat of b's is needed for it)
    with b.http() as http:
        listed = http.get("/api/tables").json()
        assert sorted(s["id"] for s in listed["tables"]) == sorted(made)
        res = http.post("/api/tables", json={"seats": [{"kind": "human"}] * 2})
    assert res.status_code == 429, res.text
    assert "live tables from one address" in res.text


def test_after_redis_lost_its_keys_a_dead_owners_table_is_still_taken_over(
    pair: tuple[Worker, Worker, Any],
) -> None:
    """A table of two people on worker a, both players' sockets on b. Redis is flushed
    (as a restart without persistence): the leases and the list of live tables are
    gone. The workers list the database's live tables again at their next beat, so
    when a is then killed with SIGKILL, b still finds the table without a lease and
    takes it over; the players play on through b to the end. (Before, the list stayed
    empty until a worker started, and the table was never taken over.)"""
    a, b, r = pair
    p0 = p1 = None
    try:
        tid, tok0, tok1 = two_player_table(a, b)
        p0, p1 = b.ws(), b.ws()
        states = sync([p0, p1], [hello(p0, tid, tok0), hello(p1, tid, tok1)])
        for _ in range(3):
            mover = next(i for i, m in enumerate(states) if m["obs"]["legal"])
            act = {"type": "act", "state": states[mover]["state"]}
            (p0, p1)[mover].send_json({**act, "action": states[mover]["obs"]["legal"][0]})
            states = [next_of(p0), next_of(p1)]
        shown = [e["action"] for e in states[0]["log"]]
        r.flushall()
        until(lambda: r.sismember("durak:tables", tid), "a beat to list the table again")
        a.kill()
        after = [next_of(p0), next_of(p1)]  # b's welcome state, once it took the table
        while after[0]["state"] != after[1]["state"]:
            after = sync([p0, p1], after)
        assert [e["action"] for e in after[0]["log"]][: len(shown)] == shown
        assert str(r.get(f"durak:lease:{tid}")).startswith("b.")
        end = play_out([p0, p1], after)
        assert end[0]["status"] == "finished" and end[0]["result"] is not None
    finally:
        for ws in (p0, p1):
            if ws is not None:
                ws.close()


def test_a_drain_of_zero_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``durak serve --drain 0`` would leave without storing anything: refused before
    anything starts."""
    from durak.cli import main

    assert main(["serve", "--drain", "0", "--redis", "redis://127.0.0.1:1/0"]) == 2
    assert "--drain 0: more than 0 seconds" in capsys.readouterr().err
