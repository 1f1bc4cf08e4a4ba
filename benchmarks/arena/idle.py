"""CPU that a local Ray with 2 CPUs uses while it does nothing (its daemons), over 10 s.

.venv/bin/python benchmarks/arena/idle.py
"""

from __future__ import annotations

import os
import sys
import time

import ray

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import tree_cpu  # noqa: E402 (this folder is not a package)


def main() -> None:
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR")
    time.sleep(3)  # let the start settle
    before, c0, t0 = tree_cpu(), time.process_time(), time.perf_counter()
    time.sleep(10)
    after = tree_cpu()
    wall = time.perf_counter() - t0
    idle = sum(v - before.get(p, 0.0) for p, v in after.items()) + time.process_time() - c0
    print(f"idle Ray: {idle:.2f} CPU s in {wall:.1f} s = {100 * idle / wall:.1f}% of a core")
    ray.shutdown()


if __name__ == "__main__":
    main()
