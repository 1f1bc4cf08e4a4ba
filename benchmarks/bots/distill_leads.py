"""Level 5's leads, distilled into a rule cheap enough for rollouts (issue 15, v14).

    python benchmarks/bots/distill_leads.py collect leads-podkidnoy.json --rules podkidnoy \
        --deals 0:300
    python benchmarks/bots/distill_leads.py fit leads-podkidnoy.json leads-perevodnoy.json

Level 5 is one step of improvement on the rules of thumb: it judges each move by the
rules of thumb's play after it. Its rollouts lead as the rules of thumb lead, although
level 5 itself leads otherwise in a third of its leads (v12). A rollout policy that
leads as level 5 does would make the search a second step of improvement where the
regret is largest (v13: the leads).

``collect`` plays level 5 against ``expert`` (seed 7, not the pool's 41, both seatings);
level 5 chooses at its leads while the talon lasts, the expert's rules play its other
moves (the search would cost ten times as much for moves not kept), and every lead is
kept as the deal seed, the moves so far (indices into the legal actions) and the choice.
``fit`` fits a conditional logit over :func:`features` of every legal lead (numpy, L2)
and prints held-out agreement with level 5 beside the rules of thumb's. v14: level 5's
leads away from the rules of thumb's are not predictable from these features (the fit
learns the rules of thumb's lead), so no rollout policy was built on it.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from typing import Any

import numpy as np

import durak.arena as arena
from durak.actions import ATTACK, Action
from durak.bots import make
from durak.bots.policy import rollout_action
from durak.cards import SUIT_MASK, iter_bits
from durak.game import OPEN, Game
from durak.rules import Rules

SEED = 7

NAMES = (
    "rules_of_thumb",  # the rules of thumb's own lead
    "rank",  # the led card's rank (a trump's counts above every plain one)
    "rank_x_talon",  # ... times the share of the talon left
    "trump",  # a trump is led
    "trump_x_talon",
    "cards",  # cards led beyond the first
    "cheaper_plain",  # plain cards left in the hand cheaper than the lead
    "trumps_kept",  # trumps left in the hand
    "rank_left",  # cards of the led rank left in the hand
    "rank_unseen",  # cards of the led rank neither in the hand nor in the discard
    "behind",  # the defender's hand less the leader's, after the lead
)


def is_lead(g: Game) -> bool:
    """Whether ``g``'s player to act opens a bout while the talon lasts."""
    return g._phase == OPEN and g.talon_size > 0


def features(g: Game, a: Action, club: Action | None = None) -> list[float]:
    """The features of lead ``a`` in ``g`` (see :data:`NAMES`); 0 for a non-attack."""
    if a.kind != ATTACK:
        return [0.0] * len(NAMES)
    if club is None:
        club = rollout_action(g)
    seat = g.to_act
    assert seat is not None
    trump = g.trump_suit
    tmask = SUIT_MASK[trump]
    hand = int(g._hands[seat])
    m: int = a.cards
    left = hand & ~m
    ranks = [c >> 2 for c in iter_bits(m)]
    top = max(ranks)
    is_trump = 1.0 if m & tmask else 0.0
    value = top + (13 if is_trump else 0)
    share = g.talon_size / max(1, len(g.deck) - 2 * g.hand_size)
    cheaper = sum(1 for c in iter_bits(left & ~tmask) if (c >> 2) < value)
    rank_cards = sum(1 for c in iter_bits(left) if c >> 2 == top)
    seen = hand | g._discard
    unseen = 4 - sum(1 for s in range(4) if seen >> (top * 4 + s) & 1)
    defender = g.defender
    behind = int(g._hands[defender]).bit_count() - left.bit_count() if defender is not None else 0
    return [
        1.0 if a is club else 0.0,
        value / 13.0,
        value / 13.0 * share,
        is_trump,
        is_trump * share,
        float(m.bit_count() - 1),
        cheaper / 6.0,
        (left & tmask).bit_count() / 3.0,
        float(rank_cards),
        unseen / 4.0,
        behind / 6.0,
    ]


def collect_deal(task: tuple[str, int]) -> list[dict[str, Any]]:
    rules_text, deal = task
    rules = Rules.parse(rules_text).with_action_limit()
    ds = arena.deal_seed(SEED, deal)
    out = []
    for k in range(2):  # level 5 in seat k
        searcher = make("level5", seed=ds + k)
        mine = make("expert", seed=ds + k)
        other = make("expert", seed=ds + k + 1)
        searcher.reset()  # the expert keeps no memory: it reads each observation
        g = Game(rules, seed=ds)
        moves: list[int] = []
        leads: list[list[int]] = []
        while not g.is_over:
            s = g.to_act
            assert s is not None
            if s != k:
                searcher.observe(g.observation(k))
            obs = g.observation(s)
            legal = g.legal_actions()
            if s == k and len(legal) > 1 and is_lead(g):
                a = searcher.choose(obs)
                leads.append([len(moves), legal.index(a)])
            elif s == k:
                searcher.observe(obs)
                a = mine.choose(obs)
            else:
                a = other.choose(obs)
            moves.append(legal.index(a))
            g.apply(a)
        out.append({"deal_seed": ds, "seat": k, "moves": moves, "leads": leads})
    return out


def examples(path: str) -> list[tuple[np.ndarray, int, int]]:
    """Per kept lead: the features of every legal lead, level 5's choice among them and
    the rules of thumb's."""
    with open(path) as f:
        data = json.load(f)
    rules = Rules.parse(data["rules"])
    out = []
    for game in data["games"]:
        g = Game(rules.with_action_limit(), seed=game["deal_seed"])
        at = {i: c for i, c in game["leads"]}
        for i, m in enumerate(game["moves"]):
            if i in at:
                legal = g._generate()
                x = np.array([features(g, a) for a in legal], dtype=np.float64)
                club = legal.index(rollout_action(g))
                out.append((x, at[i], club))
            g.apply(g.legal_actions()[m])
    return out


def fit(exs: list[tuple[np.ndarray, int, int]], l2: float, epochs: int = 400) -> np.ndarray:
    w = np.zeros(len(NAMES))
    lr = 0.5
    for _ in range(epochs):
        grad = l2 * w
        for x, y, _ in exs:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            grad -= (x[y] - p @ x) / len(exs)
        w -= lr * grad
    return w


def agreement(exs: list[tuple[np.ndarray, int, int]], w: np.ndarray) -> tuple[float, float]:
    mine = sum(int(np.argmax(x @ w)) == y for x, y, _ in exs) / len(exs)
    club = sum(c == y for _, y, c in exs) / len(exs)
    return mine, club


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("collect", "fit"))
    ap.add_argument("files", nargs="+")
    ap.add_argument("--rules", default="podkidnoy")
    ap.add_argument("--deals", default="0:300")
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--epochs", type=int, default=1500)
    a = ap.parse_args()
    if a.cmd == "collect":
        lo, hi = (int(x) for x in a.deals.split(":"))
        tasks = [(a.rules, d) for d in range(lo, hi)]
        games: list[dict[str, Any]] = []
        with multiprocessing.Pool(a.procs) as pool:
            for i, part in enumerate(pool.imap(collect_deal, tasks)):
                games.extend(part)
                if i % 20 == 19 or i == len(tasks) - 1:
                    with open(a.files[0], "w") as f:
                        json.dump({"rules": a.rules, "seed": SEED, "games": games}, f)
        print(sum(len(g["leads"]) for g in games), "leads in", len(games), "games")
        return
    exs: list[tuple[np.ndarray, int, int]] = []
    for f in a.files:
        exs.extend(examples(f))
    random.Random(0).shuffle(exs)
    cut = len(exs) // 5
    test, train = exs[:cut], exs[cut:]
    names = "+".join(f.rsplit("-", 1)[-1].removesuffix(".json") for f in a.files)
    for drop in (False, True):
        if drop:  # the features alone, without the rules of thumb's own choice
            for x, _, _ in exs:
                x[:, 0] = 0.0
        w = fit(train, a.l2, a.epochs)
        mine, club = agreement(test, w)
        same = sum(int(np.argmax(x @ w)) == c for x, _, c in test) / len(test)
        print(
            f"{names}: {len(exs)} leads, {'without' if drop else 'with'} the "
            f"rules-of-thumb feature: held-out agreement with level 5 {mine:.3f} (the "
            f"rules of thumb's lead: {club:.3f}); the learned lead is the rules of "
            f"thumb's in {same:.3f}"
        )
        print("    " + ", ".join(f"{n} {v:+.2f}" for n, v in zip(NAMES, w, strict=True)))


if __name__ == "__main__":
    main()
