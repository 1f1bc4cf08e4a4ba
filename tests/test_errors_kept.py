"""The error contract, read from the source: every error src/ raises is a DurakError.

Two checks over the syntax trees of every module under src/durak:
- no ``raise`` of a built-in error (``ValueError``, ``TypeError``, ``RuntimeError``...);
  only Python's own protocol signals are left to the built-ins (``StopIteration`` ends an
  iterator, ``AttributeError`` is what ``hasattr`` and ``getattr`` read,
  ``NotImplementedError`` marks a method a subclass gives);
- every exception class defined there derives from ``DurakError`` (through the classes
  of src/ it names), but for the solver's signal that never leaves it.
"""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "durak"
SIGNALS = {"StopIteration", "StopAsyncIteration", "AttributeError", "NotImplementedError"}
BUILTIN_ERRORS = {
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
}
# bots/solver.py is compiled (mypyc), and its Unsolved is caught by the solver itself.
INTERNAL = {"Unsolved"}


def modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def raised_name(node: ast.Raise) -> str | None:
    """The class a ``raise`` names (``raise X``, ``raise X(...)``, ``raise builtins.X``)."""
    exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    if isinstance(exc, ast.Name):
        return exc.id
    if isinstance(exc, ast.Attribute) and isinstance(exc.value, ast.Name):
        return exc.attr if exc.value.id == "builtins" else None
    return None


def bare_raises(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            name = raised_name(node)
            if name in BUILTIN_ERRORS and name not in SIGNALS:
                out.append((node.lineno, name))
    return out


def test_the_check_finds_a_bare_raise_and_passes_a_kept_one() -> None:
    code = (
        "def f(x):\n"
        "    if x:\n"
        "        raise ValueError('bare')\n"
        "    if x > 1:\n"
        "        raise builtins.RuntimeError\n"
        "    raise ArgumentError('kept')\n"
        "def __next__(self):\n"
        "    raise StopIteration\n"
    )
    assert bare_raises(ast.parse(code)) == [(3, "ValueError"), (5, "RuntimeError")]


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_raises_a_bare_built_in_error(path: Path) -> None:
    found = bare_raises(ast.parse(path.read_text(encoding="utf-8")))
    assert not found, "raise a durak.errors class instead: " + ", ".join(
        f"line {line} {name}" for line, name in found
    )


def test_every_exception_class_of_src_is_a_durak_error() -> None:
    bases: dict[str, list[str]] = {}
    where: dict[str, str] = {}
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = [b.id if isinstance(b, ast.Name) else ast.unparse(b) for b in node.bases]
                bases[node.name] = names
                where[node.name] = f"{path.relative_to(SRC)}:{node.lineno}"

    def is_error(name: str, seen: frozenset[str] = frozenset()) -> bool:
        if name in BUILTIN_ERRORS:
            return True
        return name not in seen and any(is_error(b, seen | {name}) for b in bases.get(name, []))

    def kept(name: str, seen: frozenset[str] = frozenset()) -> bool:
        if name == "DurakError":
            return True
        return name not in seen and any(kept(b, seen | {name}) for b in bases.get(name, []))

    errors = [n for n in bases if is_error(n) and n not in INTERNAL]
    assert {"DurakError", "TurnError", "UsageError"} <= set(errors)
    assert [f"{n} ({where[n]})" for n in errors if not kept(n)] == []
