"""How long the start screen of ``durak play`` takes to react to a key.

Each step presses one key on one line of the form (← → change a value, space flips an
on/off line, ↑ ↓ move the focus), sent as the terminal driver sends it, and times the
frames Textual puts out for it. Two times are kept per step:

- "shown": from the key to the last frame it causes, the time a player waits to see
  the change whole. Each frame is turned into the bytes a true-colour terminal would
  receive (the headless test driver skips that) before its time is taken. The step
  ends when no frame has come for a quarter of a second; that wait is not counted.
- "cpu": the processor time the app spent until that last frame (handlers, layout,
  rendering).

Textual's test pilot is not used to wait: its idle detection sleeps in slices of
20 ms until one passes without work, and it draws pending changes itself at its end,
so it would add 20 to 40 ms and move frames. (Earlier versions of this benchmark
printed that time as "wall".) Textual draws at most 60 frames a second, so a change
that needs two frames shows at least 17 ms after its first. After each step the
benchmark checks that the form shows what was chosen (picking «Переводной» must tick
«Перевод» at once; after the language, the footer too).

    .venv/bin/python benchmarks/tui/setup_screen.py --rounds 5
    .venv/bin/python benchmarks/tui/setup_screen.py --rounds 5 --before OLD/src

``--before`` runs the start screen of another source tree (``src`` of an older
checkout, with the same one-line form) in rounds alternating with this one, each round
in a new process, and prints both side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import io
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

from rich.console import Console
from textual import events
from textual._compositor import CompositorUpdate

from durak.rules import Rules
from durak.tui.app import DurakApp
from durak.tui.form import Choice
from durak.tui.session import Settings
from durak.tui.setup_screen import SetupScreen

Check = Callable[[SetupScreen], bool]
Step = tuple[str, str, str, Check]  # name, the row focused first, the key, what it shows
Times = dict[str, list[tuple[float, float]]]  # step -> [(cpu, shown)], in seconds
QUIET = 0.25  # s without a frame: the change is over


def shown(key: str, want: Any) -> Check:
    return lambda s: bool(s.query_one(f"#{key}", Choice).value == want)


def focused(key: str) -> Check:
    return lambda s: s.focused is not None and s.focused.id == key


def seats(n: int) -> Check:
    return lambda s: (
        [w.id for w in s.query(Choice) if (w.id or "").startswith("opp-") and w.display]
        == [f"opp-{seat}" for seat in range(1, n)]
    )


def in_language(lang: str, start: str) -> Check:
    """The language row shows ``lang`` and the footer the word ``start``."""

    def check(s: SetupScreen) -> bool:
        footer = [str(getattr(k, "description", "")).strip() for k in s.query("FooterKey")]
        return bool(s.query_one("#lang", Choice).value == lang and start in footer)

    return check


# From the first screen: podkidnoy, 2 players, 36 cards, English.
STEPS: list[Step] = [
    ("focus down", "preset", "down", focused("players")),
    ("preset -> perevodnoy", "preset", "right", shown("transfer", True)),
    ("players 2 -> 3", "players", "right", seats(3)),
    ("players 3 -> 4", "players", "right", seats(4)),
    ("teams -> 2x2", "teams", "right", shown("teams", "2x2")),
    ("pile_on off", "pile_on", "space", shown("pile_on", False)),
    ("transfer off", "transfer", "space", shown("transfer", False)),
    ("language -> ru", "lang", "right", in_language("ru", "начать")),
    ("deck -> 52", "deck", "right", shown("deck", 52)),
    ("preset -> podkidnoy", "preset", "left", shown("transfer", False)),
    ("players 4 -> 3", "players", "left", seats(3)),
    ("players 3 -> 2", "players", "left", seats(2)),
    ("language -> en", "lang", "left", in_language("en", "start")),
    ("focus up", "players", "up", focused("preset")),
]


def watch_frames(app: DurakApp, frames: list[tuple[float, float]]) -> None:
    """Append to ``frames`` when each frame is ready for the terminal (wall and
    processor clocks): turned into the bytes a true-colour terminal receives, which
    the headless test driver skips."""
    # (Textual has no public hook for a finished frame: its private display method is
    # wrapped, for this benchmark only)
    display = app._display  # noqa: SLF001
    terminal = Console(
        color_system="truecolor",
        force_terminal=True,
        file=io.StringIO(),
        width=app.size.width,
        height=app.size.height,
    )

    def display_and_time(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is None or app._batch_count:  # noqa: SLF001 (mid-batch)
            return
        if isinstance(renderable, CompositorUpdate):
            renderable.render_segments(terminal)
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


def press(app: DurakApp, key: str) -> None:
    """Send ``key`` as the terminal driver does."""
    event = events.Key(key, " " if key == "space" else None)
    event.set_sender(app)
    driver = app._driver  # noqa: SLF001 (as the terminal driver delivers a key)
    assert driver is not None
    driver.send_message(event)


async def one_round(save: Path) -> Times:
    app = DurakApp(Settings(rules=Rules(), opponents=["greedy"], save=save, lang="en"))
    out: Times = {}
    frames: list[tuple[float, float]] = []
    watch_frames(app, frames)
    async with app.run_test(size=(80, 24)):
        await settled(app, frames, QUIET)
        for name, row, key, check in STEPS:
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            if screen.focused is None or screen.focused.id != row:
                screen.query_one(f"#{row}", Choice).focus()
                await settled(app, frames, QUIET)
            frames.clear()
            start, cpu = time.perf_counter(), time.process_time()
            press(app, key)
            await settled(app, frames, QUIET)
            if not check(screen):
                raise SystemExit(f"after «{name}» the form does not show the change")
            if not frames:
                raise SystemExit(f"«{name}» put out no frame")
            out[name] = (frames[-1][1] - cpu, frames[-1][0] - start)
    return out


def measure(rounds: int) -> Times:
    times: Times = {name: [] for name, *_ in STEPS}
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
    out = subprocess.run(
        [sys.executable, __file__, "--rounds", "1", "--json"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {k: [tuple(t) for t in v] for k, v in json.loads(out).items()}  # type: ignore[misc]


def ms(xs: list[float], how: Callable[[list[float]], float]) -> str:
    return f"{1000 * how(xs):.1f}"


def table(times: Times) -> list[str]:
    lines = [
        f"{'change':<22} {'cpu median':>10} {'cpu worst':>9} {'shown median':>12} "
        f"{'shown worst':>11}  (ms)"
    ]
    for name, ts in [*times.items(), ("all changes", [t for v in times.values() for t in v])]:
        cpu, shown = [t[0] for t in ts], [t[1] for t in ts]
        lines.append(
            f"{name:<22} {ms(cpu, statistics.median):>10} {ms(cpu, max):>9} "
            f"{ms(shown, statistics.median):>12} {ms(shown, max):>11}"
        )
    return lines


def side_by_side(before: Times, after: Times) -> list[str]:
    lines = [
        f"{'change':<22} {'cpu before':>10} {'after':>6} {'shown before':>12} {'after':>6} "
        f"{'worst before':>12} {'after':>6}  (ms, medians)"
    ]
    every = (
        "all changes",
        [t for v in before.values() for t in v],
        [t for v in after.values() for t in v],
    )
    for name, b, a in [*((n, before[n], after[n]) for n in before), every]:
        lines.append(
            f"{name:<22} {ms([t[0] for t in b], statistics.median):>10} "
            f"{ms([t[0] for t in a], statistics.median):>6} "
            f"{ms([t[1] for t in b], statistics.median):>12} "
            f"{ms([t[1] for t in a], statistics.median):>6} "
            f"{ms([t[1] for t in b], max):>12} {ms([t[1] for t in a], max):>6}"
        )
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="rounds of all steps (default 5)")
    ap.add_argument(
        "--before",
        metavar="SRC",
        help="also measure the start screen of this source tree, side by side",
    )
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
        before: Times = {name: [] for name, *_ in STEPS}
        after: Times = {name: [] for name, *_ in STEPS}
        for _ in range(args.rounds):  # alternating, so both see the same machine
            for into, src in ((before, args.before), (after, None)):
                for name, ts in measure_elsewhere(src).items():
                    into[name].extend(ts)
        lines = [
            *side_by_side(before, after),
            "",
            "before:",
            *table(before),
            "",
            "after:",
            *table(after),
        ]
    print(
        f"start screen, 80x24, {args.rounds} rounds, Python {platform.python_version()}, "
        f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after"
    )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
