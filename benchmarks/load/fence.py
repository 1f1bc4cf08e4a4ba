"""What the fencing token costs a write (docs/scale.md): an action stored with the
table's epoch checked first (``Store.begin``: one ``UPDATE`` of the table's row in the
same transaction) against one stored without, on a throwaway PostgreSQL started here.

    .venv/bin/python benchmarks/load/fence.py --writes 1000 --rounds 5

The two kinds alternate in blocks of ``--writes`` actions, ``--rounds`` times each, so
that the machine's load falls on both alike. Printed: p50 and p99 of a write, each kind.

Bounded: at most 10000 writes a block and 20 rounds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from tests import services  # noqa: E402  (the throwaway PostgreSQL)

from durak.server.store import Fence, Store  # noqa: E402


def block(store: Store, fence: Fence | None, deal_no: int, writes: int) -> list[float]:
    """Seconds each of ``writes`` actions took to store, in a deal of their own."""
    deal = store.start_deal("t", 1, deal_no, 1, 0, 0, "podkidnoy()", ["a", "b"])
    took = []
    with store.fenced(fence):
        for ply in range(writes):
            t0 = time.perf_counter()
            store.add_action(deal, ply, ply % 2, "6♠")
            took.append(time.perf_counter() - t0)
    return took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--writes", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    writes, rounds = min(args.writes, 10_000), min(args.rounds, 20)
    pg = services.postgres(own=True)
    url = next(pg)
    try:
        store = Store(url)
        row = {"id": "t", "rules": "podkidnoy()", "status": "playing", "match_no": 1, "epoch": 1}
        store.create_table(row, [])
        took: dict[str, list[float]] = {"unfenced": [], "fenced": []}
        for r in range(rounds):
            took["unfenced"] += block(store, None, 2 * r + 1, writes)
            took["fenced"] += block(store, ("t", 1), 2 * r + 2, writes)
        store.close()
    finally:
        pg.close()
    for kind, xs in took.items():
        xs.sort()
        p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
        print(
            f"{kind}: {len(xs)} writes, p50 {statistics.median(xs) * 1000:.3f} ms, "
            f"p99 {p99 * 1000:.3f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
