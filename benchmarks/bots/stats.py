"""Playing habits of two bots over paired deals: the statistics of the searcher's known
weakness (issue: it gave away high cards, spent trumps early, took too often).

    python benchmarks/bots/stats.py level5 expert --games 100 --rules podkidnoy --seed 3

Per bot, over all its games and over the games it lost: how often a game it leads a king,
an ace or a trump while holding a cheaper plain card (with the talon not yet empty);
trumps in hand when the talon runs out; takes a game. Prints a table and, with
``--json``, writes the numbers.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from typing import Any

from durak import Game, Rules
from durak.actions import ATTACK, TAKE
from durak.arena import lineups, make_bot
from durak.bots.ismcts import dear_cards
from durak.cards import SUIT_MASK
from durak.enums import Phase


def play(task: tuple[str, list[str], int, int]) -> list[dict[str, Any]]:
    rules_text, specs, deal, seed = task
    rules = Rules.parse(rules_text)
    out = []
    for k, seats in enumerate(lineups(specs, rules.players)):
        deal_seed = seed * 1_000_003 + deal
        bots = [make_bot(s, deal_seed * 31 + 7 * k + i) for i, s in enumerate(seats)]
        for b in bots:
            getattr(b, "reset", lambda: None)()
        g = Game(rules, seed=deal_seed)
        n = rules.players
        dear = [0] * n
        takes = [0] * n
        trumps_at_end: list[int | None] = [None] * n
        while not g.is_over:
            s = g.to_act
            assert s is not None
            for i, b in enumerate(bots):
                if i != s and hasattr(b, "observe"):
                    b.observe(g.observation(i))
            for i in range(n):
                if trumps_at_end[i] is None and g.talon_size == 0:
                    trumps_at_end[i] = (int(g.hand(i)) & SUIT_MASK[g.trump_suit]).bit_count()
            obs = g.observation(s)
            a = bots[s].choose(obs)
            if a.kind == TAKE:
                takes[s] += 1
            elif (
                a.kind == ATTACK
                and obs.phase == Phase.ATTACK
                and g.talon_size > 0
                and dear_cards(a.cards, int(obs.hand), g.trump_suit)
            ):
                dear[s] += 1
            g.apply(a)
        o = g.outcome
        assert o is not None
        for i, spec in enumerate(seats):
            out.append(
                {
                    "bot": spec,
                    "lost": o.durak == i,
                    "dear": dear[i],
                    "takes": takes[i],
                    "trumps": trumps_at_end[i],
                }
            )
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("bots", nargs=2)
    ap.add_argument("--games", type=int, default=100, help="deals (each played both ways)")
    ap.add_argument("--rules", default="podkidnoy")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    tasks = [(args.rules, args.bots, d, args.seed) for d in range(args.games)]
    rows: list[dict[str, Any]] = []
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            rows = [r for res in pool.map(play, tasks) for r in res]
        report(args, rows, len(tasks))
        return
    for i, t in enumerate(tasks):  # report after every deal: a run cut short still counts
        rows.extend(play(t))
        report(args, rows, i + 1)


def report(args: argparse.Namespace, rows: list[dict[str, Any]], deals: int) -> None:
    summary: dict[str, Any] = {}
    lines = [
        f"{args.rules}, {deals} deals x 2, seed {args.seed}",
        f"{'bot':<28} {'games':>5} {'dear leads/game':>16} {'trumps at empty talon':>22} "
        f"{'takes/game':>11}",
    ]
    for spec in args.bots:
        for label, sel in (("all", lambda r: True), ("lost", lambda r: r["lost"])):
            rs = [r for r in rows if r["bot"] == spec and sel(r)]
            if not rs:
                continue
            tr = [r["trumps"] for r in rs if r["trumps"] is not None]
            d = {
                "games": len(rs),
                "dear_leads": sum(r["dear"] for r in rs) / len(rs),
                "trumps_at_empty_talon": sum(tr) / len(tr) if tr else None,
                "takes": sum(r["takes"] for r in rs) / len(rs),
            }
            summary[f"{spec} ({label})"] = d
            t = f"{d['trumps_at_empty_talon']:.2f}" if tr else "-"
            lines.append(
                f"{spec + ' (' + label + ')':<28} {d['games']:>5} "
                f"{d['dear_leads']:>16.2f} {t:>22} {d['takes']:>11.2f}"
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "rules": args.rules,
                    "seed": args.seed,
                    "deals": deals,
                    "bots": args.bots,
                    "summary": summary,
                },
                f,
                indent=1,
            )
        with open(args.json.removesuffix(".json") + ".txt", "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
