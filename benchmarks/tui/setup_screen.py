"""How long the start screen of ``durak play`` takes to react to a change.

Each step changes one control (a list's value, a checkbox), as a key press would, and
times the frames Textual puts out for it. Two times are kept per step:

- "shown": from the change to the last frame of it, the time a player waits to see
  the change whole. Each frame is turned into the bytes a terminal would receive (the
  headless test driver skips that) before its time is taken. The step ends when no
  frame has come for a quarter of a second; that wait is not counted.
- "cpu": the processor time the app spent until that last frame (handlers, layout,
  rendering).

Textual's test pilot is not used to wait: its idle detection sleeps in slices of
20 ms until one passes without work, and it draws pending changes itself at its end,
so it would add 20 to 40 ms and move frames. (Earlier versions of this benchmark
printed that time as "wall".) After each step the benchmark checks that the form shows
what was chosen (picking «Переводной» must tick «Перевод» at once; after the language,
the footer too).

    .venv/bin/python benchmarks/tui/setup_screen.py --rounds 5
    .venv/bin/python benchmarks/tui/setup_screen.py --rounds 5 --before OLD/src

``--before`` runs the start screen of another source tree (``src`` of an older
checkout) in rounds alternating with this one, each round in a new process, and prints
both side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual._compositor import CompositorUpdate

try:
    from durak.tui.form import Choice
except ImportError:  # the start screen before one-line rows
    Choice = None  # type: ignore[assignment,misc]

from durak.rules import Rules
from durak.tui.app import DurakApp
from durak.tui.session import Settings
from durak.tui.setup_screen import SetupScreen

Step = tuple[str, Callable[[SetupScreen], Any], Callable[[SetupScreen], bool]]
Times = dict[str, list[tuple[float, float]]]  # step -> [(cpu, shown)], in seconds
QUIET = 0.25  # s without a frame: the change is over


def control(screen: SetupScreen, key: str) -> Any:
    """The widget of row ``key``: a Choice, or a Select/Checkbox in versions before it
    (so the same script measures both)."""
    return screen.query_one(f"#{key}")


def select(key: str, value: Any) -> Callable[[SetupScreen], Any]:
    """Pick ``value`` in row ``key``, as a person does with ← → (or a list)."""
    def change(screen: SetupScreen) -> None:
        w = control(screen, key)
        if Choice is not None and isinstance(w, Choice):
            w.pick(value)
        else:
            w.value = value
    return change


def toggle(key: str) -> Callable[[SetupScreen], Any]:
    """Flip an on/off row, as space does."""
    def change(screen: SetupScreen) -> None:
        w = control(screen, key)
        if Choice is not None and isinstance(w, Choice):
            w.action_step(1)
        else:
            w.toggle()
    return change


def shown(key: str, want: Any) -> Callable[[SetupScreen], bool]:
    return lambda s: bool(control(s, key).value == want)


checked = shown


def visible_seats(n: int) -> Callable[[SetupScreen], bool]:
    def check(s: SetupScreen) -> bool:
        shown = [w for w in s.query("*") if (w.id or "").startswith("opp-")
                 and w.display and (w.parent is None or w.parent.display)]
        return len(shown) == n - 1
    return check


def in_language(word: str) -> Callable[[SetupScreen], bool]:
    """The language row shows ``word`` and so does the footer (rebuilt last)."""
    def check(s: SetupScreen) -> bool:
        if control(s, "lang").value != ("ru" if word == "начать" else "en"):
            return False
        footer = [str(getattr(k, "description", "")).strip() for k in s.query("FooterKey")]
        return word in footer
    return check


STEPS: list[Step] = [
    ("preset -> perevodnoy", select("preset", "perevodnoy"), checked("transfer", True)),
    ("players -> 4", select("players", 4), visible_seats(4)),
    ("teams -> 2x2", select("teams", "2x2"), shown("teams", "2x2")),
    ("pile_on off", toggle("pile_on"), checked("pile_on", False)),
    ("transfer off", toggle("transfer"), checked("transfer", False)),
    ("language -> ru", select("lang", "ru"), in_language("начать")),
    ("deck -> 52", select("deck", 52), shown("deck", 52)),
    ("preset -> podkidnoy", select("preset", "podkidnoy"), checked("transfer", False)),
    ("players -> 2", select("players", 2), visible_seats(2)),
    ("language -> en", select("lang", "en"), in_language("start")),
]


def watch_frames(app: DurakApp, frames: list[tuple[float, float]]) -> None:
    """Append to ``frames`` when each frame is ready for the terminal (wall and
    processor clocks)."""
    display = app._display

    def display_and_time(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is None or app._batch_count:
            return
        if isinstance(renderable, CompositorUpdate):  # the headless driver skips this
            renderable.render_segments(app.console)
        frames.append((time.perf_counter(), time.process_time()))

    setattr(app, "_display", display_and_time)  # noqa: B010 (a method, on purpose)


async def settled(app: DurakApp, frames: list[tuple[float, float]], quiet: float) -> None:
    """Wait until no frame has come for ``quiet`` seconds (and at least that long)."""
    start = time.perf_counter()
    while True:
        await asyncio.sleep(0.002)
        last = frames[-1][0] if frames else start
        if time.perf_counter() - last >= quiet:
            return


async def one_round(save: Path) -> Times:
    app = DurakApp(Settings(rules=Rules(), opponents=["greedy"], save=save, lang="en"))
    out: Times = {}
    frames: list[tuple[float, float]] = []
    watch_frames(app, frames)
    async with app.run_test(size=(80, 24)):
        await settled(app, frames, QUIET)
        for name, change, check in STEPS:
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            frames.clear()
            start, cpu = time.perf_counter(), time.process_time()
            change(screen)
            await settled(app, frames, QUIET)
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            if not check(screen):
                raise SystemExit(f"after «{name}» the form does not show the change")
            if not frames:
                raise SystemExit(f"«{name}» put out no frame")
            out[name] = (frames[-1][1] - cpu, frames[-1][0] - start)
    return out


def measure(rounds: int) -> Times:
    times: Times = {name: [] for name, _, _ in STEPS}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(rounds):
            for name, dt in asyncio.run(one_round(Path(tmp) / "m.txt")).items():
                times[name].append(dt)
    return times


def measure_elsewhere(src: str | None) -> Times:
    """One round in a new process, with ``src`` first on the path if given."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    out = subprocess.run([sys.executable, __file__, "--rounds", "1", "--json"], env=env,
                         check=True, capture_output=True, text=True).stdout
    return {k: [tuple(t) for t in v] for k, v in json.loads(out).items()}  # type: ignore[misc]


def ms(xs: list[float], how: Callable[[list[float]], float]) -> str:
    return f"{1000 * how(xs):.1f}"


def table(times: Times) -> list[str]:
    lines = [f"{'change':<22} {'cpu median':>10} {'cpu worst':>9} {'shown median':>12} "
             f"{'shown worst':>11}  (ms)"]
    for name, ts in [*times.items(), ("all changes", [t for v in times.values() for t in v])]:
        cpu, shown = [t[0] for t in ts], [t[1] for t in ts]
        lines.append(f"{name:<22} {ms(cpu, statistics.median):>10} {ms(cpu, max):>9} "
                     f"{ms(shown, statistics.median):>12} {ms(shown, max):>11}")
    return lines


def side_by_side(before: Times, after: Times) -> list[str]:
    lines = [f"{'change':<22} {'cpu before':>10} {'after':>6} {'shown before':>12} {'after':>6} "
             f"{'worst before':>12} {'after':>6}  (ms, medians)"]
    every = ("all changes", [t for v in before.values() for t in v],
             [t for v in after.values() for t in v])
    for name, b, a in [*((n, before[n], after[n]) for n in before), every]:
        lines.append(f"{name:<22} {ms([t[0] for t in b], statistics.median):>10} "
                     f"{ms([t[0] for t in a], statistics.median):>6} "
                     f"{ms([t[1] for t in b], statistics.median):>12} "
                     f"{ms([t[1] for t in a], statistics.median):>6} "
                     f"{ms([t[1] for t in b], max):>12} {ms([t[1] for t in a], max):>6}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="rounds of all steps (default 5)")
    ap.add_argument("--before", metavar="SRC",
                    help="also measure the start screen of this source tree, side by side")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    if args.before is not None and not (Path(args.before) / "durak" / "tui").is_dir():
        ap.error(f"--before {args.before}: no durak/tui in it (give the src folder)")
    if args.json:
        print(json.dumps(measure(args.rounds)))
        return
    load = os.getloadavg()[0]
    if args.before is None:
        lines = table(measure(args.rounds))
    else:
        before: Times = {name: [] for name, _, _ in STEPS}
        after: Times = {name: [] for name, _, _ in STEPS}
        for _ in range(args.rounds):  # alternating, so both see the same machine
            for into, src in ((before, args.before), (after, None)):
                for name, ts in measure_elsewhere(src).items():
                    into[name].extend(ts)
        lines = [*side_by_side(before, after), "", "before:", *table(before),
                 "", "after:", *table(after)]
    print(f"start screen, 80x24, {args.rounds} rounds, Python {platform.python_version()}, "
          f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
