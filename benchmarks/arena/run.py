"""Arena throughput on local processes and on a local Ray, and what Ray costs per game.

    .venv/bin/python benchmarks/arena/run.py [--games 2000] [--slow-games 30] [--repeat 2]

For each match: games per second with 1 and 2 workers under the process backend (1 worker
is the plain in-process loop) and under Ray (a local Ray with 1, then 2 CPUs, started
before and warmed up with a few games, so neither Ray's start nor its workers' first
import is counted; the start is reported apart). Wall times are the best of ``--repeat``
runs. Because the machine is shared, the CPU time is measured too, which load does not
inflate much: the parent process's own, and all of it (the parent, the pool's processes,
and Ray's daemons and workers: every process below this one). Ray's overhead per game is
its total CPU less the process backend's with as many workers, over the games; and the
round trip of an empty task on each backend is measured apart. Every run must give the
same games as the first.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import time
from typing import Any

from durak import Rules
from durak.arena import run_match
from durak.dist.executors import ProcessExecutor, RayExecutor

MATCHES = {
    "fast": ("heuristic", "greedy"),
    "slow": ("ismcts:iterations=20", "heuristic"),
}
TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu() -> dict[int, float]:
    """CPU seconds of every live process below this one (Linux /proc)."""
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(name)] = int(fields[1])
        cpu[int(name)] = (int(fields[11]) + int(fields[12])) / TICK
    me = os.getpid()
    out = {}
    for pid in cpu:
        p = parent.get(pid)
        while p and p != me:
            p = parent.get(p)
        if p == me:
            out[pid] = cpu[pid]
    return out


def all_cpu_since(start: tuple[float, float, dict[int, float]]) -> float:
    own, reaped, tree = start
    now = tree_cpu()
    live = sum(v - tree.get(pid, 0.0) for pid, v in now.items())
    return (time.process_time() - own) + (children_cpu() - reaped) + live


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(specs: tuple[str, ...], games: int, repeat: int, **kw: Any) -> dict[str, Any]:
    best: dict[str, Any] = {}
    for _ in range(repeat):
        start = (time.process_time(), children_cpu(), tree_cpu())
        c0, t0 = time.process_time(), time.perf_counter()
        r = run_match(Rules(), list(specs), games=games, seed=11, **kw)
        wall = time.perf_counter() - t0
        m = {
            "wall": wall,
            "cpu": time.process_time() - c0,
            "all": all_cpu_since(start),
            "games": r.games,
            "key": [
                {k: v for k, v in g.items() if k not in ("seconds", "clock")} for g in r.records
            ],
        }
        if not best or m["wall"] < best["wall"]:
            best = m
    return best


def empty_tasks(ex: Any, n: int = 2000) -> tuple[float, float]:
    """Wall and parent-CPU milliseconds per empty task."""
    list(ex.map_unordered(abs, range(50)))  # warm
    c0, t0 = time.process_time(), time.perf_counter()
    assert len(list(ex.map_unordered(abs, range(n)))) == n
    return 1000 * (time.perf_counter() - t0) / n, 1000 * (time.process_time() - c0) / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000, help="games of the fast match")
    ap.add_argument("--slow-games", type=int, default=30, help="games of the slow match")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each (best wall time)")
    args = ap.parse_args()
    sizes = {"fast": args.games, "slow": args.slow_games}
    reps = {"fast": args.repeat, "slow": 1}
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load before: "
        f"{os.getloadavg()[0]:.2f}; {os.cpu_count()} cores, Python "
        f"{platform.python_version()}"
    )
    rows: list[tuple[str, str, int, str, dict[str, Any]]] = []
    # the process backend first: a pool must not fork beside Ray's threads
    pool = ProcessExecutor(2)
    empty = {"process, 2 workers": empty_tasks(pool)}
    pool.close()
    for name, specs in MATCHES.items():
        for workers in (1, 2):
            rows.append(
                (
                    name,
                    "process",
                    workers,
                    "auto",
                    measure(specs, sizes[name], reps[name], jobs=workers),
                )
            )
    import ray

    starts = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        ray.init(address="local", num_cpus=workers, include_dashboard=False, logging_level="ERROR")
        starts[workers] = time.perf_counter() - t0
        run_match(
            Rules(), ["greedy", "greedy"], games=8 * workers, seed=1, backend="ray", batch=1
        )  # warm the workers up
        empty[f"ray, {workers} CPUs"] = empty_tasks(RayExecutor())
        for name, specs in MATCHES.items():
            rows.append(
                (
                    name,
                    "ray",
                    workers,
                    "auto",
                    measure(specs, sizes[name], reps[name], backend="ray"),
                )
            )
            if workers == 2:
                rows.append(
                    (
                        name,
                        "ray",
                        workers,
                        "1",
                        measure(specs, sizes[name], 1, backend="ray", batch=1),
                    )
                )
        ray.shutdown()
    print(f"load after: {os.getloadavg()[0]:.2f}")
    print(
        f"Ray start: {starts[1]:.1f} s with 1 CPU, {starts[2]:.1f} s with 2 "
        "(not in the times below)"
    )
    print(
        "empty task round trip (ms wall, ms parent CPU): "
        + "; ".join(f"{k} {w:.2f}, {c:.2f}" for k, (w, c) in empty.items())
    )
    print()
    print(
        "| match | backend | workers | deals/task | games | wall s | games/s "
        "| parent CPU ms/game | all CPU ms/game | Ray's extra CPU ms/game |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    base = {(n, w): m for n, b, w, bt, m in rows if b == "process"}
    first = {n: m for n, b, w, bt, m in reversed(rows)}
    for name, backend, workers, batch, m in rows:
        ref = base[(name, workers)]
        assert m["key"] == first[name]["key"], f"{name} {backend} {workers}: other games!"
        over = f"{1000 * (m['all'] - ref['all']) / m['games']:+.2f}" if backend == "ray" else ""
        print(
            f"| {name}: {' vs '.join(MATCHES[name])} | {backend} | {workers} | {batch} "
            f"| {m['games']} | {m['wall']:.2f} | {m['games'] / m['wall']:.1f} "
            f"| {1000 * m['cpu'] / m['games']:.2f} | {1000 * m['all'] / m['games']:.2f} "
            f"| {over} |"
        )
    print("\nevery run gave the same games")


if __name__ == "__main__":
    main()
