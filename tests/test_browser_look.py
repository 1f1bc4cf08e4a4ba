"""Issue 50 in real Chromium, as a newcomer meets it: "Play now" has no turn clock against
a bot; choosing шулерский offers the cheating bots; between deals of a match the end of
the deal stays until "Next deal", which deals at once when everyone has pressed it, and
the others see who has; двухкозырный shows each player's turned card; the replay takes
the keyboard, says its header in plain words and names cheats; the chat box follows the
language; and the Russian pages of a cheating game, a двухкозырный game and a replay
show no Latin letter (no «K♥», no English word) on any screen.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from durak import Card, i18n

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
    serving,
    state_of,
    turn_or_end,
)

__all__ = ["browser", "server"]  # (pytest fixtures)

pytestmark = pytest.mark.timeout(300)

SUITS = "♠♥♦♣"


@pytest.fixture(scope="module")
def waiting_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server as `durak serve` runs by default: a finished deal of a match stays on
    show until every connected person asks for the next one (no deal pause given)."""
    yield from serving(tmp_path_factory, "waiting.db", bot_pace=0)


# Every notice (toast) the page shows, kept: a notice lasts a few seconds, the test reads
# them when it gets there.
TOAST_LOG = """
window.durakToasts = [];
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.classList && n.classList.contains('toast')) {
      window.durakToasts.push([n.className, n.textContent]);
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def new_page(browser: Any, lang: str, width: int = 1100) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(
        viewport={"width": width, "height": 860}, locale="ru-RU" if lang == "ru" else "en-US"
    )
    ctx.add_init_script(TOAST_LOG)
    ctx.add_init_script(f"localStorage.setItem('durak.lang', '{lang}')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return ctx, page, errors


def no_latin(page: Any, where: str) -> None:
    """A Russian page shows no Latin letter: no «K♥», no English word, no raw value."""
    bad = foreign_words(page, "ru")
    assert not bad, f"{where}: Latin on a Russian page: {bad[:12]}"


def shot(page: Any, name: str, tmp: Path) -> Path:
    """A screenshot to look at (tmp), and to docs/ when asked or missing."""
    path = tmp / name
    picture(page, path)
    if REMAKE_SHOTS or not (DOCS / name).exists():
        picture(page, DOCS / name)
    return path


def api(server: str, path: str) -> Any:
    with urllib.request.urlopen(server + path, timeout=10) as r:
        return json.loads(r.read())


def suit_of(card: str) -> str:
    return card[-1]


def test_play_now_has_no_clock_and_the_cheating_game_offers_its_bots(
    server: str, browser: Any
) -> None:
    ctx, page, errors = new_page(browser, "en")
    page.goto(server + "/")
    page.wait_for_selector("#play-now")
    levels = page.locator("#quick-level option").evaluate_all("l => l.map(o => o.value)")
    assert all(v.isdigit() for v in levels), levels
    open_custom(page)
    assert page.input_value('.seat-kind[data-seat="1"]').startswith("bot:")
    assert page.locator("#seats-cheating").is_hidden()
    # шулерский chosen: the cheating bots are the opponents, here and in "Play now"
    page.select_option("#players", "3")
    page.select_option("#preset", "shulerskiy")
    assert page.input_value('.seat-kind[data-seat="1"]') == "name:cheater"
    assert page.input_value('.seat-kind[data-seat="2"]') == "name:catcher"
    assert page.locator("#seats-cheating").is_visible()
    assert i18n.t("en", "lobby.cheating_bots") in page.inner_text("#seats-cheating")
    quick = page.locator("#quick-level option").evaluate_all("l => l.map(o => o.value)")
    assert quick == ["name:cheater", "name:catcher"]
    assert page.locator("#quick-cheating").is_visible()
    # back to подкидной: level bots again
    page.select_option("#preset", "podkidnoy")
    assert page.input_value('.seat-kind[data-seat="1"]').startswith("bot:")
    page.select_option("#preset", "shulerskiy")
    page.select_option("#quick-level", "name:catcher")
    page.click("#play-now")
    page.wait_for_selector("#hand .card")
    assert i18n.t("en", "bot.catcher") in page.inner_text(".opponents")
    assert i18n.t("en", "preset.shulerskiy") in page.inner_text("#rules-name")
    # my turn comes, with no clock: a bot keeps nobody waiting
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=20_000)
    assert page.locator(".timer").count() == 0
    table = page.evaluate("() => location.hash").split("/")[2]
    listed = next(x for x in api(server, "/api/tables")["tables"] if x["id"] == table)
    assert listed["turn_timer"] is None
    assert not errors, errors
    ctx.close()


def test_the_end_of_a_deal_waits_for_next_deal_and_shows_who_is_ready(
    waiting_server: str, browser: Any, tmp_path: Path
) -> None:
    server = waiting_server
    ctx_a, anna, errors_a = new_page(browser, "en")
    ctx_b, boris, errors_b = new_page(browser, "ru")
    anna.goto(server + "/")
    open_custom(anna)
    anna.fill("#name", "Anna")
    anna.select_option('.seat-kind[data-seat="1"]', "human")
    anna.fill("#deals", "2")
    anna.click("#create-btn")
    link = anna.inner_text("#invite-link")
    boris.goto(link)
    boris.fill("#join-name", "Борис")
    boris.click("#join-btn")
    for p in (anna, boris):
        p.wait_for_selector("#hand .card")
    play_all([anna, boris])
    for p in (anna, boris):
        assert p.locator("#next-deal").is_enabled()
    assert i18n.t("en", "table.ready_none") in anna.inner_text("#ready-list")
    no_latin(boris, "the end of a deal")
    # The panel stays: nothing moves it on but "Next deal" (a look after a while, not a race)
    anna.wait_for_timeout(1500)
    assert anna.locator("#result").count() and boris.locator("#result").count()
    anna.click("#next-deal")
    anna.wait_for_selector("#next-deal[disabled]")
    assert anna.inner_text("#next-deal") == i18n.t("en", "table.next_deal_waiting")
    boris.wait_for_function(
        "() => document.querySelector('#ready-list')?.innerText.includes('Anna')"
    )
    assert i18n.t("ru", "table.ready_list", names="Anna") in boris.inner_text("#ready-list")
    no_latin(boris, "the end of a deal, Anna ready")
    shot(boris, "screenshot-web-next-deal-ru.png", tmp_path)
    # The last one to press deals at once
    boris.click("#next-deal")
    for p in (anna, boris):
        p.wait_for_selector("#result", state="detached", timeout=10_000)
        p.wait_for_function("() => /2/.test(document.querySelector('#deal-no')?.innerText || '')")
    assert not errors_a and not errors_b, errors_a + errors_b
    ctx_a.close()
    ctx_b.close()


def test_dvukhkozyrny_shows_each_turned_card_and_its_replay_takes_the_keyboard(
    server: str, browser: Any, tmp_path: Path
) -> None:
    ctx, page, errors = new_page(browser, "en")
    page.goto(server + "/")
    open_custom(page)
    page.fill("#name", "Vera")
    page.select_option("#preset", "dvukhkozyrny")
    page.select_option("#players", "3")
    page.click("#create-btn")
    page.wait_for_selector("#hand .card")
    # Each opponent's turned card lies by their name, the card's suit their trump; mine
    # under the talon's label, naming mine.
    badges = page.locator(".opponents .seat-trump").evaluate_all(
        "l => l.map(b => [b.dataset.turned, b.querySelector('.card')?.dataset.card, b.innerText])"
    )
    assert len(badges) == 2
    for turned, card, text in badges:
        assert turned and card == turned and suit_of(turned) in text
    own = page.get_attribute("#own-turned .card", "data-card")
    assert own is not None
    label = page.inner_text("#trump-label")
    assert suit_of(own) in label and i18n.card_text(Card.parse(own), "en") in label
    assert not page.locator("#chat-title").inner_text().startswith("Чат")
    shot(page, "screenshot-web-dvukhkozyrny.png", tmp_path)
    # In Russian: the chat box too, and no Latin anywhere, to the end of the deal
    page.click("#lang")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    assert page.inner_text("#chat-title") == i18n.t("ru", "chat.title")
    no_latin(page, "двухкозырный, the table")
    deadline = time.monotonic() + 120
    moves = 0
    while page.locator("#result").count() == 0:
        assert time.monotonic() < deadline, "the deal did not end in time"
        if page.locator('#status[data-my-turn="1"]').count():
            no_latin(page, f"двухкозырный, my turn {moves}")
        if move(page):
            moves += 1
        else:
            turn_or_end(page)
    no_latin(page, "двухкозырный, the result")
    page.click("#lang")  # back to English: the chat's title follows
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.inner_text("#chat-title") == i18n.t("en", "chat.title")
    # The replay of this deal, by keys, in Russian
    games = api(server, "/api/games?limit=50")["games"]
    game = next(g for g in games if g["names"][0] == "Vera" and "dvukhkozyrny" in g["rules"])
    page.click("#lang")
    page.goto(f"{server}/#/r/{game['id']}")
    page.wait_for_selector('.replay-view[data-step="0"]')
    assert page.inner_text("#replay-result") == i18n.t("ru", "replay.result_hidden")
    assert i18n.t("ru", "replay.keys", home="Home", end="End") == page.inner_text("#replay-keys")
    turned = page.locator(".replay-view .seat-trump").evaluate_all(
        "l => l.map(b => b.dataset.turned)"
    )
    assert len(turned) == 3 and all(turned), turned
    last = len(api(server, f"/api/games/{game['id']}")["frames"]) - 1
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('.replay-view[data-step="1"]')
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('.replay-view[data-step="2"]')
    no_latin(page, "the replay, step 2")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('.replay-view[data-step="1"]')
    page.keyboard.press("End")
    page.wait_for_selector(f'.replay-view[data-step="{last}"]')
    assert page.inner_text("#replay-result") != i18n.t("ru", "replay.result_hidden")
    no_latin(page, "the replay, the last step")
    page.keyboard.press("Home")
    page.wait_for_selector('.replay-view[data-step="0"]')
    assert not errors, errors
    ctx.close()


def my_cheat_made(page: Any) -> bool:
    """On a defence of mine, lay a card that does not beat (the «Cheat» toggle), if my
    hand has one; True if it did."""
    toggle = page.locator("#cheat-toggle")
    if not (page.locator('#status[data-phase="defend"]').count() and toggle.count()):
        return False
    honest = set(page.locator("#hand .card.legal").evaluate_all("l => l.map(e => e.dataset.card)"))
    toggle.click()
    no_latin(page, "cheat mode on")
    cards = page.locator("#hand .card.legal").evaluate_all("l => l.map(e => e.dataset.card)")
    dishonest = [c for c in cards if c not in honest]
    if not dishonest:
        toggle.click()
        return False
    before = state_of(page)
    page.click(f'#hand .card[data-card="{dishonest[0]}"]')
    if page.locator("#hand .card.selected").count():
        page.locator("#table-cards .card.target").first.click()
    page.wait_for_function(
        "s => document.querySelector('.table-view')?.dataset.state !== s", arg=before
    )
    return True


def test_russian_cheating_game_says_each_call_and_its_replay_names_the_cheats(
    waiting_server: str, browser: Any, tmp_path: Path
) -> None:
    """A Russian page against the catcher: I cheat until it calls one; every screen of
    the game is in Russian; the call is said in the log and as a notice; the replay
    names the cheat and the call's outcome in words."""
    server = waiting_server
    ctx, page, errors = new_page(browser, "ru")
    page.goto(server + "/")
    page.wait_for_selector("#play-now")
    open_custom(page)
    page.select_option("#preset", "shulerskiy")
    no_latin(page, "the lobby, шулерский chosen")
    page.goto(server + "/#/howto/shulerskiy")
    page.wait_for_selector("#howto-different")
    no_latin(page, "how to play шулерский")
    # what is different comes first, the basics after it; ~ and ! are on the page
    text = page.inner_text("#howto")
    assert text.index(i18n.t("ru", "howto.variant_title")) < text.index(
        i18n.t("ru", "howto.rest_title")
    )
    assert "~" in text and "!" in text
    page.goto(server + "/")
    open_custom(page)
    assert page.input_value("#preset") == "shulerskiy"  # (remembered)
    page.fill("#name", "Вера")
    page.select_option('.seat-kind[data-seat="1"]', "name:catcher")
    page.fill("#deals", "5")
    page.click("#create-btn")
    page.wait_for_selector("#hand .card")
    caught_line = None
    deadline = time.monotonic() + 240
    while caught_line is None:
        assert time.monotonic() < deadline, "the catcher called none of my cheats"
        if page.locator("#result").count():
            no_latin(page, "the end of a deal")
            if page.locator("#result #again").count():
                raise AssertionError("five deals and no cheat of mine was called")
            page.click("#next-deal")
            page.wait_for_selector("#result", state="detached")
            continue
        if page.locator('#status[data-my-turn="1"]').count():
            no_latin(page, "my turn")
            if not my_cheat_made(page):
                move(page)
        else:
            turn_or_end(page)
        lines = page.locator("#log li").all_inner_texts()
        caught_line = next((x for x in lines if "обман раскрыт" in x), None)
    # the log says what the call found, and so did a notice to the table
    assert i18n.t("ru", "log.call_caught_you", who="", card="").split(":")[1].strip() in (
        caught_line
    )
    page.wait_for_function(
        "w => window.durakToasts.some(([c, t]) => c.includes('call') && t.includes(w))",
        arg="обман раскрыт",
    )
    no_latin(page, "after the call")
    shot(page, "screenshot-web-cheating-call-ru.png", tmp_path)
    table = page.evaluate("() => location.hash").split("/")[2]
    # the deal to its end, then its replay: the cheat and the call named in words
    while not page.locator("#result").count():
        if not move(page):
            turn_or_end(page)
    games = api(server, "/api/games?limit=50")["games"]
    game = next(g for g in games if g["names"][0] == "Вера" and "shulerskiy" in g["rules"])
    frames = api(server, f"/api/games/{game['id']}")["frames"]
    cheat_at = next(k for k, f in enumerate(frames) if f["action"] and f["action"][0] == "~")
    call_at = next(k for k, f in enumerate(frames) if f["action"] and f["action"][0] == "?")
    assert frames[call_at]["caught"] is True
    page.goto(f"{server}/#/r/{game['id']}")
    page.wait_for_selector('.replay-view[data-step="0"]')
    assert i18n.t("ru", "replay.cheats", n="", caught="").split(":")[0] in page.inner_text(
        "#replay-cheats"
    )
    for k in range(1, call_at + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'.replay-view[data-step="{k}"]')
        if k == cheat_at:
            assert "(обман)" in page.inner_text("#replay-step")
            assert page.locator("#replay-step.cheat-step").count() == 1
            no_latin(page, "the replay at a cheat")
    assert "пойман" in page.inner_text("#replay-step")
    no_latin(page, "the replay at a call")
    shot(page, "screenshot-web-replay-cheat-ru.png", tmp_path)
    assert table
    assert not errors, errors
    ctx.close()
