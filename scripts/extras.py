"""The requirements of some extras of pyproject.toml, one a line, for the Makefile to
install them without building the durak package again (which would redo the engine).

    python scripts/extras.py tui web     # textual>=0.60, rich>=13, starlette>=0.37, ...
"""

from __future__ import annotations

import sys
import tomllib


def requirements(extras: list[str]) -> list[str]:
    with open("pyproject.toml", "rb") as f:
        project = tomllib.load(f)["project"]
    table = project["optional-dependencies"]
    out: list[str] = list(project.get("dependencies", []))
    for name in extras:
        for req in table[name]:
            if req not in out and not req.startswith("durak"):
                out.append(req)
    return out


if __name__ == "__main__":
    print("\n".join(requirements([e for a in sys.argv[1:] for e in a.split(",")])))
