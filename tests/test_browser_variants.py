"""Issue 36 in the browser: a бескозырный, a «пики пиками» and a двухкозырный deal played
to the end through «Play now» (the preset remembered as the how-to page's «play this»
does), with the trump shown as the rules have it, and the replay of the first."""

from __future__ import annotations

from typing import Any

import pytest

from durak import i18n

from .browser import browser, new_page, play_to_the_end, server

__all__ = ["browser", "server"]  # (pytest fixtures)


@pytest.mark.parametrize("preset", ["beskozyrny", "piki-pikami", "dvukhkozyrny"])
def test_a_new_preset_plays_to_the_end_in_the_browser(
    server: str, browser: Any, preset: str
) -> None:
    ctx, page, errors = new_page(browser)
    page.goto(server + "/")
    page.evaluate(f"() => localStorage.setItem('durak.preset', {preset!r})")
    page.goto(server + "/")
    page.wait_for_selector("#play-now")
    page.click("#play-now")
    page.wait_for_selector("#hand .card")
    label = page.inner_text("#trump-label")
    if preset == "beskozyrny":
        # no card turned under the talon, «no trumps» said, no card marked a trump
        assert i18n.t("en", "term.no_trump") in label, label
        assert page.locator(".talon .card.trump").count() == 0
        assert page.locator("#hand .trump-card").count() == 0
    elif preset == "dvukhkozyrny":
        # my own trump in the label, the bot's by its seat; my trumps starred
        # («Your trump: ♥ (your turned card J♥)»: the suit, then my turned card)
        mine = label.split(":")[1].strip()[0]
        assert mine in "♠♥♦♣", label
        assert page.get_attribute("#own-turned .card", "data-card")[-1] == mine
        assert page.locator(".seat .seat-trump").count() == 1
        for el in page.locator("#hand .trump-card").all():
            assert mine in el.inner_text()
    else:
        assert "♦" in label, label  # diamonds, whatever card is turned
        for el in page.locator("#hand .trump-card").all():
            assert "♦" in el.inner_text()
    play_to_the_end(page, seconds=150)
    page.wait_for_selector("#result #to-lobby")
    assert not errors, errors
    if preset in ("beskozyrny", "dvukhkozyrny"):
        page.click("#to-lobby")
        page.wait_for_selector("#games .row a")
        page.locator("#games .row a").first.click()
        page.wait_for_selector("#replay-step")
        assert page.locator("#replay-talon .card.trump").count() == 0
        if preset == "dvukhkozyrny":  # each seat's own trump by its name
            assert page.locator(".replay-view .seat-trump").count() == 2
        for _ in range(4):
            page.click("#replay-next")
        assert not errors, errors
    ctx.close()
