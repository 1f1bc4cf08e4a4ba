"""Is the review right? Its accuracy against the bots' strength, its blunders played out.

    python benchmarks/review/run.py games     # the ladder's round robin (arena run files)
    python benchmarks/review/run.py accuracy  # review them; accuracy per bot vs rating
    python benchmarks/review/run.py blunders  # moves tagged blunder played out by level 6

1. **games**: every pair of the ladder's bots (random, greedy, heuristic, level 4, expert,
   level 5, level 6) plays ``--deals`` deals of 2-player podkidnoy, each from both seats
   (``durak.arena.run_match``, run files in ``--out``: a stopped run continues).
2. **accuracy**: every game is reviewed (``durak.review``, default judge) from both seats;
   each bot's mean accuracy over its games beside its Bradley-Terry rating from the same
   games; the Spearman rank correlation of the two (the goal: ≥ 0.9).
3. **blunders**: for every move the review tags ``blunder``, the position (the game
   replayed to that ply) is played out ``--playouts`` times by level 6 in every seat
   after the move played and, with the same seeds, after the move the review found best;
   the mean difference in the mover's durak rate, with its 95% interval (the goal: ≥ 15
   points).

The numbers go to stdout; ``benchmarks/review/results.txt`` keeps the measured run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import sys
import time
from typing import Any

from durak import Rules
from durak.actions import Action
from durak.arena import bradley_terry, replay_game, run_match
from durak.bots import make
from durak.dist import runlog
from durak.review import Judge, review_game

LADDER = ("random", "greedy", "heuristic", "level4", "expert", "level5", "level6")
RULES = Rules.preset("podkidnoy")


def _path(out: str, a: str, b: str) -> str:
    return os.path.join(out, f"{a}-{b}.jsonl")


def games(out: str, deals: int, seed: int) -> None:
    os.makedirs(out, exist_ok=True)
    for a, b in itertools.combinations(LADDER, 2):
        t0 = time.process_time()
        run_match(RULES, [a, b], games=2 * deals, seed=seed, jobs=1, out=_path(out, a, b))
        print(f"{a} vs {b}: {time.process_time() - t0:.0f} s of CPU", file=sys.stderr)


def records(out: str, per_pair: int = 0) -> list[dict[str, Any]]:
    """The finished games of every pair's run file; ``per_pair``: only each pair's first
    that many deals (both of their games), 0 every one."""
    recs: list[dict[str, Any]] = []
    for a, b in itertools.combinations(LADDER, 2):
        path = _path(out, a, b)
        if os.path.exists(path):
            done = runlog.read_path(path).complete_deals()
            deals = sorted(done)[:per_pair] if per_pair else sorted(done)
            recs += [r for d in deals for r in done[d]]
    return recs


def spearman(x: list[float], y: list[float]) -> float:
    """The rank correlation of two lists (no ties expected)."""

    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        for k, i in enumerate(order):
            r[i] = float(k)
        return r

    rx, ry = ranks(x), ranks(y)
    n = len(x)
    return 1 - 6 * sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True)) / (n * (n * n - 1))


def accuracy(out: str, worlds: int, depth: int, dump: str, per_pair: int) -> None:
    # the ratings from every game; the review of each pair's first ``per_pair`` deals
    wins: dict[tuple[str, str], float] = {}
    for rec in records(out):
        seats, durak = rec["seats"], rec["durak"]
        for s in (0, 1):
            me, other = seats[s], seats[1 - s]
            wins[(me, other)] = wins.get((me, other), 0.0) + (
                0.5 if durak is None else float(durak != s)
            )
    recs = records(out, per_pair)
    acc: dict[str, list[float]] = {b: [] for b in LADDER}
    judged = []
    t0 = time.process_time()
    for k, rec in enumerate(recs):
        seats = rec["seats"]
        g = replay_game(RULES, rec)
        review = review_game(g, Judge(worlds=worlds, depth=depth, seed=k))
        for sr in review.seats:
            if sr.moves:
                acc[seats[sr.seat]].append(sr.accuracy)
        for m in review.moves:
            judged.append({"record": k, "bot": seats[m.seat], **m.__dict__})
        if k % 20 == 0:
            print(f"{k}/{len(recs)} games reviewed, {time.process_time() - t0:.0f} s of CPU",
                  file=sys.stderr)  # fmt: skip
    cpu = time.process_time() - t0
    ratings = bradley_terry(list(LADDER), wins, anchor="random")
    each = cpu / max(1, len(recs))
    print(f"{len(recs)} games reviewed in {cpu:.0f} s of CPU ({each:.1f} s a game)")
    print(f"{'bot':<10} {'rating':>7} {'accuracy':>9} {'games':>6}")
    xs, ys = [], []
    for b in LADDER:
        mean = sum(acc[b]) / len(acc[b]) if acc[b] else float("nan")
        print(f"{b:<10} {ratings[b]:7.0f} {mean:9.1f} {len(acc[b]):6d}")
        xs.append(ratings[b])
        ys.append(mean)
    print(f"Spearman rank correlation of accuracy and rating: {spearman(xs, ys):.3f}")
    with open(dump, "w", encoding="utf-8") as f:
        json.dump(judged, f)


def blunders(out: str, dump: str, playouts: int, limit: int, per_pair: int) -> None:
    recs = records(out, per_pair)
    with open(dump, encoding="utf-8") as f:
        judged = [m for m in json.load(f) if m["tag"] == "blunder"][:limit]
    diffs = []
    t0 = time.process_time()
    for n, m in enumerate(judged):
        g = replay_game(RULES, recs[m["record"]])
        pos = g.fresh()
        for a in g.history[: m["ply"]]:
            pos.apply(a)
        rates = []
        for move in (m["action"], m["best"]):
            lost = 0.0
            for p in range(playouts):
                h = pos.clone()
                h.apply(Action.parse(move))
                bots = [make("level6", seed=1000 * n + 10 * p + s) for s in (0, 1)]
                while not h.is_over:
                    s = h.to_act
                    assert s is not None
                    h.apply(bots[s].choose(h.observation(s)))
                o = h.outcome
                assert o is not None
                lost += 0.5 if o.durak is None else float(o.durak == m["seat"])
            rates.append(100 * lost / playouts)
        diffs.append(rates[0] - rates[1])
        print(f"blunder {n + 1}/{len(judged)}: review +{m['loss']:.1f}, played out "
              f"{rates[0]:.0f}% vs {rates[1]:.0f}% ({time.process_time() - t0:.0f} s)",
              file=sys.stderr)  # fmt: skip
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
    half = 1.96 * sd / math.sqrt(len(diffs))
    print(f"{len(diffs)} blunders, {playouts} playouts each by level 6 from both moves: the "
          f"played move's durak rate exceeds the best's by {mean:.1f} points "
          f"[{mean - half:.1f}, {mean + half:.1f}]")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("command", choices=("games", "accuracy", "blunders"))
    ap.add_argument("--out", default="scratch/review")
    ap.add_argument("--deals", type=int, default=10, help="deals a pair (each from both seats)")
    ap.add_argument("--seed", type=int, default=47)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--playouts", type=int, default=20)
    ap.add_argument("--limit", type=int, default=40, help="blunders played out at most")
    ap.add_argument("--per-pair", type=int, default=0,
                    help="accuracy: review each pair's first N deals (0: all)")  # fmt: skip
    args = ap.parse_args(argv)
    dump = os.path.join(args.out, "judged.json")
    if args.command == "games":
        games(args.out, args.deals, args.seed)
    elif args.command == "accuracy":
        accuracy(args.out, args.worlds, args.depth, dump, args.per_pair)
    else:
        blunders(args.out, dump, args.playouts, args.limit, args.per_pair)
    return 0


if __name__ == "__main__":
    sys.exit(main())
