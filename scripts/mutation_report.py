"""Kill rate per module from mutmut's results: the numbers docs/conformance.md records.

Run by ``make mutate`` after ``mutmut run``. A mutant counts as killed when a test
failed or it timed out; survivors (and mutants no test reached) are listed to be
explained or killed with a new test.
"""

from __future__ import annotations

import collections
import subprocess
import sys


def main() -> int:
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    survivors: list[str] = []
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if not sep or "__mutmut_" not in name:
            continue
        module = name.split(".x", 1)[0]  # mutmut names them module.x<function>__mutmut_<n>
        counts[module][status.strip()] += 1
        if status.strip() not in ("killed", "timeout", "not checked"):
            survivors.append(f"{status.strip():12} {name}")
    print(
        f"{'module':16} {'mutants':>8} {'checked':>8} {'killed':>8} {'survived':>9} "
        f"{'no tests':>9} {'rate':>7}"
    )
    total = collections.Counter[str]()
    for module, c in sorted(counts.items()):
        total.update(c)
        _row(module, c)
    _row("all", total)
    print("\nnot killed:")
    print("\n".join(survivors) or "  none")
    return 0


def _row(module: str, c: collections.Counter[str]) -> None:
    """The kill rate counts the mutants checked (a run cut short leaves some unchecked)."""
    n = sum(c.values())
    checked = n - c["not checked"]
    killed = c["killed"] + c["timeout"]
    rate = 100 * killed / checked if checked else 0.0
    print(
        f"{module:16} {n:8} {checked:8} {killed:8} {c['survived']:9} {c['no tests']:9} {rate:6.1f}%"
    )


if __name__ == "__main__":
    sys.exit(main())
