"""A long arena match that saves as it goes: the deals are played in order and, after
every deal, the summary so far is written to the JSON file (and the text table next to
it), so that a run cut short still leaves every finished deal measured.

    python benchmarks/bots/chunked.py out.json --bots level5 expert --games 400 \
        --rules perevodnoy --seed 41

Same deals, seats and statistics as ``durak arena`` with the same seed (it calls the
arena's own functions); one process. ``--deals 0:67`` plays only those deals (to split
a match over processes); ``--merge out.json part1.json part2.json ...`` joins the parts'
games into one summary.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time

from durak.arena import _play_deal, lineups, make_bot, summarize
from durak.rules import Rules


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--bots", nargs="+", default=[])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--rules", default="podkidnoy")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--deals", default="", help="A:B, the deals to play (default all)")
    ap.add_argument("--merge", nargs="*", default=None, metavar="PART")
    args = ap.parse_args()
    rules = Rules.parse(args.rules)
    if args.merge is not None:
        merge(args.out, args.merge)
        return
    specs = list(args.bots)
    if not specs:
        ap.error("--bots is needed to play")
    for s in specs:
        make_bot(s, 0)
    ups = lineups(specs, rules.players)
    deals = max(1, math.ceil(args.games / len(ups)))
    records: list[dict[str, object]] = []
    start = time.perf_counter()
    lo, _, hi = args.deals.partition(":")
    first, stop = (int(lo), min(deals, int(hi))) if args.deals else (0, deals)
    for d in range(first, stop):
        records.extend(_play_deal((rules, ups, d, args.seed)))
        r = summarize(rules, specs, records, args.seed, time.perf_counter() - start)
        data = r.to_json()
        data["deals_done"] = d + 1 - first
        data["deals_planned"] = stop - first
        with open(args.out + ".tmp", "w", encoding="utf-8") as f:
            json.dump(data, f, indent=0)
        os.replace(args.out + ".tmp", args.out)
        with open(args.out.removesuffix(".json") + ".txt", "w", encoding="utf-8") as f:
            f.write(f"{d + 1 - first} of {stop - first} deals\n{r.table()}\n")


def merge(out: str, parts: list[str]) -> None:
    """One summary of the games in ``parts`` (JSON files of the same match)."""
    records: list[dict[str, object]] = []
    head: dict[str, object] = {}
    seconds = 0.0
    for p in parts:
        with open(p, encoding="utf-8") as f:
            data = json.load(f)
        head = data
        records.extend(data["records"])
        seconds = max(seconds, float(data["seconds"]))
    rules = Rules.parse(str(head["rules"]))
    specs = list(head["bots"])  # type: ignore[call-overload]
    r = summarize(rules, specs, records, int(head["seed"]), seconds)  # type: ignore[call-overload]
    with open(out, "w", encoding="utf-8") as f:
        json.dump(r.to_json(), f, indent=0)
    with open(out.removesuffix(".json") + ".txt", "w", encoding="utf-8") as f:
        f.write(f"{len({x['deal'] for x in records})} deals\n{r.table()}\n")


if __name__ == "__main__":
    main()
