"""The start screen through Textual's pilot: a change of language relabels every line in
place, the opponent rows come and go without moving the buttons, and the footer
relabels its keys instead of being rebuilt."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("textual")

from textual.app import App, ComposeResult  # noqa: E402
from textual.pilot import Pilot  # noqa: E402
from textual.screen import Screen  # noqa: E402
from textual.widget import Widget  # noqa: E402
from textual.widgets import Button, Input, Label, Static  # noqa: E402
from textual.widgets._footer import FooterKey  # noqa: E402

from durak import Rules  # noqa: E402
from durak.tui.app import DurakApp  # noqa: E402
from durak.tui.footer import KeysFooter  # noqa: E402
from durak.tui.form import Choice  # noqa: E402
from durak.tui.i18n import tr  # noqa: E402
from durak.tui.keys import KeyedNode, KeySpec, use_keys, widths  # noqa: E402
from durak.tui.session import Settings  # noqa: E402
from durak.tui.setup_screen import SetupScreen  # noqa: E402

pytestmark = pytest.mark.timeout(60)


T = TypeVar("T")


def on_start_screen(
    tmp_path: Path, lang: str, body: Callable[[Pilot[Any], DurakApp, SetupScreen], Awaitable[T]]
) -> T:
    """Run ``body`` on the start screen of a new app at 80x24, once it is shown."""

    async def go() -> T:
        app = DurakApp(
            Settings(rules=Rules(), opponents=["greedy"], save=tmp_path / "m.txt", lang=lang)
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            return await body(pilot, app, screen)

    return asyncio.run(go())


def words(screen: SetupScreen) -> dict[str, str]:
    """Every text the start screen shows, by widget (the footer's keys by key)."""
    out: dict[str, str] = {}
    for i, w in enumerate(screen.query("*")):
        name = w.id or f"{type(w).__name__}-{i}"
        if isinstance(w, Input):
            out[name] = f"{w.value}|{w.placeholder}"
        elif isinstance(w, FooterKey):
            out[f"key-{w.key}"] = f"{w.key_display} {w.description.strip()}"
        elif isinstance(w, (Choice, Static, Label, Button)):
            out[name] = str(w.render())
    return out


def test_language_switch_relabels_every_line_as_a_screen_opened_in_it(tmp_path: Path) -> None:
    """After ← → on the language line, every text on the screen (lines, values, title,
    name, buttons, help, footer) is what a screen opened in that language shows."""

    async def opened(pilot: Pilot[Any], app: DurakApp, screen: SetupScreen) -> dict[str, str]:
        screen.query_one("#lang", Choice).focus()
        await pilot.pause()
        return words(screen)

    want = {lang: on_start_screen(tmp_path, lang, opened) for lang in ("en", "ru")}
    assert want["en"] != want["ru"]

    async def switch(pilot: Pilot[Any], app: DurakApp, screen: SetupScreen) -> None:
        keys = list(screen.query(FooterKey))
        assert len(keys) == 3  # start, how to play, quit (q)
        assert await opened(pilot, app, screen) == want["en"]
        await pilot.press("right")
        assert words(screen) == want["ru"]
        assert "начать" in str(keys[0].description) and "Начать" in words(screen)["start"]
        assert list(screen.query(FooterKey)) == keys  # relabelled, not rebuilt
        await pilot.press("left")
        assert words(screen) == want["en"]

    on_start_screen(tmp_path, "en", switch)


def test_opponent_rows_come_and_go_without_moving_the_buttons(tmp_path: Path) -> None:
    """Every player count fits 80x24 without scrolling; the buttons stay put."""

    async def go(pilot: Pilot[Any], app: DurakApp, screen: SetupScreen) -> None:
        start = screen.query_one("#start", Button).region
        players = screen.query_one("#players", Choice)
        players.focus()
        for n in (3, 4, 5, 6, 5, 4, 3, 2):
            await pilot.press("right" if n > players.value else "left")
            assert players.value == n
            opponents = [
                w.id for w in screen.query(Choice) if (w.id or "").startswith("opp-") and w.display
            ]
            assert opponents == [f"opp-{s}" for s in range(1, n)]
            assert all(screen.query_one(f"#{o}", Choice).region.height == 1 for o in opponents)
            assert screen.query_one("#start", Button).region == start
            assert screen.query_one("#setup").max_scroll_y == 0
        # Tab stops at every line shown and every button, nothing else
        assert [w.id for w in screen.focus_chain] == [
            "lang",
            "preset",
            "players",
            "deck",
            "teams",
            "transfer",
            "pile_on",
            "throwers",
            "bout_limit",
            "first_bout_limit",
            "deals",
            "name",
            "opp-1",
            "start",
            "howto",
            "quit",
        ]
        # hidden rows are skipped by the focus
        screen.query_one("#name", Input).focus()
        await pilot.press("tab")
        assert app.focused is not None and app.focused.id == "opp-1"
        await pilot.press("down")
        assert app.focused is not None and app.focused.id == "start"

    on_start_screen(tmp_path, "en", go)


def test_moving_the_focus_keeps_the_footer(tmp_path: Path) -> None:
    async def go(pilot: Pilot[Any], app: DurakApp, screen: SetupScreen) -> None:
        keys = list(screen.query(FooterKey))
        await pilot.press("tab", "tab", "down", "down", "up")
        assert list(screen.query(FooterKey)) == keys
        assert [k.description.strip() for k in keys] == ["start", "how to play", "quit"]

    on_start_screen(tmp_path, "en", go)


class KeysScreen(KeyedNode, Screen[None]):
    def compose(self) -> ComposeResult:
        yield Widget()
        yield KeysFooter(widths=widths(KeysApp.SPECS))


class KeysApp(App[None]):
    """A screen whose keys change: the footer rebuilds when keys come or go."""

    ENABLE_COMMAND_PALETTE = False
    SPECS = (KeySpec("start", "ctrl+s", "key_start"), KeySpec("howto", "f1", "key_howto"))

    def get_default_screen(self) -> Screen[None]:
        return KeysScreen()


def test_keys_footer_relabels_in_place_and_rebuilds_when_keys_change() -> None:
    async def go() -> None:
        app = KeysApp()
        async with app.run_test(size=(60, 5)) as pilot:
            assert isinstance(app.screen, KeysScreen)
            use_keys(app.screen, KeysApp.SPECS[:1], "en")
            await pilot.pause()
            first = list(app.screen.query(FooterKey))
            assert [(k.key, k.description) for k in first] == [("ctrl+s", "start ")]
            use_keys(app.screen, KeysApp.SPECS[:1], "ru")  # one frame: no rebuild
            assert list(app.screen.query(FooterKey)) == first
            assert first[0].description == "начать"
            use_keys(app.screen, KeysApp.SPECS, "ru")  # a key more: rebuilt as Textual does
            await pilot.pause()
            keys = list(app.screen.query(FooterKey))
            assert [k.key for k in keys] == ["ctrl+s", "f1"]
            assert [k.description.strip() for k in keys] == [
                tr("ru", "key_start"),
                tr("ru", "key_howto"),
            ]
            # each key keeps room for its longest description in any language
            assert [len(k.description) for k in keys] == list(widths(KeysApp.SPECS).values())

    asyncio.run(go())


def test_what_the_screen_shows_is_a_full_redraw_after_every_key(tmp_path: Path) -> None:
    """Each key repaints only what it changes (and the screen is not repainted when the
    focus moves): what is on the screen must still be what redrawing everything shows."""

    async def go(pilot: Pilot[Any], app: DurakApp, screen: SetupScreen) -> None:
        async def settled() -> str:
            """The screen once it stops changing: each pause handles every message
            pending and repaints (no clock: a loaded machine only makes it slower)."""
            last = app.export_screenshot()
            for _ in range(20):
                await pilot.pause()
                now = app.export_screenshot()
                if now == last:
                    break
                last = now
            return last

        async def redrawn() -> str:
            for w in screen.query("*"):
                w.refresh()
            return await settled()

        screen.query_one("#name", Input).cursor_blink = False  # (a blink is no change)
        keys = {
            "lang": (
                "right",
                "down",
                "right",
                "down",
                "right",
                "right",
                "down",
                "down",
                "right",
                "down",
                "space",
                "up",
                "space",
                "tab",
                "tab",
                "shift+tab",
            ),
            "name": ("x", "tab", "right", "down", "tab", "shift+tab", "shift+tab", "up", "left"),
        }
        for row, presses in keys.items():
            screen.query_one(f"#{row}").focus()
            for key in presses:
                await pilot.press(key)
                shown = await settled()
                assert shown == await redrawn(), f"stale after {key!r}"
        assert screen.query_one("#name", Input).value.endswith("x")
        assert screen.query_one("#lang", Choice).value == "ru"

    on_start_screen(tmp_path, "en", go)


def test_options_that_do_not_go_together_are_said_and_do_not_start(tmp_path: Path) -> None:
    async def go(pilot: Pilot[Any], app: DurakApp, screen: SetupScreen) -> None:
        def error() -> str:
            return str(screen.query_one("#error", Static).render())

        assert error() == ""
        screen.query_one("#players", Choice).focus()
        await pilot.press("left")  # 2 -> 6 players
        screen.query_one("#deck", Choice).focus()
        await pilot.press("left")  # 36 -> 24 cards: too few for six hands
        assert error() == (
            "These options do not go together: 6 × 6 cards do not fit in a 24-card deck."
        )
        await pilot.press("ctrl+s")
        assert app.screen is screen and app.session is None
        await pilot.press("right")
        assert error() == ""

    on_start_screen(tmp_path, "en", go)


def test_a_clash_is_said_in_russian_on_a_russian_screen(tmp_path: Path) -> None:
    """Issue 12: errors in both languages; the engine's English reason is not shown."""

    async def go(pilot: Pilot[Any], app: DurakApp, screen: SetupScreen) -> None:
        screen.query_one("#players", Choice).focus()
        await pilot.press("left")  # 2 -> 6 players
        screen.query_one("#deck", Choice).focus()
        await pilot.press("left")  # 36 -> 24 cards
        text = str(screen.query_one("#error", Static).render())
        assert text == "Так нельзя: 6 × 6 карт не помещается в колоду из 24."

    on_start_screen(tmp_path, "ru", go)
