"""Load on several workers: the same tables on 1 worker and on 2 (``durak serve --redis``,
one PostgreSQL and one Redis, throwaway servers started here), side by side.

    .venv/bin/python benchmarks/load/workers.py --tables 40,80,120 --seconds 30

For each worker count and each table count: that many tables of ``run.py`` (two people
and a level-2 bot, a person thinks 0.8 s ± 40 %), played for ``--seconds``. Table ``i``
is made on worker ``i mod N``; its first person connects there (the owner: *direct*),
its second to the next worker (with 2 workers that socket's frames cross Redis both
ways: *relayed*; with 1 worker both are direct). Measured by each client: the time from
sending an action to receiving the update that carries it. Printed per run: p50/p99 of
all moves, of the direct and of the relayed ones (their difference is what Redis adds),
and the workers' CPU; at the end, the most tables each worker count held with a move's
p99 at or under 250 ms.

Bounded: at most 1000 tables and 600 seconds a run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))

import run as single  # noqa: E402  (this folder's run.py: the person at a table)
from tests import services  # noqa: E402  (the throwaway PostgreSQL and Redis)

AIM = 0.250  # seconds: a person's move, p99


def start_workers(n: int, db: str, redis: str, bot_pace: float) -> list[tuple[str, int]]:
    out = []
    for i in range(n):
        port = single.free_port()
        proc = single.serve(
            port,
            db,
            *("--redis", redis, "--worker-id", f"w{i}", "--bot-pace", str(bot_pace)),
            *("--deal-pause", "1", "--log-level", "warning"),
            # 250 tables' people share each loopback /24 here: not one network's.
            *("--limit", "tables_per_network=1000"),
        )
        out.append((f"http://127.0.0.1:{port}", proc.pid))
    for base, _ in out:
        single.wait_up(base, 20)
    return out


async def run_tables(
    args: argparse.Namespace, bases: list[str], tables: int
) -> tuple[single.Stats, single.Stats]:
    """(direct, relayed) stats of ``tables`` tables played for ``args.seconds``."""
    direct, relayed = single.Stats(), single.Stats()
    made = []
    for i in range(tables):
        table, tok0, tok1, addr = await single.make_table(bases[i % len(bases)], i, args.bot_level)
        made.append((i, table, tok0, tok1, addr))
    stop_at = time.monotonic() + args.seconds
    rng = random.Random(args.seed)
    clients = [httpx.AsyncClient(base_url=b, timeout=30) for b in bases]
    tasks = []
    for i, table, tok0, tok1, addr in made:
        n = len(bases)
        for seat, tok, at in ((0, tok0, i % n), (1, tok1, (i + 1) % n)):
            stats = direct if at == i % n else relayed
            url = bases[at].replace("http", "ws") + "/ws"
            person = single.Person(url, table, tok, seat, addr)
            rng_i = random.Random(rng.random())
            tasks.append(single.player(person, clients[at], args.think, stop_at, stats, rng_i))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for c in clients:
        await c.aclose()
    failed = sum(1 for r in results if isinstance(r, BaseException))
    direct.disconnects = relayed.disconnects = failed
    return direct, relayed


def stop(pids: Iterable[int], grace: float = 15.0) -> None:
    """Stop the workers and wait until they are gone: a worker drains its tables on
    SIGTERM, and one still running would join the next run's cluster (same Redis and
    database, emptied under it) and adopt its tables. SIGKILL after ``grace`` seconds."""
    left = list(pids)
    for pid in left:
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while left:
        left = [pid for pid in left if os.waitpid(pid, os.WNOHANG) == (0, 0)]
        if left and time.monotonic() > deadline:
            for pid in left:
                os.kill(pid, signal.SIGKILL)
            for pid in left:
                os.waitpid(pid, 0)
            return
        time.sleep(0.1)


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000 if xs else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="40,80,120", help="table counts, comma-separated")
    ap.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--think", type=float, default=0.8)
    ap.add_argument("--bot-pace", type=float, default=0.8)
    ap.add_argument("--bot-level", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    # Stopped with SIGTERM, it still stops its workers and servers (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    args.seconds = min(args.seconds, single.MAX_SECONDS)
    counts = [min(int(x), single.MAX_TABLES) for x in args.tables.split(",")]
    pg, rd = services.postgres(), services.redis()
    db, redis_url = next(pg), next(rd)
    held: dict[int, int] = {}
    try:
        for n in [int(x) for x in args.workers.split(",")]:
            held[n] = 0
            for tables in counts:
                from sqlalchemy import create_engine, text

                eng = create_engine(db)
                with eng.begin() as c:
                    c.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
                eng.dispose()
                import redis

                redis.Redis.from_url(redis_url).flushall()
                workers = start_workers(n, db, redis_url, args.bot_pace)
                try:
                    cpu0 = [single.cpu_seconds(pid) for _, pid in workers]
                    t0 = time.monotonic()
                    direct, relayed = asyncio.run(run_tables(args, [b for b, _ in workers], tables))
                    wall = time.monotonic() - t0
                    cpu = [
                        single.cpu_seconds(pid) - c
                        for (_, pid), c in zip(workers, cpu0, strict=True)
                    ]
                finally:
                    stop(pid for _, pid in workers)
                every = direct.latencies + relayed.latencies
                p99 = pct(every, 99)
                if p99 <= AIM * 1000:
                    held[n] = max(held[n], tables)
                line = (
                    f"workers {n} tables {tables}: moves {len(every)}, p50 {pct(every, 50):.1f} "
                    f"ms, p99 {p99:.1f} ms; direct p50 {pct(direct.latencies, 50):.1f} / p99 "
                    f"{pct(direct.latencies, 99):.1f} ms"
                )
                if relayed.latencies:
                    line += (
                        f"; relayed p50 {pct(relayed.latencies, 50):.1f} / p99 "
                        f"{pct(relayed.latencies, 99):.1f} ms"
                    )
                line += (
                    f"; worker CPU {', '.join(f'{100 * c / wall:.0f}%' for c in cpu)}; "
                    f"errors {dict(direct.errors, **relayed.errors) or 'none'}; "
                    f"clients failed {direct.disconnects}; load {os.getloadavg()[0]:.1f}"
                )
                print(line, flush=True)
    finally:
        for g in (pg, rd):
            for _ in g:
                pass
    for n, t in held.items():
        print(f"workers {n}: held {t} tables at a move's p99 <= {AIM * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
