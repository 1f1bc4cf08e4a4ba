"""One-line form controls for the start screen.

A :class:`Choice` is a whole row in one widget: its label and a value picked from a
list with ← → (space and Enter step forward too; a click on ◂ or ▸ steps). An on/off
choice shows a green ✓ box or an empty one. Changing the value, its options or its
label only repaints the row (its size never changes), so the form answers at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from ..errors import ArgumentError

LABEL_W = 34


class Choice(Widget, can_focus=True):
    """A label and one value of ``options`` (pairs of text and value)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,enter", "step(1)", "next", show=False),
        Binding("left", "step(-1)", "previous", show=False),
        Binding("down", "app.focus_next", "next field", show=False),
        Binding("up", "app.focus_previous", "previous field", show=False),
    ]
    DEFAULT_CSS = """
    Choice { height: 1; width: 100%; }
    Choice:focus { background: $accent 35%; }
    Choice:disabled { opacity: 60%; }
    """

    class Changed(Message):
        """The value was changed by the person."""

        def __init__(self, choice: Choice, value: Any) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(
        self,
        label: str,
        options: Sequence[tuple[str, Any]],
        value: Any,
        *,
        id: str,
        switch: bool = False,
    ) -> None:
        super().__init__(id=id)
        self.label = label
        self.options = list(options)
        self.switch = switch  # an on/off box: options are [(on text, True), (off text, False)]
        self._value = value if value in self.values else self.options[0][1]

    @property
    def values(self) -> list[Any]:
        return [v for _, v in self.options]

    @property
    def value(self) -> Any:
        return self._value

    @value.setter
    def value(self, value: Any) -> None:
        """Set by the program: no Changed message."""
        if self._take(value):
            self.refresh()

    def set(
        self,
        label: str | None = None,
        options: Sequence[tuple[str, Any]] | None = None,
        value: Any = None,
    ) -> None:
        """Change the label, the options and the value at once (value None: keep it if
        it is still offered, else the first)."""
        before = (self.label, self.options, self._value)
        if label is not None:
            self.label = label
        if options is not None:
            self.options = list(options)
        if value is None:
            value = self._value if self._value in self.values else self.options[0][1]
        self._value = value if value in self.values else self.options[0][1]
        if (self.label, self.options, self._value) != before:
            self.refresh()

    def pick(self, value: Any) -> None:
        """Choose ``value`` as the person would (a Changed message follows)."""
        if self._take(value):
            self._announce()

    def _take(self, value: Any) -> bool:
        """``value`` becomes the value (one of the options, else ArgumentError); whether
        it changed."""
        if value not in self.values:
            raise ArgumentError(f"{self.id}: {value!r} is not one of {self.values}")
        changed = bool(value != self._value)
        self._value = value
        return changed

    def _announce(self) -> None:
        """Tell the screen of a change by the person, and repaint this row when the
        screen has handled it (its handler updates other rows), so that Textual draws
        every row the change touches in one frame. (Posted straight to the screen and
        repainted from there: a message bubbling up through the containers, and a
        repaint asked for at once, let Textual draw this row alone a frame earlier.)"""
        screen = self.screen
        screen.post_message(self.Changed(self, self._value))
        screen.call_later(self.refresh)

    def text(self) -> str:
        return next(t for t, v in self.options if v == self._value)

    def action_step(self, step: int) -> None:
        values = self.values
        if len(values) < 2:
            return
        self._value = values[(values.index(self._value) + step) % len(values)]
        self._announce()

    def on_click(self, event: events.Click) -> None:
        self.focus()
        self.action_step(-1 if LABEL_W <= event.x < LABEL_W + 2 and not self.switch else 1)

    def render(self) -> Content:
        focused = self.has_focus
        mark = "▶ " if focused else "  "
        head = Content.styled(
            f"{mark}{self.label}"[: LABEL_W - 1].ljust(LABEL_W), "bold" if focused else "dim"
        )
        if self.switch:
            on = bool(self._value)
            box = Content.styled(
                " ✓ " if on else "   ", "bold #101010 on #5fd75f" if on else "on #4a4a4a"
            )
            word = Content.styled(f" {self.text()}", "bold #5fd75f" if on else "#a0a0a0")
            return Content.assemble(head, box, word)
        many = len(self.options) > 1
        value = Content.styled(f" {self.text()} ", "bold reverse" if focused else "bold")
        return Content.assemble(
            head,
            Content.styled("◂ " if many else "  ", "#87d7ff"),
            value,
            Content.styled(" ▸" if many else "", "#87d7ff"),
        )

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
