"""The help screen: every key of the screen it was opened from, and what it does."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from .i18n import tr
from .keys import KeySpec, key_rows

TEXT_W = 68  # the box's inner width


def help_content(specs: Sequence[KeySpec], lang: str) -> Content:
    rows = key_rows(specs, lang)
    width = max(len(k) for k, _ in rows) + 2
    lines = [Content.styled(tr(lang, "help_title"), "bold underline"), Content("")]
    for keys, text in rows:
        # the description wrapped beside its keys, not under them
        wrapped = textwrap.wrap(text, max(20, TEXT_W - width)) or [""]
        lines.append(
            Content.assemble(Content.styled(f"{keys:<{width}}", "bold #87d7ff"), wrapped[0])
        )
        lines += [Content(" " * width + more) for more in wrapped[1:]]
    lines += [Content(""), Content.styled(tr(lang, "help_close"), "italic")]
    return Content("\n").join(lines)


class HelpScreen(ModalScreen[None]):
    """Lists ``specs``; any of Esc, ?, q or Enter closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help-box { width: 76; max-width: 100%; height: auto; max-height: 100%;
                border: thick $accent; background: $panel; padding: 0 2; }
    """

    def __init__(self, specs: Sequence[KeySpec], lang: str) -> None:
        super().__init__()
        self.specs = specs
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(help_content(self.specs, self.lang), id="help")

    def on_mount(self) -> None:
        self.query_one("#help-box").focus()  # ↑ ↓ PgUp PgDn scroll a long list

    def on_key(self, event: events.Key) -> None:
        if event.key in ("escape", "question_mark", "q", "й", "enter", "f1"):
            event.stop()
            self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)
