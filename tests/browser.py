"""What the browser tests share: a server on a free port, Debian's Chromium driven by
Playwright, clicking a move as a person would, and reading a page's visible words.

Without /usr/bin/chromium the browser tests FAIL: ``make test`` installs it
(scripts/ensure-browser.sh). Only ``DURAK_NO_BROWSER=1``, an explicit opt-out, skips them.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from .waiting import DEADLINE, until

CHROMIUM = Path("/usr/bin/chromium")
OPTED_OUT = os.environ.get("DURAK_NO_BROWSER") == "1"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DOCS = Path(__file__).resolve().parent.parent / "docs"
# Screenshots in docs/ are remade only when asked (or missing), so that running the
# tests leaves the tree as it was: DURAK_SCREENSHOT=1 pytest tests/test_browser*.py
REMAKE_SHOTS = os.environ.get("DURAK_SCREENSHOT") == "1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def need_browser() -> None:
    if OPTED_OUT:
        pytest.skip("DURAK_NO_BROWSER=1: browser tests skipped on request")
    assert CHROMIUM.exists(), (
        "Debian's Chromium is missing at /usr/bin/chromium: run scripts/ensure-browser.sh "
        "(make test does), or set DURAK_NO_BROWSER=1 to skip the browser tests on purpose"
    )


def serving(tmp_path_factory: pytest.TempPathFactory, name: str, **options: Any) -> Iterator[str]:
    """A web server on a free port, its SQLite database ``name`` in a new folder, its
    timings ``options`` (:class:`durak.server.settings.Timings`): yields its address,
    then stops it."""
    need_browser()
    import uvicorn

    from durak.server import create_app
    from durak.server.settings import Timings

    db = tmp_path_factory.mktemp("web") / name
    port = free_port()
    app = create_app(f"sqlite:///{db}", timings=Timings(**options))
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    until(lambda: srv.started, "the server to start")
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose bots move at once and whose deals follow each other at once."""
    yield from serving(tmp_path_factory, "browser.db", bot_pace=0, deal_pause=0)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def open_custom(page: Any) -> None:
    """Open the lobby's "Custom table" (the full form, folded under "Play now")."""
    page.wait_for_selector("#custom-table summary")
    if page.get_attribute("#custom-table", "open") is None:
        page.click("#custom-table summary")
    page.wait_for_selector("#create-btn")


def state_of(page: Any) -> str | None:
    value: str | None = page.evaluate(
        "() => document.querySelector('.table-view')?.dataset.state ?? null"
    )
    return value


def move(page: Any) -> bool:
    """If it is this page's turn, make one move by clicking, as a person would:
    a highlighted card (then a target or an option if the card asks), else pass or take."""
    if page.locator('#status[data-my-turn="1"]').count() == 0:
        return False
    before = state_of(page)
    legal = page.locator("#hand .card.legal")
    if legal.count():
        page.mouse.move(0, 0)  # a card lifted by the hover of the last click settles first
        legal.first.click()
        if page.locator("#hand .card.selected").count():
            targets = page.locator("#table-cards .card.target")
            if targets.count():
                targets.first.click()
            else:
                page.locator("#actions .act.option").first.click()
    else:
        page.locator('#actions [data-action="pass"], #actions [data-action="take"]').first.click()
    page.wait_for_function(
        "s => document.querySelector('.table-view')?.dataset.state !== s",
        arg=before,
        timeout=10_000,
    )
    return True


def turn_or_end(page: Any, seconds: float = 30) -> None:
    """Wait until it is this page's turn or the deal's result shows (a condition the
    page is watched for, not a time)."""
    page.wait_for_selector(
        '#status[data-my-turn="1"], #result', state="attached", timeout=seconds * 1000
    )


def new_page(
    browser: Any, lang: str = "en", width: int = 1100, height: int = 820
) -> tuple[Any, Any, list[str]]:
    """A new context at ``width`` x ``height`` in ``lang``'s locale and its page: (context,
    page, the page's uncaught errors, collected as they come)."""
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, locale="ru-RU" if lang == "ru" else "en-US"
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def picture(page: Any, path: Path, full: bool = False) -> None:
    """A screenshot of ``page`` with its animations run to their end (not waited for)."""
    page.screenshot(path=str(path), full_page=full, animations="disabled")


def play_to_the_end(page: Any, seconds: float = 90) -> int:
    """Click moves until the deal's result shows; the number of moves made."""
    moves = 0
    deadline = time.monotonic() + seconds
    while page.locator("#result").count() == 0:
        assert time.monotonic() < deadline, "the deal did not end in time"
        if move(page):
            moves += 1
        else:
            turn_or_end(page)
    return moves


def play_all(pages: Sequence[Any], each: Callable[[], object] | None = None) -> int:
    """People at one table click their moves until every page shows the deal's result
    (``each()`` called between two rounds of them); the number of moves made. Whose turn
    comes next is not known here, so the pages are looked at again and again (:func:`until`)
    until they all show the result."""
    moves = 0

    def ended() -> bool:
        nonlocal moves
        for page in pages:
            if page.locator("#result").count() == 0 and move(page):
                moves += 1
        if each is not None:
            each()
        return all(p.locator("#result").count() for p in pages)

    until(ended, "the deal to end", seconds=4 * DEADLINE)
    return moves


# Every word a person can see or hear read out on the page, except what is marked as
# not in the page's language: names people typed (translate="no") and the button that
# switches language (lang="en" on a Russian page).
VISIBLE_WORDS = """(lang) => {
  const foreign = (el) => el.closest('[translate="no"]') ||
    [...document.querySelectorAll('[lang]')].some((x) => x !== document.documentElement &&
      x.getAttribute('lang') !== lang && x.contains(el));
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode;
    const el = n.parentElement;
    const text = n.textContent.trim();
    if (!text || !el || el.closest('script, style') || foreign(el)) continue;
    const shown = el.tagName === 'OPTION' || el.closest('option') ||
      (el.checkVisibility ? el.checkVisibility() : true);
    if (shown) out.push(text);
  }
  for (const el of document.querySelectorAll('[placeholder], [title], [aria-label]')) {
    if (foreign(el)) continue;
    for (const a of ['placeholder', 'title', 'aria-label']) {
      const v = el.getAttribute(a);
      if (v) out.push(v);
    }
  }
  return out;
}"""


def foreign_words(page: Any, lang: str) -> list[str]:
    """Texts on the page written in the other script: Latin words on a Russian page
    (raw option names, English words, engine strings), Cyrillic on an English one."""
    import re

    pattern = re.compile(r"[A-Za-z]" if lang == "ru" else r"[А-Яа-яЁё]")
    texts: list[str] = page.evaluate(VISIBLE_WORDS, lang)
    return [s for s in texts if pattern.search(s)]
