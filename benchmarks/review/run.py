"""Is the review right? Its accuracy against the bots' strength, its blunders played out.

    python benchmarks/review/run.py games                    # the ladder's round robin
    python benchmarks/review/run.py review --shard 1/2 &     # review every game, in two
    python benchmarks/review/run.py review --shard 2/2       #   processes (they continue)
    python benchmarks/review/run.py blunders --shard 1/2 &   # play the blunders out
    python benchmarks/review/run.py blunders --shard 2/2
    python benchmarks/review/run.py summary                  # the two tables

1. **games**: every pair of the ladder's bots (random, greedy, heuristic, level 4, expert,
   level 5, level 6) plays ``--deals`` deals of 2-player podkidnoy, each from both seats
   (``durak.arena.run_match``, run files in ``--out``: a stopped run continues).
2. **review**: every game is reviewed (``durak.review``, the default judge, seeded by the
   game's key) from both seats; rows in ``--out``/reviewed-I.jsonl (a stopped run goes on).
   **accuracy** (in ``summary``): each bot's mean accuracy over its games (recomputed
   from the stored judged moves with today's ``seat_accuracy``) beside its Bradley-Terry
   rating from the round robin's games (``--rated-with``: and other runs'); the Spearman
   rank correlation of the two (the goal: ≥ 0.9).
3. **blunders**: for ``--limit`` of the moves the review tags ``blunder`` (evenly spread
   over them in the order of their keys), the game is
   replayed to that ply and played out ``--playouts`` times by level 6 in both seats after
   the move played and, with the same seeds, after the move the review found best; the
   mean difference in the mover's durak rate, with its 95% interval (the goal: ≥ 15
   points), in ``summary``.

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
import zlib
from typing import Any

from durak import Rules
from durak.actions import Action
from durak.arena import bradley_terry, replay_game, run_match
from durak.bots import make
from durak.dist import runlog
from durak.review import Judge, MoveReview, review_game, seat_accuracy

LADDER = ("random", "greedy", "heuristic", "level4", "expert", "level5", "level6")
RULES = Rules.preset("podkidnoy")


def _path(out: str, a: str, b: str) -> str:
    return os.path.join(out, f"{a}-{b}.jsonl")


def games(out: str, deals: int, seed: int, shard: str = "1/1") -> None:
    """Play this shard's pairs (``I/N``: every N-th pair from the I-th) of the round robin."""
    i, n = (int(x) for x in shard.split("/"))
    os.makedirs(out, exist_ok=True)
    for a, b in list(itertools.combinations(LADDER, 2))[i - 1 :: n]:
        t0 = time.process_time()
        run_match(RULES, [a, b], games=2 * deals, seed=seed, jobs=1, out=_path(out, a, b))
        print(f"{a} vs {b}: {time.process_time() - t0:.0f} s of CPU", file=sys.stderr)


def records(out: str, per_pair: int = 0) -> list[tuple[str, dict[str, Any]]]:
    """The finished games of every pair's run file, each with its key (``a-b/deal/i``);
    ``per_pair``: only each pair's first that many deals (both of their games), 0 all."""
    recs: list[tuple[str, dict[str, Any]]] = []
    for a, b in itertools.combinations(LADDER, 2):
        path = _path(out, a, b)
        if os.path.exists(path):
            done = runlog.read_path(path).complete_deals()
            deals = sorted(done)[:per_pair] if per_pair else sorted(done)
            recs += [(f"{a}-{b}/{d}/{i}", r) for d in deals for i, r in enumerate(done[d])]
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


def review_share(out: str, worlds: int, depth: int, per_pair: int, shard: str) -> None:
    """Review this shard's games (``I/N``: every N-th from the I-th) not reviewed yet,
    each judged with a seed of its own key; appended to ``reviewed-I.jsonl``."""
    i, n = (int(x) for x in shard.split("/"))
    path = os.path.join(out, f"reviewed-{i}.jsonl")
    done = {row["key"] for row in _reviewed(out)}
    todo = [(k, r) for j, (k, r) in enumerate(records(out, per_pair)) if j % n == i - 1]
    todo = [(k, r) for k, r in todo if k not in done]
    t0 = time.process_time()
    with open(path, "a", encoding="utf-8") as f:
        for j, (key, rec) in enumerate(todo):
            g = replay_game(RULES, rec)
            review = review_game(
                g, Judge(worlds=worlds, depth=depth, seed=zlib.crc32(key.encode()))
            )
            row = {
                "key": key,
                "seats": rec["seats"],
                "accuracy": {sr.seat: sr.accuracy for sr in review.seats if sr.moves},
                "moves": [m.__dict__ for m in review.moves],
                "cpu": time.process_time() - t0,
            }
            f.write(json.dumps(row) + "\n")
            f.flush()
            if j % 20 == 0:
                print(f"{j}/{len(todo)} games reviewed, {time.process_time() - t0:.0f} s of CPU",
                      file=sys.stderr)  # fmt: skip


def _reviewed(out: str) -> list[dict[str, Any]]:
    return _rows(out, "reviewed-")


def _rows(out: str, prefix: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name in sorted(os.listdir(out)):
        if name.startswith(prefix) and name.endswith(".jsonl"):
            with open(os.path.join(out, name), encoding="utf-8") as f:
                rows += [json.loads(line) for line in f if line.strip()]
    return rows


def _by_seat(row: dict[str, Any]) -> dict[int, list[MoveReview]]:
    """A reviewed game's judged moves by seat, so that the accuracy is recomputed from
    them with today's formula (``seat_accuracy``), whatever the row was reviewed with."""
    seats: dict[int, list[MoveReview]] = {}
    for m in row["moves"]:
        seats.setdefault(m["seat"], []).append(MoveReview(**m))
    return seats


def accuracy(out: str, per_pair: int, rated: tuple[str, ...] = ()) -> None:
    """Each bot's mean accuracy over its reviewed games beside its Bradley-Terry rating
    from the round robin's games (each pair's first ``per_pair`` deals if given, and every
    game of the runs in ``rated``), and their rank correlation."""
    wins: dict[tuple[str, str], float] = {}
    own = records(out, per_pair)
    for _, rec in own + [r for o in rated for r in records(o)]:
        seats, durak = rec["seats"], rec["durak"]
        for s in (0, 1):
            me, other = seats[s], seats[1 - s]
            wins[(me, other)] = wins.get((me, other), 0.0) + (
                0.5 if durak is None else float(durak != s)
            )
    keys = {k for k, _ in own}
    rows = [r for r in _reviewed(out) if r["key"] in keys]
    acc: dict[str, list[float]] = {b: [] for b in LADDER}
    for row in rows:
        for seat, moves in _by_seat(row).items():
            acc[row["seats"][seat]].append(seat_accuracy(moves))
    ratings = bradley_terry(list(LADDER), wins, anchor="random")
    print(f"{len(rows)} of {len(keys)} games reviewed")
    print(f"{'bot':<10} {'rating':>7} {'accuracy':>9} {'[95%]':>13} {'games':>6}")
    xs, ys = [], []
    for b in LADDER:
        v = acc[b]
        mean = sum(v) / len(v) if v else float("nan")
        sd = math.sqrt(sum((x - mean) ** 2 for x in v) / max(1, len(v) - 1)) if v else 0.0
        half = 1.96 * sd / math.sqrt(max(1, len(v)))
        print(f"{b:<10} {ratings[b]:7.0f} {mean:9.1f} [{mean - half:5.1f}, {mean + half:5.1f}] "
              f"{len(v):6d}")  # fmt: skip
        xs.append(ratings[b])
        ys.append(mean)
    print(f"Spearman rank correlation of accuracy and rating: {spearman(xs, ys):.3f}")


def blunders(out: str, playouts: int, limit: int, per_pair: int, shard: str) -> None:
    """``limit`` of the moves tagged blunder (spread evenly), this shard's share, each
    played out by level 6 in both seats after the move and after the best one, with the
    same seeds; a row each in ``playouts-I.jsonl``."""
    recs = dict(records(out, per_pair))
    i, n = (int(x) for x in shard.split("/"))
    path = os.path.join(out, f"playouts-{i}.jsonl")
    done = {(r["key"], r["ply"]) for r in _rows(out, "playouts-")}
    t0 = time.process_time()
    for m in _blunders(out, recs, limit)[i - 1 :: n]:
        if (m["key"], m["ply"]) in done:
            continue
        g = replay_game(RULES, recs[m["key"]])
        rates = []
        for move in (m["action"], m["best"]):
            lost = 0.0
            for p in range(playouts):
                seed = zlib.crc32(f"{m['key']}/{m['ply']}/{p}".encode())
                bots = [make("level6", seed=seed + s) for s in (0, 1)]
                h = g.fresh()
                for a in [*g.history[: m["ply"]], Action.parse(move)]:
                    for s in (0, 1):  # (what each seat saw of the deal so far)
                        bots[s].observe(h.observation(s))
                    h.apply(a)
                while not h.is_over:
                    who = h.to_act
                    assert who is not None
                    h.apply(bots[who].choose(h.observation(who)))
                o = h.outcome
                assert o is not None
                lost += 0.5 if o.durak is None else float(o.durak == m["seat"])
            rates.append(100 * lost / playouts)
        row = {"key": m["key"], "ply": m["ply"], "loss": m["loss"], "played": rates[0],
               "best": rates[1], "playouts": playouts}  # fmt: skip
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        print(f"blunder {m['key']} ply {m['ply']}: review +{m['loss']:.1f}, played out "
              f"{rates[0]:.0f}% vs {rates[1]:.0f}% ({time.process_time() - t0:.0f} s)",
              file=sys.stderr)  # fmt: skip


def _blunders(out: str, recs: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    tagged = [
        {"key": r["key"], **m}
        for r in _rows(out, "reviewed-")
        if r["key"] in recs
        for m in r["moves"]
        if m["tag"] == "blunder"
    ]
    tagged.sort(key=lambda m: (m["key"], m["ply"]))
    # evenly spread over every pair's games: ``limit`` of them, by key
    step = max(1.0, len(tagged) / limit)
    return [tagged[int(k * step)] for k in range(min(limit, len(tagged)))]


def played_out(out: str, limit: int, per_pair: int) -> None:
    """The blunders' playouts: the played move's durak rate over the best's, with its 95%
    interval."""
    recs = dict(records(out, per_pair))
    want = {(m["key"], m["ply"]) for m in _blunders(out, recs, limit)}
    rows = [r for r in _rows(out, "playouts-") if (r["key"], r["ply"]) in want]
    if not rows:
        print("no blunder played out yet")
        return
    diffs = [r["played"] - r["best"] for r in rows]
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
    half = 1.96 * sd / math.sqrt(len(diffs))
    loss = sum(r["loss"] for r in rows) / len(rows)
    print(f"{len(rows)} of {len(want)} blunders played out, {rows[0]['playouts']} playouts each "
          f"by level 6 from both moves: the played move's durak rate exceeds the best's by "
          f"{mean:.1f} points [{mean - half:.1f}, {mean + half:.1f}] (the review said "
          f"{loss:.1f})")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("command", choices=("games", "review", "accuracy", "blunders", "summary"))
    ap.add_argument("--out", default="scratch/review")
    ap.add_argument("--deals", type=int, default=10, help="deals a pair (each from both seats)")
    ap.add_argument("--seed", type=int, default=47)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--playouts", type=int, default=10)
    ap.add_argument("--limit", type=int, default=40, help="blunders played out at most")
    ap.add_argument("--per-pair", type=int, default=0,
                    help="review each pair's first N deals (0: all)")  # fmt: skip
    ap.add_argument("--rated-with", nargs="*", default=[],
                    help="other runs' --out whose games also count in the ratings")  # fmt: skip
    ap.add_argument(
        "--shard", default="1/1", help="I/N: this process's share (games, review, blunders)"
    )
    args = ap.parse_args(argv)
    if args.command == "games":
        games(args.out, args.deals, args.seed, args.shard)
    elif args.command == "review":
        review_share(args.out, args.worlds, args.depth, args.per_pair, args.shard)
    elif args.command == "accuracy":
        accuracy(args.out, args.per_pair, tuple(args.rated_with))
    elif args.command == "blunders":
        blunders(args.out, args.playouts, args.limit, args.per_pair, args.shard)
    else:
        accuracy(args.out, args.per_pair, tuple(args.rated_with))
        played_out(args.out, args.limit, args.per_pair)
    return 0


if __name__ == "__main__":
    sys.exit(main())
