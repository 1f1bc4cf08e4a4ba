"""Test collection. The compiled engine keeps no docstrings, so the examples in the
engine modules' docstrings run on their Python sources: `make test` runs them again with
DURAK_PURE=1 (see the Makefile), where the engine is the pure one."""

from durak import build

collect_ignore = (
    [f"src/durak/{m.replace('.', '/')}.py" for m in build.ENGINE] if build.is_compiled() else []
)
