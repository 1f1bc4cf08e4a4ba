"""After a deal: its review (``durak review``'s, :mod:`durak.review`) in the terminal.

Every judged move with its tag (coloured: green best, red blunder) and the better move,
then each player's accuracy, luck and durak chance over the deal as a line of bars. The
review is worked out in a thread while the screen says how far it is; Esc closes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, RichLog, Static

from ..game import Game
from ..review import Judge, Review, review_game
from ..review_report import move_lines, seat_lines
from .i18n import tr
from .keys import KeyedNode, KeySpec, use_keys

COLOURS = {
    "best": "#5fd75f",
    "good": "#afd7af",
    "inaccuracy": "#ffd75f",
    "mistake": "#ff8700",
    "blunder": "bold #ff5f5f",
}
REVIEW_KEYS: tuple[KeySpec, ...] = (
    KeySpec("press('escape')", "escape,q,enter", "review.key_close", ru="й"),
)


def make_judge() -> Judge:
    """The judge of a review asked for after a deal (the default one)."""
    return Judge()


class ReviewScreen(KeyedNode, ModalScreen[None]):
    """The review of ``game`` (a finished deal) for every seat, in ``lang``."""

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    #review-box { width: 100; max-width: 100%; height: 90%;
                  border: thick $accent; background: $panel; padding: 0 1; }
    #review-head { height: auto; text-style: bold; }
    #review-progress { height: auto; color: $warning; }
    #review-log { height: 1fr; }
    """

    def __init__(
        self,
        game: Game,
        names: Sequence[str],
        lang: str,
        deal: int = 1,
        judge: Judge | None = None,
    ) -> None:
        super().__init__()
        self.game, self.names, self.lang, self.deal = game, list(names), lang, deal
        self.judge = judge
        self.review: Review | None = None
        use_keys(self, REVIEW_KEYS, lang, inherit=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="review-box"):
            yield Static(tr(self.lang, "review.screen_title", n=self.deal), id="review-head")
            yield Static(tr(self.lang, "review.computing"), id="review-progress")
            yield RichLog(id="review-log", wrap=True)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.run_worker(self._work, thread=True, exclusive=True)

    def _work(self) -> None:
        judge = self.judge or make_judge()
        review = Review(str(self.game.rules), self.names)

        def progress(ply: int, total: int) -> None:
            text = tr(self.lang, "review.progress", ply=ply, total=total)
            self.app.call_from_thread(self._say, text)

        review_game(self.game, judge, progress=progress, review=review)
        self.app.call_from_thread(self.show, review)

    def _say(self, text: str) -> None:
        self.query_one("#review-progress", Static).update(text)

    def show(self, review: Review) -> None:
        """Write the finished review into the screen."""
        self.review = review
        self._say("")
        log = self.query_one("#review-log", RichLog)
        for m in review.moves:
            for i, line in enumerate(move_lines(m, self.lang, self.names)):
                log.write(Text(line, style=COLOURS[m.tag] if i == 0 else "italic"))
        for s in review.seats:
            log.write(Text(""))
            for line in seat_lines(review, s, self.lang):
                log.write(Text(line))

    def on_key(self, event: events.Key) -> None:
        if event.key in ("escape", "q", "enter", "й"):
            event.stop()
            self.dismiss(None)
