"""The ``durak`` command. Each subcommand lives in its own module, imported only when used,
so the engine's commands work without the extras the others need.

A subcommand module has ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("durak.tui.cli", "play a game in the terminal"),
    "serve": ("durak.server.cli", "serve the web table"),
    "verify-deal": ("durak.server.fairness", "check a web game's deal against its revealed seed"),
    "replay": ("durak.replay", "print or step through a game or match record"),
    "bench": ("durak.bench", "measure the engine's speed with random play"),
    "arena": ("durak.arena", "play bots against each other and rate them"),
    "hint": ("durak.bots.hint", "rank every legal action of a position"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="durak", description="Durak, the Russian card game.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = {}
    wanted = argv[0] if argv and argv[0] in COMMANDS else None
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text)
        if name == wanted:
            try:
                modules[name] = importlib.import_module(module)
            except ImportError as e:
                print(f"durak {name}: {e}. Install the extra it needs "
                      f"(pip install 'durak[tui]' / 'durak[web]' / 'durak[arena]').",
                      file=sys.stderr)
                return 2
            modules[name].add_arguments(p)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    result: int = modules[args.command].run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
