"""Learning curves as pictures: ``curve.csv`` (``train.py``: the imitation run's scores
against greedy and heuristic), ``ppo_curve.csv`` (``ppo.py``: the score of the deals each
MaskablePPO rollout finished against its training opponent) or ``dmc_curve.csv``
(``dmc.py``: the Deep Monte-Carlo learner's scores against greedy and heuristic)::

    .venv/bin/python benchmarks/rl/plot.py benchmarks/rl/curve.csv benchmarks/rl/curve.png
    .venv/bin/python benchmarks/rl/plot.py benchmarks/rl/ppo_curve.csv benchmarks/rl/ppo_curve.png
    .venv/bin/python benchmarks/rl/plot.py benchmarks/rl/dmc_curve.csv benchmarks/rl/dmc_curve.png
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
    fig, ax = plt.subplots(figsize=(6, 3.5))
    if rows and "steps" in rows[0]:
        steps = [int(r["steps"]) for r in rows]
        ax.plot(steps, [float(r["score"]) for r in rows], label="rollout's finished deals")
        ax.set_xlabel("learner steps (16 deals stepped together)")
        ax.set_ylabel("score against the training opponent")
        ax.set_title("MaskablePPO on the vectorised env, 2-player podkidnoy")
    else:
        deals = [int(r["deals"]) for r in rows]
        for name in ("greedy", "heuristic"):
            ax.plot(deals, [float(r[name]) for r in rows], marker="o", label=f"against {name}")
        ax.set_ylabel("score (100 deals, both seats)")
        if rows and "updates" in rows[0]:
            ax.set_xlabel("training deals (self-play: both seats the learner)")
            ax.set_title("Deep Monte-Carlo, Q(s, a), 2-player podkidnoy")
        else:
            ax.set_xlabel("training deals played by the expert")
            ax.set_title("learned player: imitation of the expert, 2-player podkidnoy")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
