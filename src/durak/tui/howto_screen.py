"""«How to play»: the beginners' page of one game, opened from the start screen.

The text is the catalogue's (:func:`durak.i18n.howto`), the same the web table shows:
the game in a sentence, what is different in it, then the common rules. ← → shows another
game; the page scrolls with ↑ ↓ PgUp PgDn.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from .. import i18n as catalogue
from ..rules import PRESETS
from .i18n import tr


def howto_content(preset: str, lang: str) -> Content:
    """The beginners' page of ``preset`` in ``lang``: titles in bold, then paragraphs."""
    lines: list[Content] = []
    for i, (title, paragraphs) in enumerate(catalogue.howto(preset, lang)):
        if i == 0:
            title = tr(lang, "howto_title", game=title)
        lines += [
            Content.styled(title, "bold underline" if i == 0 else "bold #87d7ff"),
            *(Content(p) for p in paragraphs),
            Content(""),
        ]
    lines.append(Content.styled(tr(lang, "howto_keys"), "italic #a0a0a0"))
    return Content("\n").join(lines)


class HowToScreen(ModalScreen[None]):
    """Esc (or Enter, q, F1) goes back; ← → shows the previous or next game."""

    DEFAULT_CSS = """
    HowToScreen { align: center middle; }
    #howto-box { width: 84; max-width: 100%; height: auto; max-height: 100%;
                 border: thick $accent; background: $panel; padding: 0 2; }
    """

    def __init__(self, preset: str, lang: str) -> None:
        super().__init__()
        self.preset = preset if preset in PRESETS else "podkidnoy"
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="howto-box"):
            yield Static(howto_content(self.preset, self.lang), id="howto-text")

    def on_mount(self) -> None:
        self.query_one("#howto-box").focus()  # ↑ ↓ PgUp PgDn scroll the page

    def on_key(self, event: events.Key) -> None:
        if event.key in ("escape", "enter", "q", "й", "f1"):
            event.stop()
            self.dismiss(None)
        elif event.key in ("left", "right"):
            event.stop()
            names = list(PRESETS)
            step = 1 if event.key == "right" else -1
            self.preset = names[(names.index(self.preset) + step) % len(names)]
            self.query_one("#howto-text", Static).update(howto_content(self.preset, self.lang))
            self.query_one("#howto-box", VerticalScroll).scroll_home(animate=False)
