"""The web table in Russian and in English, read as a person sees it.

A Russian page must show no Latin letter anywhere a person can see it (raw option names
such as ``hand_size``, engine strings such as ``podkidnoy()``, English words), and an
English page no Cyrillic, except names people typed and the button that switches
language. The scan covers the lobby with every rule, the form's errors, the sign-in box,
a rated game from the first move to the result, the leave dialog, the leaderboard, the
personal history, a replay and every "How to play" page. The rated game must change
both the person's and the bot's rating. These tests FAIL without /usr/bin/chromium.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

import pytest

from durak import i18n
from durak.rules import PRESETS

from .browser import (
    DOCS,
    REMAKE_SHOTS,
    browser,
    foreign_words,
    move,
    open_custom,
    play_to_the_end,
    server,
    turn_or_end,
)

__all__ = ["browser", "server"]  # fixtures

pytestmark = pytest.mark.timeout(240)


def new_page(browser: Any, lang: str, phone: bool = False) -> tuple[Any, Any, list[str]]:
    if phone:
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
            locale="ru-RU" if lang == "ru" else "en-US",
        )
    else:
        ctx = browser.new_context(
            viewport={"width": 1200, "height": 900}, locale="ru-RU" if lang == "ru" else "en-US"
        )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return ctx, page, errors


def assert_in_language(page: Any, lang: str, where: str) -> None:
    bad = foreign_words(page, lang)
    assert not bad, f"{where}: words not in {lang}: {bad[:12]}"


def start_against_a_bot(
    browser: Any, server: str, name: str, phone: bool = False, timer: int = 0
) -> tuple[Any, Any, list[str]]:
    """A Russian page at a new table against a level-1 bot, waiting for its turn."""
    ctx, page, errors = new_page(browser, "ru", phone=phone)
    page.goto(server + "/")
    open_custom(page)
    page.fill("#name", name)
    page.select_option('.seat-kind[data-seat="1"]', "bot:1")
    page.fill("#timer", str(timer))
    page.click("#create-btn")
    page.wait_for_selector('#status[data-my-turn="1"]')
    return ctx, page, errors


def open_lobby(page: Any, server: str) -> None:
    page.goto(server + "/")
    open_custom(page)
    page.click("#more-rules summary")
    page.wait_for_selector('[data-opt="hand_size"]')


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_lobby_and_form_errors_in_one_language(server: str, browser: Any, lang: str) -> None:
    ctx, page, errors = new_page(browser, lang)
    open_lobby(page, server)
    assert page.evaluate("() => document.documentElement.lang") == lang
    # Every option of the rules is named in words, with its help.
    labels = page.locator("#more-rules .field label").all_inner_texts()
    assert len(labels) >= 15
    assert i18n.option_label("pile_on", lang) in " ".join(labels)
    assert_in_language(page, lang, "lobby")

    # Errors show next to their field as the player types, before anything is sent.
    page.fill("#name", "")
    page.select_option("#players", "3")
    page.select_option("#teams", "2x2")
    teams_error = page.locator('.field[data-field="teams"] .field-error')
    assert teams_error.inner_text() == i18n.t(lang, "form.teams_players", teams="2×2", n=4)
    page.fill('[data-opt="hand_size"]', "13")
    hand_error = page.locator('.field[data-field="hand_size"] .field-error')
    assert hand_error.inner_text() == i18n.t(lang, "form.hand_too_big", players=3, hand=13, deck=36)
    page.fill("#deals", "0")
    assert page.locator("#err-deals").inner_text() == i18n.t(
        lang, "form.whole_number", lo=1, hi=100
    )
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if r.method == "POST" else None)
    page.click("#create-btn")
    assert page.locator("#err-name").inner_text() == i18n.t(lang, "form.need_name")
    assert page.inner_text("#create-error") == i18n.t(lang, "form.error_title")
    assert not requests, "the form went to the server with errors in it"
    assert page.evaluate("() => location.hash") in ("", "#/")
    assert_in_language(page, lang, "lobby with errors")
    # Put right, the errors go.
    page.select_option("#teams", "none")
    page.fill('[data-opt="hand_size"]', "")
    page.fill("#deals", "1")
    page.fill("#name", "Глеб" if lang == "ru" else "Gleb")
    assert page.locator(".field.invalid").count() == 0
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_how_to_play_for_every_variant(server: str, browser: Any, lang: str) -> None:
    ctx, page, errors = new_page(browser, lang)
    page.goto(server + "/")
    page.click("#howto-link")
    page.wait_for_selector("#howto-nav")
    assert_in_language(page, lang, "how to play")
    for preset in PRESETS:
        page.click(f'#howto-nav a[href="#/howto/{preset}"]')
        page.wait_for_selector(f'#howto-nav a[aria-current="page"][href="#/howto/{preset}"]')
        text = page.inner_text("#howto")
        for title, paragraphs in i18n.howto(preset, lang):
            assert title in text and paragraphs[0] in text
        assert_in_language(page, lang, f"how to play {preset}")
    # "Play this variant" goes back to the lobby with it chosen.
    page.click("#howto-play")
    open_custom(page)
    assert page.input_value("#preset") == list(PRESETS)[-1]  # the last page visited
    assert not errors, errors
    ctx.close()


def test_russian_rated_game_changes_both_ratings(server: str, browser: Any) -> None:
    ctx, page, errors = new_page(browser, "ru")
    name = "Вера" + secrets.token_hex(2).translate(
        str.maketrans("0123456789abcdef", "абвгдежзиклмнопр")
    )
    page.goto(server + "/")
    page.wait_for_selector("#login")
    assert_in_language(page, "ru", "sign-in box")
    # A short password is refused next to the field, in Russian, before sending.
    page.fill("#acct-name", name)
    page.fill("#acct-pass", "123")
    page.click("#register-btn")
    assert page.inner_text("#err-acct-pass") == i18n.t("ru", "people.err.short_password")
    page.fill("#acct-pass", "пароль-надёжный")
    page.click("#register-btn")
    page.wait_for_selector("#login", state="detached")
    open_custom(page)
    assert page.input_value("#name") == name

    # A rated game against a bot: podkidnoy, 24 cards, hands of 4, so that it is short.
    page.select_option("#deck", "24")
    page.click("#more-rules summary")
    page.fill('[data-opt="hand_size"]', "4")
    page.select_option('.seat-kind[data-seat="1"]', "bot:1")
    page.click("#create-btn")
    page.wait_for_selector("#hand .card")
    assert page.inner_text("#rules-name") == "Подкидной, 2 игрока, 24 карты, Карт на руках: 4"
    for _ in range(3):
        while not move(page):
            turn_or_end(page)
    assert page.locator("#log li").count() >= 3
    assert_in_language(page, "ru", "table")
    # Trumps sit together at the right end of the hand, and are marked.
    trump = page.evaluate("() => document.querySelector('.talon .card.trump')?.dataset.card || ''")
    suits = [
        c[-1]
        for c in page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    ]
    marks = page.locator("#hand .card.trump-card .trump-mark").count()
    if trump:
        k = sum(1 for s in suits if s == trump[-1])
        assert suits[len(suits) - k :] == [trump[-1]] * k and marks == k

    # Leave asks first; "Остаться" keeps the seat.
    page.click("#leave")
    page.wait_for_selector("dialog#confirm[open]")
    assert_in_language(page, "ru", "leave dialog")
    page.click("#confirm-no")
    page.wait_for_selector("dialog#confirm", state="detached")
    assert page.locator("#hand").count() == 1

    play_to_the_end(page)
    page.wait_for_selector("#again")
    assert_in_language(page, "ru", "result")
    log = page.inner_text("#log")
    assert "You" not in log and "takes" not in log
    # The log wraps inside its box; nothing runs off the right edge of the page.
    assert page.evaluate(
        "() => { const l = document.querySelector('#log');"
        " return l.scrollWidth <= l.clientWidth + 1; }"
    )
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")

    # The leaderboard: the person and the bot both moved off the starting 1000.
    page.goto(server + "/#/top")
    page.wait_for_selector("#leaderboard table")
    me = page.locator("#leaderboard tr", has_text=name)
    bot = page.locator('#leaderboard tr[data-kind="bot"]', has_text="Бот, уровень 1")
    mine, bots = int(me.locator(".rating").inner_text()), int(bot.locator(".rating").inner_text())
    assert mine != 1000 and bots != 1000
    assert (mine > 1000) != (bots > 1000) or mine == bots  # one won, the other lost
    assert_in_language(page, "ru", "leaderboard")

    # The personal history: the deal, its rating change and its replay.
    page.goto(server + "/#/me")
    page.wait_for_selector("#history tbody tr")
    change = page.inner_text("#history tbody tr .change")
    assert re.fullmatch(r"[+-]?\d+", change), change
    assert f"Рейтинг {mine}" in page.inner_text("#my-rating")
    assert_in_language(page, "ru", "history")
    page.click("#history tbody tr a")
    page.wait_for_selector("#replay-step")
    assert page.inner_text("#replay-result") == i18n.t("ru", "replay.result_hidden")
    page.click("#replay-last")
    result = page.inner_text("#replay-result")
    assert result.startswith("Дурак: ") or result == "Ничья!", result
    page.click("#replay-first")
    page.click("#replay-next")
    page.wait_for_function("() => document.querySelector('.replay-view')?.dataset.step === '1'")
    assert_in_language(page, "ru", "replay")
    # The other language: wait for the redraw, then read it.
    page.click("#lang")
    page.wait_for_function("() => document.querySelector('.replay-view')?.dataset.lang === 'en'")
    assert page.inner_text("#replay-step").startswith("Move 1 of ")
    assert_in_language(page, "en", "replay in English")
    assert not errors, errors
    ctx.close()


def test_turn_timer_counts_down_and_marks_the_bots_move(server: str, browser: Any) -> None:
    """With a 2-second timer and a player who does not move, a bot moves for them and
    the log says so; the clock shows seconds."""
    ctx, page, errors = start_against_a_bot(browser, server, "Соня", phone=True, timer=2)
    assert re.fullmatch(r"[12] с", page.inner_text("#timer-secs"))
    page.wait_for_selector('#log li[data-by="timer"]', timeout=10_000, state="attached")
    text = page.locator('#log li[data-by="timer"]').first.text_content()
    assert text.startswith("Ваше время вышло, за вас сходил бот — "), text
    assert_in_language(page, "ru", "timer")
    # The phone's header stays one row.
    header = page.locator("header.top").bounding_box()
    assert header["height"] < 60, header
    if REMAKE_SHOTS or not (DOCS / "screenshot-web-lobby.png").exists():
        ctx2, lobby, _ = new_page(browser, "ru")
        open_lobby(lobby, server)
        lobby.screenshot(path=str(DOCS / "screenshot-web-lobby.png"), full_page=True)
        ctx2.close()
    assert not errors, errors
    ctx.close()


def test_hint_undo_chat_and_sound_against_bots(server: str, browser: Any) -> None:
    ctx, page, errors = start_against_a_bot(browser, server, "Лиза")
    # Sound on your turn is off until switched on.
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    # A hint names a move in words and marks its cards.
    page.click("#hint-btn")
    page.wait_for_selector("#hint-text")
    assert page.inner_text("#hint-text").startswith("Подсказка: ")
    assert_in_language(page, "ru", "hint")
    # Move, wait for the bot, then take the move back.
    before = sorted(page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))
    log_before = page.locator("#log li").count()
    beeps = page.evaluate("() => window.durakBeeps || 0")
    move(page)
    page.wait_for_selector('#status[data-my-turn="1"]')
    # My turn came again: with the sound on, it beeped.
    assert page.evaluate("() => window.durakBeeps || 0") > beeps
    page.click("#undo-btn")
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length === {log_before}")
    after = sorted(page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert after == before
    # Chat: what is typed survives the table being redrawn; sent, it shows; muted, it hides.
    page.fill("#chat-input", "Привет, бот")
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat-list .chat-line")
    assert "Привет, бот" in page.inner_text("#chat-list")
    page.check("#chat-mute")
    assert page.locator("#chat-list .chat-line").count() == 0
    assert_in_language(page, "ru", "chat")
    assert not errors, errors
    ctx.close()


def test_my_moves_so_far_reviewed_during_a_deal_in_russian(
    server: str, browser: Any, tmp_path: Path
) -> None:
    # Issue 47: during a deal against bots, "Разбор моих ходов" shows the review of the
    # person's own decisions so far (the server judges no other seat's), each with its
    # tag, in Russian only; it closes again.
    ctx, page, errors = start_against_a_bot(browser, server, "Тая")
    moved, tags = 0, []
    # (a move with one legal action is not judged: ask again after more moves if need be)
    while not tags and moved < 12:
        if page.locator("#result").count():
            pytest.fail("the deal ended before a move of ours with a choice")
        if not move(page):
            turn_or_end(page)
            continue
        moved += 1
        turn_or_end(page)
        if page.locator("#result").count() or moved < 2:
            continue
        page.click("#review-mine-btn")
        page.wait_for_selector("#my-review", timeout=60_000)
        text = page.inner_text("#my-review")
        assert text.startswith("Ваши ходы в этой сдаче"), text
        tags = page.locator("#my-review li").evaluate_all("els => els.map(e => e.dataset.tag)")
        if not tags:
            assert "Пока ни одного вашего хода с выбором." in text
            page.click("#my-review-close")
    assert 1 <= len(tags) <= moved
    assert set(tags) <= {"best", "good", "inaccuracy", "mistake", "blunder"}
    assert_in_language(page, "ru", "my review")
    shot = DOCS / "screenshot-web-my-review-ru.png"
    keep = REMAKE_SHOTS or not shot.exists()
    page.screenshot(path=str(shot if keep else tmp_path / shot.name), full_page=True)
    page.click("#my-review-close")
    page.wait_for_selector("#my-review", state="detached")
    assert not errors, errors
    ctx.close()
