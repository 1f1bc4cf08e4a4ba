"""How long the start screen of ``durak play`` takes to react to a change.

Each step changes one control (a list's value, a checkbox) and waits until Textual has
handled every message and redrawn the screen (Pilot.pause: the process is idle again)
and the form shows the change (a query of the widgets).
Two times are printed per step, the median and the worst over ``--rounds`` rounds:
"cpu", the processor time the app spent reacting (handlers, layout, rendering), and
"wall", the time until Textual saw the process idle again, which also counts Textual's
idle detection (it sleeps in slices of 20 ms) and time lost to other processes on a busy
machine. After each step the benchmark checks that the form shows what was chosen
(picking «Переводной» must tick «Перевод» at once).

    .venv/bin/python benchmarks/tui/setup_screen.py --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

try:
    from durak.tui.form import Choice
except ImportError:  # the start screen before one-line rows
    Choice = None  # type: ignore[assignment,misc]

from durak.rules import Rules
from durak.tui.app import DurakApp
from durak.tui.session import Settings
from durak.tui.setup_screen import SetupScreen

Step = tuple[str, Callable[[SetupScreen], Any], Callable[[SetupScreen], bool]]


def control(screen: SetupScreen, key: str) -> Any:
    """The widget of row ``key``: a Choice, or a Select/Checkbox in versions before it
    (so the same script measures both)."""
    widget = screen.query_one(f"#{key}")
    return widget


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


STEPS: list[Step] = [
    ("preset -> perevodnoy", select("preset", "perevodnoy"), checked("transfer", True)),
    ("players -> 4", select("players", 4), visible_seats(4)),
    ("teams -> 2x2", select("teams", "2x2"), shown("teams", "2x2")),
    ("pile_on off", toggle("pile_on"), checked("pile_on", False)),
    ("transfer off", toggle("transfer"), checked("transfer", False)),
    ("language -> ru", select("lang", "ru"), shown("lang", "ru")),
    ("deck -> 52", select("deck", 52), shown("deck", 52)),
    ("preset -> podkidnoy", select("preset", "podkidnoy"), checked("transfer", False)),
    ("players -> 2", select("players", 2), visible_seats(2)),
    ("language -> en", select("lang", "en"), shown("lang", "en")),
]


async def one_round(save: Path) -> dict[str, tuple[float, float]]:
    app = DurakApp(Settings(rules=Rules(), opponents=["greedy"], save=save, lang="en"))
    out: dict[str, tuple[float, float]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for name, change, check in STEPS:
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            start, cpu = time.perf_counter(), time.process_time()
            change(screen)
            for _ in range(100):
                await pilot.pause()  # every message handled, the screen redrawn
                screen = app.screen
                assert isinstance(screen, SetupScreen)
                if check(screen):  # (on a busy machine Textual may think it idle too soon)
                    break
            else:
                raise SystemExit(f"after «{name}» the form does not show the change")
            out[name] = (time.process_time() - cpu, time.perf_counter() - start)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="rounds of all steps (default 5)")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    times: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in STEPS}
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            for name, dt in asyncio.run(one_round(Path(tmp) / "m.txt")).items():
                times[name].append(dt)
    print(f"start screen, 80x24, {args.rounds} rounds, Python {platform.python_version()}, "
          f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(f"{'change':<24} {'cpu median':>10} {'cpu worst':>10} {'wall median':>12} "
          f"{'wall worst':>11}  (ms)")

    def row(name: str, ts: list[tuple[float, float]]) -> str:
        cpu = [c for c, _ in ts]
        wall = [w for _, w in ts]
        return (f"{name:<24} {1000 * statistics.median(cpu):>10.1f} {1000 * max(cpu):>10.1f} "
                f"{1000 * statistics.median(wall):>12.1f} {1000 * max(wall):>11.1f}")

    for name, ts in times.items():
        print(row(name, ts))
    print(row("all changes", [t for ts in times.values() for t in ts]))


if __name__ == "__main__":
    main()
