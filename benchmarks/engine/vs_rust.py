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
(``make``, or ``setup.py build_ext --inplace``) for the number that counts. ``--before
PATH`` runs a second source tree (another checkout's ``src``) in the same rounds, to
show a change's effect under the same load.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

# One Python measurement, in its own process so that another source tree (--before) can
# run beside this one: prints games per CPU-second of the public path.
_PY = (
    "import sys; from durak import Rules, bench; g = int(sys.argv[1]); "
    "bench.run_games(Rules(), 50, seed=99); "
    "_, s = bench.run_games(Rules(), g, seed=int(sys.argv[2])); print(g / s)"
)


def rust_rate(binary: str, games: int) -> float:
    """Games per CPU-second of the Rust peer's ``bench`` over ``games`` deals."""
    out = subprocess.run([binary, "bench", str(games)], capture_output=True, text=True, check=True)
    m = re.search(r"games/cpu-s ([0-9.]+)", out.stdout)
    if m is None:
        raise SystemExit(f"unexpected output of {binary} bench: {out.stdout!r}")
    return float(m.group(1))


def python_rate(games: int, seed: int, path: str | None = None) -> float:
    """Games per CPU-second of the public path over ``games`` deals, with the package
    found on ``path`` (None: as this process finds it)."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = path
    out = subprocess.run(
        [sys.executable, "-c", _PY, str(games), str(seed)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return float(out.stdout.strip())


def engine_of(path: str | None) -> str:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = path
    code = "from durak import build; print(build.engine_name(), build.__file__)"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env
    ).stdout.strip()


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rust", help="the Rust peer's binary (durak_rust, built by build.sh)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--games", type=int, default=2000, help="Python deals a round")
    p.add_argument("--rust-games", type=int, default=20000, help="Rust deals a round")
    p.add_argument(
        "--before", metavar="PATH", help="also run the package found on PATH (e.g. main's src)"
    )
    args = p.parse_args()
    print(f"engine: {engine_of(None)}")
    if args.before:
        print(f"before: {engine_of(args.before)}")
    print(f"load before: {uptime()}")
    head = f"{'round':>5}  {'python g/cpu-s':>14}  {'rust g/cpu-s':>12}  {'ratio':>6}"
    print(head + (f"  {'before g/cpu-s':>14}  {'ratio':>6}" if args.before else ""))
    py: list[float] = []
    rs: list[float] = []
    old: list[float] = []
    for r in range(args.rounds):
        # rotate which goes first, so that none always follows another
        runs = [
            lambda r=r: py.append(python_rate(args.games, seed=r)),
            lambda: rs.append(rust_rate(args.rust, args.rust_games)),
        ]
        if args.before:
            runs.append(lambda r=r: old.append(python_rate(args.games, seed=r, path=args.before)))
        for i in range(len(runs)):
            runs[(i + r) % len(runs)]()
        line = f"{r + 1:>5}  {py[-1]:>14.0f}  {rs[-1]:>12.0f}  {py[-1] / rs[-1]:>5.2f}x"
        print(line + (f"  {old[-1]:>14.0f}  {old[-1] / rs[-1]:>5.2f}x" if old else ""))
    a, b = statistics.median(py), statistics.median(rs)
    line = f"{'med':>5}  {a:>14.0f}  {b:>12.0f}  {a / b:>5.2f}x"
    if old:
        c = statistics.median(old)
        line += f"  {c:>14.0f}  {c / b:>5.2f}x"
    print(line)
    # each round's ratio compares two runs made seconds apart: steadier than the rates
    paired = statistics.median(x / y for x, y in zip(py, rs, strict=True))
    line = f"median of the rounds' ratios: {paired:.2f}x"
    if old:
        line += f" (before: {statistics.median(x / y for x, y in zip(old, rs, strict=True)):.2f}x)"
    print(line)
    print(f"load after: {uptime()}")


if __name__ == "__main__":
    main()
