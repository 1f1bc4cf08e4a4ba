"""The learning curve (``curve.csv``, written by ``train.py``) as a picture::

.venv/bin/python benchmarks/rl/plot.py benchmarks/rl/curve.csv benchmarks/rl/curve.png
"""

from __future__ import annotations

import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src: str, out: str) -> None:
    with open(src, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    deals = [int(r["deals"]) for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for name in ("greedy", "heuristic"):
        ax.plot(deals, [float(r[name]) for r in rows], marker="o", label=f"against {name}")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("training deals played by the expert")
    ax.set_ylabel("score (100 deals, both seats)")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title("learned player: imitation of the expert, 2-player podkidnoy")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
