"""How far a bot's move choice falls below the search that knows the opponent's hand,
measured on a fixed set of positions instead of whole games (far less noise a CPU-second).

    python benchmarks/bots/regret.py collect POS.json --rules podkidnoy --deals 400:420
    python benchmarks/bots/regret.py oracle POS.json --worlds 600
    python benchmarks/bots/regret.py score POS.json level5 heuristic 'ismcts:...'

``collect`` plays level 5 against ``expert`` (the pool's seed 41, both seatings, as
``chunked.py`` deals them) and keeps every position where level 5 searched (a choice,
something hidden). ``oracle`` values every legal action of those positions with the
opponent's true hand and the talon reshuffled, ``--worlds`` paired worlds each, the
rollouts played as level 5 plays them (the rules of thumb for itself, CAREFUL for the
opponent): the "hands" oracle of ``oracle.py`` (v11: 0.71-0.74 against ``expert``).
``score`` replays each game to each bot spec (it observes what its seat saw, in order)
and asks it for a move at the kept positions; a move's *regret* is the oracle's value
of its best action less that of the move chosen. A bot's mean regret (and its paired
difference from the first spec's) says how much of the oracle's play it gives away,
the part a sharper reading or a better decision rule could win back; the oracle's
judge itself (the rollouts) it cannot grade.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import time
from typing import Any

from oracle import hands_world

import durak.arena as arena
from durak.bots.ismcts import score as final_score
from durak.bots.policy import CAREFUL, CLUB, rollout
from durak.bots.solver import perfect_information
from durak.game import OVER, Game
from durak.rules import Rules

SEED = 41
SEARCHER = "level5"


def deal_seed(deal: int) -> int:
    return arena.deal_seed(SEED, deal)


def replay(rules: Rules, ds: int, moves: list[int]) -> Game:
    """The game of deal seed ``ds`` after ``moves`` (indices into the legal actions)."""
    g = Game(rules.with_action_limit(), seed=ds)
    for i in moves:
        g.apply(g.legal_actions()[i])
    return g


# -- collect ---------------------------------------------------------------------------
def collect_deal(task: tuple[str, int]) -> list[dict[str, Any]]:
    rules_text, deal = task
    rules = Rules.parse(rules_text)
    ds = deal_seed(deal)
    games = []
    for k, seats in enumerate([(SEARCHER, "expert"), ("expert", SEARCHER)]):
        g = arena.play_game(rules, seats, ds, ds + k)
        me = seats.index(SEARCHER)
        r = Game(rules.with_action_limit(), seed=ds)
        moves: list[int] = []
        positions: list[int] = []
        for a in g.history:
            legal = r.legal_actions()
            if r.to_act == me and len(legal) > 1 and not perfect_information(r.observation(me)):
                positions.append(len(moves))
            moves.append(legal.index(a))
            r.apply(a)
        games.append(
            {
                "deal": deal,
                "seat": me,
                "moves": moves,
                "positions": positions,
                "result": final_score(g, me),
            }
        )
    return games


# -- oracle ----------------------------------------------------------------------------
def oracle_position(task: tuple[str, int, list[int], int, int]) -> list[float]:
    """Each legal action's mean score for the seat to act over ``worlds`` paired worlds:
    the true hands, the talon reshuffled."""
    rules_text, ds, moves, worlds, seed = task
    g = replay(Rules.parse(rules_text), ds, moves)
    me = g.to_act
    assert me is not None
    legal = g.legal_actions()
    styles = [CAREFUL] * g.n
    styles[me] = CLUB
    rng = random.Random(seed)
    sums = [0.0] * len(legal)
    obs = g.observation(me)
    for _ in range(worlds):
        world = hands_world(g, obs, rng)
        for i, a in enumerate(legal):
            w = world.clone()
            w._apply(a)
            if w._phase != OVER:
                rollout(w, rng, styles=styles)
            sums[i] += final_score(w, me)
    return [s / worlds for s in sums]


# -- score -----------------------------------------------------------------------------
def score_game(task: tuple[str, str, dict[str, Any], int]) -> list[int]:
    """``spec``'s choice (an index into the legal actions) at each kept position of a game."""
    rules_text, spec, game, seed = task
    rules = Rules.parse(rules_text)
    ds = deal_seed(game["deal"])
    me = game["seat"]
    bot = arena.make_bot(spec, seed)
    getattr(bot, "reset", lambda: None)()
    g = Game(rules.with_action_limit(), seed=ds)
    kept = set(game["positions"])
    out = []
    for n, i in enumerate(game["moves"]):
        legal = g.legal_actions()
        obs = g.observation(me)
        if n in kept:
            out.append(legal.index(bot.choose(obs)))
        elif hasattr(bot, "observe"):
            bot.observe(obs)
        g.apply(legal[i])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("collect", "oracle", "score", "phases"))
    ap.add_argument("file")
    ap.add_argument("specs", nargs="*")
    ap.add_argument("--rules", default="podkidnoy")
    ap.add_argument("--deals", default="400:420")
    ap.add_argument("--worlds", type=int, default=600)
    ap.add_argument("--procs", type=int, default=2)
    args = ap.parse_args()
    pool = multiprocessing.Pool(args.procs)
    t0 = time.perf_counter()
    if args.cmd == "collect":
        lo, hi = map(int, args.deals.split(":"))
        games = [
            x
            for part in pool.map(collect_deal, [(args.rules, d) for d in range(lo, hi)])
            for x in part
        ]
        data: dict[str, Any] = {"rules": args.rules, "games": games}
        n = sum(len(x["positions"]) for x in games)
        print(
            f"{len(games)} games, {n} positions, "
            f"level 5 scored {sum(x['result'] for x in games) / len(games):.3f}"
        )
    else:
        with open(args.file, encoding="utf-8") as f:
            data = json.load(f)
    rules_text = data["rules"]
    games = data["games"]
    if args.cmd == "oracle":
        tasks = [
            (rules_text, deal_seed(x["deal"]), x["moves"][:p], args.worlds, 1000 * x["deal"] + p)
            for x in games
            for p in x["positions"]
        ]
        values = pool.map(oracle_position, tasks, chunksize=4)
        it = iter(values)
        for x in games:
            x["values"] = [next(it) for _ in x["positions"]]
        data["worlds"] = args.worlds
    if args.cmd == "phases":
        by_phase(data, args.specs)
        return
    if args.cmd == "score":
        data.setdefault("choices", {})
        for spec in args.specs:
            jobs = [(rules_text, spec, x, 7 * x["deal"] + x["seat"]) for x in games]
            c0 = time.perf_counter()
            data["choices"][spec] = pool.map(score_game, jobs)
            print(f"{spec}: {time.perf_counter() - c0:.0f} s", flush=True)
        report(data, args.specs)
    with open(args.file, "w", encoding="utf-8") as f:
        json.dump(data, f)
    print(f"done in {time.perf_counter() - t0:.0f} s")


def regrets(data: dict[str, Any], spec: str) -> list[float]:
    out = []
    for x, choices in zip(data["games"], data["choices"][spec], strict=True):
        for v, c in zip(x["values"], choices, strict=True):
            out.append(max(v) - v[c])
    return out


def played(data: dict[str, Any], spec: str) -> float:
    """How often ``spec`` chose the move level 5 played in the game (a replay check)."""
    same = total = 0
    for x, choices in zip(data["games"], data["choices"][spec], strict=True):
        for p, c in zip(x["positions"], choices, strict=True):
            same += c == x["moves"][p]
            total += 1
    return same / max(1, total)


def by_phase(data: dict[str, Any], specs: list[str]) -> None:
    """Each spec's regret a move (x1000) by the phase of the position (from its replay)."""
    rules = Rules.parse(data["rules"])
    phases: list[str] = []
    for x in data["games"]:
        for p in x["positions"]:
            phases.append(
                replay(rules, deal_seed(x["deal"]), x["moves"][:p]).observation(x["seat"]).phase
            )
    names = sorted(set(phases))
    print(
        f"{data['rules']}: regret a move (x1000) by phase; positions "
        + ", ".join(f"{k} {phases.count(k)}" for k in names)
    )
    for spec in specs:
        r = regrets(data, spec)
        cells = []
        for k in names:
            v = [x for x, ph in zip(r, phases, strict=True) if ph == k]
            cells.append(f"{k} {1000 * sum(v) / len(v):5.1f}")
        print(f"  {spec[:60]:60s} " + "  ".join(cells))


def report(data: dict[str, Any], specs: list[str]) -> None:
    if not specs:
        return
    base = regrets(data, specs[0])
    n = len(base)
    print(
        f"{data['rules']}: {n} positions, {data.get('worlds')} oracle worlds each; "
        f"regret a move (x1000), and paired against {specs[0]}"
    )
    for spec in specs:
        r = regrets(data, spec)
        d = [a - b for a, b in zip(r, base, strict=True)]
        m = sum(d) / n
        se = math.sqrt(sum((x - m) ** 2 for x in d) / max(1, n - 1) / n)
        best = sum(1 for x in r if x == 0) / n
        print(
            f"  {spec:60s} {1000 * sum(r) / n:6.1f}  {1000 * m:+6.1f} ± {1960 * se:4.1f}"
            f"   oracle's best {best:.0%}, the move played {played(data, spec):.0%}"
        )


if __name__ == "__main__":
    main()
