"""Where the searcher's games against ``expert`` are won and lost: before or after the
talon runs out. A diagnostic, not a bot.

    python benchmarks/bots/endgame_split.py RULES SPEC A:B [--nodes N]

Plays ``SPEC`` against ``expert`` on deals A..B-1 of the pool's seed (41; both
seatings, as ``chunked.py`` deals them). In each two-player game it replays the moves
to the first position with the talon empty (nothing hidden then) and solves it exactly
(:class:`~durak.bots.solver.Solver`, up to ``--nodes``): the value of that position
for ``SPEC``'s seat against best play says whether the game was already lost or won
when the endgame began; the game's result says what was made of it. Prints one line
a game and a table: result by the endgame's value (benchmarks/bots/README.md, v12).
"""

from __future__ import annotations

import argparse
from collections import Counter

import durak.arena as arena
from durak.bots.solver import Solver, Unsolved, solvable
from durak.game import Game
from durak.rules import Rules


def endgame_value(
    rules: Rules, seed: int, history: list[object], seat: int, nodes: int
) -> tuple[int | None, int]:
    """The exact value (1 win, 0 draw, -1 loss) for ``seat`` of the first position of the
    replayed game with nothing hidden, or None (never reached, or unsolved), and the
    number of moves played before it."""
    g = Game(rules.with_action_limit(), seed=seed)
    for i, a in enumerate(history):
        if g.is_over:
            break
        if solvable(g):
            try:
                return Solver(seat, max_nodes=nodes).value(g), i
            except Unsolved:
                return None, i
        g.apply(a)  # type: ignore[arg-type]
    return None, len(history)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rules")
    ap.add_argument("spec")
    ap.add_argument("deals")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--nodes", type=int, default=2_000_000)
    args = ap.parse_args()
    rules = Rules.parse(args.rules)
    lo, hi = map(int, args.deals.split(":"))
    table: Counter[tuple[str, str]] = Counter()
    for d in range(lo, hi):
        ds = arena.deal_seed(args.seed, d)
        for k, seats in enumerate([(args.spec, "expert"), ("expert", args.spec)]):
            g = arena.play_game(rules, seats, ds, ds + k)
            me = seats.index(args.spec)
            o = g.outcome
            assert o is not None
            result = "draw" if o.durak is None else ("lost" if o.durak == me else "won")
            v, at = endgame_value(rules, ds, list(g.history), me, args.nodes)
            value = {None: "unknown", 1: "won", 0: "draw", -1: "lost"}[v]
            table[value, result] += 1
            print(d, k, f"endgame at move {at}: {value}, game {result}", flush=True)
    print("\nendgame value -> game result (games)")
    for value in ("won", "draw", "lost", "unknown"):
        row = {r: table[value, r] for r in ("won", "draw", "lost")}
        print(f"{value:8s} {row}")


if __name__ == "__main__":
    main()
