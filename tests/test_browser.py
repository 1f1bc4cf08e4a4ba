"""The browser client, driven by Playwright through Debian's Chromium.

Two browser contexts (two people, two localStorages) create and join a table and play
a whole game against each other and a bot by clicking; a phone-sized spectator watches;
the finished game is replayed. A screenshot of the table goes to docs/screenshot-web.png.
These tests FAIL without /usr/bin/chromium (``make test`` installs it); only
DURAK_NO_BROWSER=1 skips them, on purpose.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import durak
from durak.cards import deck_mask

from .browser import (
    DOCS,
    REMAKE_SHOTS,
    browser,
    foreign_words,
    move,
    open_custom,
    picture,
    play_all,
    server,
    state_of,
    turn_or_end,
)

__all__ = ["browser", "server"]  # fixtures

pytestmark = pytest.mark.timeout(150)
DOCS_SHOT = DOCS / "screenshot-web.png"
PHONE_SHOT = DOCS / "screenshot-web-phone.png"
CARD = re.compile(r"(?<![0-9])(10|[2-9JQKA])([♠♥♦♣])")


def hidden_from(game: durak.Game, seat: int) -> set[str]:
    public = game.discard | game.trump.bit | game.hands[seat]
    for a, b in game.table:
        public |= a.bit | (b.bit if b else 0)
    for k in game.known:
        public |= k
    return {str(c) for c in durak.CardSet(deck_mask(game.rules.deck) & ~public)}


def test_two_people_and_a_bot_play_a_whole_game(server: str, browser: Any, tmp_path: Path) -> None:
    remake = REMAKE_SHOTS or not DOCS_SHOT.exists() or not PHONE_SHOT.exists()
    shot_path = DOCS_SHOT if remake else tmp_path / "screenshot-web.png"
    phone_path = PHONE_SHOT if remake else tmp_path / "screenshot-web-phone.png"
    anna = browser.new_context(viewport={"width": 1100, "height": 820}, locale="en-US")
    boris = browser.new_context(viewport={"width": 1000, "height": 800}, locale="ru-RU")
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="ru-RU"
    )
    pa, pb = anna.new_page(), boris.new_page()
    errors: list[str] = []
    frames: dict[str, list[str]] = {"a": [], "b": []}
    for key, page in (("a", pa), ("b", pb)):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on(
            "websocket",
            lambda ws, k=key: ws.on(
                "framereceived", lambda payload, k=k: frames[k].append(str(payload))
            ),
        )

    # Anna creates a table: her, a person, a bot.
    pa.goto(server + "/")
    open_custom(pa)
    pa.fill("#name", "Anna")
    pa.select_option("#players", "3")
    pa.select_option("#deck", "24")  # a short deal: 3 x 6 cards and a talon of 6
    pa.select_option('.seat-kind[data-seat="1"]', "human")
    pa.select_option('.seat-kind[data-seat="2"]', "bot:2")
    pa.click("#create-btn")
    invite = pa.locator("#invite-link").inner_text()
    assert "/#/t/" in invite
    table_id = invite.rsplit("/", 1)[1]

    # Boris follows the link, gives his name and sits down; the game starts.
    pb.goto(invite)
    pb.fill("#join-name", "Дима")
    pb.click("#join-btn")
    for page in (pa, pb):
        page.wait_for_selector("#hand .card", timeout=10_000)
    assert "Ходит" in pb.inner_text("#status") or "Ваш ход" in pb.inner_text("#status")

    # A phone-sized spectator: everything fits the width, no hand of its own, and the
    # header is one row.
    pp = phone.new_page()
    pp.goto(invite)
    pp.wait_for_selector(".felt")
    assert pp.locator("#hand").count() == 0
    assert pp.evaluate("() => document.documentElement.scrollWidth") <= 392
    header = pp.locator("header.top").bounding_box()
    button = pp.locator("header.top #invite").bounding_box()
    assert header["height"] < 2 * button["height"] + 8, header

    shot = False

    def mid_game() -> None:
        nonlocal shot
        if (
            not shot
            and pa.locator("#table-cards .card").count() >= 2
            and pa.locator("#hand .card.legal").count() >= 1
            and pa.locator('#status[data-my-turn="1"]').count()
        ):
            picture(pa, shot_path)
            picture(pp, phone_path)
            shot = True
            # Mid-game, each page speaks only its own language (names people typed aside).
            for page, lang in ((pa, "en"), (pb, "ru"), (pp, "ru")):
                bad = foreign_words(page, lang)
                assert not bad, (lang, bad)

    moves = play_all((pa, pb), mid_game)
    assert moves >= 6
    assert shot and shot_path.exists() and phone_path.exists()
    for page in (pa, pb):
        page.wait_for_selector("#again")
    result = pa.inner_text("#result")
    assert "Durak" in result or "durak" in result or "draw" in result.lower()
    assert not errors, errors

    # Nothing a page received ever named a card it could not know.
    record = json.loads(
        pa.evaluate("async () => JSON.stringify(await (await fetch('/api/games?limit=5')).json())")
    )
    info = next(g for g in record["games"] if g["table_id"] == table_id)
    detail = json.loads(
        pa.evaluate(
            f"async () => JSON.stringify(await (await fetch('/api/games/{info['id']}')).json())"
        )
    )
    final = durak.Game.from_record(detail["record"])
    g = final.fresh()
    by_state = {1: g.clone()}
    for i, a in enumerate(final.history):
        g.apply(a)
        by_state[i + 2] = g.clone()
    checked = 0
    for key, seat in (("a", 0), ("b", 1)):
        for text in frames[key]:
            m = json.loads(text)
            if m.get("type") == "state" and m["state"] in by_state:
                found = {x.group(0) for x in CARD.finditer(text)}
                assert not found & hidden_from(by_state[m["state"]], seat)
                checked += 1
    assert checked > moves

    # The finished game replays in the browser.
    pa.goto(server + "/#/")
    pa.wait_for_selector("#games .row a")
    pa.locator("#games .row a").first.click()
    pa.wait_for_selector("#replay-step")
    first = pa.inner_text("#replay-step")
    pa.click("#replay-next")
    pa.click("#replay-next")
    assert pa.inner_text("#replay-step") != first
    assert pa.locator(".replay-hands .card").count() > 0

    # The replay's header keeps the result for the last step, then names the durak by
    # name, never by seat number.
    hidden = durak.i18n.t("en", "replay.result_hidden")  # (in plain words)
    assert pa.inner_text("#replay-result") == hidden
    pa.click("#replay-last")
    words = pa.inner_text("#replay-result")
    assert "durak 0" not in words and "durak 1" not in words
    assert re.fullmatch(r"Durak: (Anna|Дима|Boris)( \(.*\))?|A draw!", words), words
    # The controls are SVG icons (⏮ ⏭ render as boxes in Chromium without emoji fonts).
    assert pa.locator("#replay-first svg").count() == 1
    assert pa.locator("#replay-last svg").count() == 1

    # Russian, on a button: the test waits for the page to be redrawn in Russian.
    step = pa.get_attribute(".replay-view", "data-step")
    pa.click("#lang")
    pa.wait_for_function("() => document.querySelector('.replay-view')?.dataset.lang === 'ru'")
    assert pa.get_attribute(".replay-view", "data-step") == step
    assert "Назад" in pa.inner_text(".replay-controls")
    assert "Ход " in pa.inner_text("#replay-step")
    for ctx in (anna, boris, phone):
        ctx.close()


def test_reload_returns_to_the_seat_and_drag_plays(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 900, "height": 800}, locale="en-US")
    page = ctx.new_page()
    page.goto(server + "/")
    open_custom(page)
    page.fill("#name", "Vera")
    page.click("#create-btn")  # two players: Vera and a bot
    page.wait_for_selector("#hand .card")
    turn_or_end(page)
    hand_before = sorted(
        page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    )
    # A reload keeps the seat: the token is in localStorage.
    page.reload()
    page.wait_for_selector('#status[data-my-turn="1"]')
    assert (
        sorted(page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))
        == hand_before
    )
    # Play on until Vera opens a bout, then drag a highlighted card onto the table.
    while page.locator('#status[data-my-turn="1"][data-phase="attack"]').count() == 0:
        if not move(page):
            turn_or_end(page)
    before = state_of(page)
    card = page.locator("#hand .card.legal").first
    name = card.get_attribute("data-card")
    box = card.bounding_box()
    felt = page.locator(".felt").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function(
        "s => document.querySelector('.table-view')?.dataset.state !== s",
        arg=before,
        timeout=10_000,
    )
    log = page.inner_text("#log")
    assert name in log or page.locator(f'#table-cards [data-card="{name}"]').count() == 1
    ctx.close()
