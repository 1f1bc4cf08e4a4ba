"""шулерский in the terminal game, through Textual's pilot: the person cheats with ~
(cheat mode) and the catcher calls it; the person calls the cheater's cheat with !."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.widgets import RichLog  # noqa: E402

from durak import Rules  # noqa: E402
from durak.bots import make  # noqa: E402
from durak.enums import Kind, Phase  # noqa: E402
from durak.tui.app import DurakApp  # noqa: E402
from durak.tui.game_screen import GameScreen  # noqa: E402
from durak.tui.i18n import tr  # noqa: E402

from .test_tui_app import lay_cheat, press_move, run, settings, settle, shown_keys  # noqa: E402

pytestmark = pytest.mark.timeout(120)


def log_text(screen: GameScreen) -> str:
    """The game's log as the player reads it."""
    return "\n".join(line.text for line in screen.query_one("#log", RichLog).lines)


def test_a_cheat_by_keys_is_caught_by_the_catcher(tmp_path: Path) -> None:
    async def go() -> None:
        rules = Rules.preset("shulerskiy")
        app = DurakApp(settings(rules, tmp_path, seed=3, opponents=["catcher"]), skip_setup=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert tr("en", "key_cheat") in shown_keys(screen)
            greedy = make("greedy")
            g = screen.session.game
            cheat = None
            for _ in range(300):
                if g.is_over or (cheat and any(a.kind == Kind.CALL for a in g.history)):
                    break
                obs = g.observation(0)
                if cheat is None and obs.phase == Phase.DEFEND and obs.cheats:
                    cheat = obs.cheats[0]
                    await pilot.press("escape", "tilde")
                    assert screen.picker.cheat
                    assert getattr(screen.message, "key", None) == "cheat_on"
                    await lay_cheat(pilot, screen, cheat)
                else:
                    await press_move(pilot, screen, greedy.choose(obs))
                await settle(pilot, app)
            assert cheat is not None, "the person defended at least once"
            calls = [a for a in g.history if a.kind == Kind.CALL]
            assert calls and calls[0].cards == cheat.cards, [str(a) for a in g.history]
            log = log_text(screen)
            assert "calls" in log and "Caught" in log

    run(go())


def test_the_person_calls_the_cheaters_cheat(tmp_path: Path) -> None:
    async def go() -> None:
        rules = Rules.preset("shulerskiy")
        opts = settings(rules, tmp_path, seed=5, opponents=["cheater"], deals=3, lang="ru")
        app = DurakApp(opts, skip_setup=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            greedy = make("greedy")
            caught = None
            for _ in range(600):
                screen = app.screen
                if not isinstance(screen, GameScreen):
                    break
                g = screen.session.game
                if g.is_over:
                    await pilot.press("n")
                    await settle(pilot, app)
                    continue
                obs = g.observation(0)
                if obs.cheated and screen.picker.call() in obs.calls:
                    target = screen.picker.call()
                    assert not isinstance(target, str)
                    if target.cards & obs.cheated:  # the last card laid is the cheat
                        n = len(g.history)
                        await pilot.press("exclamation_mark")
                        caught = target
                        assert g.history[n] is target
                        # caught: the cheater took the table (a false beat) or its card
                        # back (a false throw-in)
                        assert target.cards[0] in g.hand(1)
                        break
                await press_move(pilot, screen, greedy.choose(obs))
                await settle(pilot, app)
            assert caught is not None, "the cheater cheated in three deals"
            screen = app.screen
            log = log_text(screen)
            assert "ловит шулера" in log and "Пойман" in log

    run(go())
