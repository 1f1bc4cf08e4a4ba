"""Instructions a step, counted by valgrind's callgrind: the PettingZoo loop of ``run.py``
beside the raw engine, as a ratio that machine load cannot move.

CPU-time ratios (``run.py``) swing with what else the shared cores run, and a loaded
machine hurts the env's larger working set more than the raw engine's; instruction
counts are the same run after run. Each loop is run twice under callgrind, for ``--deals``
deals and for none, and the difference (the deals alone, without start-up and imports)
is divided by the steps played (string hashing fixed, ``PYTHONHASHSEED=0``, as it moves the
cost of dict lookups by a percent or two). Needs ``valgrind`` (Debian's package); about a minute a
rule set.

``--learner`` also counts the learner's own share of the PettingZoo loop: the same loop
body (``last``, the mask's ``view(bool).nonzero()``, the random choice, ``step``) run
over observations the env made before, against a stand-in env that only hands them
out, so that what is left is what any env with this mask would cost the learner.
``--cache`` simulates the caches and branch predictor too (slower): misses a step, which
tell why a step's CPU time is longer than its instructions say.

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
from typing import Any


class _Replay:
    """A stand-in env handing out observations made before (the learner's share)."""

    def __init__(self, seen: list[tuple[object, ...]]) -> None:
        self.seen, self.i = seen, 0

    def agent_iter(self):  # type: ignore[no-untyped-def]
        for _ in self.seen:
            yield "player_0"

    def last(self, observe: bool = True):  # type: ignore[no-untyped-def]
        return self.seen[self.i]

    def step(self, action: object) -> None:
        self.i += 1


def play(rules_text: str, deals: int, loop: str) -> int:
    """Play ``deals`` deals through ``loop`` ("raw", "pettingzoo"; "collect": the env's
    observations of those deals kept, "learner": kept and then replayed through the
    learner's loop body) as run.py does; returns the steps played (replayed)."""
    from run import masked_deal  # (this directory's run.py: its very loop)

    from durak import Game
    from durak.envs.episode import learning_rules
    from durak.envs.pettingzoo import env

    rules = learning_rules(rules_text)
    rng = random.Random(0)
    steps = 0
    e: Any = env(rules=rules)
    e.reset(seed=0)
    kept: list[tuple[object, ...]] = []
    for d in range(deals):
        if loop == "raw":
            g = Game(rules, seed=d)
            while g.to_act is not None:
                legal = g.legal_actions()
                g.apply(legal[int(rng.random() * len(legal))])
                steps += 1
            continue
        e.reset()
        if loop in ("collect", "learner"):
            for _agent in e.agent_iter():
                seen = e.last()
                e.step(None if seen[2] or seen[3] else e.unwrapped.stepper.legal[0])
                kept.append(seen)
            continue
        steps += masked_deal(e, rng)
    if loop == "learner":
        steps += masked_deal(_Replay(kept), rng)
    return steps


EVENTS = {
    "Collected": "instructions",
    "D1  misses": "D1 misses",
    "I1  misses": "I1 misses",
    "Mispredicts": "branch mispredictions",
}


def counted(
    rules_text: str, deals: int, loop: str, cache: bool = False
) -> tuple[dict[str, int], int]:
    """({event: count}, steps) of one run under callgrind."""
    sim = ["--cache-sim=yes", "--branch-sim=yes"] if cache else []
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                *sim,
                f"--callgrind-out-file={tmp}/cg",
                sys.executable,
                __file__,
                "--child",
                loop,
                "--deals",
                str(deals),
                "--rules",
                rules_text,
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )  # (string hashes move dict costs)
    counts = {}
    for key, name in EVENTS.items():
        m = re.search(key + r"\s*:\s*([\d,]+)", out.stderr)
        if m:
            counts[name] = int(m.group(1).replace(",", ""))
    steps = int(re.search(r"steps (\d+)", out.stdout).group(1))  # type: ignore[union-attr]
    return counts, steps


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rules", action="append", help="rules (repeat); default 2-player podkidnoy")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument(
        "--learner",
        action="store_true",
        help="also count the learner's own share of the PettingZoo loop",
    )
    p.add_argument(
        "--cache", action="store_true", help="also simulate caches and branches: misses a step"
    )
    p.add_argument(
        "--child", choices=("raw", "pettingzoo", "collect", "learner"), help=argparse.SUPPRESS
    )
    args = p.parse_args()
    texts = args.rules or ["podkidnoy"]
    if args.child:
        print("steps", play(texts[0], args.deals, args.child))
        return
    print(
        f"instructions a step (callgrind), {args.deals} deals, "
        f"{'pure Python' if os.environ.get('DURAK_PURE') else 'installed engine'}"
    )
    for text in texts:
        per: dict[str, dict[str, float]] = {}
        for loop in ("raw", "pettingzoo"):
            total, steps = counted(text, args.deals, loop, args.cache)
            base, _ = counted(text, 0, loop, args.cache)
            per[loop] = {k: (v - base[k]) / steps for k, v in total.items()}
        if args.learner:
            # the replay's own cost: collecting alone, subtracted
            total, steps = counted(text, args.deals, "learner", args.cache)
            base, _ = counted(text, args.deals, "collect", args.cache)
            per["learner"] = {k: (v - base[k]) / steps for k, v in total.items()}
        raw, pz = per["raw"]["instructions"], per["pettingzoo"]["instructions"]
        line = f"{text:<40} raw {raw:>8.0f}  pettingzoo {pz:>8.0f}  ratio {raw / pz:.3f}"
        if args.learner:
            line += f"  (the learner's share {per['learner']['instructions']:.0f})"
        print(line)
        for name in list(EVENTS.values())[1:]:
            if name in per["raw"]:
                extra = f", the learner's share {per['learner'][name]:.0f}" if args.learner else ""
                print(
                    f"{'':<40} {name} a step: raw {per['raw'][name]:.0f}, "
                    f"pettingzoo {per['pettingzoo'][name]:.0f}{extra}"
                )


if __name__ == "__main__":
    main()
