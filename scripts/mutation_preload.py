"""Print the modules a mutant's test run imports besides the engine and the tests.

``make mutate`` writes them to ``mutants.preload`` for mutmut's fork server
(``forkserver_warmup = "import"``): each mutant's worker then starts with pytest, its
plugins and their libraries already imported (about 1 s instead of 3 s on a quiet
machine). The engine and the test modules are left out on purpose: importing them in
the server would let the original code fill the engine's caches before a mutant is
switched on.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tomllib

import pytest


def main() -> int:
    with open("pyproject.toml", "rb") as f:
        config = tomllib.load(f)["tool"]["mutmut"]
    args = [
        "--collect-only",
        "-q",
        *config["pytest_add_cli_args"],
        *config["pytest_add_cli_args_test_selection"],
    ]
    with contextlib.redirect_stdout(io.StringIO()):
        code = pytest.main(args)
    if code != 0:
        print(f"collecting the mutation tests failed (pytest exit {code})", file=sys.stderr)
        return 1
    own = ("durak", "tests", "conftest", "__main__")
    print("\n".join(sorted(m for m in sys.modules if m.split(".")[0] not in own)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
