"""The terminal game driven through Textual's pilot: whole games played by key presses
(and some clicks), with the screen checked against the game's state."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot  # noqa: E402
from textual.widgets import Select, Static  # noqa: E402

from durak import Action, Game, Rules  # noqa: E402
from durak.bots import make  # noqa: E402
from durak.match import Match  # noqa: E402
from durak.observation import Observation  # noqa: E402
from durak.tui.app import DurakApp  # noqa: E402
from durak.tui.game_screen import GameScreen  # noqa: E402
from durak.tui.i18n import card_text  # noqa: E402
from durak.tui.replay_app import ReplayApp, load  # noqa: E402
from durak.tui.result_screen import ResultScreen  # noqa: E402
from durak.tui.session import Settings  # noqa: E402
from durak.tui.setup_screen import SetupScreen  # noqa: E402

pytestmark = pytest.mark.timeout(120)

Policy = Callable[[Observation], Action]


def text_of(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def greedy_but(prefer: tuple[str, ...] = (), take_every: int = 0) -> Policy:
    """The greedy bot, except: kinds in ``prefer`` first; when defending in every
    ``take_every``-th bout take; after a take add what can be added (pile-on)."""
    greedy = make("greedy")

    def choose(obs: Observation) -> Action:
        for kind in prefer:
            for a in obs.legal:
                if a.kind == kind:
                    return a
        if obs.phase == "pile_on":
            adds = [a for a in obs.legal if a.kind == "attack"]
            if adds:
                return adds[0]
        if take_every and obs.phase == "defend" and obs.bout % take_every == 1:
            return next(a for a in obs.legal if a.kind == "take")
        return greedy.choose(obs)

    return choose


async def settle(pilot: Pilot[Any], app: DurakApp) -> None:
    """Wait until the person is to act, the deal is over, or a result is shown."""
    for _ in range(3000):
        screen = app.screen
        if isinstance(screen, ResultScreen) or not isinstance(screen, GameScreen):
            return
        g = screen.session.game
        if g.is_over or (g.to_act == 0 and not screen._pending and not screen._thinking):
            await pilot.pause()
            return
        await pilot.pause()
    raise AssertionError("the bots did not move")


async def press_move(pilot: Pilot[Any], screen: GameScreen, action: Action) -> None:
    """Play ``action`` with keys only, as a person would."""
    await pilot.press("escape")
    if action.kind in ("attack", "defend", "transfer"):
        for card in action.cards:
            i = screen.hand_cards().index(card)
            if i < 10:
                await pilot.press("1234567890"[i])
            else:
                await pilot.press("home", *["right"] * i, "space")
        if action.kind == "defend":
            for _ in range(8):
                if screen.picker.target == action.target:
                    break
                await pilot.press("down")
        await pilot.press("r" if action.kind == "transfer" else "enter")
    else:
        await pilot.press({"take": "t", "pass": "p", "show": "s", "exchange": "x"}[action.kind])


def check_screen(app: DurakApp) -> None:
    """What the widgets show is what the game's state says."""
    s = app.session
    assert s is not None
    g = s.game
    obs = g.observation(0)
    lang = s.lang
    side = text_of(app, "#side")
    assert card_text(g.trump, lang) in side or "♠♥♦♣"[g.trump_suit] in side
    if g.talon_size:
        assert str(g.talon_size) in side
    assert f"{len(g.discard)}" in side
    for seat in range(1, g.rules.players):
        panel = text_of(app, f"#seat-{seat}")
        assert s.names[seat] in panel
        assert f" {len(g.hand(seat))}" in panel
        for c in obs.known[seat]:
            assert card_text(c, lang) in panel
    table = text_of(app, "#table")
    for a, b in g.table:
        assert card_text(a, lang) in table
        if b is not None:
            assert card_text(b, lang) in table
    hand = text_of(app, "#hand")
    for c in g.hand(0):
        assert card_text(c, lang) in hand


async def play_deal(pilot: Pilot[Any], app: DurakApp, policy: Policy) -> list[Action]:
    """Play the deal in play to its end by keys; returns the person's actions."""
    mine: list[Action] = []
    await settle(pilot, app)
    for _ in range(400):
        screen = app.screen
        if not isinstance(screen, GameScreen) or screen.session.game.is_over:
            break
        check_screen(app)
        g = screen.session.game
        action = policy(g.observation(0))
        n = len(g.history)
        await press_move(pilot, screen, action)
        assert g.history[n] is action, (action, screen.message)
        mine.append(action)
        await settle(pilot, app)
    assert app.session is not None and app.session.game.is_over
    return mine


def settings(rules: Rules, tmp_path: Path, **kw: Any) -> Settings:
    base: dict[str, Any] = {"opponents": ["greedy"], "seed": 1, "delay": 0.0, "lang": "en",
                            "save": tmp_path / "match.txt"}
    base.update(kw)
    return Settings(rules=rules, **base)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_podkidnoy_by_keys_to_the_end_of_a_match(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path, seed=3), skip_setup=True)
        async with app.run_test(size=(80, 24)) as pilot:
            mine = await play_deal(pilot, app, greedy_but(take_every=4))
            assert mine and any(a.kind == "take" for a in mine)
            await settle(pilot, app)
            assert isinstance(app.screen, ResultScreen)
            result = text_of(app, "#result")
            g = app.session.game  # type: ignore[union-attr]
            assert "The match is over" in result
            assert ("durak" in result) or ("draw" in result.lower())
            assert str(g.outcome) != "*"
            await pilot.press("enter")  # a new match: back to the start screen
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            assert app.settings.save == tmp_path / "match-2.txt"  # the next match's file
        text = (tmp_path / "match.txt").read_text(encoding="utf-8")
        m = Match.from_record(text)
        assert str(m.games[0].outcome) == str(g.outcome)

    run(go())


def test_perevodnoy_transfer_and_take_with_pile_on(tmp_path: Path) -> None:
    async def go() -> None:
        rules = Rules.preset("perevodnoy", players=3)
        app = DurakApp(settings(rules, tmp_path, seed=8, opponents=["greedy", "random"]),
                       skip_setup=True)
        async with app.run_test(size=(80, 24)) as pilot:
            mine = await play_deal(pilot, app, greedy_but(prefer=("transfer",), take_every=2))
            kinds = {a.kind for a in mine}
            assert "transfer" in kinds and "take" in kinds
            g = app.session.game  # type: ignore[union-attr]
            # a take followed by cards added for the taker (pile-on)
            replay = g.fresh()
            piled = False
            for a in g.history:
                if replay.phase == "pile_on" and a.kind == "attack":
                    piled = True
                replay.apply(a)
            assert piled

    run(go())


def test_team_game_with_showing_the_trump(tmp_path: Path) -> None:
    async def go() -> None:
        rules = Rules.preset("perevodnoy-proezdnoy", players=4, teams="2x2")
        app = DurakApp(settings(rules, tmp_path, seed=9, opponents=["greedy"] * 3),
                       skip_setup=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            assert "partner" in text_of(app, "#seat-2")
            assert "partner" not in text_of(app, "#seat-1")
            mine = await play_deal(pilot, app, greedy_but(prefer=("show", "transfer")))
            assert {"show", "transfer"} <= {a.kind for a in mine}
            o = app.session.game.outcome  # type: ignore[union-attr]
            assert o is not None
            assert o.losing_team is None if o.draw else o.losing_team == (o.durak or 0) % 2
            await settle(pilot, app)
            assert "team" in text_of(app, "#result").lower() or "draw" in text_of(
                app, "#result").lower()

    run(go())


def test_match_score_between_deals_in_russian(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules.preset("podkidnoy", deck=24), tmp_path, seed=2, deals=2,
                                lang="ru", name="Ваня"), skip_setup=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_deal(pilot, app, greedy_but())
            await settle(pilot, app)
            assert isinstance(app.screen, ResultScreen)
            result = text_of(app, "#result")
            assert "Сдача 1 окончена" in result and "Ваня" in result
            await pilot.press("enter")
            await settle(pilot, app)
            assert app.session is not None and app.session.deal_number == 2
            assert "Счёт" in text_of(app, "#side")
            assert "Сдача 2 из 2" in text_of(app, "#side")
            await play_deal(pilot, app, greedy_but())
            await settle(pilot, app)
            assert "Партия окончена" in text_of(app, "#result")
            await pilot.press("q")
            await pilot.pause()
        m = Match.from_record((tmp_path / "match.txt").read_text(encoding="utf-8"))
        assert len(m.games) == 2 and m.names[0] == "Ваня"

    run(go())


def test_wrong_keys_mouse_undo_hint_language(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path, seed=3, delay=0.05), skip_setup=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            g = screen.session.game
            await pilot.press("z")
            assert "does nothing" in text_of(app, "#message")
            await pilot.press("enter")  # nothing chosen: it says so
            assert "Choose a card first" in text_of(app, "#message")
            # a card that cannot be laid now explains itself
            cards = screen.hand_cards()
            playable = screen.picker.playable
            bad = [i for i, c in enumerate(cards) if c not in playable]
            if bad:
                await pilot.press(str(bad[0] + 1))
                assert text_of(app, "#message")
            # by mouse: click a card, then the offer to lay it
            good = next(i for i, c in enumerate(cards) if c in playable)
            await pilot.click("#hand", offset=(1 + good * 6 + 2, 1))
            assert screen.picker.selected == cards[good].bit
            assert "⏎" in text_of(app, "#actions")
            n = len(g.history)
            await pilot.click("#actions", offset=(3, 0))
            assert len(g.history) > n and g.history[n].cards == (cards[good],)
            await settle(pilot, app)
            # undo back to that decision
            await pilot.press("u")
            await pilot.pause()
            assert len(g.history) == n and g.to_act == 0
            assert "Taken back" in text_of(app, "#message")
            await pilot.press("h")
            for _ in range(200):
                await pilot.pause(0.05)
                if "Hint" in text_of(app, "#message"):
                    break
            assert "Hint" in text_of(app, "#message")
            await pilot.press("l")
            assert "Ваш ход" in text_of(app, "#status") or "Ходит" in text_of(app, "#status")
            await pilot.press("f")
            assert "без пауз" in text_of(app, "#message")
            check_screen(app)

    run(go())


def test_start_screen_sets_up_a_team_game(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            app.screen.query_one("#preset", Select).value = "perevodnoy"
            await pilot.pause()
            app.screen.query_one("#players", Select).value = 4
            await pilot.pause()
            app.screen.query_one("#teams", Select).value = "2x2"
            await pilot.pause()
            app.screen.query_one("#opp-3", Select).value = "level:1"
            await pilot.pause()
            await pilot.press("ctrl+s")
            await settle(pilot, app)
            assert isinstance(app.screen, GameScreen)
            s = app.session
            assert s is not None
            assert s.rules.players == 4 and s.rules.teams == "2x2" and s.rules.transfer
            assert s.specs[3] == "level:1"
            check_screen(app)

    run(go())


def test_replay_steps_through_a_match_record() -> None:
    m = Match(Rules.preset("perevodnoy", players=3), seed=2, deals=2)
    while True:
        g = m.game
        while not g.is_over:
            g.apply(g.legal_actions()[0])
        if m.next_deal() is None:
            break

    async def go() -> None:
        deals, names = load(m.record())
        app = ReplayApp(deals, names, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*["right"] * 5)
            state = app.stepper.state(5)
            assert state.history == m.games[0].history[:5]
            head = str(app.query_one("#head", Static).render())
            assert "Step 5 of" in head and "deal 1 of 2" in head
            table = str(app.query_one("#table", Static).render())
            for a, _ in state.table:
                assert card_text(a, "en") in table
            await pilot.press("pagedown")
            assert app.stepper.state(app.pos).bout == state.bout + 1
            await pilot.press("right_square_bracket", "end")
            assert app.deal == 1 and app.pos == len(m.games[1].history)
            last = str(app.query_one("#last", Static).render())
            assert "durak" in last or "draw" in last.lower()

    run(go())


def test_cli_arguments_build_the_match(tmp_path: Path) -> None:
    import argparse

    from durak.tui import cli

    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    args = p.parse_args(["--preset", "pagony", "--players", "4", "--level", "2", "--fast",
                         "--save", str(tmp_path / "x.txt"), "--lang", "ru", "--deals", "2"])
    st = cli.settings_from_args(args)
    assert st.rules.teams == "2x2" and st.rules.scoring == "pagony"
    assert st.opponent_specs() == ["level:2"] * 3 and st.delay == 0 and st.lang == "ru"
    for wrong in (["--players", "3", "--teams", "2x2"], ["--opponents", "nobody"],
                  ["--level", "99"]):
        with pytest.raises(ValueError):
            cli.settings_from_args(p.parse_args(wrong))
    assert Game(st.rules, seed=1).rules == st.rules


@pytest.mark.parametrize("preset,players,extra", [
    ("prostoy", 2, {}),
    ("pogonny", 3, {}),
    ("pagony", 4, {"teams": "2x2"}),
    ("podkidnoy", 2, {"trump_exchange": True, "deck": 52}),
])
def test_other_presets_play_to_the_end(tmp_path: Path, preset: str, players: int,
                                       extra: dict[str, Any]) -> None:
    async def go() -> None:
        rules = Rules.preset(preset, players=players, **extra)
        seed = 1 if rules.trump_exchange else 4  # seed 1: you hold the lowest trump
        app = DurakApp(settings(rules, tmp_path, seed=seed, opponents=["level:2"]),
                       skip_setup=True)
        async with app.run_test(size=(80, 24)) as pilot:
            mine = await play_deal(pilot, app, greedy_but(prefer=("exchange",)))
            assert mine
            if rules.trump_exchange:  # the swap was made with the x key
                assert any(a.kind == "exchange" for a in mine)
            await settle(pilot, app)
            assert isinstance(app.screen, ResultScreen)
            if preset == "pogonny":
                assert "Pogony" in text_of(app, "#result")

    run(go())
