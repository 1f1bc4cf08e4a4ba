"""The game review in real Chromium (issue 47): a finished deal's replay opens its review;
each step shows its verdict (the tag, the durak chance, the better move), a graph of every
seat's durak chance, and each seat's accuracy, in English and Russian."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from durak import i18n

from .browser import DOCS, REMAKE_SHOTS, browser, foreign_words, need_browser, server
from .waiting import until

__all__ = ["browser", "server"]  # (pytest fixtures)

pytestmark = pytest.mark.timeout(300)


def api(base: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    req = urllib.request.Request(base + path, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


@pytest.fixture(scope="module")
def finished(server: str) -> Iterator[int]:
    """The id of a finished deal of two bots (played by the server on its own)."""
    need_browser()
    seats = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "greedy"}]
    api(server, "/api/tables", {"seats": seats, "name": "Vera"})
    games = until(lambda: api(server, "/api/games?limit=5")["games"], "the bots' deal to end")
    yield int(games[0]["id"])


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_replay_opens_the_review_of_every_move(
    server: str, browser: Any, finished: int, lang: str
) -> None:
    review = api(server, f"/api/games/{finished}/review")
    page = browser.new_page(viewport={"width": 900, "height": 1300})
    page.goto(server)
    page.evaluate(f"() => localStorage.setItem('durak.lang', '{lang}')")
    page.goto(f"{server}/#/r/{finished}")
    page.reload()  # (the language is read as the page loads)
    page.wait_for_selector(f'.replay-view[data-step="0"][data-lang="{lang}"]')
    page.click("#review-button")
    page.wait_for_selector("#review-graph")
    # one line a seat that had a choice, one figures row a seat
    assert page.locator("#review-graph polyline").count() == len(
        {m["seat"] for m in review["moves"]}
    )
    assert page.locator(".review-seat").count() == len(review["seats"])
    first = review["moves"][0]
    page.keyboard.press("Home")
    for _ in range(first["ply"] + 1):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'.replay-view[data-step="{first["ply"] + 1}"]')
    verdict = page.inner_text("#review-move")
    assert i18n.t(lang, f"review.tag.{first['tag']}") in verdict
    assert f"{round(first['after'])}%" in verdict
    if lang == "ru":
        assert foreign_words(page, "ru") == []  # (no Latin rank, no English word)
    shot = DOCS / f"screenshot-web-review-{lang}.png"
    page.screenshot(path=str(shot if REMAKE_SHOTS else f"/tmp/review-{lang}.png"), full_page=True)
    page.close()
