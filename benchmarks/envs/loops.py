"""A fixed number of engine actions through one loop, for a profiler to compare loops by
their samples (the same actions, so samples per function compare directly):

- ``raw``: ``Game.legal_actions()`` / ``apply``, random actions (run.py's reference);
- ``core``: the vector env's compiled step alone (``VecStepper.step`` and
  ``sample_legal``), no numpy;
- ``env``: ``DurakVectorEnv.step(sample_legal())`` as run.py plays it;
- ``sharded``: ``ShardedVectorEnv`` in two shards (one here, one in a worker; perf
  follows the worker too).

    perf record -F 2000 --call-graph dwarf,8192 -o core.data \\
        python benchmarks/envs/loops.py core --actions 1500000
    perf record -F 4000 -o raw.data python benchmarks/envs/loops.py raw
"""

from __future__ import annotations

import argparse
import random

from durak import Game
from durak.envs.episode import learning_rules
from durak.envs.shards import ShardedVectorEnv
from durak.envs.vector import DurakVectorEnv


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("loop", choices=("raw", "core", "env", "sharded"))
    p.add_argument("--actions", type=int, default=3_000_000)
    p.add_argument("--rules", default="podkidnoy")
    p.add_argument("-n", type=int, default=256, help="deals of the vector envs")
    args = p.parse_args()
    rules = learning_rules(args.rules)
    total = args.actions
    if args.loop == "raw":
        rng = random.Random(0)
        played = deal = 0
        while played < total:
            g = Game(rules, seed=deal)
            deal += 1
            while g.to_act is not None:
                legal = g.legal_actions()
                g.apply(legal[int(rng.random() * len(legal))])
                played += 1
        return
    e = DurakVectorEnv(args.n, rules) if args.loop != "sharded" else None
    envs = e if e is not None else ShardedVectorEnv(args.n, rules, shards=2)
    envs.reset(seed=0)
    if args.loop == "core":
        assert e is not None
        core = e.stepper
        while core.moves < total:
            core.step(core.sample_legal())
    else:
        while envs.moves < total:
            envs.step(envs.sample_legal())
    envs.close()


if __name__ == "__main__":
    main()
