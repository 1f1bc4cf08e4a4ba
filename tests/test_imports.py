"""Issue 30, item 3: the engine core has no import circles (not even through an import
under TYPE_CHECKING or inside a function): rules -> actions -> cards, game -> record."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "durak"
CORE = (
    "enums",
    "errors",
    "cards",
    "actions",
    "rules",
    "checks",
    "record",
    "observation",
    "game",
    "match",
)


def durak_imports(module: str) -> set[str]:
    """The core modules that ``module`` imports anywhere in its source."""
    tree = ast.parse((SRC / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
            elif node.level == 0 and (node.module or "").startswith("durak."):
                names = [(node.module or "").removeprefix("durak.")]
            else:
                continue
            found |= {n.split(".")[0] for n in names if n}
    return found & set(CORE) - {module}


def test_the_engine_core_has_no_import_circles() -> None:
    graph = {m: durak_imports(m) for m in CORE}
    assert "rules" not in graph["actions"] and "game" not in graph["record"]
    seen: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> None:
        seen[m] = 1
        for n in sorted(graph[m]):
            assert seen.get(n) != 1, "import circle: " + " -> ".join([*path, m, n])
            if n not in seen:
                visit(n, [*path, m])
        seen[m] = 2

    for m in CORE:
        if m not in seen:
            visit(m, [])
