"""The engine's speed before and after a change, side by side in one run.

Each round runs ``durak bench``'s two measurements (the public path: ``legal_actions()``
and the checked ``apply``; and the playout loop inside the compiled engine) once for each
of two source trees, in turn, each in its own process, so that both see the same load;
each tree keeps its best round per row. Both trees must play the same games: the action
counts are compared. Rates are games per CPU-second of the measuring process.

    python benchmarks/engine/before_after.py BEFORE_SRC AFTER_SRC --rounds 3

(``*_SRC``: a checkout's ``src`` folder, each built with ``setup.py build_ext --inplace``
for the compiled numbers; which engine each runs is printed. ``--pure``: both trees'
pure-Python engines, ``DURAK_PURE=1``.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

# One measurement in the tree on PYTHONPATH: per rules text, (actions, public s, loop s).
_MEASURE = """
import json, sys
from durak import Rules, bench, build
out = {"engine": build.engine_name(), "rows": {}}
games = int(sys.argv[1])
for text in sys.argv[2:]:
    r = Rules.parse(text)
    bench.run_games(r, 20, seed=99)  # (warm up)
    n, dt = bench.run_games(r, games, seed=0)
    _, dl = bench.run_loop(r, games, seed=0)
    out["rows"][text] = [n, dt, dl]
print(json.dumps(out))
"""

ROWS = (
    "podkidnoy()",
    "podkidnoy(players=4)",
    "perevodnoy()",
    "perevodnoy(players=4)",
    "pogonny(players=3)",
    "shulerskiy(players=3)",
)


def measure(src: str, games: int, rows: tuple[str, ...], pure: bool) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": src}
    env.pop("DURAK_PURE", None)
    if pure:
        env["DURAK_PURE"] = "1"
    cmd = [sys.executable, "-c", _MEASURE, str(games), *rows]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("before", help="the source tree before the change (its src folder)")
    p.add_argument("after", help="the source tree after the change (its src folder)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--games", type=int, default=1000, help="deals per row and round")
    p.add_argument("--pure", action="store_true", help="both trees' pure-Python engines")
    args = p.parse_args()
    print(f"load before: {os.getloadavg()}")
    best: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    counts: dict[str, dict[str, int]] = {"before": {}, "after": {}}
    for _ in range(args.rounds):
        for side, src in (("before", args.before), ("after", args.after)):
            res = measure(src, args.games, ROWS, args.pure)
            print(f"{side}: {res['engine']} ({src})", flush=True)
            rows = res["rows"]
            assert isinstance(rows, dict)
            for text, (n, dt, dl) in rows.items():
                counts[side][text] = n
                old = best[side].get(text, [0.0, 0.0])
                best[side][text] = [max(old[0], args.games / dt), max(old[1], args.games / dl)]
    print(f"load after: {os.getloadavg()}")
    print(f"best of {args.rounds} rounds, {args.games} deals a row; games per CPU-second")
    head = f"{'rules':<24} {'public before':>14} {'after':>8} {'ratio':>6}"
    print(head + f" {'loop before':>12} {'after':>8} {'ratio':>6}")
    for text in ROWS:
        assert counts["before"][text] == counts["after"][text], f"{text}: other games"
        b, a = best["before"][text], best["after"][text]
        print(
            f"{text:<24} {b[0]:>14.0f} {a[0]:>8.0f} {a[0] / b[0]:>5.2f}x"
            f" {b[1]:>12.0f} {a[1]:>8.0f} {a[1] / b[1]:>5.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
