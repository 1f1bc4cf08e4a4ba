"""Load benchmark for ``durak serve``: many tables of bot-paced games at once.

Starts one server process on 127.0.0.1 (SQLite in a temporary directory), creates
``--tables`` tables of three seats (two WebSocket clients and a server bot), and lets
every client play at a person's pace (``--think`` seconds a move, jittered) for
``--seconds``. Finished matches are started again, so every table plays throughout.

Measured, by the client that sent it: the time from sending an action to receiving
the update that carries it (its own seat's new state). Printed as p50/p90/p99/max,
with the actions per second served and the server process's CPU use.

    .venv/bin/python benchmarks/load/run.py --tables 200 --seconds 60
    .venv/bin/python benchmarks/load/run.py --tables 200 --seconds 60 --abuse

Each table's clients come from a loopback address of their own (127.0.x.y), as people
do from their own machines, so the per-address limits apply to each as to a person.
``--abuse`` adds one abusive client per finding of the hardening issue, all from
127.0.0.1, in a process of their own: a message flood, a hello storm before a crowd of
spectators, table spam, body bombs, token guessing and silent sockets; what they got is
printed beside the honest tables' latency.

Bounded: at most 1000 tables and 600 seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

MAX_TABLES, MAX_SECONDS = 1000, 600


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    deals: int = 0
    disconnects: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(port: int, db: str, *options: str) -> subprocess.Popen[bytes]:
    """``durak serve`` on 127.0.0.1:``port`` with the database ``db`` and ``options``
    (each benchmark's own pace, log level and limits), its output dropped."""
    command = [sys.executable, "-m", "durak.cli", "serve", "--port", str(port), "--db", db]
    return subprocess.Popen([*command, *options], stdout=subprocess.DEVNULL)


def wait_up(base: str, seconds: float = 60.0) -> None:
    """Wait until the server at ``base`` answers (a busy machine takes a while)."""
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at:
        try:
            httpx.get(base + "/api/meta", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def table_address(i: int) -> str:
    """The loopback address of table ``i``'s people (127.0.0.1 is the abusers')."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


@dataclass(frozen=True)
class Person:
    """Who plays a seat: the server's WebSocket address, the table, the seat's token and
    number, and the loopback address the person connects from."""

    url: str
    table: str
    token: str
    seat: int
    addr: str


async def player(
    person: Person,
    http: httpx.AsyncClient,
    think: float,
    stop_at: float,
    stats: Stats,
    rng: random.Random,
) -> None:
    """One person at one table: waits for its turn, thinks, acts, times the answer."""
    table, token, seat = person.table, person.token, person.seat
    sent: tuple[int, float] | None = None
    async with connect(person.url, max_size=2**20, local_addr=(person.addr, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "table": table, "token": token}))
        think_task: asyncio.Task[None] | None = None
        while time.monotonic() < stop_at:
            try:
                left = max(0.1, stop_at - time.monotonic())
                raw = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                break
            m = json.loads(raw)
            if m["type"] == "error":
                stats.errors[m["code"]] = stats.errors.get(m["code"], 0) + 1
                sent = None
                continue
            if m["type"] != "state":
                continue
            if sent is not None and m["state"] > sent[0]:
                stats.latencies.append(time.perf_counter() - sent[1])
                sent = None
            if m["status"] == "finished" and seat == 0 and m["result"] is not None:
                stats.deals += 1
                await http.post(f"/api/tables/{table}/again", json={"token": token})
                continue
            if m["result"] is not None and m["status"] == "playing":
                stats.deals += 1
            obs = m["obs"]
            if not obs or not obs["legal"] or m["result"] is not None:
                continue
            if think_task is not None:
                think_task.cancel()
            legal = [a for a in obs["legal"] if a not in ("take", "pass")] or obs["legal"]
            action = rng.choice(legal) if rng.random() < 0.7 else obs["legal"][0]
            state = m["state"]

            async def act(state: int = state, action: str = action) -> None:
                nonlocal sent
                await asyncio.sleep(think * rng.uniform(0.6, 1.4))
                sent = (state, time.perf_counter())
                await ws.send(json.dumps({"type": "act", "state": state, "action": action}))

            think_task = asyncio.create_task(act())
        if think_task is not None:
            think_task.cancel()


def client_process(
    args: argparse.Namespace, base: str, tables: int, seed: int, first: int
) -> tuple[Stats, float, float]:
    """One client process's share of the tables: (stats, seconds, CPU seconds)."""
    args.tables, args.seed, args.first = tables, seed, first
    cpu0 = time.process_time()
    stats, elapsed = asyncio.run(main_async(args, base))
    return stats, elapsed, time.process_time() - cpu0


async def make_table(
    base: str, i: int, bot_level: int, ctx: ssl.SSLContext | None = None
) -> tuple[str, str, str, str]:
    """Table ``i``: made and joined from its own loopback address (two people and a bot
    of ``bot_level``, three deals of podkidnoy); (table, token 0, token 1, address)."""
    addr = table_address(i)
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": bot_level}]
    transport = httpx.AsyncHTTPTransport(local_address=addr, verify=ctx or True)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as mine:
        body = {
            "preset": "podkidnoy",
            "options": {"players": 3},
            "seats": seats,
            "name": f"A{i}",
            "deals": 3,
            "turn_timer": 60,
        }
        t = (await mine.post("/api/tables", json=body)).json()
        assert "table" in t, t
        j = (await mine.post(f"/api/tables/{t['table']}/join", json={"name": f"B{i}"})).json()
    assert "token" in j, j
    return t["table"], t["token"], j["token"], addr


async def main_async(args: argparse.Namespace, base: str) -> tuple[Stats, float]:
    stats = Stats()
    url = base.replace("http", "ws") + "/ws"
    ctx = ssl.create_default_context()  # one for all: each costs ~30 ms to make
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        tables = []
        for i in range(args.first, args.first + args.tables):
            tables.append(await make_table(base, i, args.bot_level, ctx))
        t0 = time.monotonic()
        stop_at = t0 + args.seconds
        rng = random.Random(args.seed)
        tasks = []
        for table, tok0, tok1, addr in tables:
            for seat, tok in ((0, tok0), (1, tok1)):
                person = Person(url, table, tok, seat, addr)
                rng_i = random.Random(rng.random())
                tasks.append(
                    asyncio.create_task(player(person, http, args.think, stop_at, stats, rng_i))
                )
        results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.disconnects = sum(1 for r in results if isinstance(r, BaseException))
    for r in results:
        if isinstance(r, BaseException):
            print("client failed:", repr(r), file=sys.stderr)
            break
    return stats, time.monotonic() - t0


def abuse_process(base: str, seconds: float, table_ids: list[str]) -> dict[str, dict[str, int]]:
    # A real abuser spends their own machine's CPU, not the server's: on this one machine
    # they get the least of it, so that what is measured is what they cost the server.
    os.nice(19)
    return asyncio.run(Abusers(base, seconds, table_ids).run())


class Abusers:
    """One abusive client per finding, each from an address of its own (127.0.0.x), for
    ``seconds``: what each sent and what it got back (:attr:`got`)."""

    def __init__(self, base: str, seconds: float, table_ids: list[str]) -> None:
        self.base = base
        self.url = base.replace("http", "ws") + "/ws"
        self.ctx = ssl.create_default_context()
        self.stop_at = time.monotonic() + seconds
        self.table_ids = table_ids
        self.got: dict[str, dict[str, int]] = {}

    def http_from(self, addr: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.base,
            timeout=30,
            transport=httpx.AsyncHTTPTransport(local_address=addr, verify=self.ctx),
        )

    def ws_from(self, addr: str) -> connect:
        return connect(self.url, local_addr=(addr, 0))

    def count(self, who: str, what: str) -> None:
        self.got.setdefault(who, {})
        self.got[who][what] = self.got[who].get(what, 0) + 1

    async def reader(self, ws: object, who: str) -> None:
        try:
            async for raw in ws:  # type: ignore[attr-defined]
                self.count(who, "got " + json.loads(raw).get("code", json.loads(raw)["type"]))
        except Exception:  # noqa: BLE001 - closed by the server: counted below
            self.count(who, "closed by server")

    async def flood(self) -> None:  # finding 9: no rate limit on messages
        while time.monotonic() < self.stop_at:
            try:
                async with self.ws_from("127.0.0.2") as ws:
                    r = asyncio.create_task(self.reader(ws, "flood"))
                    await ws.send(
                        json.dumps(
                            {"type": "hello", "v": 1, "table": self.table_ids[0], "token": None}
                        )
                    )
                    while time.monotonic() < self.stop_at:
                        await ws.send('{"type": "ping", "id": 1}')
                        self.count("flood", "sent")
                        await asyncio.sleep(0)
                    r.cancel()
            except Exception:  # noqa: BLE001
                self.count("flood", "connection lost")
                await asyncio.sleep(0.1)

    async def hello_storm(self) -> None:  # finding 5
        async with self.http_from("127.0.0.3") as http:
            t = (
                await http.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]})
            ).json()
            if "table" not in t:
                self.count("hello storm", "create refused")
                return
            crowd = [await self.ws_from("127.0.0.3") for _ in range(12)]
            for ws in crowd:
                await ws.send(
                    json.dumps({"type": "hello", "v": 1, "table": t["table"], "token": None})
                )
            readers = [asyncio.create_task(self.reader(ws, "hello storm crowd")) for ws in crowd]
            async with self.ws_from("127.0.0.3") as ws:
                r = asyncio.create_task(self.reader(ws, "hello storm"))
                hello = json.dumps(
                    {"type": "hello", "v": 1, "table": t["table"], "token": t["token"]}
                )
                while time.monotonic() < self.stop_at:
                    try:
                        await ws.send(hello)
                    except Exception:  # noqa: BLE001
                        break
                    self.count("hello storm", "sent")
                    await asyncio.sleep(0.001)
                r.cancel()
            for x in readers:
                x.cancel()
            for ws in crowd:
                await ws.close()

    async def table_spam(self) -> None:  # finding 1
        async with self.http_from("127.0.0.4") as http:
            while time.monotonic() < self.stop_at:
                r = await http.post(
                    "/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}
                )
                self.count("table spam", f"HTTP {r.status_code}")

    async def body_bomb(self) -> None:  # finding 4
        blob = b"{" + b" " * (1 << 20) + b"}"
        http = self.http_from("127.0.0.5")
        while time.monotonic() < self.stop_at:
            try:
                r = await http.post(
                    "/api/tables", content=blob, headers={"Content-Type": "application/json"}
                )
                self.count("body bomb (1 MB)", f"HTTP {r.status_code}")
            except httpx.HTTPError:
                self.count("body bomb (1 MB)", "connection cut")
            await asyncio.sleep(0.05)

    async def guesser(self) -> None:  # finding 9: token guessing
        while time.monotonic() < self.stop_at:
            try:
                async with self.ws_from("127.0.0.6") as ws:
                    while time.monotonic() < self.stop_at:
                        await ws.send(
                            json.dumps(
                                {
                                    "type": "hello",
                                    "v": 1,
                                    "table": random.choice(self.table_ids),
                                    "token": secrets.token_urlsafe(24),
                                }
                            )
                        )
                        m = json.loads(await ws.recv())
                        self.count("token guessing", "got " + m.get("code", m["type"]))
            except Exception:  # noqa: BLE001
                self.count("token guessing", "connection lost")
                await asyncio.sleep(0.1)

    async def silent(self) -> None:  # finding 9: sockets that never say hello
        socks = []
        for _ in range(40):
            try:
                socks.append(await self.ws_from("127.0.0.7"))
                self.count("silent sockets", "opened")
            except Exception:  # noqa: BLE001
                self.count("silent sockets", "refused")
        await asyncio.sleep(max(0.0, self.stop_at - time.monotonic()))
        for ws in socks:
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                self.count("silent sockets", "still open")
            except Exception:  # noqa: BLE001 - the server closed it
                self.count("silent sockets", "closed by server")

    async def bad_json(self) -> None:  # finding 7
        http = self.http_from("127.0.0.8")
        deep = "[" * 3000 + "]" * 3000
        while time.monotonic() < self.stop_at:
            for body in (
                '{"options": ' + deep + "}",
                '{"preset": "\\ud800"}',
                '{"options": {"bout_limit": ' + "9" * 4000 + "}}",
            ):
                r = await http.post(
                    "/api/tables", content=body, headers={"Content-Type": "application/json"}
                )
                self.count("malformed JSON", f"HTTP {r.status_code}")
            await asyncio.sleep(0.05)

    async def run(self) -> dict[str, dict[str, int]]:
        """Every abuser at once, until the time is up."""
        done = await asyncio.gather(
            self.flood(),
            self.hello_storm(),
            self.table_spam(),
            self.body_bomb(),
            self.guesser(),
            self.silent(),
            self.bad_json(),
            return_exceptions=True,
        )
        for x in done:
            if isinstance(x, BaseException):
                self.count("abuser crashed", repr(x)[:80])
        return self.got


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--think", type=float, default=0.8, help="seconds a person takes a move")
    ap.add_argument("--bot-pace", type=float, default=0.8)
    ap.add_argument("--bot-level", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=2, help="client processes")
    ap.add_argument(
        "--abuse",
        action="store_true",
        help="add one abusive client per finding of the hardening issue",
    )
    ap.add_argument(
        "--db-dir", default=None, help="where the SQLite file goes (default: a temporary directory)"
    )
    args = ap.parse_args()
    args.tables = min(args.tables, MAX_TABLES)
    args.seconds = min(args.seconds, MAX_SECONDS)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    stats_token = secrets.token_urlsafe(16)
    abused: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory(dir=args.db_dir) as tmp:
        db = Path(tmp) / "load.db"
        server = serve(
            port,
            f"sqlite:///{db}",
            *("--bot-pace", str(args.bot_pace), "--deal-pause", "1", "--log-level", "error"),
            *("--stats-token", stats_token),
        )
        try:
            wait_up(base, 10)
            cpu0 = cpu_seconds(server.pid)
            # Several client processes, so that the clients are not what is measured.
            shares = [
                args.tables // args.procs + (i < args.tables % args.procs)
                for i in range(args.procs)
            ]
            firsts = [sum(shares[:i]) for i in range(args.procs)]
            with ProcessPoolExecutor(args.procs + 1) as pool:
                honest = pool.map(
                    client_process,
                    [args] * args.procs,
                    [base] * args.procs,
                    shares,
                    range(args.seed, args.seed + args.procs),
                    firsts,
                )
                bad = None
                if args.abuse:
                    # The abusers start once the honest tables are made and play.
                    listed = {"tables": [], "total": 0}
                    for _ in range(600):
                        try:
                            listed = httpx.get(base + "/api/tables?limit=100", timeout=30).json()
                        except httpx.HTTPError:
                            continue
                        if listed["total"] >= args.tables:
                            break
                        time.sleep(0.5)
                    ids = [t["id"] for t in listed["tables"]]
                    bad = pool.submit(abuse_process, base, args.seconds - 5, ids)
                parts = list(honest)
                if bad is not None:
                    abused = bad.result()
            server_stats = httpx.get(
                base + "/api/stats", timeout=10, headers={"Authorization": f"Bearer {stats_token}"}
            ).json()
            cpu = cpu_seconds(server.pid) - cpu0
            stats = Stats()
            for part, _, _ in parts:
                stats.latencies += part.latencies
                stats.deals += part.deals
                stats.disconnects += part.disconnects
                for k, v in part.errors.items():
                    stats.errors[k] = stats.errors.get(k, 0) + v
            elapsed = max(p[1] for p in parts)
            mine = sum(p[2] for p in parts)
        finally:
            server.terminate()
            server.wait(10)
        size = db.stat().st_size if db.exists() else 0
    lat = sorted(stats.latencies)
    if not lat:
        print("no actions were measured")
        return 1

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p / 100 * len(lat)))] * 1000

    print(
        f"tables {args.tables} (clients {2 * args.tables}, a server bot at each), "
        f"{elapsed:.0f} s, think {args.think} s, bot pace {args.bot_pace} s"
    )
    print(
        f"client actions measured {len(lat)} ({len(lat) / elapsed:.0f}/s; "
        f"with the bots' about {1.5 * len(lat) / elapsed:.0f}/s stored and broadcast)"
    )
    print(
        f"action -> update latency: p50 {pct(50):.1f} ms, p90 {pct(90):.1f} ms, "
        f"p99 {pct(99):.1f} ms, max {lat[-1] * 1000:.1f} ms, "
        f"mean {statistics.mean(lat) * 1000:.1f} ms"
    )
    print(
        f"inside the server (action received -> update queued): {server_stats['handle_ms']}; "
        f"event loop lag {server_stats['loop_lag_ms']}"
    )
    print(
        f"server CPU {cpu:.1f} s over {elapsed:.0f} s ({100 * cpu / elapsed:.0f}% of one core), "
        f"clients' CPU {100 * mine / elapsed:.0f}% ({args.procs} processes); "
        f"load average {os.getloadavg()[0]:.1f}; "
        f"database {size / 1e6:.1f} MB; deal ends seen {stats.deals}; "
        f"errors {stats.errors or 'none'}; clients failed {stats.disconnects}"
    )
    for who, what in abused.items():
        print(f"abuser {who}: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
