"""Build: the engine modules compiled to C with mypyc when a C compiler is at hand.

Everything else about the package is in pyproject.toml. The compiled modules sit beside
their Python sources (an editable install copies them into src/durak), and Python
imports a compiled module before its source. Without a C compiler, or with
``DURAK_PURE=1`` set while installing, the package installs as pure Python (about three
times slower, same games) with a one-line notice; ``DURAK_SKIP_ENGINE=1`` compiles
nothing and leaves compiled modules an earlier install made (the Makefile's installs).
At run time ``DURAK_PURE=1`` makes an installed package load its Python sources instead
(see ``durak.build``).
"""

from __future__ import annotations

import ast
import os
import sys
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The environments' C helper (src/durak/envs/_arrays.c: a view's two numpy arrays in one
# call). Optional: the environments wrap the compiled encoder's bytes without it.
ARRAYS = "durak.envs._arrays"


def engine_modules() -> list[str]:
    """durak.build.ENGINE, read without importing the package."""
    with open(os.path.join("src", "durak", "build.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "ENGINE":
            assert node.value is not None
            return list(ast.literal_eval(node.value))
    raise RuntimeError("setup.py: no ENGINE list in src/durak/build.py")


def notice(text: str) -> None:
    print(f"durak: {text}", file=sys.stderr)


def pure_requested() -> bool:
    return os.environ.get("DURAK_PURE", "") not in ("", "0")


class BuildEngine(build_ext):
    """build_ext that falls back to the pure-Python engine when compiling fails."""

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as e:  # no compiler, no Python headers, a compiler error...
            self._remove_outputs()
            notice(
                f"could not compile the engine ({type(e).__name__}: {e}); "
                "installed the pure-Python engine, about three times slower"
            )

    def build_extension(self, ext: Any) -> None:
        if ext.name != ARRAYS:
            super().build_extension(ext)
            return
        try:
            super().build_extension(ext)
        except Exception as e:  # the engine itself does not need it
            path = self.get_ext_fullpath(ext.name)
            if os.path.exists(path):
                os.remove(path)
            notice(
                f"could not compile {ARRAYS} ({type(e).__name__}: {e}); the learning "
                "environments wrap the encoder's bytes instead (slower)"
            )

    def _remove_outputs(self) -> None:
        # Half a compiled engine would not import: keep none of it.
        for ext in self.extensions:
            path = self.get_ext_fullpath(ext.name)
            if os.path.exists(path):
                os.remove(path)
        remove_compiled()


def remove_compiled() -> None:
    """Delete compiled engine modules an earlier editable install left beside the
    sources: Python would import them before the pure sources."""
    for module in (*engine_modules(), "engine__mypyc", ARRAYS.removeprefix("durak.")):
        here, _, stem = os.path.join("src", "durak", *module.split(".")).rpartition(os.sep)
        for name in os.listdir(here):
            if name.split(".")[0] == stem and name.endswith((".so", ".pyd")):
                os.remove(os.path.join(here, name))


def engine_extensions() -> list[Any]:
    if os.environ.get("DURAK_SKIP_ENGINE", "") not in ("", "0"):
        # the Makefile's quick install: the package without compiling, leaving a
        # compiled engine built earlier where it is (scripts/build-engine.sh builds it)
        notice("DURAK_SKIP_ENGINE is set: the engine is not compiled by this install")
        return []
    if pure_requested():
        notice("DURAK_PURE is set: installing the pure-Python engine")
        remove_compiled()
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        notice("mypyc is not available: installing the pure-Python engine")
        remove_compiled()
        return []
    try:
        engine: list[Any] = mypycify(
            [os.path.join("src", "durak", *m.split(".")) + ".py" for m in engine_modules()],
            opt_level="3",
            group_name="durak.engine",
        )
    except (Exception, SystemExit) as e:  # mypyc could not translate the engine
        notice(f"mypyc failed ({type(e).__name__}: {e}); installing the pure-Python engine")
        remove_compiled()
        return []
    return engine + arrays_extension()


def arrays_extension() -> list[Any]:
    """The environments' C helper, where numpy's headers are at hand (a build requirement
    in pyproject.toml; numpy itself is needed at run time only by the ``rl`` extra)."""
    try:
        import numpy
    except ImportError:
        notice(f"numpy is not available to the build: {ARRAYS} is left out")
        return []
    return [
        Extension(
            ARRAYS,
            [os.path.join("src", "durak", "envs", "_arrays.c")],
            include_dirs=[numpy.get_include()],
            extra_compile_args=["-O2"],
        )
    ]


setup(ext_modules=engine_extensions(), cmdclass={"build_ext": BuildEngine})
