"""Where a PettingZoo step's time goes: the same random deals played through layer after
layer of the env, in CPU microseconds an action, beside the raw engine in the same run.

Layers (each includes the ones above it):

- ``raw engine``: ``Game.legal_actions()`` / ``apply`` (the benchmark's reference);
- ``stepper.play``: the env's compiled step (legality by action number, play, the next
  legal numbers and mask), choosing from its list of legal numbers;
- ``+ view``: the seat's vector and mask encoded as new bytes (compiled);
- ``+ numpy arrays``: the buffers wrapped as the two arrays, the choice made from the mask
  (``mask.view(bool).nonzero()``) as a learner's sampling would;
- ``play + mask only``: no vector at all, only the mask (made here) wrapped as an array and
  read as above: what a step costs with a free observation, the bound on any encoder;
- ``env, last(observe=False)``: the PettingZoo loop (``agent_iter``, ``last``, ``step``:
  the AEC bookkeeping) without building observations;
- ``env, full``: the PettingZoo loop as ``run.py`` plays it.

    python benchmarks/envs/parts.py --rules "perevodnoy(players=4)" --seconds 4
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterator

import numpy as np

# (this directory's run.py: the same reference loop)
from run import pettingzoo, raw_engine, side_by_side

from durak import Game, build
from durak.envs.episode import learning_rules
from durak.envs.stepper import Stepper
from durak.rules import Rules

F32, I8 = np.dtype(np.float32), np.dtype(np.int8)


def stepper(rules: Rules, layer: int) -> Iterator[int]:
    st = Stepper(rules)
    size = st.planes.size
    rng = random.Random(0)
    i = 0
    while True:
        g = Game(rules, seed=i)
        i += 1
        steps = 0
        st.start(g)
        to_act = g.to_act if g.to_act is not None else -1
        while to_act >= 0:
            if layer < 0:  # the mask alone, no vector
                m = bytearray(st.actions.size)
                for a in st.legal:
                    m[a] = 1
                legal = np.frombuffer(m, I8).view(bool).nonzero()[0]
                to_act = st.play(int(legal[int(rng.random() * len(legal))]))
                steps += 1
                continue
            if layer >= 1:
                x, m = st.view(to_act)
            if layer >= 2:
                _x, mask = np.frombuffer(x, F32, size), np.frombuffer(m, I8)
                legal = mask.view(bool).nonzero()[0]
                to_act = st.play(int(legal[int(rng.random() * len(legal))]))
            else:
                choice = st.legal
                to_act = st.play(choice[int(rng.random() * len(choice))])
            steps += 1
        yield steps


LAYERS: dict[str, Callable[[Rules], Iterator[int]]] = {
    "raw engine": raw_engine,
    "stepper.play": lambda r: stepper(r, 0),
    "play + mask only, nonzero": lambda r: stepper(r, -1),
    "+ view (encode, mask)": lambda r: stepper(r, 1),
    "+ numpy arrays, nonzero": lambda r: stepper(r, 2),
    "env, last(observe=False)": lambda r: pettingzoo(r, observe=False),
    "env, full": pettingzoo,
}


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rules", default="podkidnoy")
    p.add_argument("--seconds", type=float, default=4.0, help="CPU seconds of each layer")
    p.add_argument(
        "--piece",
        type=float,
        default=0.05,
        help="CPU seconds of a turn: the layers take turns this long",
    )
    args = p.parse_args()
    rules = learning_rules(args.rules)
    rates = side_by_side([fn(rules) for fn in LAYERS.values()], args.seconds, args.piece)
    us = {name: 1e6 / rate for name, rate in zip(LAYERS, rates, strict=True)}
    print(f"{rules}, engine {build.engine_name()}")
    print(f"{'layer':<28} {'us/action':>9} {'of raw':>7}")
    for name, v in us.items():
        print(f"{name:<28} {v:>9.2f} {us['raw engine'] / v:>7.2f}")


if __name__ == "__main__":
    main()
