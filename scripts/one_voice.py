"""One voice (issue 30): rewrite code written against the old two-voice Action and phase
API to the one public form. Idempotent; run from the repository root:

    python scripts/one_voice.py src tests && ruff check --fix --select I,F401 src tests \
        && ruff format src tests

- ``x.k`` -> ``x.kind`` (a ``durak.Kind``, an IntEnum equal to the old int);
  ``k = x.k`` -> ``k: int = x.kind`` (compiled code then unboxes it once);
- ``x.mask`` -> ``x.cards`` (a ``CardSet``: the old bitmask, iterating as Cards);
  ``m = x.mask`` -> ``m: int = x.cards``;
- ``x.t`` -> ``x.target.index`` (``target`` is the Card; narrow it first);
- ``.kind``/``kind``/``.phase``/``phase`` compared with an action kind's or a phase's
  name (``== "take"``, ``in ("throw_in", "pile_on")``) -> the enum member
  (``== Kind.TAKE``); ``PHASES.index(p)`` -> ``int(p)``; ``phase: str`` -> ``phase: Phase``;
  ``"phase": g.phase`` in a dict (JSON for the wire) -> ``"phase": str(g.phase)``;
- a file that then names ``Kind``/``Phase`` without importing them gets the import.

Only names of kinds and phases are rewritten (``s.kind == "bot"`` is left alone). A
comparison the patterns miss is caught by mypy's strict equality in src/.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

KINDS = ("attack", "defend", "transfer", "show", "take", "pass", "exchange")
PHASES = ("attack", "defend", "throw_in", "pile_on", "over")
SKIP = ("src/durak/enums.py", "src/durak/actions.py", "scripts/one_voice.py")

RECV = r"(?<![\w.])((?:self\.)?\w+(?:\[\d+\])?(?:\.\w+)*?)"


def _members(enum: str, names: tuple[str, ...], quoted: str) -> str | None:
    items = re.findall(r'"(\w+)"|\'(\w+)\'', quoted)
    words = [a or b for a, b in items]
    if not words or any(w not in names for w in words):
        return None
    return ", ".join(f"{enum}.{w.upper()}" for w in words)


def _compare(text: str, attr: str, enum: str, names: tuple[str, ...]) -> str:
    # x.kind == "take" / kind != "take"
    pat = re.compile(rf'(\b{attr})(\s*)(==|!=)(\s*)(["\'])(\w+)\5')

    def one(m: re.Match[str]) -> str:
        if m.group(6) not in names:
            return m.group(0)
        return f"{m.group(1)}{m.group(2)}{m.group(3)}{m.group(4)}{enum}.{m.group(6).upper()}"

    text = pat.sub(one, text)
    # x.kind in ("take", "pass") / {...} / [...]
    pat = re.compile(rf"(\b{attr}\s+(?:not\s+)?in\s+)([(\[{{])([^()\[\]{{}}]*)([)\]}}])")

    def many(m: re.Match[str]) -> str:
        inner = _members(enum, names, m.group(3))
        if inner is None:
            return m.group(0)
        if m.group(2) == "(" and "," not in inner:
            inner += ","
        return f"{m.group(1)}{m.group(2)}{inner}{m.group(4)}"

    return pat.sub(many, text)


def rewrite(text: str) -> str:
    text = re.sub(rf"(?m)^(\s*)(\w+) = {RECV}\.k$", r"\1\2: int = \3.kind", text)
    text = re.sub(rf"(?m)^(\s*)(\w+) = {RECV}\.mask$", r"\1\2: int = \3.cards", text)
    text = re.sub(rf"{RECV}\.k\b(?!\w)(?!\s*=[^=])", r"\1.kind", text)
    text = re.sub(rf"{RECV}\.mask\b(?!\s*=[^=])", r"\1.cards", text)
    text = re.sub(
        r"(?<![\w.])((?:\w+\[\d+\]|\w+))\.t\b(?![\w(])(?!\s*=[^=])", r"\1.target.index", text
    )
    for attr in (r"(?:\w+\.)*kind", "kind"):
        text = _compare(text, attr, "Kind", KINDS)
    for attr in (r"(?:\w+\.)*phase", "phase"):
        text = _compare(text, attr, "Phase", PHASES)
    text = re.sub(r"\bPHASES\.index\(([^()]*)\)", r"int(\1)", text)
    text = re.sub(r"\bphase: str\b", "phase: Phase", text)
    # JSON for the wire keeps the phase's name
    text = re.sub(r'(["\']phase["\']: )((?:\w+\.)*phase)\b(?!\))', r"\1str(\2)", text)
    for enum in ("Kind", "Phase"):
        if re.search(rf"\b{enum}\.[A-Z]", text) and enum not in _defined(text):
            text = _add_import(text, enum)
    return text


def _defined(text: str) -> set[str]:
    """The names a module imports or defines at any level."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom | ast.Import):
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
    return names


def _add_import(text: str, name: str) -> str:
    lines = text.split("\n")
    last = max(
        (i for i, line in enumerate(lines) if re.match(r"(from \S+ import|import \S+)", line)),
        default=-1,
    )
    # the import block's end: skip a parenthesised import's continuation lines
    if last >= 0 and lines[last].rstrip().endswith("("):
        while not lines[last].startswith(")"):
            last += 1
    lines.insert(last + 1, f"from durak.enums import {name}")
    return "\n".join(lines)


def main(roots: list[str]) -> None:
    for root in roots:
        for path in sorted(Path(root).rglob("*.py")):
            if path.as_posix() in SKIP or "/web/static/" in path.as_posix():
                continue
            old = path.read_text(encoding="utf-8")
            new = rewrite(old)
            if new != old:
                path.write_text(new, encoding="utf-8")
                print(f"rewrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["src", "tests"])
