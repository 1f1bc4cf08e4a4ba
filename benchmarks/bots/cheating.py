"""шулерский (docs/rules.md 11): the cheater and the catcher against honest play.

Two-player deals of ``shulerskiy`` (with the bots' action limit), seat 0 against seat 1,
seeds 0..N-1; prints deals lost by each seat, cheats made, calls made and wrong calls.

    PYTHONPATH=src python benchmarks/bots/cheating.py 200
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.helpers import cheating_deals  # noqa: E402  (the tests count the same way)

PAIRS = (("cheater", "heuristic"), ("heuristic", "heuristic"), ("cheater", "catcher"))


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(f"# {n} deals each; load average {os.getloadavg()[0]:.1f}")
    print("seat 0     seat 1      lost0 lost1 cheats calls wrong  seconds")
    for a, b in PAIRS:
        t = time.perf_counter()
        lost, cheats, calls, wrong = cheating_deals(a, b, n)
        dt = time.perf_counter() - t
        print(f"{a:10} {b:10} {lost[0]:6} {lost[1]:5} {cheats:6} {calls:5} {wrong:5} {dt:8.1f}")


if __name__ == "__main__":
    main()
