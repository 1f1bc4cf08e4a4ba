"""The latencies the server tests used to assert (issue 48: a test that races the clock
fails on a busy machine; the tests now show each property with a barrier, and the times
are measured here, on whatever machine runs this):

- ``pings``: a WebSocket ping's round trip while SQLite is locked by another process and
  the tables' writes wait for it (the event loop must stay free: a blocked loop takes
  the busy timeout, 1 s);
- ``flood``: making a table and playing a move while ten addresses send wrong passwords
  as fast as they can (hashing runs on its own pool: the tables must not wait for it);
- ``logins``: a wrong password against an unknown name (an unknown name is checked
  against a dummy hash, so the two should take about as long).

    .venv/bin/python benchmarks/load/latency.py --rounds 20

Printed: p50, p90 and max of each, in milliseconds. Bounded: at most 200 rounds.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from durak.server import create_app  # noqa: E402
from durak.server.limits import Limits  # noqa: E402
from durak.server.settings import Timings

OPEN = Limits(
    requests_burst=100_000,
    creates_burst=100_000,
    joins_burst=100_000,
    messages_burst=100_000,
    address_messages_burst=100_000,
    tables_per_address=100_000,
    tables_per_network=100_000,
    logins_burst=100_000,
    account_logins_burst=100_000,
    lock_after=100_000,
)


class From:
    """Each request's ``x-peer`` header is the address the server sees."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for k, v in scope["headers"]:
                if k == b"x-peer":
                    scope = {**scope, "client": (v.decode(), 1)}
        await self.app(scope, receive, send)


def until(ws: Any, ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = ws.receive_json()
        if ok(m):
            return m


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def pings(root: Path, rounds: int) -> list[float]:
    db = root / "pings.db"
    app = create_app(
        f"sqlite:///{db}", timings=Timings(bot_pace=0, deal_pause=0, lock_timeout=1.0), limits=OPEN
    )
    out: list[float] = []
    with TestClient(app) as c:
        bots = {"kind": "bot", "bot": "random"}
        for _ in range(3):
            c.post("/api/tables", json={"seats": [bots, bots], "deals": 50})
        with c.websocket_connect("/ws") as w:
            locker = sqlite3.connect(db, timeout=5)
            locker.execute("BEGIN EXCLUSIVE")
            try:
                for i in range(rounds):

                    def ping(i: int = i) -> None:
                        w.send_json({"type": "ping", "id": i})
                        until(w, lambda m: m["type"] == "pong")

                    out.append(timed(ping))
            finally:
                locker.rollback()
                locker.close()
    return out


def flood(root: Path, rounds: int) -> list[float]:
    app = From(
        create_app(f"sqlite:///{root / 'flood.db'}", timings=Timings(bot_pace=0), limits=OPEN)
    )
    out: list[float] = []
    with TestClient(app) as c:
        c.post("/api/accounts", json={"name": "victim", "password": "secret-1"})
        stop = threading.Event()

        def guess(n: int) -> None:
            while not stop.is_set():
                c.post(
                    "/api/login",
                    json={"name": "victim", "password": f"guess-{n}"},
                    headers={"x-peer": f"198.51.100.{n}"},
                )

        threads = [threading.Thread(target=guess, args=(n,)) for n in range(10)]
        for t in threads:
            t.start()
        try:
            for i in range(rounds):
                body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": 1}]}
                peer = {"x-peer": f"203.0.113.{i % 250}"}
                out.append(timed(lambda b=body, p=peer: c.post("/api/tables", json=b, headers=p)))
        finally:
            stop.set()
            for t in threads:
                t.join()
    return out


def logins(root: Path, rounds: int) -> tuple[list[float], list[float]]:
    app = From(create_app(f"sqlite:///{root / 'logins.db'}", limits=OPEN))
    known: list[float] = []
    unknown: list[float] = []
    with TestClient(app) as c:
        c.post("/api/accounts", json={"name": "timed", "password": "secret-1"})
        for i in range(rounds):
            for name, into in (("timed", known), ("nobody-at-all", unknown)):
                body = {"name": name, "password": f"wrong-{i}"}
                peer = {"x-peer": f"192.0.2.{i % 250}"}
                into.append(timed(lambda b=body, p=peer: c.post("/api/login", json=b, headers=p)))
    return known, unknown


def show(name: str, xs: list[float]) -> None:
    ms = sorted(x * 1000 for x in xs)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    print(f"{name:28s} p50 {statistics.median(ms):8.1f}  p90 {p90:8.1f}  max {ms[-1]:8.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args(argv)
    rounds = max(1, min(200, args.rounds))
    with tempfile.TemporaryDirectory(prefix="durak-latency-") as tmp:
        root = Path(tmp)
        show("ping, database locked", pings(root, rounds))
        show("new table, login flood", flood(root, rounds))
        known, unknown = logins(root, rounds)
        show("login, wrong password", known)
        show("login, unknown name", unknown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
