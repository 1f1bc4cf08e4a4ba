"""The lobby's way in and the end of a deal, in real Chromium (issue 33): "Play now" is
one click to a deal against a bot (the name remembered, or a guest name made up and
remembered), the deal is played to its end by clicks, and the result panel has one
heading, the rating change (or why there is none), Rematch and Lobby, and a "Verify
this deal" link that checks the deal in the page. The replay keeps the result for its
last step and shows the trump under the talon. In English as a guest, in Russian signed
in (a rated deal). Screenshots of the lobby, the end of a deal and the replay in both
languages go to docs/ when asked (DURAK_SCREENSHOT=1) or missing.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest

from durak import i18n

from .browser import (
    DOCS,
    REMAKE_SHOTS,
    browser,
    foreign_words,
    new_page,
    picture,
    play_to_the_end,
    server,
)

__all__ = ["browser", "server"]  # fixtures

pytestmark = pytest.mark.timeout(240)


def shot(page: Any, name: str, full: bool = False) -> None:
    path = DOCS / name
    if REMAKE_SHOTS or not path.exists():
        picture(page, path, full)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_play_now_to_the_end_of_a_deal_and_its_replay(server: str, browser: Any, lang: str) -> None:
    ctx, page, errors = new_page(browser, lang)
    page.goto(server + "/")
    page.wait_for_selector("#play-now")
    # The full form waits, folded, under "Custom table".
    assert page.get_attribute("#custom-table", "open") is None
    assert not page.locator("#create-btn").is_visible()
    signed_in = lang == "ru"
    if signed_in:
        name = "Вера" + secrets.token_hex(2).translate(
            str.maketrans("0123456789abcdef", "абвгдежзиклмнопр")
        )
        page.fill("#acct-name", name)
        page.fill("#acct-pass", "пароль-надёжный")
        page.click("#register-btn")
        page.wait_for_selector("#login", state="detached")
        assert page.inner_text("#quick-name") == i18n.t("ru", "people.signed_in_as", name=name)
    else:
        assert page.inner_text("#quick-name") == i18n.t("en", "lobby.name_made_up")
    assert page.input_value("#quick-level") == "3"
    assert not foreign_words(page, lang), foreign_words(page, lang)
    shot(page, f"screenshot-web-lobby-{lang}.png")

    # One click: a table against a bot, the deal under way.
    page.click("#play-now")
    page.wait_for_selector("#hand .card")
    if not signed_in:
        name = page.evaluate("() => localStorage.getItem('durak.name')")
        assert re.fullmatch(r"Guest \d{3}", name), name
    assert name in page.inner_text(".me-name")
    play_to_the_end(page, seconds=150)

    # The end of the deal: one heading, the rating, what next, the proof as a link.
    page.wait_for_selector("#result #to-lobby")
    assert page.locator("#result h2").count() == 1
    heading = page.inner_text("#result-title")
    assert heading and heading not in page.inner_text("#status")
    rating = page.locator("#rating-change")
    if signed_in:
        page.wait_for_selector("#rating-change.up, #rating-change.down, #rating-change.same")
        text = rating.inner_text()
        m = re.fullmatch(r"Ваш рейтинг: (\d+) → (\d+) \(([+-]?\d+)\)", text)
        assert m and int(m.group(2)) - int(m.group(1)) == int(m.group(3)), text
    else:
        assert rating.inner_text() == i18n.t("en", "table.unrated_guest")
    assert page.locator("#again").is_visible()  # one deal: the match is over
    assert page.locator("#fair").count() == 0  # no command line at the table
    page.click("#verify-link")
    page.wait_for_selector("#verify-result")
    page.wait_for_function(
        "() => !document.querySelector('#verify-result').textContent.startsWith("
        f"{i18n.t(lang, 'table.verify_checking')!r})"
    )
    verdict = page.inner_text("#verify-result")
    assert verdict.startswith(i18n.t(lang, "table.verify_ok", seed="", commit="")[:12]), verdict
    assert "durak verify-deal " + server + "/api/games/" in verdict
    # the result panel sits inside the page's margins
    box = page.locator("#result").bounding_box()
    assert box["x"] > 0 and box["x"] + box["width"] < 1100
    shot(page, f"screenshot-web-result-{lang}.png", full=True)
    assert not errors, errors

    # Back to the lobby: the name is remembered, the finished deal listed with its date.
    page.click("#to-lobby")
    page.wait_for_selector("#play-now")
    if not signed_in:
        assert name in page.inner_text("#quick-name")
    page.wait_for_selector("#games .row .when")
    assert re.search(r"\d{4}|\d:\d\d", page.inner_text("#games .row .when"))

    # Its replay: no result before the end, the trump under the talon, hands to read.
    page.locator("#games .row a").first.click()
    page.wait_for_selector("#replay-step")
    assert page.inner_text("#replay-result") == i18n.t(lang, "replay.result_hidden")
    assert page.locator("#replay-talon .card.trump").count() == 1
    for _ in range(6):
        page.click("#replay-next")
    width = page.locator(".replay-hands .card").first.bounding_box()["width"]
    assert width >= 50, width  # not thumbnails
    assert page.locator("#replay-talon .card.trump").count() == 1
    shot(page, f"screenshot-web-replay-{lang}.png")
    page.click("#replay-last")
    assert page.inner_text("#replay-result") != i18n.t(lang, "replay.result_hidden")
    assert not foreign_words(page, lang), foreign_words(page, lang)
    assert not errors, errors
    ctx.close()
