"""Which engine runs, compiled or pure Python, and the pure one beside it on demand.

When a C compiler is at hand, installing the package compiles the engine modules
(:data:`ENGINE`) with mypyc; they sit beside their Python sources and Python imports
them first. Both play exactly the same games; the compiled engine about three times
faster.

- ``DURAK_PURE=1`` while installing: nothing is compiled.
- ``DURAK_PURE=1`` at run time: an installed package loads the Python sources of the
  engine instead of its compiled modules (to compare, or to debug with pure Python).
- :func:`load_pure` loads a second, pure-Python copy of the whole package as
  ``durak._pure`` in the same process, so that both can run side by side
  (``durak bench --compare``, and the test that plays both).

>>> import durak
>>> pure = load_pure()
>>> engine_name(pure), pure.game.__file__.endswith("game.py")
('pure Python', True)
>>> g, h = durak.Game(seed=4), pure.Game(seed=4)
>>> [str(a) for a in g.legal_actions()] == [str(a) for a in h.legal_actions()]
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Final

from .errors import UsageError

# The compiled modules (setup.py and the Makefile read this list): the engine, its
# playout loops and the searchers' rollout policy. They are compiled as one group and
# must be loaded together: compiled code expects its partners compiled too.
ENGINE: Final = (
    "cards",
    "actions",
    "rules",
    "observation",
    "game",
    "determinize",
    "playout",
    "planes",
    "bots.policy",
    "bots.solver",
    "envs.bits",
    "envs.stepper",
    "envs.vecstep",
    "envs.aec",
)  # noqa: E501
PURE_ENV: Final = "DURAK_PURE"
PURE_PACKAGE: Final = "_pure"

_PACKAGE: Final = __name__.rpartition(".")[0]
_DIR: Final = os.path.dirname(os.path.abspath(__file__))


def pure_requested() -> bool:
    """Whether ``DURAK_PURE`` asks for the pure-Python engine."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def is_compiled(package: ModuleType | None = None) -> bool:
    """Whether the engine of ``package`` (default: this one) runs compiled code."""
    game = importlib.import_module((package.__name__ if package else _PACKAGE) + ".game")
    return not (game.__file__ or "").endswith(".py")


def engine_name(package: ModuleType | None = None) -> str:
    """``"compiled (mypyc)"`` or ``"pure Python"``."""
    return "compiled (mypyc)" if is_compiled(package) else "pure Python"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds modules of ``prefix`` among the package's Python sources, never its compiled
    modules. ``only``: the module names it serves (default: every one)."""

    def __init__(self, prefix: str, only: Sequence[str] | None = None) -> None:
        self.prefix = prefix
        self.only = only

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == self.prefix and self.only is None:
            return importlib.util.spec_from_file_location(
                fullname, os.path.join(_DIR, "__init__.py"), submodule_search_locations=[_DIR]
            )
        if not fullname.startswith(self.prefix + "."):
            return None
        rest = fullname[len(self.prefix) + 1 :]
        if self.only is not None and rest not in self.only:
            return None
        parts = rest.split(".")
        where = os.path.join(_DIR, *parts)
        if os.path.isfile(os.path.join(where, "__init__.py")):
            return importlib.util.spec_from_file_location(
                fullname, os.path.join(where, "__init__.py"), submodule_search_locations=[where]
            )
        if os.path.isfile(where + ".py"):
            return importlib.util.spec_from_file_location(fullname, where + ".py")
        return None


def force_pure() -> None:
    """Load this package's engine from its Python sources from now on. Works only before
    the engine is imported (``durak/__init__`` calls it when ``DURAK_PURE`` is set)."""
    if any(isinstance(f, _SourceFinder) and f.prefix == _PACKAGE for f in sys.meta_path):
        return
    loaded = [m for m in ENGINE if f"{_PACKAGE}.{m}" in sys.modules]
    if loaded:
        raise UsageError(f"force_pure: the engine is already loaded ({', '.join(loaded)})")
    sys.meta_path.insert(0, _SourceFinder(_PACKAGE, ENGINE))


def load_pure() -> ModuleType:
    """The whole package loaded a second time from its Python sources, as ``durak._pure``:
    its ``Game``, bots and everything else run the pure-Python engine, beside the
    (possibly compiled) one imported as ``durak``. Objects of the two do not mix."""
    name = f"{_PACKAGE}.{PURE_PACKAGE}"
    if name not in sys.modules and not any(
        isinstance(f, _SourceFinder) and f.prefix == name for f in sys.meta_path
    ):
        sys.meta_path.insert(0, _SourceFinder(name))
    return importlib.import_module(name)
