"""«How to play»: the rules of one game for a beginner, opened from the start screen.

The common rules come first, then what this game adds; ← → shows another game.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from ..rules import PRESETS
from .i18n import tr


def howto_content(preset: str, lang: str) -> Content:
    """The beginner's text of ``preset`` in ``lang``."""
    game = tr(lang, f"preset_{preset}")
    return Content("\n").join([
        Content.styled(tr(lang, "howto_title", game=game), "bold underline"),
        Content(""),
        Content.styled(tr(lang, f"howto_{preset}"), "bold"),
        Content(""),
        Content(tr(lang, "howto_basics")),
        Content(""),
        Content.styled(tr(lang, "howto_keys"), "italic #a0a0a0"),
    ])


class HowToScreen(ModalScreen[None]):
    """Esc (or Enter, q, F1) goes back; ← → shows the previous or next game."""

    DEFAULT_CSS = """
    HowToScreen { align: center middle; }
    #howto-box { width: 80; max-width: 100%; height: auto; max-height: 100%;
                 border: thick $accent; background: $panel; padding: 0 2; }
    """

    def __init__(self, preset: str, lang: str) -> None:
        super().__init__()
        self.preset = preset if preset in PRESETS else "podkidnoy"
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="howto-box"):
            yield Static(howto_content(self.preset, self.lang), id="howto-text")

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
