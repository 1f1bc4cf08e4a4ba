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
    assert_no_circle(graph)


def assert_no_circle(graph: dict[str, set[str]]) -> None:
    """A depth-first walk of ``graph`` that fails on the first circle, naming it."""
    seen: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> None:
        seen[m] = 1
        for n in sorted(graph[m]):
            assert seen.get(n) != 1, "import circle: " + " -> ".join([*path, m, n])
            if n not in seen:
                visit(n, [*path, m])
        seen[m] = 2

    for m in sorted(graph):
        if m not in seen:
            visit(m, [])


def package_graph() -> dict[str, set[str]]:
    """Every module of the package with the package's modules it imports anywhere in its
    source (a function's or TYPE_CHECKING's import counts too); a package's imports of
    its own submodules are left out (that is how a package is put together)."""
    root = SRC.parent
    files = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        files[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = pkg
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition(".")[0]
                if node.level:
                    target = f"{base}.{node.module}" if node.module else base
                else:
                    target = node.module or ""
                deps |= {
                    t for t in [target] + [f"{target}.{a.name}" for a in node.names] if t in files
                }
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name in files}
        graph[name] = {d for d in deps if d != name and not d.startswith(name + ".")}
    return graph


def test_the_whole_package_has_no_import_circles() -> None:
    """Issue 30, item 3: records, rules/actions, accounts/ratings, the server's table,
    lobby and assistant, the TUI screens: no module of the package imports, through any
    chain, a module that imports it."""
    graph = package_graph()
    assert "durak.server.table" in graph and "durak.tui.app" in graph  # the walk saw them
    assert_no_circle(graph)
