"""The ``durak`` command. Each subcommand lives in its own module, imported only when used,
so the engine's commands work without the extras the others need.

A subcommand module has ``add_arguments(parser)`` and ``run(args) -> int``. Every
option's help shows its default (:class:`DefaultsHelp`).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("durak.tui.cli", "play a game in the terminal"),
    "serve": ("durak.server.cli", "serve the web table"),
    "verify-deal": ("durak.server.fairness", "check a web game's deal against its revealed seed"),
    "replay": ("durak.replay", "print or step through a game or match record"),
    "bench": ("durak.bench", "measure the engine's speed with random play"),
    "arena": ("durak.arena", "play bots against each other and rate them"),
    "tournament": ("durak.tournaments.cli", "a bots-only Swiss, round robin or group event"),
    "hint": ("durak.bots.hint", "rank every legal action of a position"),
    "review": ("durak.review_report", "judge every move of a game or match record"),
}


class DefaultsHelp(argparse.HelpFormatter):
    """Each option's help ends with «(default: …)» unless it names its default already.
    Flags (off unless given) and options without a value by default say nothing more."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "default" in text
            or not action.option_strings
            or default is None
            or default is False
            or default is argparse.SUPPRESS
        ):
            return text
        if isinstance(default, list | tuple):
            default = " ".join(str(d) for d in default)
        shown = str(default).replace("%", "%%") if default != "" else "none"
        return f"{text} (default: {shown})"


def build_parser(wanted: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, object]]:
    """The parser; ``wanted`` names the one subcommand whose module is imported and
    whose options are added (ImportError if its extra is missing)."""
    parser = argparse.ArgumentParser(prog="durak", description="Durak, the Russian card game.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, object] = {}
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(
            name, help=help_text, description=help_text, formatter_class=DefaultsHelp
        )
        if name == wanted:
            modules[name] = importlib.import_module(module)
            modules[name].add_arguments(p)  # type: ignore[attr-defined]
    return parser, modules


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    wanted = argv[0] if argv and argv[0] in COMMANDS else None
    try:
        parser, modules = build_parser(wanted)
    except ImportError as e:
        print(
            f"durak {wanted}: {e}. Install the extra it needs "
            f"(pip install 'durak[tui]' / 'durak[web]' / 'durak[arena]').",
            file=sys.stderr,
        )
        return 2
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    missing = _missing_before_run(args)
    if missing:
        print(missing, file=sys.stderr)
        return 2
    try:
        result: int = modules[args.command].run(args)  # type: ignore[attr-defined]
    except KeyboardInterrupt:
        # Ctrl-C is how a server (or a long arena) is stopped: a line, not a traceback.
        print(f"\ndurak {args.command}: stopped (Ctrl-C)", file=sys.stderr)
        return 130
    return result


def _missing_before_run(args: argparse.Namespace) -> str:
    """What a command will need at its end but lacks, said before it starts (the arena's
    chart needs matplotlib, and is drawn only after every game is played); "" if none."""
    png = getattr(args, "png", "") if args.command == "arena" else ""
    if png and importlib.util.find_spec("matplotlib") is None:
        return (
            f"durak arena: --png {png} draws with matplotlib, which is not installed: "
            "pip install matplotlib (or leave out --png)"
        )
    return ""


if __name__ == "__main__":
    sys.exit(main())
