"""A tournament in real Chromium, at phone width, in both languages: two people sign
in, open a tournament another account created (three bots entered) and join; it starts;
one withdraws, the other goes to each match the director seated her at, plays it to its
end by clicks, and sees the final standings with the Swiss tie-breaks, every word in the
page's language; her matches count on this season's leaderboard. Screenshots of the
page go to docs/ when asked (DURAK_SCREENSHOT=1) or missing.
"""

from __future__ import annotations

import json
import secrets
import urllib.request
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


def post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def person(browser: Any, server: str, lang: str, name: str) -> tuple[Any, Any, list[str]]:
    """A new browser at phone width, signed up as ``name``: its context, page, errors."""
    ctx, page, errors = new_page(browser, lang, 390, 844)
    page.goto(server + "/")
    page.fill("#acct-name", name)
    page.fill("#acct-pass", "password-strong")
    page.click("#register-btn")
    page.wait_for_selector("#login", state="detached")
    return ctx, page, errors


def join(page: Any, tid: str, lang: str) -> None:
    """From the header's trophy to the tournament, and Join."""
    page.click("#tours-link")
    page.wait_for_selector(f'[data-tour="{tid}"]')
    assert not foreign_words(page, lang), foreign_words(page, lang)
    page.click(f'[data-tour="{tid}"]')
    page.wait_for_selector("#tour-join")
    page.click("#tour-join")
    page.wait_for_selector("#tour-leave")  # in: it may leave before the start


def play_round(page: Any, server: str, tid: str, number: int) -> None:
    """Once round ``number`` is seated, «Play your match», and play it to its end."""
    page.goto(f"{server}/#/tour/{tid}")
    page.wait_for_selector(f'[data-round="{number}"]', timeout=60_000)
    page.wait_for_selector("#tour-play", timeout=60_000)  # the long poll brings the seat
    page.click("#tour-play")
    page.wait_for_selector("#hand .card")
    lang = page.evaluate("() => document.documentElement.lang")
    assert not foreign_words(page, lang), foreign_words(page, lang)  # the table too
    play_to_the_end(page, seconds=150)


def cyrillic(name: str, lang: str) -> str:
    """A Russian page's person is named in Cyrillic letters only."""
    return (
        name.translate(str.maketrans("0123456789abcdef", "абвгдежзиклмнопр"))
        if lang == "ru"
        else name
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_two_people_join_one_plays_one_withdraws_and_the_standings_show(
    server: str, browser: Any, lang: str
) -> None:
    """Three bots and two people in a Swiss of two rounds: Vera plays both her matches by
    clicks; Boris, with the bye in round 1 (the lowest seed), withdraws and is not
    paired again; the final standings show both, Boris marked, in the page's language."""
    boss = post(
        server, "/api/accounts", {"name": f"boss{secrets.token_hex(3)}", "password": "secret-12"}
    )
    body = {"format": "swiss", "rounds": 2, "bots": [1, 2, 1], "name": "Friday club"}
    tid = post(server, "/api/tournaments", body, boss["token"])["id"]
    vera = cyrillic(("Вера" if lang == "ru" else "Vera") + secrets.token_hex(2), lang)
    boris = cyrillic(("Борис" if lang == "ru" else "Boris") + secrets.token_hex(2), lang)
    ctx, page, errors = person(browser, server, lang, vera)
    ctx2, page2, errors2 = person(browser, server, lang, boris)
    join(page, tid, lang)
    join(page2, tid, lang)
    assert page2.locator("#standings tbody tr").count() == 5
    post(server, f"/api/tournaments/{tid}/start", {}, boss["token"])

    page2.wait_for_selector("#tour-withdraw", timeout=30_000)
    assert page2.inner_text("#tour-state") == i18n.t(lang, "tour.state.running")
    assert i18n.t(lang, "tour.bye") in page2.inner_text(".round")
    assert not foreign_words(page2, lang), foreign_words(page2, lang)
    page2.click("#tour-withdraw")
    page2.wait_for_selector("#standings tr.withdrawn")
    assert boris in page2.inner_text("#standings tr.withdrawn")

    play_round(page, server, tid, 1)
    play_round(page, server, tid, 2)
    page.goto(f"{server}/#/tour/{tid}")
    page.wait_for_function(
        "w => document.querySelector('#tour-state')?.textContent === w",
        arg=i18n.t(lang, "tour.state.finished"),
        timeout=60_000,
    )
    assert page.locator("#standings tbody tr").count() == 5
    table = page.inner_text("#standings")
    assert vera in table and i18n.t(lang, "tour.tb.buchholz") in table
    assert i18n.t(lang, "tour.withdrawn") in page.inner_text("#standings tr.withdrawn")
    round2 = page.inner_text('[data-round="2"]')
    assert boris not in round2 and vera in round2  # the one who withdrew: not paired
    assert page.locator(".round a.replay").count() >= 4  # each match's deal, replayable
    assert not foreign_words(page, lang), foreign_words(page, lang)
    path = DOCS / f"screenshot-web-tournament-{lang}.png"
    if REMAKE_SHOTS or not path.exists():
        picture(page, path, full=True)  # (its animations run to their end)
    # Her matches were rated as any table's (her seats taken from her address, her
    # account linked): she is on this season's leaderboard with both.
    page.goto(f"{server}/#/top/current")
    page.wait_for_selector(f'#leaderboard tr:has-text("{vera}")')
    row = page.locator(f'#leaderboard tr:has-text("{vera}")').inner_text().split()
    assert row[3] == "2", row  # №, name, rating, games in the season, change
    assert not foreign_words(page, lang), foreign_words(page, lang)
    page.goto(f"{server}/#/tour/{tid}")
    page.wait_for_selector(".round a.replay")
    page.click(".round a.replay >> nth=0")
    page.wait_for_selector(".replay-view", timeout=10_000)
    assert not errors and not errors2, errors + errors2
    ctx.close()
    ctx2.close()
