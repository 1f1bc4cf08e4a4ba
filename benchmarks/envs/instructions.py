"""Instructions a step, counted by valgrind's callgrind: the PettingZoo loop of ``run.py``
beside the raw engine, as a ratio that machine load cannot move.

CPU-time ratios (``run.py``) swing with what else the shared cores run, and a loaded
machine hurts the env's larger working set more than the raw engine's; instruction
counts are the same run after run. Each loop is run twice under callgrind, for ``--deals``
deals and for none, and the difference (the deals alone, without start-up and imports)
is divided by the steps played (string hashing fixed, ``PYTHONHASHSEED=0``, as it moves the
cost of dict lookups by a percent or two). Needs ``valgrind`` (Debian's package); about a minute a
rule set.

    python benchmarks/envs/instructions.py --rules podkidnoy --rules "perevodnoy(players=4)"
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile


def play(rules_text: str, deals: int, loop: str) -> int:
    """Play ``deals`` deals through ``loop`` ("raw" or "pettingzoo") as run.py does;
    returns the steps played."""
    from durak import Game
    from durak.envs.episode import learning_rules
    from durak.envs.pettingzoo import env

    rules = learning_rules(rules_text)
    rng = random.Random(0)
    steps = 0
    e = env(rules=rules)
    e.reset(seed=0)
    for d in range(deals):
        if loop == "raw":
            g = Game(rules, seed=d)
            while g.to_act is not None:
                legal = g.legal_actions()
                g.apply(legal[int(rng.random() * len(legal))])
                steps += 1
            continue
        e.reset()
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = obs["action_mask"].view(bool).nonzero()[0]
            e.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps


def counted(rules_text: str, deals: int, loop: str) -> tuple[int, int]:
    """(instructions, steps) of one run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg",
             sys.executable, __file__, "--child", loop, "--deals", str(deals),
             "--rules", rules_text],
            capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"})  # (string hashes move dict costs)
    total = int(re.search(r"Collected : (\d+)", out.stderr).group(1))  # type: ignore[union-attr]
    steps = int(re.search(r"steps (\d+)", out.stdout).group(1))  # type: ignore[union-attr]
    return total, steps


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rules", action="append", help="rules (repeat); default 2-player podkidnoy")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--child", choices=("raw", "pettingzoo"), help=argparse.SUPPRESS)
    args = p.parse_args()
    texts = args.rules or ["podkidnoy"]
    if args.child:
        print("steps", play(texts[0], args.deals, args.child))
        return
    print(f"instructions a step (callgrind), {args.deals} deals, "
          f"{'pure Python' if os.environ.get('DURAK_PURE') else 'installed engine'}")
    for text in texts:
        per = {}
        for loop in ("raw", "pettingzoo"):
            total, steps = counted(text, args.deals, loop)
            base, _ = counted(text, 0, loop)
            per[loop] = (total - base) / steps
        print(f"{text:<40} raw {per['raw']:>8.0f}  pettingzoo {per['pettingzoo']:>8.0f}"
              f"  ratio {per['raw'] / per['pettingzoo']:.3f}")


if __name__ == "__main__":
    main()
