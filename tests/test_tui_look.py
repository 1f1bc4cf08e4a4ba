"""Issue 50 in the terminal, through Textual's pilot: q and Esc leave the start screen;
choosing шулерский makes the cheating bots the opponents; cheat mode says that it is on
and that it went off, and a card that may only be laid as a cheat says how (~); the
beginners' page says what is different first; and in Russian no screen of a cheating
game, a двухкозырный game or a replay shows a Latin rank letter or an English word.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.widgets import Input  # noqa: E402

from durak import Match, Rules, i18n  # noqa: E402
from durak.bots import make  # noqa: E402
from durak.enums import Kind, Phase  # noqa: E402
from durak.replay import replay_text  # noqa: E402
from durak.tui.app import DurakApp  # noqa: E402
from durak.tui.form import Choice  # noqa: E402
from durak.tui.game_screen import GameScreen  # noqa: E402
from durak.tui.howto_screen import HowToScreen  # noqa: E402
from durak.tui.i18n import tr  # noqa: E402
from durak.tui.replay_app import ReplayApp, load  # noqa: E402
from durak.tui.result_screen import ResultScreen  # noqa: E402

from .test_tui_app import (  # noqa: E402
    aim,
    hinted,
    lay_cheat,
    press_move,
    run,
    settings,
    settle,
    start_screen,
    text_of,
)

pytestmark = pytest.mark.timeout(180)

# Latin on a Russian screen is allowed only as the names of keys (as printed on them)
# and the language names of the language line.
KEY_NAMES = {
    "q", "t", "p", "r", "s", "x", "h", "u", "f", "l", "n", "a", "b", "c", "d", "e", "g",
    "i", "j", "k", "m", "o", "v", "w", "y", "z", "Esc", "Enter", "Tab", "Home", "End",
    "PgUp", "PgDn", "pgup", "pgdn", "F1", "f1", "esc", "enter", "tab", "space", "ctrl",
    "English", "ESC", "^q", "^s",
}  # fmt: skip
RANK_LETTER = re.compile(r"(?<![A-Za-z])[JQKA][♠♥♦♣]")


def screen_words(app: Any) -> list[str]:
    """Every word on the terminal's screen, as drawn (from Textual's screenshot)."""
    svg = app.export_screenshot(title="·")  # (the picture's own title bar: not the screen)
    lines: list[str] = [html.unescape(t) for t in re.findall(r">([^<>]*)</text>", svg)]
    return " ".join(lines).replace("\xa0", " ").split()


def no_latin(app: Any, where: str) -> None:
    words = screen_words(app)
    text = " ".join(words)
    assert not RANK_LETTER.search(text), f"{where}: a Latin rank: {text}"
    bad = [
        w
        for w in words
        for part in re.split(r"[/↑↓←→]", w)
        if re.search(r"[A-Za-z]", part) and part.strip("()[],.:;«»!?+·") not in KEY_NAMES
    ]
    assert not bad, f"{where}: Latin on a Russian screen: {bad[:12]}"


def test_q_and_escape_leave_the_start_screen(tmp_path: Path) -> None:
    async def go(key: str) -> None:
        app = DurakApp(settings(Rules(), tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await start_screen(pilot, app)
            # typed into the name, q is a letter of the name
            name = screen.query_one("#name", Input)
            name.focus()
            await pilot.press("q")
            assert name.value == "q" and app.is_running
            screen.query_one("#start").focus()
            await pilot.press(key)
            await pilot.pause()
            assert not app.is_running, key

    run(go("q"))
    run(go("escape"))


def test_the_cheating_game_gets_the_cheating_bots(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path, lang="ru"))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await start_screen(pilot, app)
            players = screen.query_one("#players", Choice)
            players.focus()
            await pilot.press("right")  # 3 players
            preset = screen.query_one("#preset", Choice)
            preset.focus()
            for _ in range(12):
                if preset.value == "shulerskiy":
                    break
                await pilot.press("right")
            assert preset.value == "shulerskiy"
            assert screen.query_one("#opp-1", Choice).value == "cheater"
            assert screen.query_one("#opp-2", Choice).value == "catcher"
            no_latin(app, "the start screen, шулерский")
            await pilot.press("right")  # the next game: level bots again
            assert screen.query_one("#opp-1", Choice).value.startswith("level:")
            await pilot.press("left", "ctrl+s")
            await settle(pilot, app)
            assert app.session is not None and app.session.specs[1:] == ["cheater", "catcher"]

    run(go())


def test_cheat_mode_says_it_is_on_and_off_and_a_cheat_card_names_the_key(
    tmp_path: Path,
) -> None:
    async def go() -> None:
        rules = Rules.preset("shulerskiy")
        # (greedy never calls: nothing said after the cheat but that cheat mode is off)
        app = DurakApp(settings(rules, tmp_path, seed=3, opponents=["greedy"]), skip_setup=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            greedy = make("greedy")
            g = screen.session.game
            done = False
            for _ in range(300):
                if done or g.is_over:
                    break
                obs = g.observation(0)
                honest = {c for a in obs.legal for c in a.cards}
                only_cheat = [
                    a for a in obs.cheats if a.target is not None and a.cards[0] not in honest
                ]
                if obs.phase == Phase.DEFEND and only_cheat:
                    cheat = only_cheat[0]
                    card = cheat.cards[0]
                    i = screen.hand_cards().index(card)
                    await pilot.press("escape", "home", *["right"] * i, "space")
                    # not a card to beat with: it says so, and how to lay it anyway
                    assert getattr(screen.message, "key", None) == "why_cheat_hint"
                    assert "~" in text_of(app, "#message")
                    await pilot.press("tilde")
                    on = tr("en", "cheat_mode_on_status")
                    assert on in text_of(app, "#status")
                    await pilot.press("space")
                    await aim(pilot, screen, cheat)
                    n = len(g.history)
                    await pilot.press("enter")
                    assert g.history[n] is cheat, screen.message
                    # the move made, cheat mode is off again, and the screen says so
                    assert getattr(screen.message, "key", None) == "cheat_mode_off_after"
                    assert on not in text_of(app, "#status")
                    done = True
                else:
                    await press_move(pilot, screen, greedy.choose(obs))
                await settle(pilot, app)
            assert done, "no defence where a card could only be laid as a cheat"

    run(go())


def test_the_catchers_call_is_a_notice_on_the_message_line(tmp_path: Path) -> None:
    async def go() -> None:
        rules = Rules.preset("shulerskiy")
        app = DurakApp(settings(rules, tmp_path, seed=3, opponents=["catcher"]), skip_setup=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            greedy = make("greedy")
            g = screen.session.game
            for _ in range(300):
                if g.is_over or any(a.kind == Kind.CALL for a in g.history):
                    break
                obs = g.observation(0)
                cheat = next((a for a in obs.cheats if a.target is not None), None)
                if obs.phase == Phase.DEFEND and cheat is not None:
                    await pilot.press("escape", "tilde")
                    await lay_cheat(pilot, screen, cheat)
                else:
                    await press_move(pilot, screen, greedy.choose(obs))
                await settle(pilot, app)
            assert any(a.kind == Kind.CALL for a in g.history), "the catcher called nothing"
            # the call and what it found are on the message line, not only in the log
            assert getattr(screen.message, "key", None) == "ev_call_notice"
            said = text_of(app, "#message")
            assert "calls" in said and "Caught" in said, said

    run(go())


def test_the_beginners_page_says_what_is_different_first(tmp_path: Path) -> None:
    for lang in ("en", "ru"):
        titles = [title for title, _ in i18n.howto("beskozyrny", lang)]
        assert titles[1] == i18n.t(lang, "howto.variant_title")
        rest = titles.index(i18n.t(lang, "howto.rest_title"))
        pages = i18n.domain("howto")
        shared = {s["title"] for s in pages["howto.podkidnoy"][lang]["sections"]}
        sections = [s["title"] for s in pages["howto.beskozyrny"][lang]["sections"]]
        own = [title for title in sections if title not in shared]  # no trumps, not throwing in
        assert own and titles[2 : 2 + len(own)] == own and rest == 2 + len(own)
        assert set(sections) - set(own) <= set(titles[rest + 1 :])  # throwing in: after
        page = " ".join(p for _, ps in i18n.howto("shulerskiy", lang) for p in ps)
        assert "~" in page and "!" in page

    async def go() -> None:
        app = DurakApp(settings(Rules.preset("beskozyrny"), tmp_path, lang="ru"))
        async with app.run_test(size=(80, 24)) as pilot:
            await start_screen(pilot, app)
            await pilot.press("f1")
            assert isinstance(app.screen, HowToScreen)
            text = text_of(app, "#howto-text")
            assert text.index(i18n.t("ru", "howto.variant_title")) < text.index(
                i18n.t("ru", "howto.rest_title")
            )
            no_latin(app, "how to play бескозырный")

    run(go())


def cheating_match(seed: int) -> Match:
    """A deal of шулерский between the cheater and the catcher, with a cheat in it."""
    for s in range(seed, seed + 40):
        m = Match(Rules.preset("shulerskiy"), seed=s, deals=1)
        bots = [make("cheater"), make("catcher")]
        g = m.game
        while not g.is_over:
            g.apply(bots[g.to_act or 0].choose(g.observation(g.to_act or 0)))
        if any(a.kind == Kind.CHEAT for a in g.history):
            return m
    raise AssertionError("the cheater never cheated")


def test_russian_screens_of_a_cheating_game_a_two_trump_game_and_a_replay(
    tmp_path: Path,
) -> None:
    async def game(rules: Rules, opponents: list[str], where: str) -> None:
        app = DurakApp(
            settings(rules, tmp_path, seed=4, opponents=opponents, lang="ru", deals=1),
            skip_setup=True,
        )
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            greedy = make("greedy")
            g = screen.session.game
            turns = 0
            while not g.is_over and turns < 200:
                obs = g.observation(0)
                no_latin(app, f"{where}, turn {turns}")
                # the moves offered, with a card marked, are in Russian too
                lay = next((a for a in obs.legal if a.kind in (Kind.ATTACK, Kind.TRANSFER)), None)
                if lay is not None:
                    i = screen.hand_cards().index(lay.cards[0])
                    await pilot.press("escape", "home", *["right"] * i, "space")
                    no_latin(app, f"{where}, turn {turns}, a card marked")
                if obs.cheats:
                    await pilot.press("escape", "tilde")
                    no_latin(app, f"{where}, turn {turns}, cheat mode")
                    await pilot.press("tilde")
                if turns == 1:
                    await hinted(pilot, app)  # the hint names its move in Russian
                    no_latin(app, f"{where}, the hint")
                await press_move(pilot, screen, greedy.choose(obs))
                await settle(pilot, app)
                turns += 1
            await settle(pilot, app)
            assert isinstance(app.screen, ResultScreen)
            no_latin(app, f"{where}, the result")

    run(game(Rules.preset("shulerskiy"), ["cheater"], "шулерский"))
    run(game(Rules.preset("dvukhkozyrny", players=3), ["level:2"], "двухкозырный"))

    m = cheating_match(1)
    text = replay_text(m.record(), "ru")
    assert "(обман:" in text and "(a cheat" in replay_text(m.record(), "en")

    async def replay() -> None:
        deals, names = load(m.record())
        app = ReplayApp(deals, names, "ru")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            seen_cheat = False
            for k in range(len(deals[0].history)):
                no_latin(app, f"the replay, step {k}")
                if "(обман:" in " ".join(screen_words(app)):
                    seen_cheat = True
                await pilot.press("right")
            assert seen_cheat, "the replay's log named no cheat"

    run(replay())
