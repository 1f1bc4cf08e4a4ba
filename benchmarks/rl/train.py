"""Train the learned player (``durak.bots.make("learned")``) by imitating the expert.

Each round plays ``--games`` deals of 2-player podkidnoy in which the pool's ``expert`` sits
against itself, ``greedy`` or ``heuristic``; every decision of an expert seat with more than
one legal action becomes a sample: the features of the seat's view, of every legal action,
and which one the expert took. The network (``durak.bots.learned``'s layout) scores each
legal action; it is fitted by cross-entropy over the legal actions (a policy, as AlphaGo's
supervised network was fitted to experts' moves). The expert's moves include its exact
endgame solver's, so the network also learns what exact play looks like at the empty talon.

Resumable: the state (network, optimiser, round; not the samples) is saved to ``--state`` after
every round and the run goes on from it. The weights the package ships are written to
``--export`` (numpy ``.npz``); every ``--eval-every`` rounds the network plays fixed deals
against ``greedy`` and ``heuristic`` (both seats of each deal) and the scores go to
``--curve``::

    python benchmarks/rl/train.py --rounds 60 --state scratch/imitate.pt \\
        --export src/durak/bots/data/imitation.npz --curve benchmarks/rl/curve.csv

torch is needed only here (``pip install torch --index-url
https://download.pytorch.org/whl/cpu``, about 200 MB); the player itself needs numpy alone.
A round of 100 deals takes about 40 s of one core (the expert's endgame solver is most of it).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

# One thread for numpy's small matrix products: BLAS threads only spin against the games.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

from durak import Game, Rules  # noqa: E402
from durak.bots import make  # noqa: E402
from durak.bots.learned import (  # noqa: E402
    ACTION_SIZE,
    STATE_SIZE,
    LearnedBot,
    QNet,
    action_features,
    state_features,
)
from durak.seats import Seats  # noqa: E402

HIDDEN = (256, 256, 128)
MAX_LEGAL = 64  # wider decisions are rare; their extra actions are left out of the softmax


def network() -> nn.Sequential:
    layers: list[nn.Module] = []
    width = STATE_SIZE + ACTION_SIZE
    for h in HIDDEN:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, 1))
    return nn.Sequential(*layers)


def weights_of(net: nn.Sequential) -> dict[str, Any]:
    """The network as the numpy arrays ``durak.bots.learned.QNet`` reads."""
    linears = [m for m in net if isinstance(m, nn.Linear)]
    out: dict[str, Any] = {}
    for i, lin in enumerate(linears, start=1):
        out[f"w{i}"] = lin.weight.detach().numpy().T.astype(np.float32).copy()
        out[f"b{i}"] = lin.bias.detach().numpy().astype(np.float32).copy()
    return out


def play_and_record(rules: Rules, seats: list[Any], teacher: set[int], seed: int) -> list[Any]:
    """One deal; the decisions of the seats in ``teacher`` as (state, actions, chosen)."""
    g = Game(rules, seed=seed)
    players = Seats(seats)
    players.reset(g)
    out = []
    while not g.is_over:
        s = g.to_act
        bot = players[s] if s is not None else None
        assert s is not None and bot is not None
        obs = g.observation(s)
        a = bot.choose(obs)
        if s in teacher and 1 < len(obs.legal) <= MAX_LEGAL:
            # float16: the features are 0/1 and small fractions, and samples add up
            x, acts = state_features(obs).astype(np.float16), action_features(obs, obs.legal)
            out.append((x, acts.astype(np.float16), obs.legal.index(a)))
        g.apply(a)
        players.show(g)
    return out


def batch_loss(net: nn.Sequential, batch: list[Any]) -> Any:
    """Cross-entropy of the chosen actions over each decision's legal actions."""
    n = len(batch)
    width = max(len(a) for _, a, _ in batch)
    x = np.zeros((n, width, STATE_SIZE + ACTION_SIZE), np.float32)
    mask = np.zeros((n, width), bool)
    for i, (s, a, _) in enumerate(batch):
        x[i, : len(a), :STATE_SIZE] = s
        x[i, : len(a), STATE_SIZE:] = a
        mask[i, : len(a)] = True
    logits = net(torch.from_numpy(x))[..., 0]
    logits = logits.masked_fill(~torch.from_numpy(mask), -1e9)
    target = torch.tensor([c for _, _, c in batch])
    return nn.functional.cross_entropy(logits, target)


def score(rules: Rules, weights: dict[str, Any], opponent: str, deals: int) -> float:
    """The network's score (1 not durak, 1/2 draw, 0 durak) against ``opponent`` on fixed
    deals, each from both seats."""
    bot = LearnedBot.of(QNet(weights))
    total = 0.0
    for d in range(deals):
        for me in range(2):
            seats = Seats(bot if s == me else make(opponent, seed=d) for s in range(2))
            g = Game(rules, seed=90_000_000 + d)
            seats.reset(g)
            out = seats.play(g).outcome
            durak = out.durak if out is not None else None
            total += 0.5 if durak is None else float(durak != me)
    return total / (2 * deals)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=60)
    p.add_argument("--games", type=int, default=100, help="deals a round")
    p.add_argument("--steps", type=int, default=200, help="gradient steps a round")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--keep", type=int, default=400_000, help="most samples kept")
    p.add_argument("--eval-deals", type=int, default=100)
    p.add_argument("--eval-every", type=int, default=5)
    p.add_argument("--state", default="scratch/imitate.pt")
    p.add_argument("--export", default="src/durak/bots/data/imitation.npz")
    p.add_argument("--curve", default="benchmarks/rl/curve.csv")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rules = Rules.preset("podkidnoy").with_action_limit()
    net = network()
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    start, data = 0, list[Any]()
    if os.path.exists(args.state):
        st = torch.load(args.state, weights_only=False)
        net.load_state_dict(st["net"])
        opt.load_state_dict(st["opt"])
        start = st["round"]
        print(f"resumed at round {start} (samples start anew)", flush=True)
    rng = random.Random(args.seed * 1_000_003 + start)
    for r in range(start, args.rounds):
        t0 = time.process_time()
        for _ in range(args.games):
            other = rng.choice(["expert", "expert", "greedy", "heuristic"])
            seats = [
                make("expert", seed=rng.randrange(10**9)),
                make(other, seed=rng.randrange(10**9)),
            ]
            teacher = {0, 1} if other == "expert" else {0}
            if rng.random() < 0.5:
                seats.reverse()
                teacher = {1 - s for s in teacher} if other != "expert" else teacher
            data += play_and_record(rules, seats, teacher, rng.randrange(10**9))
        data = data[-args.keep :]
        t1 = time.process_time()
        net.train()
        total = 0.0
        for _ in range(args.steps):
            loss = batch_loss(net, rng.sample(data, min(args.batch, len(data))))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach())
        line = (
            f"round {r + 1} samples {len(data)} loss {total / args.steps:.3f} "
            f"play {t1 - t0:.0f}s fit {time.process_time() - t1:.0f}s"
        )
        w = weights_of(net)
        if (r + 1) % args.eval_every == 0:
            scores = {o: score(rules, w, o, args.eval_deals) for o in ("greedy", "heuristic")}
            line += " " + " ".join(f"{o} {v:.3f}" for o, v in scores.items())
            new = not os.path.exists(args.curve)
            with open(args.curve, "a", encoding="utf-8") as f:
                if new:
                    f.write("round,deals,samples,greedy,heuristic\n")
                f.write(
                    f"{r + 1},{(r + 1) * args.games},{len(data)},"
                    f"{scores['greedy']:.4f},{scores['heuristic']:.4f}\n"
                )
        print(line, flush=True)
        os.makedirs(os.path.dirname(args.state) or ".", exist_ok=True)
        state = {"net": net.state_dict(), "opt": opt.state_dict(), "round": r + 1}
        torch.save(state, args.state + ".tmp")
        os.replace(args.state + ".tmp", args.state)
        os.makedirs(os.path.dirname(args.export) or ".", exist_ok=True)
        with open(args.export + ".tmp", "wb") as f:  # whole or not at all
            np.savez_compressed(f, **w)
        os.replace(args.export + ".tmp", args.export)


if __name__ == "__main__":
    main()
