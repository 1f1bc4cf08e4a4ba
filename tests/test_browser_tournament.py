"""A tournament in real Chromium, at phone width, in both languages: a person signs in,
opens a tournament another account created (three bots entered), joins, sees it start,
goes to the match the director seated them at, plays it to the end by clicks, comes
back and sees the final standings with the Swiss tie-breaks, every word in the page's
language. Screenshots of the page go to docs/ when asked (DURAK_SCREENSHOT=1) or missing.
"""

from __future__ import annotations

import json
import secrets
import urllib.request
from typing import Any

import pytest

from durak import i18n

from .browser import DOCS, REMAKE_SHOTS, browser, foreign_words, play_to_the_end, server

__all__ = ["browser", "server"]  # fixtures

pytestmark = pytest.mark.timeout(240)


def post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_person_joins_plays_and_sees_the_standings(server: str, browser: Any, lang: str) -> None:
    boss = post(
        server, "/api/accounts", {"name": f"boss{secrets.token_hex(3)}", "password": "secret-12"}
    )
    body = {"format": "swiss", "rounds": 1, "bots": [1, 2, 1], "name": "Friday club"}
    tid = post(server, "/api/tournaments", body, boss["token"])["id"]

    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="ru-RU" if lang == "ru" else "en-US"
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    name = ("Вера" if lang == "ru" else "Vera") + secrets.token_hex(2)
    if lang == "ru":  # (a Russian name in Cyrillic letters only)
        name = name.translate(str.maketrans("0123456789abcdef", "абвгдежзиклмнопр"))
    page.fill("#acct-name", name)
    page.fill("#acct-pass", "password-strong")
    page.click("#register-btn")
    page.wait_for_selector("#login", state="detached")

    page.click("#tours-link")
    page.wait_for_selector(f'[data-tour="{tid}"]')
    assert not foreign_words(page, lang), foreign_words(page, lang)
    page.click(f'[data-tour="{tid}"]')
    page.wait_for_selector("#tour-join")
    page.click("#tour-join")
    page.wait_for_selector("#tour-leave")  # in: it may leave before the start
    assert page.locator("#standings tbody tr").count() == 4
    post(server, f"/api/tournaments/{tid}/start", {}, boss["token"])
    page.wait_for_selector("#tour-play", timeout=30_000)  # the long poll brings the seat
    assert page.inner_text("#tour-state") == i18n.t(lang, "tour.state.running")
    assert not foreign_words(page, lang), foreign_words(page, lang)
    page.click("#tour-play")
    page.wait_for_selector("#hand .card")
    play_to_the_end(page, seconds=150)

    page.goto(f"{server}/#/tour/{tid}")
    page.wait_for_function(
        "w => document.querySelector('#tour-state')?.textContent === w",
        arg=i18n.t(lang, "tour.state.finished"),
        timeout=60_000,
    )
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 4
    names = page.inner_text("#standings")
    assert name in names and i18n.t(lang, "tour.tb.buchholz") in names
    assert page.locator(".round a.replay").count() >= 2  # each match's deal, replayable
    assert not foreign_words(page, lang), foreign_words(page, lang)
    path = DOCS / f"screenshot-web-tournament-{lang}.png"
    if REMAKE_SHOTS or not path.exists():
        page.wait_for_timeout(300)  # animations settle
        page.screenshot(path=str(path), full_page=True)
    # Her match was rated as any table's (her seat taken from her address, her account
    # linked): she is on this season's leaderboard, in the page's language.
    page.goto(f"{server}/#/top/current")
    page.wait_for_selector(f'#leaderboard tr:has-text("{name}")')
    row = page.locator(f'#leaderboard tr:has-text("{name}")').inner_text().split()
    assert row[3] == "1", row  # №, name, rating, games in the season, change
    assert not foreign_words(page, lang), foreign_words(page, lang)
    page.goto(f"{server}/#/tour/{tid}")
    page.wait_for_selector(".round a.replay")
    page.click(".round a.replay >> nth=0")
    page.wait_for_selector(".replay-view, #replay", timeout=10_000)
    assert not errors, errors
    ctx.close()
