"""Issue 36 in the browser: шулерский. A person sets up the cheating game in the lobby's
form against the catcher, cheats with the «Cheat» toggle, and is caught; then a person
plays the cheater and catches its false beat with the «Cheat!» button on the table."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from durak import Card, i18n
from durak.cards import beats_mask

from .browser import (
    DOCS,
    REMAKE_SHOTS,
    browser,
    move,
    new_page,
    open_custom,
    server,
    state_of,
    turn_or_end,
)

__all__ = ["browser", "server"]  # (pytest fixtures)

SUIT = {"♠": 0, "♥": 1, "♦": 2, "♣": 3}


def new_table(page: Any, server: str, bot: str, deals: int = 1) -> None:
    """The lobby's custom form: preset шулерский, the second seat the named bot."""
    page.goto(server + "/")
    open_custom(page)
    page.fill("#name", "Vera")
    page.select_option("#preset", "shulerskiy")
    page.select_option('.seat-kind[data-seat="1"]', f"name:{bot}")
    page.fill("#deals", str(deals))
    page.click("#create-btn")
    page.wait_for_selector("#hand .card")


def wait_turn_or_end(page: Any, seconds: float = 30) -> bool:
    """True when it is this page's turn (the next deal's too), False when the match is over."""
    over: bool = (
        page.wait_for_function(
            """() => document.querySelector('#result #again') ? 'over'
            : document.querySelector('#status[data-my-turn="1"]')
              && !document.querySelector('#result') ? 'mine' : null""",
            timeout=seconds * 1000,
        ).json_value()
        == "over"
    )
    return not over


def click_and_wait(page: Any, selector: str) -> None:
    before = state_of(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        "s => document.querySelector('.table-view')?.dataset.state !== s", arg=before
    )


def legal_cards(page: Any) -> list[str]:
    """The cards of my hand the page offers to play now."""
    cards: list[str] = page.locator("#hand .card.legal").evaluate_all(
        "l => l.map(e => e.dataset.card)"
    )
    return cards


def log_text(page: Any) -> str:
    text: str = page.inner_text("#log")
    return text


def test_a_person_cheats_and_the_catcher_catches_it(server: str, browser: Any) -> None:
    ctx, page, errors = new_page(browser, height=860)
    new_table(page, server, "catcher")
    cheated = False
    while not cheated and wait_turn_or_end(page):
        toggle = page.locator("#cheat-toggle")
        if page.locator('#status[data-phase="defend"]').count() and toggle.count():
            honest = set(legal_cards(page))
            toggle.click()
            assert page.get_attribute("#cheat-toggle", "aria-pressed") == "true"
            cards = legal_cards(page)
            dishonest = [c for c in cards if c not in honest]
            assert set(cards) >= honest
            if not dishonest:  # every card of the hand beats: nothing to cheat with
                toggle.click()
                move(page)
                continue
            before = state_of(page)
            page.click(f'#hand .card[data-card="{dishonest[0]}"]')
            if page.locator("#hand .card.selected").count():
                page.locator("#table-cards .card.target").first.click()
            page.wait_for_function(
                "s => document.querySelector('.table-view')?.dataset.state !== s", arg=before
            )
            cheated = True
        else:
            move(page)
    assert cheated, "a defence came before the deal ended"
    # the catcher calls it at its next turn: the log says so, and I took the table
    page.wait_for_function(
        "w => document.querySelector('#log').innerText.includes(w)",
        arg=i18n.t("en", "log.you.cheat", card="").strip(),
    )
    deadline = time.monotonic() + 30
    while "calls" not in log_text(page):  # (more cards of mine to beat first, maybe)
        assert time.monotonic() < deadline, "the catcher did not call"
        if not move(page):
            turn_or_end(page)
    assert "a cheat" in log_text(page)
    # what the call found is said, and to me: it was my cheat (issue 50)
    assert i18n.t("en", "log.call_caught_you", who="", card="").split(":")[1].strip() in (
        log_text(page)
    )
    if REMAKE_SHOTS or not (DOCS / "screenshot-web-cheating.png").exists():
        page.screenshot(path=str(DOCS / "screenshot-web-cheating.png"))
    assert not errors, errors
    ctx.close()


def _false_beat_on_table(page: Any, trump: int) -> str | None:
    """A covering card on the table that does not beat the card under it, seen as a
    person sees it: the two cards face up and the trump suit."""
    pairs = page.locator("#table-cards .pair").evaluate_all(
        "l => l.map(p => [...p.querySelectorAll('.card')].map(e => e.dataset.card))"
    )
    for pair in pairs:
        if len(pair) == 2:
            a, b = Card.parse(pair[0]), Card.parse(pair[1])
            if not beats_mask(a.index, trump) >> b.index & 1:
                return pair[1]
    return None


def test_a_person_catches_the_cheater(server: str, browser: Any, tmp_path: Path) -> None:
    ctx, page, errors = new_page(browser, "ru", height=860)
    page.goto(server + "/")
    page.evaluate("() => localStorage.setItem('durak.lang', 'ru')")
    new_table(page, server, "cheater", deals=5)
    caught = False
    while not caught:
        assert wait_turn_or_end(page), "the cheater made no false beat in five deals"
        label = page.inner_text("#trump-label")
        trump = next(SUIT[s] for s in label if s in SUIT)
        card = _false_beat_on_table(page, trump)
        if card is not None:
            button = f'.call[data-action="?{card}"]'
            assert page.locator(button).count() == 1
            assert i18n.t("ru", "table.call") in page.inner_text(button)
            click_and_wait(page, button)
            caught = True
        else:
            move(page)
    # the cheater took the table; the log names my call
    page.wait_for_function(
        "w => document.querySelector('#log').innerText.includes(w)",
        arg=i18n.t("ru", "log.you.call", card="").split(":")[0],
    )
    # and what it found: the cheater's card broke the rule (issue 50)
    caught = i18n.t("ru", "log.you.call_caught", card="").split("—")[1].strip()
    page.wait_for_function("w => document.querySelector('#log').innerText.includes(w)", arg=caught)
    page.screenshot(path=str(tmp_path / "catch.png"))
    if REMAKE_SHOTS or not (DOCS / "screenshot-web-cheating-ru.png").exists():
        page.screenshot(path=str(DOCS / "screenshot-web-cheating-ru.png"))
    assert not errors, errors
    ctx.close()
