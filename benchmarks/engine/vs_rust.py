"""The engine's public path against the Rust engine of jorisperrenet/durak, side by side.

Both play random 2-player podkidnoy deals in one thread and count games per CPU-second
of their own process: the Python side through the public path (``Game(rules, seed)``,
``legal_actions()``, ``apply()`` with a random legal action: ``durak.bench.run_games``),
the Rust side with its ``bench N`` command (built offline by
``../shared/rustpeer/build.sh``, never part of this repository). The two alternate,
round by round, so that both see the same load; the table shows each round and the
median of the rounds, and the machine's load (``uptime``) before and after.

    python benchmarks/engine/vs_rust.py /tmp/rustpeer/rust_version/target/release/durak_rust

Which engine runs (compiled or pure Python) is printed: compile it first
(``make``, or ``setup.py build_ext --inplace``) for the number that counts.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess

from durak import Rules, bench, build


def rust_rate(binary: str, games: int) -> float:
    """Games per CPU-second of the Rust peer's ``bench`` over ``games`` deals."""
    out = subprocess.run([binary, "bench", str(games)], capture_output=True, text=True, check=True)
    m = re.search(r"games/cpu-s ([0-9.]+)", out.stdout)
    if m is None:
        raise SystemExit(f"unexpected output of {binary} bench: {out.stdout!r}")
    return float(m.group(1))


def python_rate(games: int, seed: int) -> float:
    """Games per CPU-second of the public path over ``games`` deals."""
    _, secs = bench.run_games(Rules(), games, seed=seed)
    return games / secs


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rust", help="the Rust peer's binary (durak_rust, built by build.sh)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--games", type=int, default=2000, help="Python deals a round")
    p.add_argument("--rust-games", type=int, default=20000, help="Rust deals a round")
    args = p.parse_args()
    print(f"engine: {build.engine_name()}; load before: {uptime()}")
    print(f"{'round':>5}  {'python g/cpu-s':>14}  {'rust g/cpu-s':>12}  {'ratio':>6}")
    py, rs = [], []
    python_rate(50, seed=99)  # warm up: imports, caches
    for r in range(args.rounds):
        # alternate which goes first, so that neither always follows the other
        if r % 2:
            b = rust_rate(args.rust, args.rust_games)
            a = python_rate(args.games, seed=r)
        else:
            a = python_rate(args.games, seed=r)
            b = rust_rate(args.rust, args.rust_games)
        py.append(a)
        rs.append(b)
        print(f"{r + 1:>5}  {a:>14.0f}  {b:>12.0f}  {a / b:>5.2f}x")
    a, b = statistics.median(py), statistics.median(rs)
    print(f"{'med':>5}  {a:>14.0f}  {b:>12.0f}  {a / b:>5.2f}x")
    print(f"load after: {uptime()}")


if __name__ == "__main__":
    main()
