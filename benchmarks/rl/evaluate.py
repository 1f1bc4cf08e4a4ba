"""The learned player against every rung of the bot ladder: paired deals, intervals.

Each deal is played from both seats (the arena's rotations), 2-player podkidnoy, so a
deal's luck cancels out. Prints the arena's table per opponent and a summary table::

    python benchmarks/rl/evaluate.py --games 200 > benchmarks/rl/results.txt

About 2 minutes of CPU without level 5, most of it the searcher's (level 5: 0.1 s a move).
"""

from __future__ import annotations

import argparse

from durak import Rules
from durak.arena import run_match


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--bot", default="learned")
    p.add_argument("--opponents", default="random,greedy,heuristic,expert", help="comma-separated")
    p.add_argument("--jobs", type=int, default=None)
    args = p.parse_args()
    rules = Rules.preset("podkidnoy")
    rows = []
    for opp in args.opponents.split(","):
        res = run_match(rules, [args.bot, opp], games=args.games, seed=args.seed, jobs=args.jobs)
        print(res.table(), "\n", flush=True)
        me = next(e for e in res.entrants if e.name == args.bot)
        lo, hi = me.score_ci
        rows.append((opp, res.games, me.score, lo, hi))
    print(f"{args.bot} in 2-player podkidnoy, paired deals, seed {args.seed}")
    print(f"{'opponent':<12} {'games':>6}  score [95% CI]")
    for opp, games, score, lo, hi in rows:
        print(f"{opp:<12} {games:>6}  {score:.3f} [{lo:.3f}, {hi:.3f}]")


if __name__ == "__main__":
    main()
