"""Check mutants outside ``mutmut run``, two at a time: for when a full run does not fit.

    python scripts/mutation_sample.py OUT [RECHECK]

Either the mutants named in the file RECHECK (one a line: mutmut's survivors, to see
whether new tests kill them; each is run against every test of the selection, since
mutmut's record of the tests covering a function misses those that found a cache
already filled), or, without it, the mutants mutmut has not checked, in a seeded
random order interleaved by module, so that a run cut short leaves a uniform random
sample. Each result is appended to OUT as ``status<TAB>mutant<TAB>seconds``.

Each mutant runs as mutmut runs it: a worker forked from a process that has imported
pytest but not the engine, the mutant switched on with ``MUTANT_UNDER_TEST``, the
mutated sources of ``mutants/src``, the tests that cover the mutated function in
mutmut's stats plus every test added since (the module's own test file first), with
``[tool.mutmut]``'s pytest arguments. Run it after ``make mutate`` (stopped or not),
``nice -n 19``, from the project root, with ``DURAK_PURE=1``; ``MUTATION_TIMEOUT`` (seconds,
default 300) bounds each mutant's wall time.
"""

from __future__ import annotations

import glob
import json
import os
import random
import signal
import subprocess
import sys
import time
import tomllib

import pytest

TIMEOUT = int(os.environ.get("MUTATION_TIMEOUT", "300"))  # seconds of wall time per mutant
OWN = {
    "durak.match": "tests/test_match.py",
    "durak.rules": "tests/test_rules.py",
    "durak.actions": "tests/test_actions.py",
    "durak.game": "tests/test_conformance.py",
}


def main() -> int:
    out_path = sys.argv[1]
    recheck = _lines(sys.argv[2]) if len(sys.argv) > 2 else []
    with open("pyproject.toml", "rb") as f:
        config = tomllib.load(f)["tool"]["mutmut"]
    args, selection = config["pytest_add_cli_args"], config["pytest_add_cli_args_test_selection"]
    listing = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", *args, *selection],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    all_ids = [x.strip() for x in listing.splitlines() if "::" in x]
    with open("mutants/mutmut-stats.json") as stats_file:
        stats = json.load(stats_file)
    covering = stats["tests_by_mangled_function_name"]
    new_ids = {t for t in all_ids if t not in stats["duration_by_test"]}

    def tests_for(name: str) -> list[str]:
        first = OWN[name.split(".x", 1)[0]]
        if name in recheck:  # whole files: a mutant may rename or break parametrized tests
            return [first] + [f for f in selection if f != first]
        cover = set(covering.get(name.rsplit("__mutmut_", 1)[0], ())) | new_ids
        ids = [t for t in all_ids if t in cover]
        return [t for t in ids if t.startswith(first)] + [t for t in ids if not t.startswith(first)]

    done = {x.split("\t")[1] for x in _lines(out_path)} if os.path.exists(out_path) else set()
    # A re-check list is all that is run; without one, the mutants mutmut has not checked.
    queue = [n for n in recheck or _unchecked_in_random_order() if n not in done]
    sys.path.insert(0, os.path.abspath("mutants/src"))
    running: dict[int, tuple[str, float]] = {}
    with open(out_path, "a") as out:
        while queue or running:
            while queue and len(running) < 2:
                name = queue.pop(0)
                running[_start(name, [*args, *tests_for(name)])] = (name, time.time())
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                for p, (_, t0) in running.items():
                    if time.time() - t0 > TIMEOUT:
                        os.kill(p, signal.SIGKILL)
                time.sleep(0.2)
                continue
            name, t0 = running.pop(pid)
            code = os.waitstatus_to_exitcode(status)
            # (2: the tests could not be collected under the mutant: the suite fails too)
            word = {0: "survived", 1: "killed", -9: "timeout"}.get(code, f"exit{code}")
            out.write(f"{word}\t{name}\t{time.time() - t0:.1f}\n")
            out.flush()
    return 0


def _lines(path: str) -> list[str]:
    with open(path) as f:
        return [x.strip() for x in f if x.strip()]


def _unchecked_in_random_order() -> list[str]:
    by_module: dict[str, list[str]] = {}
    for meta in sorted(glob.glob("mutants/src/durak/*.py.meta")):
        with open(meta) as f:
            for name, code in json.load(f)["exit_code_by_key"].items():
                if code is None:
                    by_module.setdefault(name.split(".x", 1)[0], []).append(name)
    rng = random.Random(13)
    for names in by_module.values():
        names.sort()
        rng.shuffle(names)
    order = []
    while any(by_module.values()):
        for module in sorted(by_module):
            for _ in range(2 if module == "durak.game" else 1):  # game.py has most mutants
                if by_module[module]:
                    order.append(by_module[module].pop())
    return order


def _start(name: str, pytest_args: list[str]) -> int:
    pid = os.fork()
    if pid == 0:
        os.environ["MUTANT_UNDER_TEST"] = name
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            code = int(pytest.main(pytest_args))
        except BaseException:
            code = 99
        os._exit(code)
    return pid


if __name__ == "__main__":
    sys.exit(main())
