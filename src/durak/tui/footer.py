"""Textual's footer, changed in place when only the words of its keys change.

Textual's :class:`~textual.widgets.Footer` throws away and rebuilds its keys after the
next frame whenever the screen's bindings may have changed: on every move of the focus
and on every change of language. That costs a second frame and a new layout. A
:class:`KeysFooter` shows the same keys, but when the keys and their actions stay the
same it only changes their descriptions (and whether they are enabled), at once, in
the frame of the change that caused it; anything else (keys added, removed, grouped)
is rebuilt as Textual does. Given ``widths``, each key keeps room for its longest
description (in any language), so relabelling it needs no new layout either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

Shown = tuple[Binding, bool, str]  # a binding, whether it is enabled, its tooltip


def shown_bindings(screen: Screen[object]) -> list[Shown]:
    """The keys the footer shows, one per action, in the order Textual shows them."""
    out: dict[str, Shown] = {}
    for _node, binding, enabled, tooltip in screen.active_bindings.values():
        if binding.show:
            out.setdefault(binding.action, (binding, enabled, tooltip))
    return list(out.values())


class ToggleKey(FooterKey):
    """Textual's footer key that can be enabled or disabled in place."""

    def set_enabled(self, enabled: bool) -> None:
        if self._disabled == enabled:
            self._disabled = not enabled
            self.set_class(not enabled, "-disabled")


class KeysFooter(Footer):
    """A :class:`~textual.widgets.Footer` that relabels its keys in place; ``widths``
    (an action's longest description, in cells) keeps each key as wide in every
    language."""

    def __init__(self, *, widths: Mapping[str, int] | None = None, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self.widths = dict(widths or {})

    def text(self, action: str, description: str) -> str:
        """``description`` padded to the width kept for ``action``."""
        return description + " " * (self.widths.get(action, 0) - cell_len(description))

    def compose(self) -> ComposeResult:
        widgets: Iterable[Widget] = super().compose()
        for widget in widgets:
            if isinstance(widget, FooterKey) and widget.description:
                yield ToggleKey(
                    widget.key,
                    widget.key_display,
                    self.text(widget.action, widget.description),
                    widget.action,
                    disabled=widget.has_class("-disabled"),
                    tooltip=str(widget.tooltip or ""),
                    classes=" ".join(c for c in widget.classes if c != "-disabled"),
                ).data_bind(compact=Footer.compact)
            else:
                yield widget

    def on_mount(self) -> None:
        # Footer.on_mount (called too) subscribes bindings_changed, which Textual calls
        # once the footer's own messages are handled: after the screen's next frame.
        self.screen.bindings_updated_signal.subscribe(self, self._relabel_now, immediate=True)

    def _relabel_now(self, screen: Screen[object]) -> None:
        """Relabel the keys as the bindings change, for the frame of that change."""
        if self._ready(screen):
            self._relabel(screen)

    def _ready(self, screen: Screen[object]) -> bool:
        return (
            screen.app.app_focus
            and self.is_attached
            and screen is self.screen
            and self._bindings_ready
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        if not (self._ready(screen) and self._relabel(screen)):
            super().bindings_changed(screen)

    def _relabel(self, screen: Screen[object]) -> bool:
        """Give the keys their new descriptions; False if the footer must be rebuilt."""
        shown = shown_bindings(screen)
        keys = list(self.children)
        app = screen.app
        if (
            len(keys) != len(shown)
            or any(b.group is not None for b, _, _ in shown)
            or not all(
                isinstance(k, ToggleKey)
                and k.key == b.key
                and k.action == b.action
                and k.key_display == app.get_key_display(b)
                for k, (b, _, _) in zip(keys, shown, strict=True)
            )
        ):
            return False
        for key, (binding, enabled, tooltip) in zip(keys, shown, strict=True):
            assert isinstance(key, ToggleKey)
            text = self.text(binding.action, binding.description)
            if key.description != text:
                layout = cell_len(key.description) != cell_len(text)
                key.description = text
                key.refresh(layout=layout)  # its width follows the text
            key.set_enabled(enabled)
            if key.tooltip != (tooltip or None):
                key.tooltip = tooltip or None
        return True
