"""Fits the network of :mod:`durak.bots.value_net` (issue 15, v10) and writes its weights
to ``src/durak/bots/value_weights.py``.

    python benchmarks/bots/train_value.py --games 80000 --seed 2 --write

It plays two-player games (podkidnoy and perevodnoy, 36 cards, chosen at random) with
the expert's rules of move choice for both seats (:func:`durak.bots.expert_policy.expert_action`,
no exact endgame), records both seats' inputs at the start of every bout with the seat's
final result (1 not durak, 1/2 draw, 0 durak), and fits one hidden layer of ``--hidden``
rectified units with Adam (numpy, cross-entropy). It prints the held-out log-loss (every
tenth game) by talon size, beside a logistic fit of v6's features
(:mod:`durak.bots.evaluate`) on the same positions.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from durak.bots.evaluate import features as v6_features
from durak.bots.expert_policy import expert_action
from durak.bots.value_net import inputs
from durak.game import OPEN, OVER, Game
from durak.rules import Rules

OUT = Path(__file__).resolve().parents[2] / "src" / "durak" / "bots" / "value_weights.py"


def play(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Inputs, v6 features, results and game numbers of ``n`` self-play games."""
    rng = random.Random(seed)
    xs: list[list[float]] = []
    v6: list[list[float]] = []
    ys: list[float] = []
    gs: list[int] = []
    start = time.process_time()
    for i in range(n):
        rules = Rules.preset(rng.choice(("podkidnoy", "perevodnoy"))).with_action_limit()
        g = Game(rules, seed=rng.randrange(2**62))
        rows: list[int] = []
        last = -1
        moves = 0
        while g._phase != OVER:
            if g._phase == OPEN and g.bout != last:
                last = g.bout
                for s in (0, 1):
                    xs.append(inputs(g, s))
                    v6.append(
                        v6_features(
                            int(g._hands[s]),
                            int(g._hands[1 - s]),
                            g.trump_suit,
                            g.talon_size,
                            g.attacker == s,
                        )
                    )
                    rows.append(s)
            # A circle of play ends with random moves, as rollouts do.
            g._apply(expert_action(g) if moves < 400 else rng.choice(g._generate()))
            moves += 1
        o = g.outcome
        assert o is not None
        for s in rows:
            ys.append(0.5 if o.durak is None else (0.0 if o.durak == s else 1.0))
            gs.append(i)
        if (i + 1) % 10000 == 0:
            print(
                f"{i + 1} games, {len(ys)} positions, {time.process_time() - start:.0f} s CPU",
                flush=True,
            )
    return (np.array(xs, np.float32), np.array(v6), np.array(ys, np.float32), np.array(gs))


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def logistic(x: np.ndarray, y: np.ndarray, steps: int = 15, l2: float = 1e-4) -> np.ndarray:
    """Logistic regression by Newton's method (the v6 baseline)."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = sigmoid(x @ w)
        grad = x.T @ (p - y) / len(y) + l2 * w
        h = (x * (p * (1 - p))[:, None]).T @ x / len(y) + l2 * np.eye(len(w))
        w -= np.linalg.solve(h, grad)
    return w


def predict(params: list[np.ndarray], x: np.ndarray) -> np.ndarray:
    w1, b1, w2, b2 = params
    return sigmoid(np.maximum(x @ w1 + b1, 0) @ w2 + b2[0])


def fit(
    x: np.ndarray,
    y: np.ndarray,
    hidden: int,
    epochs: int,
    seed: int,
    held: tuple[np.ndarray, np.ndarray],
) -> list[np.ndarray]:
    """One hidden layer of rectified units, Adam on minibatches of 512."""
    rng = np.random.default_rng(seed)
    d = x.shape[1]
    params = [
        rng.normal(0, 1 / np.sqrt(d), (d, hidden)).astype(np.float32),
        np.zeros(hidden, np.float32),
        rng.normal(0, 1 / np.sqrt(hidden), hidden).astype(np.float32),
        np.zeros(1, np.float32),
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t = 0
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        for k in range(0, len(y), 512):
            j = order[k : k + 512]
            xb, yb = x[j], y[j]
            h = xb @ params[0] + params[1]
            a = np.maximum(h, 0)
            dz = (sigmoid(a @ params[2] + params[3][0]) - yb) / len(yb)
            da = np.outer(dz, params[2]) * (h > 0)
            grads = (xb.T @ da, da.sum(0), a.T @ dz, np.array([dz.sum()]))
            t += 1
            for i, gr in enumerate(grads):
                m[i] = 0.9 * m[i] + 0.1 * gr
                v[i] = 0.999 * v[i] + 0.001 * gr * gr
                step = 2e-3 * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
                params[i] -= step.astype(np.float32)
        print(
            f"epoch {epoch}: held-out log-loss {log_loss(predict(params, held[0]), held[1]):.4f}",
            flush=True,
        )
    return params


def write(params: list[np.ndarray], games: int, seed: int, positions: int) -> None:
    w1, b1, w2, b2 = params
    cards = w1.shape[0] - 6

    def tup(v: np.ndarray) -> str:
        return "(" + ", ".join(f"{float(x):.5f}" for x in v) + ",)"

    lines = [
        '"""The weights of durak.bots.value_net, fitted by benchmarks/bots/train_value.py',
        f'(--games {games} --seed {seed}: {positions} positions of expert_action self-play)."""',
        "",
        "# ruff: noqa: E501",
        "# fmt: off",
        "ROWS: tuple[tuple[float, ...], ...] = (",
        *(f"    {tup(w1[i])}," for i in range(cards)),
        ")",
        "SCALARS: tuple[tuple[float, ...], ...] = (",
        *(f"    {tup(w1[i])}," for i in range(cards, cards + 6)),
        ")",
        f"B1: tuple[float, ...] = {tup(b1)}",
        f"W2: tuple[float, ...] = {tup(w2)}",
        f"B2: float = {float(b2[0]):.5f}",
        "",
    ]
    OUT.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=80000)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--write", action="store_true", help="write the weights into the package")
    args = ap.parse_args()
    x, v6, y, games = play(args.games, args.seed)
    test = games % 10 == 0
    print(f"{len(y)} positions, {int(test.sum())} held out")
    w = logistic(v6[~test][::5], y[~test][::5])
    base = sigmoid(v6[test] @ w)
    params = fit(x[~test], y[~test], args.hidden, args.epochs, args.seed, (x[test], y[test]))
    net = predict(params, x[test])
    talon = np.round(x[test][:, -6] * 24)
    print("talon cards   positions   network   v6 logistic")
    for lo, hi in ((0, 0), (1, 6), (7, 12), (13, 18), (19, 24), (0, 24)):
        k = (talon >= lo) & (talon <= hi)
        print(
            f"{lo:>5}-{hi:<5} {int(k.sum()):>11} {log_loss(net[k], y[test][k]):>9.4f}"
            f" {log_loss(base[k], y[test][k]):>13.4f}"
        )
    if args.write:
        write(params, args.games, args.seed, len(y))
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
