"""Load benchmark for ``durak serve``: many tables of bot-paced games at once.

Starts one server process on 127.0.0.1 (SQLite in a temporary directory), creates
``--tables`` tables of three seats (two WebSocket clients and a server bot), and lets
every client play at a person's pace (``--think`` seconds a move, jittered) for
``--seconds``. Finished matches are started again, so every table plays throughout.

Measured, by the client that sent it: the time from sending an action to receiving
the update that carries it (its own seat's new state). Printed as p50/p90/p99/max,
with the actions per second served and the server process's CPU use.

    .venv/bin/python benchmarks/load/run.py --tables 200 --seconds 60

Bounded: at most 1000 tables and 600 seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


async def player(url: str, http: httpx.AsyncClient, table: str, token: str, seat: int,
                 think: float, stop_at: float, stats: Stats, rng: random.Random) -> None:
    """One person at one table: waits for its turn, thinks, acts, times the answer."""
    sent: tuple[int, float] | None = None
    async with connect(url, max_size=2**20) as ws:
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


def client_process(args: argparse.Namespace, base: str, tables: int, seed: int
                   ) -> tuple[Stats, float, float]:
    """One client process's share of the tables: (stats, seconds, CPU seconds)."""
    args.tables, args.seed = tables, seed
    cpu0 = time.process_time()
    stats, elapsed = asyncio.run(main_async(args, base))
    return stats, elapsed, time.process_time() - cpu0


async def main_async(args: argparse.Namespace, base: str) -> tuple[Stats, float]:
    stats = Stats()
    url = base.replace("http", "ws") + "/ws"
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": args.bot_level}]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        tables = []
        for i in range(args.tables):
            r = await http.post("/api/tables", json={
                "preset": "podkidnoy", "options": {"players": 3}, "seats": seats,
                "name": f"A{i}", "deals": 3})
            t = r.json()
            j = (await http.post(f"/api/tables/{t['table']}/join", json={"name": f"B{i}"})).json()
            tables.append((t["table"], t["token"], j["token"]))
        t0 = time.monotonic()
        stop_at = t0 + args.seconds
        rng = random.Random(args.seed)
        tasks = []
        for table, tok0, tok1 in tables:
            for seat, tok in ((0, tok0), (1, tok1)):
                tasks.append(asyncio.create_task(player(
                    url, http, table, tok, seat, args.think, stop_at, stats,
                    random.Random(rng.random()))))
        results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.disconnects = sum(1 for r in results if isinstance(r, BaseException))
    for r in results:
        if isinstance(r, BaseException):
            print("client failed:", repr(r), file=sys.stderr)
            break
    return stats, time.monotonic() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--think", type=float, default=0.8, help="seconds a person takes a move")
    ap.add_argument("--bot-pace", type=float, default=0.8)
    ap.add_argument("--bot-level", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=2, help="client processes")
    ap.add_argument("--db-dir", default=None,
                    help="where the SQLite file goes (default: a temporary directory)")
    args = ap.parse_args()
    args.tables = min(args.tables, MAX_TABLES)
    args.seconds = min(args.seconds, MAX_SECONDS)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(dir=args.db_dir) as tmp:
        db = Path(tmp) / "load.db"
        server = subprocess.Popen(
            [sys.executable, "-m", "durak.cli", "serve", "--port", str(port),
             "--db", f"sqlite:///{db}", "--bot-pace", str(args.bot_pace),
             "--deal-pause", "1", "--log-level", "warning"],
            stdout=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    httpx.get(base + "/api/meta", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            cpu0 = cpu_seconds(server.pid)
            # Several client processes, so that the clients are not what is measured.
            shares = [args.tables // args.procs + (i < args.tables % args.procs)
                      for i in range(args.procs)]
            with ProcessPoolExecutor(args.procs) as pool:
                parts = list(pool.map(client_process, [args] * args.procs, [base] * args.procs,
                                      shares, range(args.seed, args.seed + args.procs)))
            server_stats = httpx.get(base + "/api/stats", timeout=10).json()
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

    print(f"tables {args.tables} (clients {2 * args.tables}, a server bot at each), "
          f"{elapsed:.0f} s, think {args.think} s, bot pace {args.bot_pace} s")
    print(f"client actions measured {len(lat)} ({len(lat) / elapsed:.0f}/s; "
          f"with the bots' about {1.5 * len(lat) / elapsed:.0f}/s stored and broadcast)")
    print(f"action -> update latency: p50 {pct(50):.1f} ms, p90 {pct(90):.1f} ms, "
          f"p99 {pct(99):.1f} ms, max {lat[-1] * 1000:.1f} ms, "
          f"mean {statistics.mean(lat) * 1000:.1f} ms")
    print(f"inside the server (action received -> update queued): {server_stats['handle_ms']}; "
          f"event loop lag {server_stats['loop_lag_ms']}")
    print(f"server CPU {cpu:.1f} s over {elapsed:.0f} s ({100 * cpu / elapsed:.0f}% of one core), "
          f"clients' CPU {100 * mine / elapsed:.0f}% ({args.procs} processes); "
          f"load average {os.getloadavg()[0]:.1f}; "
          f"database {size / 1e6:.1f} MB; deal ends seen {stats.deals}; "
          f"errors {stats.errors or 'none'}; clients failed {stats.disconnects}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
