"""Paired comparison of arena results on the same deals (same seed, same opponent).

    python benchmarks/bots/paired.py BASE.json OTHER.json ...

For each file, the first bot's score (1 not durak, 1/2 draw, 0 durak; averaged over the
games of a deal) over the deals every file played, and its difference from BASE's
with a 95% interval that treats each deal as one paired sample: differences between
variants measured on the same deals are far less noisy than separate runs.
"""

from __future__ import annotations

import json
import math
import sys


def per_deal(path: str) -> dict[int, float]:
    """The first bot's mean score per deal of an arena/chunked.py JSON file."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    name = data["bots"][0]
    scores: dict[int, list[float]] = {}
    for r in data["records"]:
        for seat, spec in enumerate(r["seats"]):
            if spec == name:
                v = 0.5 if r["durak"] is None else (0.0 if r["durak"] == seat else 1.0)
                scores.setdefault(int(r["deal"]), []).append(v)
    return {d: sum(v) / len(v) for d, v in scores.items()}


def main(paths: list[str]) -> None:
    data = [per_deal(p) for p in paths]
    common = sorted(set.intersection(*(set(d) for d in data)))
    n = len(common)
    if not n:
        sys.exit("no deal is common to every file")
    base = data[0]
    for path, d in zip(paths, data, strict=True):
        diffs = [d[k] - base[k] for k in common]
        m = sum(diffs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / max(1, n - 1))
        own = sum(d.values()) / len(d)
        half = 1.96 * sd / math.sqrt(n)
        print(
            f"{path:48s} {n:4d} common deals: {sum(d[k] for k in common) / n:.3f} "
            f"(all {len(d)} deals: {own:.3f}), vs first {m:+.3f} ± {half:.3f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
