"""Key bindings in the player's language.

A screen lists its keys once as :class:`KeySpec` rows; :func:`use_keys` turns them into
Textual bindings with descriptions in the chosen language (so Textual's footer shows
them), and :func:`key_rows` lists every key for the help screen. Keys of the Russian
layout (``е`` where ``t`` is) are bound beside the Latin ones and not shown.

>>> spec = KeySpec("press('t')", "t", "key_take", ru="е")
>>> [b.key for b in bindings([spec], "ru")], bindings([spec], "ru")[0].description
(['t', 'е'], 'взять')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode

from .i18n import LANGS, tr


@dataclass(frozen=True)
class KeySpec:
    """One action, the keys that do it (comma-separated), the string-table key of its
    description, and whether the footer shows it."""

    action: str
    keys: str
    text: str
    show: bool = True
    ru: str = ""  # the same keys on a Russian layout, comma-separated
    display: str = ""  # how the help screen writes the keys, if not key by key
    help: str = ""  # the string-table key of a longer description for the help screen


def bindings(specs: Sequence[KeySpec], lang: str) -> list[Binding]:
    out = []
    for spec in specs:
        description = tr(lang, spec.text)
        first, *rest = spec.keys.split(",")
        out.append(Binding(first, spec.action, description, show=spec.show))
        for key in [*rest, *(spec.ru.split(",") if spec.ru else [])]:
            out.append(Binding(key, spec.action, description, show=False))
    return out


class KeyedNode(DOMNode):
    """A screen or app whose key bindings change with the language (mixed in before
    Textual's class: ``class GameScreen(KeyedNode, Screen[None])``)."""

    def bind_keys(self, specs: Sequence[KeySpec], lang: str, inherit: bool = True) -> None:
        """Bind ``specs`` in ``lang``, beside the bindings of the class if ``inherit`` (a
        screen's Tab moving the focus, for one). Textual has no public way to replace a
        node's bindings: this is the one place that does it."""
        base = (self._merged_bindings if inherit else None) or BindingsMap()
        self._bindings = BindingsMap.merge([base, BindingsMap(bindings(specs, lang))])
        self.refresh_bindings()

    def is_bound(self, key: str) -> bool:
        """Whether ``key`` has a binding here."""
        return key in self._bindings.key_to_bindings


def use_keys(node: KeyedNode, specs: Sequence[KeySpec], lang: str, inherit: bool = True) -> None:
    """Bind ``specs`` on ``node`` in ``lang`` (see :meth:`KeyedNode.bind_keys`)."""
    node.bind_keys(specs, lang, inherit)


def widths(specs: Sequence[KeySpec]) -> dict[str, int]:
    """The longest description of each shown action in any language, in cells (room
    kept in the footer, so a change of language does not move the keys).

    >>> widths([KeySpec("press('t')", "t", "key_take", ru="е")])
    {"press('t')": 5}
    """
    return {
        spec.action: max(cell_len(tr(lang, spec.text)) for lang in LANGS)
        for spec in specs
        if spec.show
    }


def key_name(key: str) -> str:
    """A key as people write it."""
    names = {
        "enter": "Enter",
        "escape": "Esc",
        "space": "space",
        "left": "←",
        "right": "→",
        "up": "↑",
        "down": "↓",
        "home": "Home",
        "end": "End",
        "tab": "Tab",
        "shift+tab": "shift+Tab",
        "question_mark": "?",
        "pageup": "PgUp",
        "pagedown": "PgDn",
        "left_square_bracket": "[",
        "right_square_bracket": "]",
    }
    return names.get(key, key)


def key_rows(specs: Sequence[KeySpec], lang: str) -> list[tuple[str, str]]:
    """(keys, what they do) for every action, keys of one description together."""
    rows: dict[str, list[str]] = {}
    for spec in specs:
        keys = rows.setdefault(spec.help or spec.text, [])
        shown = [spec.display] if spec.display else [key_name(k) for k in spec.keys.split(",")]
        keys.extend(k for k in shown if k not in keys)
    return [(" ".join(keys), tr(lang, text)) for text, keys in rows.items()]
