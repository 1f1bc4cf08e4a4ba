"""Fits the learned evaluation of :mod:`durak.bots.evaluate` (issue 15) and writes its
weights to ``src/durak/bots/eval_weights.py``.

    python benchmarks/bots/train_eval.py --games 1200 --seed 1

It plays two-player games (podkidnoy and perevodnoy, 36 cards) between members of the
pool (``expert``, the heuristic bot in both styles, the heuristic's rules with the exact
endgame solver), replays each one and, at the start of every bout, records the features
of both seats (their hands, the talon, who leads) with the seat's final result (1 not
durak, 1/2 draw, 0 durak). A logistic regression (numpy, Newton steps, a little L2)
is fitted to them; the script prints the log-loss and accuracy on a held-out tenth of
the games (split by game, not by position) and the weights.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from durak.arena import play_game
from durak.bots.evaluate import FEATURES, features
from durak.game import OPEN, OVER, Game
from durak.rules import Rules

PAIRS = (
    ("expert:nodes=5000", "expert:nodes=5000"),
    ("ismcts:iterations=1,keep=2,plain=0,nodes=5000", "expert:nodes=5000"),
    ("ismcts:iterations=1,keep=2,plain=0,nodes=5000,prior=careful", "expert"),
    ("heuristic:style=careful", "expert:nodes=5000"),
    ("heuristic", "expert:nodes=5000"),
)
OUT = Path(__file__).resolve().parents[2] / "src" / "durak" / "bots" / "eval_weights.py"


def positions(rules: Rules, deal_seed: int, history: list[object]) -> list[tuple[int, list[float]]]:
    """(seat, features) at the start of every bout of the game replayed from ``history``."""
    g = Game(rules.with_action_limit(), seed=deal_seed)
    out: list[tuple[int, list[float]]] = []
    last = -1
    for a in history:
        if g._phase == OPEN and g.bout != last:
            last = g.bout
            for s in (0, 1):
                x = features(
                    int(g._hands[s]),
                    int(g._hands[1 - s]),
                    g.trump_suit,
                    g.talon_size,
                    g.attacker == s,
                )
                out.append((s, x))
        g.apply(a)  # type: ignore[arg-type]
    assert g._phase == OVER
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 30) -> np.ndarray:
    """Logistic regression by Newton's method; ``y`` may be 1/2 (a draw)."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) / len(y) + l2 * w
        h = (x * (p * (1 - p))[:, None]).T @ x / len(y) + l2 * np.eye(len(w))
        w -= np.linalg.solve(h, grad)
    return w


def loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-6, 1 - 1e-6)
    ll = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    acc = float(np.mean((p > 0.5) == (y > 0.5)))
    return ll, acc


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", action="store_true", help="write the weights into the package")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows: list[tuple[int, list[float], float]] = []
    start = time.process_time()
    for i in range(args.games):
        rules = Rules.preset(rng.choice(("podkidnoy", "perevodnoy")))
        pair = list(rng.choice(PAIRS))
        rng.shuffle(pair)
        deal_seed = rng.randrange(2**62)
        g = play_game(rules, pair, deal_seed, deal_seed + 1)
        o = g.outcome
        assert o is not None
        for s, x in positions(rules, deal_seed, list(g.history)):
            y = 0.5 if o.durak is None else (0.0 if o.durak == s else 1.0)
            rows.append((i, x, y))
        if (i + 1) % 100 == 0:
            print(
                f"{i + 1} games, {len(rows)} positions, {time.process_time() - start:.0f} s CPU",
                flush=True,
            )
    test = np.array([r[0] % 10 == 0 for r in rows])
    x = np.array([r[1] for r in rows])
    y = np.array([r[2] for r in rows])
    w = fit(x[~test], y[~test])
    ll, acc = loss(x[test], y[test], w)
    print(f"held out (every tenth game): log-loss {ll:.4f} accuracy {acc:.3f}")
    print(f"base rate log-loss {loss(x[test], y[test], np.zeros_like(w))[0]:.4f}")
    w = fit(x, y)
    ll, acc = loss(x, y, w)
    print(f"all: log-loss {ll:.4f} accuracy {acc:.3f}")
    for name, v in zip(FEATURES, w, strict=True):
        print(f"  {name:40s} {v:+.3f}")
    if args.write:
        body = ",\n".join(f"    {v:+.5f},  # {n}" for n, v in zip(FEATURES, w, strict=True))
        OUT.write_text(
            '"""The weights of durak.bots.evaluate, fitted by benchmarks/bots/train_eval.py\n'
            f'(--games {args.games} --seed {args.seed}, {len(rows)} positions)."""\n\n'
            f"WEIGHTS: tuple[float, ...] = (\n{body}\n)\n",
            encoding="utf-8",
        )
        print("written to", OUT.name)


if __name__ == "__main__":
    main()
