"""The web table on three workers (``durak serve --redis``) sharing one PostgreSQL and
one Redis (throwaway servers: tests/services.py): two players on two workers play one
table to its end with spectators on the third, nothing secret crosses Redis to the
wrong socket, a table's owner killed with SIGKILL mid-deal is taken over by another
worker with every confirmed action kept, and the limits hold over all the workers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("redis")
pytest.importorskip("websockets")

from websockets.sync.client import ClientConnection, connect  # noqa: E402

from durak.bots import BaseBot  # noqa: E402
from durak.observation import Observation  # noqa: E402
from durak.server.cluster import RedisCluster  # noqa: E402
from durak.server.limits import (
    Limits,  # noqa: E402
    Tally,  # noqa: E402
)
from durak.server.lobby import Alone, Lobby  # noqa: E402
from durak.server.messages import SERVER_DECODER  # noqa: E402
from durak.server.settings import Timings
from durak.server.store import Store  # noqa: E402

from . import services, waiting  # noqa: E402
from .browser import browser, move, open_custom, play_all, state_of  # noqa: E402
from .services import free_port  # noqa: E402
from .test_server import hello, next_of, play_out, sync, until_moved  # noqa: E402
from .test_web_secrets import cards_in, hidden_from, true_games  # noqa: E402

__all__ = ["browser"]  # a fixture

pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]

FAST = [
    "messages_per_second=10000",
    "messages_burst=10000",
    "address_messages_per_second=10000",
    "address_messages_burst=10000",
    "creates_burst=100",
    "joins_burst=100",
    "requests_burst=1000",
    "lock_after=3",  # each wrong password is a scrypt hash (a second here): three lock
]
SERVE = "import sys; from durak.cli import main; sys.exit(main(sys.argv[1:]))"


class Worker:
    """One ``durak serve`` process of the cluster."""

    def __init__(self, name: str, db: str, redis: str, *args: str) -> None:
        self.name, self.db, self.redis = name, db, redis
        self.args = args  # more of ``durak serve``'s options
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        limits = [x for lim in FAST for x in ("--limit", lim)]
        cmd = [sys.executable, "-c", SERVE, "serve", "--port", str(self.port), "--db", self.db]
        cmd += ["--redis", self.redis, "--worker-id", self.name, "--bot-pace", "0"]
        cmd += ["--deal-pause", "0", "--log-level", "warning", *limits, *self.args]
        # What it says goes to a file of its own, shown if it does not start.
        self.log = open(f"{tempfile.gettempdir()}/durak-worker-{self.port}.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self) -> None:
        def answering() -> bool:
            if self.proc is None or self.proc.poll() is not None:
                self.log.flush()
                raise AssertionError(f"{self.name} exited: " + Path(self.log.name).read_text())
            return httpx.get(f"{self.url}/api/meta", timeout=2).status_code == 200

        waiting.until(answering, f"worker {self.name} to start", ignoring=(httpx.HTTPError,))

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self, told: bool = False) -> None:
        """Stopped as an operator would (SIGTERM: a graceful stop), unless ``told``
        already (a second SIGTERM would make uvicorn skip the graceful part)."""
        self.log.close()
        if not os.environ.get("DURAK_KEEP_WORKER_LOGS"):  # set: kept for a post-mortem
            Path(self.log.name).unlink(missing_ok=True)
        if self.proc is not None and self.proc.poll() is None:
            if not told:
                self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10)

    def ws(self, seen: list[str] | None = None) -> Socket:
        return Socket(connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=10), seen)


class Socket:
    """A WebSocket client with the few calls the shared helpers make (``send_json``,
    ``receive_json``); every text received is kept in ``seen`` if given."""

    def __init__(self, ws: ClientConnection, seen: list[str] | None) -> None:
        self.ws, self.seen = ws, seen

    def send_json(self, data: Any) -> None:
        self.ws.send(json.dumps(data))

    def receive_json(self, timeout: float = 20) -> Any:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        if self.seen is not None:
            self.seen.append(text)
        return json.loads(text)

    def close(self) -> None:
        self.ws.close()


class Thinking:
    """How many bots of each address (``x``, ``y``) think at once, over every lobby of
    the test, and how many moves each address's bots made."""

    def __init__(self, pair: bool) -> None:
        self.pair = pair  # x's bots wait for a partner (else: for a move of y's)
        self.cond = threading.Condition()
        self.now, self.most, self.moves = {"x": 0, "y": 0}, {"x": 0, "y": 0}, {"x": 0, "y": 0}
        self.met = 0  # times one of x's began to think while another of x's thought
        self.over = False

    def stop(self) -> None:
        with self.cond:
            self.over = True
            self.cond.notify_all()


class Busy(BaseBot):
    """A seat bot of address ``who`` that says how many of its address's bots think
    with it. One of x's thinks until another of x's thinks too (``pair``: two at once
    are shown, not hoped for in a window of time), or else until one of y's has moved
    meanwhile (so x's bots go on thinking while y's move beside them, and would meet
    if the budget let them); y's answer at once."""

    name = "busy"

    def __init__(self, who: str, thinking: Thinking) -> None:
        self.who, self.t = who, thinking

    def choose(self, obs: Observation) -> Any:
        t = self.t
        with t.cond:
            t.now[self.who] += 1
            t.most[self.who] = max(t.most[self.who], t.now[self.who])
            if self.who == "x":
                alone = t.now["x"] == 1
                t.met += not alone
                t.cond.notify_all()
                met, moved = t.met, t.moves["y"]
                if not t.pair:
                    t.cond.wait_for(lambda: t.over or t.moves["y"] > moved, timeout=60)
                elif alone:  # until another of x's comes
                    t.cond.wait_for(lambda: t.over or t.met > met, timeout=60)
            t.now[self.who] -= 1
            t.moves[self.who] += 1
            t.cond.notify_all()
        return obs.legal[0]


STRANGER, OTHER = "198.51.100.7", "203.0.113.9"


async def _nothing(conn: Any, text: str) -> None:
    raise AssertionError("no frame is relayed here")


class CountsOf(Alone):
    """A lobby alone but for the counts of worker ``c`` (its bots and hints per
    address, in Redis over every worker)."""

    def __init__(self, c: RedisCluster) -> None:
        self.c = c

    def tally(self, name: str, limit: int) -> Tally:
        return self.c.tally(name, limit)


def test_an_address_bots_think_within_one_budget_over_every_worker(
    redis_url: str, tmp_path: Path
) -> None:
    """Limits.bots_per_address=1. A stranger makes two bot tables on worker a and two on
    worker b (each worker has a pool of two bot threads); another person one on b. With
    the budget in Redis the stranger's bots never think two at once, over both workers,
    while the other person's bot thinks beside them and every table moves. Counted per
    worker instead (each process's own tally, as one process counts), the stranger gets
    one place on each worker: two at once. And a worker's places are free again once it
    is gone."""

    async def scenario(shared: bool) -> dict[str, int]:
        limits = Limits(bots_per_address=1, bot_move_seconds=30)
        clusters = [RedisCluster(redis_url, limits, _nothing, name) for name in "ab"]
        a, b = lobbies = [
            Lobby(
                Store(f"sqlite:///{tmp_path / f'{c.worker}.db'}"),
                timings=Timings(bot_pace=0, deal_pause=0),
                bot_threads=2,
                limits=limits,
                sharing=CountsOf(c) if shared else None,
            )
            for c in clusters
        ]
        for c in clusters:
            await c.redis.set(f"durak:worker:{c.worker}", "1")  # as their beats would
        thinking = Thinking(pair=not shared)
        tables = []
        try:
            for lobby, who in ((a, "x"), (a, "x"), (b, "x"), (b, "x"), (b, "y")):
                made = await lobby.create(
                    {"seats": [{"kind": "bot", "level": 1}] * 2, "deals": 100},
                    owner=STRANGER if who == "x" else OTHER,
                )
                t = lobby.table(made["table"])
                async with t.lock:
                    for s in t.seats:
                        t.bots.seat(s.index, Busy(who, thinking))
                    start = t.state
                    t.schedule()
                tables.append((t, start))
            # Every table moves (one address's tables wait in line, none is starved).
            for t, start in tables:
                await until_moved(t.lobby, t, start + 4)
            seen = dict(thinking.most)  # (the probe below changes what b counts)
            if shared:
                # A worker that is gone (no beat) holds nothing: its places are free.
                on_a, on_b = (c.tally("hints", 1) for c in clusters)
                assert await on_a.acquire("probe")
                assert not await on_b.acquire("probe")  # a's place counts on b
                assert await on_b.acquire("probe2")
                await clusters[1].redis.delete(f"durak:worker:{clusters[0].worker}")  # a died
                assert await on_b.acquire("probe")
        finally:
            thinking.stop()
            for lobby in lobbies:
                await lobby.close()
            for c in clusters:
                await c.redis.delete(f"durak:worker:{c.worker}")
                await c.redis.aclose()
        return seen

    most = asyncio.run(scenario(shared=True))
    assert most == {"x": 1, "y": 1}, most
    most = asyncio.run(scenario(shared=False))
    assert most == {"x": 2, "y": 1}, most


# (asyncio.run: before the tests that hold this module's browser, whose loop it keeps)
def test_only_a_connect_message_opens_a_relayed_socket_on_the_owner(
    redis_url: str, tmp_path: Path
) -> None:
    """A relayed client's frames reach the owner as ``TellSri``; only a ``ConnectSri``
    (the edge's own word that the client said hello) opens a socket there. A chat whose
    text says "hello", from a socket the owner does not know, opens nothing: the edge is
    told to say hello again (``MovedSri``). A text on the channel that is no message
    (as a frame of the old wire, kind then fields) is refused whole, and opens nothing
    either."""
    from durak.server.cluster.wire import MovedSri, TellSri, decode

    async def scenario() -> None:
        c = RedisCluster(redis_url, Limits(), _nothing, "o", Timings(lease=120))
        lobby = Lobby(Store(f"sqlite:///{tmp_path / 'o.db'}"), limits=Limits(), sharing=c)
        await c.start(lobby)
        listen = c.redis.pubsub()
        await listen.subscribe(c.channel("edge-x"))
        try:
            old = "\x00".join(("hello", "edge-x", "8", STRANGER, '{"type": "hello"}'))
            await c.redis.publish(c.channel(c.worker), old)
            sneaky = json.dumps({"type": "chat", "text": '"hello" {"type": "hello"}'})
            await c.publish(c.worker, TellSri("edge-x", "7", STRANGER, sneaky))
            deadline = time.monotonic() + 30
            while (
                m := await listen.get_message(ignore_subscribe_messages=True, timeout=1)
            ) is None:
                assert time.monotonic() < deadline, "the edge was never told to say hello again"
            assert decode(m["data"]) == MovedSri(c.worker, "7")
            assert not c.relays.remote  # no socket was opened for either
        finally:
            await listen.aclose()
            await c.stop()

    asyncio.run(scenario())


class Said:
    """What a process prints, read on a thread of its own; ``until`` waits for a line."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        self.out: Any = proc.stdout
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.out:
            self.lines.put(line)

    def until(self, pattern: str, seconds: float = 30) -> re.Match[str]:
        """The first line not yet taken that matches ``pattern``, waited for."""
        deadline = time.monotonic() + seconds
        while True:
            for line in self.seen:
                m = re.search(pattern, line)
                if m is not None:
                    self.seen.remove(line)
                    return m
            try:
                self.seen.append(self.lines.get(timeout=max(0.01, deadline - time.monotonic())))
            except queue.Empty:
                raise AssertionError(f"not said: {pattern}; said: {self.seen}") from None


def test_durak_serve_workers_2_restarts_a_killed_worker_and_the_table_plays_on(
    pg_url: str, redis_url: str
) -> None:
    """``durak serve --workers 2``: two processes on one port (the listening socket
    shared). A table of two people is played a little through that one address; the
    worker that owns it is killed with SIGKILL. The supervisor starts another in its
    slot, the people connect again (as their pages do) and play on, every move they
    were shown kept."""
    import redis

    url = redis_url.rsplit("/", 1)[0] + "/1"  # a database of its own (the others: /0)
    redis.Redis.from_url(url).flushdb()
    limits = [x for lim in FAST for x in ("--limit", lim)]
    cmd = [sys.executable, "-c", SERVE, "serve", "--port", "0", "--workers", "2"]
    cmd += ["--db", pg_url, "--redis", url, "--worker-id", "s", "--bot-pace", "0"]
    cmd += ["--deal-pause", "0", "--log-level", "warning", *limits]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    until = Said(proc).until
    p0: Socket | None = None
    p1: Socket | None = None
    try:
        port = int(until(r"serving on http://127\.0\.0\.1:(\d+)/")[1])
        pids = {
            int(m[1]): int(m[2]) for m in (until(r"worker (\d) is process (\d+)") for _ in "01")
        }
        w = Worker("one", pg_url, url)  # the one address's client side
        w.port, w.url = port, f"http://127.0.0.1:{port}"

        def both_up() -> bool:  # each answers (the kernel picks which)
            with w.http() as c:
                ready = all(c.get("/api/meta").status_code == 200 for _ in range(6))
            return ready and len(redis.Redis.from_url(url).smembers("durak:workers")) == 2

        waiting.until(both_up, "durak serve --workers 2 to start", ignoring=(httpx.HTTPError,))
        tid, tok0, tok1 = two_player_table(w, w)
        p0, p1 = w.ws(), w.ws()
        states = sync([p0, p1], [hello(p0, tid, tok0), hello(p1, tid, tok1)])
        for _ in range(4):
            mover = next(i for i, m in enumerate(states) if m["obs"]["legal"])
            move = states[mover]["obs"]["legal"][0]
            (p0, p1)[mover].send_json(
                {"type": "act", "state": states[mover]["state"], "action": move}
            )
            states = [next_of(p0), next_of(p1)]
        shown = states[0]["log"]
        owner = str(redis.Redis.from_url(url, decode_responses=True).get(f"durak:lease:{tid}"))
        slot = int(owner.split(".")[0].rsplit("-", 1)[1])  # "s-<slot>.<random>"
        os.kill(pids[slot], signal.SIGKILL)
        until(rf"worker {pids[slot]} ended")
        again = until(rf"worker {slot} is process (\d+)", 10)
        assert int(again[1]) != pids[slot] and proc.poll() is None
        p0.close()  # a page whose socket was on the dead worker connects again
        p1.close()
        p0, p1 = w.ws(), w.ws()
        # (how soon it comes back is measured from outside: docs/scale.md, issue 49)
        after = sync([p0, p1], [hello(p0, tid, tok0), hello(p1, tid, tok1)])
        assert after[0]["log"][: len(shown)] == shown  # every move shown is kept
        end = play_out([p0, p1], after)
        assert end[0]["status"] == "finished" and end[0]["result"] is not None
        os.kill(int(again[1]), 0)  # the new worker is alive
    finally:
        for ws in (p0, p1):
            if ws is not None:
                ws.close()
        proc.terminate()  # the supervisor stops its workers first
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@pytest.fixture(scope="module")
def cluster(pg_url: str, redis_url: str) -> Iterator[list[Worker]]:
    services.empty_database(pg_url)
    import redis

    redis.Redis.from_url(redis_url).flushall()
    with running([Worker(name, pg_url, redis_url) for name in "abc"]) as workers:
        yield workers


@contextlib.contextmanager
def running(workers: list[Worker]) -> Iterator[list[Worker]]:
    """``workers`` started and ready; stopped at the end, all told at once."""
    for w in workers:
        w.start()
    try:
        for w in workers:
            w.wait_ready()
        yield workers
    finally:
        for w in workers:  # all told at once, then waited for
            if w.proc is not None and w.proc.poll() is None:
                w.proc.terminate()
        for w in workers:
            w.stop(told=True)


def two_player_table(owner: Worker, joiner: Worker) -> tuple[str, str, str]:
    """A table of two people made on ``owner``, the second seat taken through
    ``joiner`` (which asks the owner): its id and the two seats' tokens."""
    with owner.http() as c:
        t = c.post("/api/tables", json={"seats": [{"kind": "human"}] * 2, "turn_timer": 0}).json()
    with joiner.http() as c:
        j = c.post(f"/api/tables/{t['table']}/join", json={"name": "Boris"}).json()
    assert j["seat"] == 1, j
    return t["table"], t["token"], j["token"]


def test_workers_joining_a_fresh_cluster_say_nothing_is_lost(cluster: list[Worker]) -> None:
    """A worker lists the database's live tables in Redis before its first beat: the
    beat does not find the list missing and warn that "Redis lost" it (every worker of
    every fresh cluster said so, which hid the real warning)."""
    for w in cluster:
        w.log.flush()
        said = Path(w.log.name).read_text()
        assert "lost the list" not in said, said


def test_players_on_two_workers_spectators_on_a_third_and_no_secret_leaks(
    cluster: list[Worker],
) -> None:
    """The owner (a) holds the table; the players are on b and c, spectators on a and c.
    Every message each socket got is checked against the true game afterwards: no
    card a seat could not know, no token."""
    a, b, c = cluster
    tid, tok0, tok1 = two_player_table(a, b)
    seen: dict[str, list[str]] = {k: [] for k in ("p0", "p1", "sa", "sc")}
    p0, p1 = b.ws(seen["p0"]), c.ws(seen["p1"])
    sa, sc = a.ws(seen["sa"]), c.ws(seen["sc"])
    try:
        states = sync([p0, p1], [hello(p0, tid, tok0), hello(p1, tid, tok1)])
        assert [m["seat"] for m in states] == [0, 1]
        watch = [hello(sa, tid), hello(sc, tid)]
        assert [m["seat"] for m in watch] == [None, None]
        end = play_out([p0, p1], states)
        assert end[0]["status"] == "finished" and end[0]["result"] is not None
        last = end[0]["state"]
        for s in (sa, sc):  # the spectators saw the end too, on both workers
            m = next_of(s)
            while m["state"] < last:
                m = next_of(s)
            assert m["status"] == "finished"
    finally:
        for s in (p0, p1, sa, sc):
            s.close()
    with a.http() as http:
        by_state = true_games(http, tid)  # type: ignore[arg-type]
    checked = 0
    for who, texts in seen.items():
        seat = {"p0": 0, "p1": 1}.get(who)
        for text in texts:
            SERVER_DECODER.decode(text)
            assert tok0 not in text and tok1 not in text
            m = json.loads(text)
            if m.get("type") != "state" or m["state"] not in by_state:
                assert not cards_in(text) or m["type"] not in ("state", "seats", "clock"), m
                continue
            g = by_state[m["state"]]
            leaked = cards_in(text) & hidden_from(g, seat)
            assert not leaked, (who, m["state"], sorted(map(str, leaked)))
            if seat is not None:
                assert m["obs"]["hand"] == [str(x) for x in g.hand(seat)]
                checked += 1
    assert checked > 20


def test_kill_9_of_the_owner_mid_deal_five_times(cluster: list[Worker]) -> None:
    """Five times: a table made on worker a, its players on b and c; a few moves, then
    a move sent and a killed at once. Within a few seconds both players are told the
    table's state by its new owner: every action they had seen confirmed is in it (and
    the one in flight at most once), and they play the deal to its end."""
    a, b, c = cluster
    for round_no in range(5):
        tid, tok0, tok1 = two_player_table(a, b)
        p0, p1 = b.ws(), c.ws()
        try:
            states = sync([p0, p1], [hello(p0, tid, tok0), hello(p1, tid, tok1)])
            for _ in range(3 + round_no):
                mover = next(i for i, m in enumerate(states) if m["obs"]["legal"])
                ws = (p0, p1)[mover]
                ws.send_json(
                    {"type": "act", "state": states[mover]["state"], "action": "take"}
                    if "take" in states[mover]["obs"]["legal"] and round_no % 2
                    else {
                        "type": "act",
                        "state": states[mover]["state"],
                        "action": states[mover]["obs"]["legal"][0],
                    }
                )
                states = [next_of(p0), next_of(p1)]
            confirmed = states[0]["log_start"], states[0]["log"]
            # One more move in flight as the owner dies.
            mover = next(i for i, m in enumerate(states) if m["obs"]["legal"])
            (p0, p1)[mover].send_json(
                {
                    "type": "act",
                    "state": states[mover]["state"],
                    "action": states[mover]["obs"]["legal"][0],
                }
            )
            a.kill()
            a.start()  # back for the next round (a new process: a new worker id)
            after = [next_of(p0), next_of(p1)]
            while after[0]["state"] != after[1]["state"]:
                after = sync([p0, p1], after)
            start, log = confirmed
            assert after[0]["log_start"] == start
            assert after[0]["log"][: len(log)] == log, round_no  # nothing confirmed lost
            assert len(after[0]["log"]) - len(log) in (0, 1)  # the move in flight: once
            end = play_out([p0, p1], after)
            assert end[0]["status"] == "finished"
            a.wait_ready()
            with b.http() as http:
                games = [g for g in http.get("/api/games").json()["games"] if g["table_id"] == tid]
                record = http.get(f"/api/games/{games[0]['id']}").json()
            played = [f["action"] for f in record["frames"][1:]]
            assert [e["action"] for e in log] == played[: len(log)]
        finally:
            p0.close()
            p1.close()


def latest_pair(p0: Socket, p1: Socket, seconds: float = waiting.DEADLINE) -> list[Any]:
    """Both players' newest state once they agree (stray frames of a table that moved
    between workers may come in between)."""
    deadline = time.monotonic() + seconds
    states = [next_of(p0), next_of(p1)]
    while states[0]["state"] != states[1]["state"]:
        assert time.monotonic() < deadline, [m["state"] for m in states]
        states = sync([p0, p1], states)
    return states


def test_an_owner_that_stalls_past_its_lease_loses_the_table_and_writes_nothing_wrong(
    cluster: list[Worker],
) -> None:
    """Worker a owns the table and is stopped (SIGSTOP: alive, but silent) with a move
    on its way to it. Another worker takes the table over; a is let go on (SIGCONT) and
    may now try to store the move it was sent: the database takes one move per number,
    so whichever owner is behind finds out, lets go or loads the table again, and the
    deal ends with every move the players were shown in its record."""
    a, b, c = cluster
    tid, tok0, tok1 = two_player_table(a, b)
    p0, p1 = b.ws(), c.ws()
    assert a.proc is not None
    try:
        states = sync([p0, p1], [hello(p0, tid, tok0), hello(p1, tid, tok1)])
        os.kill(a.proc.pid, signal.SIGSTOP)
        try:
            mover = next(i for i, m in enumerate(states) if m["obs"]["legal"])
            move = states[mover]["obs"]["legal"][0]
            act = {"type": "act", "state": states[mover]["state"], "action": move}
            (p0, p1)[mover].send_json(act)  # waits in Redis for the stopped owner
            after = latest_pair(p0, p1)  # from the new owner, without that move
            assert after[0]["state"] == states[0]["state"]
        finally:
            os.kill(a.proc.pid, signal.SIGCONT)
        shown: dict[int, str] = {}  # every move the players were shown, by its number
        deadline = time.monotonic() + 60
        while True:
            start = after[0]["log_start"]
            shown.update({start + i: e["action"] for i, e in enumerate(after[0]["log"])})
            if after[0]["status"] != "playing":
                break
            assert time.monotonic() < deadline, "the deal did not end"
            for ws, m in zip((p0, p1), after, strict=True):
                if m["obs"]["legal"] and m["result"] is None:
                    ws.send_json(
                        {"type": "act", "state": m["state"], "action": m["obs"]["legal"][0]}
                    )
            after = latest_pair(p0, p1)
        with b.http() as http:
            games = [g for g in http.get("/api/games").json()["games"] if g["table_id"] == tid]
            record = http.get(f"/api/games/{games[0]['id']}").json()
        played = [f["action"] for f in record["frames"][1:]]
        assert dict(enumerate(played)) == shown
    finally:
        p0.close()
        p1.close()


def test_a_password_guesser_meets_one_lock_over_every_worker(cluster: list[Worker]) -> None:
    """Three wrong passwords for one name (Limits.lock_after=3 here), one on each worker,
    lock the name on all of them (the right password too), as on one process."""
    a, b, c = cluster
    with a.http() as http:
        r = http.post("/api/accounts", json={"name": "Vera", "password": "correct horse 1"})
        assert r.status_code == 201, r.text
    for w in (a, b, c):
        with w.http() as http:
            r = http.post("/api/login", json={"name": "Vera", "password": "wrong password"})
            assert r.status_code == 401, r.text
    for w in (c, a):
        with w.http() as http:
            r = http.post("/api/login", json={"name": "vera", "password": "correct horse 1"})
            assert r.status_code == 429 and r.json()["code"] == "locked", r.text


def test_two_browsers_on_two_workers_play_through_the_owners_death(
    cluster: list[Worker], browser: Any, tmp_path: Path
) -> None:
    """Two people in Chromium, each on a worker of their own: Anna's worker makes the
    table and owns it. Mid-deal it is killed with SIGKILL and started again (as a load
    balancer would send her elsewhere); her page reconnects by itself, Boris's socket
    is handed to the new owner, and they click the deal to its end."""
    _, b, c = cluster
    anna = browser.new_context(viewport={"width": 1100, "height": 820}, locale="en-US")
    boris = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-US")
    pa, pb = anna.new_page(), boris.new_page()
    errors: list[str] = []
    for page in (pa, pb):
        page.on("pageerror", lambda e: errors.append(str(e)))
    pa.goto(b.url + "/")
    open_custom(pa)
    pa.fill("#name", "Anna")
    pa.select_option("#players", "2")
    pa.select_option("#deck", "24")
    pa.select_option('.seat-kind[data-seat="1"]', "human")
    pa.click("#create-btn")
    invite = pa.locator("#invite-link").inner_text()
    pb.goto(c.url + invite[invite.index("/#/") :])
    pb.fill("#join-name", "Boris")
    pb.click("#join-btn")
    for page in (pa, pb):
        page.wait_for_selector("#hand .card", timeout=10_000)
    for _ in range(4):  # a few moves, then the owner dies
        for page in (pa, pb):
            move(page)
    before = int(state_of(pa) or 0)
    b.kill()
    b.start()
    b.wait_ready()
    waiting.until(
        lambda: pa.locator("#hand .card").count() > 0 and int(state_of(pa) or 0) >= before,
        "Anna's page to come back",
    )
    pa.wait_for_function("() => !document.querySelector('.conn.lost')", timeout=20_000)
    shot = tmp_path / "workers.png"
    pa.screenshot(path=str(shot))
    moves = play_all((pa, pb))
    assert moves > 0 and int(state_of(pa) or 0) > before
    assert not errors, errors
    anna.close()
    boris.close()


def test_limits_are_counted_over_every_worker(cluster: list[Worker]) -> None:
    """Live tables per address, and wrong guesses, are one count for all workers."""
    a, b, c = cluster
    made = []
    for w in (a, b, c, a, b, c):
        with w.http() as http:
            r = http.post("/api/tables", json={"seats": [{"kind": "human"}] * 2})
        if r.status_code != 201:
            break
        made.append(r.json()["table"])
    # 4 live tables an address. An earlier test's table may still be closing on a busy
    # machine and count too; counted per worker, all six would have been made.
    # (This test comes last: these stay live.)
    assert 2 <= len(made) <= 4 and r.status_code == 429, (len(made), r.text)
    for w in (a, b, c):  # the 10 wrong guesses of the address, spread over workers
        for i in range(4):
            with w.http() as http:
                http.post(f"/api/tables/{made[0]}/leave", json={"token": f"wrong{i}"})
    with c.http() as http:
        r = http.post(f"/api/tables/{made[1]}/join", json={"name": "Guess"})
    assert r.status_code == 429, r.text  # a right invite is not checked any more


def test_a_lease_under_a_second_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``durak serve --lease`` below 1 s would have workers lose their tables at every
    slow beat: refused before anything starts."""
    from durak.cli import main

    assert main(["serve", "--lease", "0.5", "--redis", "redis://127.0.0.1:1/0"]) == 2
    assert "--lease 0.5: at least 1 second" in capsys.readouterr().err
