"""``durak review FILE``: the game review of a record, as text (English or Russian) or JSON.

Every decision of every seat (``--seat N``, repeatable: only those seats) of a game or
match record, judged from what that seat could know then (:mod:`durak.review`)::

    durak review game.txt                    # every seat, text in the terminal's language
    durak review match.txt --seat 0 --lang ru
    durak review game.txt --format json      # docs/review.md has the schema
    durak review game.txt --worlds 32 --depth 6   # slower, more precise

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=5)
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
>>> from durak.review import Judge, review_game
>>> text = review_text(review_game(g, Judge(worlds=2, depth=1)), "ru")
>>> text.splitlines()[0].startswith("Разбор: Подкидной")
True
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import i18n
from .actions import Action
from .match import record_deals
from .record import RecordError
from .review import Judge, MoveReview, Review, SeatReview, review_game
from .tui.words import action_label, render

BARS = "▁▂▃▄▅▆▇█"


def graph(chances: list[float]) -> str:
    """Durak chances (0-100) as a line of bars, low to high.

    >>> graph([0.0, 50.0, 100.0])
    '▁▅█'
    """
    return "".join(BARS[min(len(BARS) - 1, round(c / 100 * (len(BARS) - 1)))] for c in chances)


def action_text(notation: str, lang: str, names: list[str]) -> str:
    """An action's notation as words («побить 7♣ картой Д♠», "take")."""
    return render(action_label(Action.parse(notation)), lang, names)


def move_lines(m: MoveReview, lang: str, names: list[str]) -> list[str]:
    """A judged move's line, and the better move's for an inaccuracy or worse."""
    values = {
        "ply": f"{m.ply + 1:>4}",
        "name": names[m.seat],
        "action": action_text(m.action, lang, names),
        "tag": i18n.t(lang, f"review.tag.{m.tag}"),
        "after": f"{m.after:.0f}",
        "loss": f"{m.loss:.1f}",
    }
    key = "review.move_best" if m.tag == "best" else "review.move"
    out = [i18n.t(lang, key, **values)]
    if m.tag in ("inaccuracy", "mistake", "blunder"):
        best = action_text(m.best, lang, names)
        out.append(i18n.t(lang, "review.better", best=best, after_best=f"{m.after_best:.0f}"))
    return out


def review_text(review: Review, lang: str = "en") -> str:
    """The review in plain words: each judged move, then each seat's figures."""
    names = review.names
    rules = i18n.rules_name(review.rules, lang)
    lines = [i18n.t(lang, "review.title", rules=rules, n=review.deals)]
    for deal in range(1, review.deals + 1):
        if review.deals > 1:
            lines.append(i18n.t(lang, "review.deal", n=deal))
        for m in review.moves:
            if m.deal == deal:
                lines += move_lines(m, lang, names)
    for s in review.seats:
        lines.append("")
        lines += seat_lines(review, s, lang)
    return "\n".join(lines)


def seat_lines(review: Review, s: SeatReview, lang: str) -> list[str]:
    """A seat's figures: accuracy, tags, luck and its durak chance over the deal."""
    names = review.names
    lines = [
        i18n.t(
            lang,
            "review.seat",
            name=names[s.seat],
            accuracy=f"{s.accuracy:.1f}",
            moves=s.moves,
            lost=f"{s.lost:.1f}",
        )  # fmt: skip
    ]
    if not s.moves:
        return lines + [i18n.t(lang, "review.none")]
    lines.append(i18n.t(lang, "review.tags", **s.tags))
    lines.append(
        i18n.t(
            lang,
            "review.luck",
            luck=f"{s.luck:+.0f}",
            dealt=f"{s.dealt:+.0f}",
            drawn=f"{s.drawn:+.0f}",
            result=f"{s.result:.0f}",
            expected=f"{s.expected:.0f}",
        )  # fmt: skip
    )
    curve = [m.after for m in review.moves if m.seat == s.seat]
    lines.append(i18n.t(lang, "review.graph", graph=graph(curve)))
    return lines


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game or match record")
    p.add_argument(
        "--seat", type=int, action="append", help="review only this seat (repeatable; default: all)"
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--lang", choices=i18n.LANGS, default=None, help="default: from LANG")
    p.add_argument("--worlds", type=int, default=16, help="worlds dealt a decision (precision)")
    p.add_argument("--depth", type=int, default=4, help="moves looked ahead in each world")
    p.add_argument("--seed", type=int, default=0, help="the worlds' seed (a review repeats)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args: argparse.Namespace) -> int:
    lang = args.lang or i18n.default_lang()
    try:
        text = Path(args.file).read_text(encoding="utf-8")
        deals, names = record_deals(text)
        judge = Judge(worlds=args.worlds, depth=args.depth, seed=args.seed)
    except (OSError, RecordError, ValueError) as e:
        print(f"durak review: {e}", file=sys.stderr)
        return 2
    review = Review(str(deals[0].rules), names)

    def progress(ply: int, total: int) -> None:
        if not args.quiet and ply % 10 == 0:
            print(i18n.t(lang, "review.progress", ply=ply, total=total), file=sys.stderr)

    try:
        for i, g in enumerate(deals, 1):
            review_game(g, judge, args.seat, deal=i, progress=progress, review=review)
    except ValueError as e:
        print(f"durak review: {e}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(review.to_json(), ensure_ascii=False, indent=1))
    else:
        print(review_text(review, lang))
    return 0
