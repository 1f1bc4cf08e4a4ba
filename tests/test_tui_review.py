"""The review in the terminal (issue 47): after a deal the review screen shows every
judged move with its tag and the better move, in the player's language."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.app import App  # noqa: E402
from textual.widgets import RichLog  # noqa: E402

from durak import Game, Rules  # noqa: E402
from durak.bots import make  # noqa: E402
from durak.review import Judge  # noqa: E402
from durak.tui.review_screen import ReviewScreen  # noqa: E402

pytestmark = pytest.mark.timeout(300)


def finished(seed: int) -> Game:
    g = Game(Rules(), seed=seed)
    bots = [make("heuristic", seed=1), make("greedy", seed=2)]
    while not g.is_over:
        s = g.to_act
        assert s is not None
        g.apply(bots[s].choose(g.observation(s)))
    return g


class Host(App[None]):
    def __init__(self, screen: ReviewScreen) -> None:
        super().__init__()
        self.review_screen = screen

    def on_mount(self) -> None:
        self.push_screen(self.review_screen)


async def shown(lang: str) -> tuple[ReviewScreen, list[str]]:
    screen = ReviewScreen(finished(4), ["Аня", "Боря"], lang, judge=Judge(worlds=2, depth=1))
    app = Host(screen)
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()  # (mounted: the review's thread started; it shows it, then ends)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.review is not None
        log = screen.query_one("#review-log", RichLog)
        lines = [str(strip.text) for strip in log.lines]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen  # Esc closes it
    return screen, lines


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_review_screen_lists_every_judged_move_and_each_players_figures(lang: str) -> None:
    screen, lines = asyncio.run(shown(lang))
    review: Any = screen.review
    assert review is not None and review.moves
    text = "\n".join(lines)
    accuracy = "точность" if lang == "ru" else "accuracy"
    assert len(re.findall(rf"^(Аня|Боря): {accuracy} \d", text, re.M)) == 2  # a line a player
    for m in review.moves:
        assert f"{m.ply + 1}." in text
    if lang == "ru":
        assert not any(ch in text for ch in "JQKA")  # ranks in Russian: В Д К Т


def test_r_on_the_result_box_opens_the_review_and_esc_comes_back(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After a deal played by keys, r on the result box opens the deal's review; Esc
    # brings the result box back, where Enter goes on as before.
    from durak.tui import review_screen
    from durak.tui.app import DurakApp
    from durak.tui.result_screen import ResultScreen
    from tests.test_tui_app import greedy_but, play_deal, settings, settle

    monkeypatch.setattr(review_screen, "make_judge", lambda: Judge(worlds=2, depth=1))

    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path, seed=3), skip_setup=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_deal(pilot, app, greedy_but())
            await settle(pilot, app)
            assert isinstance(app.screen, ResultScreen)
            await pilot.press("r")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.review is not None and screen.review.moves and screen.review.deals == 1
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ResultScreen)

    asyncio.run(go())
