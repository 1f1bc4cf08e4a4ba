"""One setup step of the Makefile, said out loud: what it does, roughly how long, and a
line at least every 10 s while it runs (the last thing the command printed, and the time
so far), then how long it took. Runs on the system's Python, before any venv exists.

    python3 scripts/step.py "Installing the terminal game's libraries (about 30 s)" -- \
        .venv/bin/python -m pip install textual rich

The command's own output is kept out of the way (shown in full only if it fails).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time

EVERY = 10.0  # seconds between progress lines


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") != 1:
        print("usage: step.py WHAT -- COMMAND...", file=sys.stderr)
        return 2
    what, cmd = argv[0], argv[2:]
    start = time.monotonic()
    print(f"==> {what}", flush=True)
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: list[str] = []
    last = [""]

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line.strip() and not line.startswith("WARNING:"):  # pip's notes say little
                last[0] = line.strip()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    while True:
        try:
            proc.wait(timeout=EVERY)
            break
        except subprocess.TimeoutExpired:
            now = last[0]
            compiling = re.search(r" -c (\S+\.c)\b", now)
            if compiling:  # a compiler's command line says little but its file
                now = "compiling " + os.path.basename(compiling.group(1))
            if len(now) > 90:
                now = now[:87] + "..."
            print(f"    ... {time.monotonic() - start:.0f} s: {now or 'working'}", flush=True)
    reader.join(timeout=5)
    took = time.monotonic() - start
    if proc.returncode != 0:
        sys.stdout.write("".join(lines[-200:]))
        print(f"    failed after {took:.0f} s (exit {proc.returncode})", flush=True)
        return proc.returncode
    print(f"    done in {took:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
