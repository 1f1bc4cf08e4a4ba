"""Time every command the README shows, as a new user would run them.

A match record is made first (three deals of greedy bots, saved like ``durak play``
saves one) so that ``hint`` and ``replay`` have a file to read. Each command runs once,
its wall time is printed with the load average before it, and any that takes a minute
or more is marked. ``make play`` and ``make serve`` wait for a person (they are timed up
to the point where they wait: the start screen drawn, the server answering).

    .venv/bin/python benchmarks/readme/run.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from durak.bots import make
from durak.match import Match
from durak.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
DURAK = str(Path(sys.executable).with_name("durak"))


def record(path: Path) -> None:
    m = Match(Rules(), seed=1, deals=3, names=["Player", "Anna"])
    bots = [make("greedy"), make("greedy")]
    while True:
        g = m.game
        while not g.is_over:
            seat = g.to_act or 0
            g.apply(bots[seat].choose(g.observation(seat)))
        if m.next_deal() is None:
            break
    path.write_text(m.record(), encoding="utf-8")


def timed(name: str, argv: list[str], cwd: Path) -> float:
    load = os.getloadavg()[0]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    dt = time.perf_counter() - start
    mark = "" if dt < 60 else "   <-- a minute or more"
    status = "" if done.returncode == 0 else f"   exit {done.returncode}: {done.stderr[-200:]}"
    print(f"{name:<78} {dt:7.1f} s  (load {load:.1f}){mark}{status}", flush=True)
    return dt


def timed_until(name: str, argv: list[str], cwd: Path, ready: str) -> float:
    """A command that runs until stopped: the time until it prints ``ready``."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert proc.stdout is not None
    seen = False
    for line in proc.stdout:
        if ready in line:
            seen = True
            break
    dt = time.perf_counter() - start
    if seen and "serving on" in ready:
        url = line.split("serving on ", 1)[1].split()[0]
        urllib.request.urlopen(url, timeout=30).read()  # it answers
        dt = time.perf_counter() - start
    proc.terminate()
    proc.wait(timeout=30)
    print(
        f"{name:<78} {dt:7.1f} s  (load {load:.1f}){'' if seen else '   never ready'}", flush=True
    )
    return dt


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        match = work / "match.txt"
        record(match)
        print(
            f"README commands, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
            f"{os.cpu_count()} cores"
        )
        timed(
            'durak arena --bots level3 greedy --games 120 --rules "perevodnoy(players=3)"',
            [
                DURAK,
                "arena",
                "--bots",
                "level3",
                "greedy",
                "--games",
                "120",
                "--rules",
                "perevodnoy(players=3)",
                "--quiet",
            ],
            work,
        )
        timed(
            "durak hint MATCH.txt --deal 1 --ply 20",
            [DURAK, "hint", str(match), "--deal", "1", "--ply", "20"],
            work,
        )
        timed("durak replay MATCH.txt", [DURAK, "replay", str(match)], work)
        timed(
            "durak replay MATCH.txt --lang ru", [DURAK, "replay", str(match), "--lang", "ru"], work
        )
        timed("durak bench (make bench)", [DURAK, "bench"], work)
        timed_until(
            "durak serve (make serve): until it answers http://127.0.0.1:PORT/",
            [DURAK, "serve", "--port", "0", "--db", f"sqlite:///{work / 'd.db'}"],
            work,
            "serving on",
        )
        script = (
            "import asyncio\nfrom durak.tui.app import DurakApp\n"
            "from durak.tui.session import Settings\n"
            "async def go():\n"
            "    app = DurakApp(Settings(save=None))\n"
            "    async with app.run_test(size=(80, 24)) as pilot:\n"
            "        await pilot.pause()\n"
            "        print('start screen drawn', flush=True)\n"
            "asyncio.run(go())\n"
        )
        timed_until(
            "durak play (make play): until the start screen is drawn",
            [sys.executable, "-c", script],
            work,
            "start screen drawn",
        )
        if shutil.which("make"):
            print("make test: the whole suite (minutes, not one): see the CI log")


if __name__ == "__main__":
    main()
