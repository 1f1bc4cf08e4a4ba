"""``durak play``: open the terminal game.

Options preset the start screen; ``--quick`` skips it. The record of the match is
saved on exit under ``~/.local/share/durak/games`` (or ``--save PATH``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..rules import PRESETS, Rules, RulesError
from .i18n import default_lang
from .session import (
    Settings,
    default_opponent,
    default_save_path,
    make_bot,
    opponent_choices,
    split_specs,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--preset", choices=list(PRESETS), default=None, help="the game (default podkidnoy)"
    )
    parser.add_argument(
        "--rules",
        metavar="TEXT",
        help='full rules text, e.g. "perevodnoy(players=3,deck=52)" (default: the preset\'s rules)',
    )
    parser.add_argument(
        "--players", type=int, help="2 to 6, you and the bots (default: 2, or as --rules says)"
    )
    parser.add_argument(
        "--deck",
        type=int,
        choices=(24, 36, 52),
        help="cards in the deck (default: 36, or as --rules says)",
    )
    parser.add_argument(
        "--teams",
        choices=("none", "2x2", "3x3"),
        help="2x2 with 4 players, 3x3 with 6 (default: none)",
    )
    parser.add_argument(
        "--opponents",
        metavar="SPEC[,SPEC...]",
        help="bots for seats 1.. : level:N, a bot name or a bot with options "
        "(ismcts:iterations=600) "
        f"({', '.join(opponent_choices())}; the last one repeats; "
        f"default: {default_opponent()} at every seat)",
    )
    parser.add_argument(
        "--level", type=int, help="every bot at this level (default: as --opponents says)"
    )
    parser.add_argument("--deals", type=int, default=3, help="deals in the match (default 3)")
    parser.add_argument(
        "--seed",
        type=int,
        help="seed of the match, to replay the same cards (default: a new one each time)",
    )
    parser.add_argument("--name", help="your name at the table (default: Player)")
    parser.add_argument(
        "--lang", choices=("en", "ru"), default=None, help="language (default: from LANG)"
    )
    parser.add_argument("--fast", action="store_true", help="bots move instantly")
    parser.add_argument(
        "--delay", type=float, default=0.6, help="seconds between bot moves (default 0.6)"
    )
    parser.add_argument(
        "--save",
        type=Path,
        metavar="PATH",
        help="where to save the record (default: ~/.local/share/durak/games/match-DATE-TIME.txt)",
    )
    parser.add_argument("--no-save", action="store_true", help="do not save the record")
    parser.add_argument("--quick", action="store_true", help="skip the start screen")


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The match the command line asks for (RulesError / ValueError if it is wrong)."""
    over: dict[str, Any] = {
        key: getattr(args, key)
        for key in ("players", "deck", "teams")
        if getattr(args, key) is not None
    }
    if args.rules:
        rules = Rules.parse(args.rules).replace(**over)
    else:
        rules = Rules.preset(args.preset or "podkidnoy", **over)
    if args.opponents:
        opponents = split_specs(args.opponents)
    elif args.level is not None:
        opponents = [f"level:{args.level}"]
    else:
        opponents = []
    for spec in opponents:
        make_bot(spec)  # an unknown bot or option is refused here, before the screen opens
    save = None if args.no_save else (args.save or default_save_path())
    return Settings(
        rules=rules,
        opponents=opponents,
        deals=max(1, args.deals),
        seed=args.seed,
        name=args.name,
        lang=args.lang or default_lang(),
        save=save,
        delay=0.0 if args.fast else max(0.0, args.delay),
    )


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from_args(args)
    except (RulesError, ValueError) as e:
        print(f"durak play: {e}", file=sys.stderr)
        return 2
    from .app import DurakApp

    app = DurakApp(settings, skip_setup=args.quick)
    try:
        app.run()
    finally:
        app.autosave()  # however the app ended, keep what was played
    for path in app.saved:
        print(f"record saved: {path}  (durak replay {path} --step)")
    return 0
