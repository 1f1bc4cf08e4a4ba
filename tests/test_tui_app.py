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
from textual.widgets import Static  # noqa: E402

from durak import Action, Game, Rules  # noqa: E402
from durak.bots import make  # noqa: E402
from durak.enums import Kind, Phase
from durak.match import Match  # noqa: E402
from durak.observation import Observation  # noqa: E402
from durak.tui.app import DurakApp  # noqa: E402
from durak.tui.form import Choice  # noqa: E402
from durak.tui.game_screen import GameScreen  # noqa: E402
from durak.tui.help_screen import HelpScreen  # noqa: E402
from durak.tui.howto_screen import HowToScreen  # noqa: E402
from durak.tui.i18n import card_text, tr  # noqa: E402
from durak.tui.keys import key_rows  # noqa: E402
from durak.tui.replay_app import ReplayApp, load  # noqa: E402
from durak.tui.result_screen import ResultScreen  # noqa: E402
from durak.tui.session import Settings  # noqa: E402
from durak.tui.setup_screen import SetupScreen  # noqa: E402

pytestmark = pytest.mark.timeout(120)

Policy = Callable[[Observation], Action]


def text_of(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def shown_keys(screen: Any) -> list[str]:
    """What Textual's footer shows for ``screen``: its bindings' descriptions."""
    return [b.binding.description for b in screen.active_bindings.values() if b.binding.show]


def greedy_but(prefer: tuple[str, ...] = (), take_every: int = 0) -> Policy:
    """The greedy bot, except: kinds in ``prefer`` first; when defending in every
    ``take_every``-th bout take; after a take add what can be added (pile-on)."""
    greedy = make("greedy")

    def choose(obs: Observation) -> Action:
        for kind in prefer:
            for a in obs.legal:
                if str(a.kind) == kind:
                    return a
        if obs.phase == Phase.PILE_ON:
            adds = [a for a in obs.legal if a.kind == Kind.ATTACK]
            if adds:
                return adds[0]
        if take_every and obs.phase == Phase.DEFEND and obs.bout % take_every == 1:
            return next(a for a in obs.legal if a.kind == Kind.TAKE)
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
    if action.kind in (Kind.ATTACK, Kind.DEFEND, Kind.TRANSFER):
        for card in action.cards:
            i = screen.hand_cards().index(card)
            if i < 10:
                await pilot.press("1234567890"[i])
            else:
                await pilot.press("home", *["right"] * i, "space")
        if action.kind == Kind.DEFEND:
            await aim(pilot, screen, action)
        await pilot.press("r" if action.kind == Kind.TRANSFER else "enter")
    else:
        await pilot.press(
            {"take": "t", "pass": "p", "show": "s", "exchange": "x"}[str(action.kind)]
        )


async def aim(pilot: Pilot[Any], screen: GameScreen, action: Action) -> None:
    """Move the picker to the table card ``action`` beats, with the arrow key."""
    for _ in range(8):
        if screen.picker.target == action.target:
            return
        await pilot.press("down")


async def lay_cheat(pilot: Pilot[Any], screen: GameScreen, cheat: Action) -> None:
    """In cheat mode (~ pressed), lay ``cheat`` onto its table card by keys; it is played."""
    g = screen.session.game
    i = screen.hand_cards().index(cheat.cards[0])
    await pilot.press("home", *["right"] * i, "space")
    await aim(pilot, screen, cheat)
    n = len(g.history)
    await pilot.press("enter")
    assert g.history[n] is cheat, screen.message


async def hinted(pilot: Pilot[Any], app: Any) -> None:
    """Ask for a hint (h) and wait until its worker has said it (no clock involved)."""
    await pilot.press("h")
    await app.workers.wait_for_complete()
    await pilot.pause()


def check_screen(app: DurakApp) -> None:
    """What the widgets show is what the game's state says."""
    s = app.session
    assert s is not None
    g = s.game
    obs = g.observation(0)
    lang = s.lang
    side = text_of(app, "#side")
    if obs.trumps:  # двухкозырный (issue 36): my own trump here, each opponent's by them
        assert "♠♥♦♣"[obs.trump_suit] in side
        for seat in range(1, g.rules.players):
            assert "♠♥♦♣"[obs.trumps[seat]] in text_of(app, f"#seat-{seat}")
    elif g.trump is None:  # бескозырный (issue 36): no card turned, «no trumps» shown
        assert tr(lang, "term.no_trump") in side
    else:
        assert card_text(g.trump, lang) in side or "♠♥♦♣"[g.trump_suit] in side
    if g.trump is not None and g.trump.suit != g.trump_suit and obs.trump_under_talon:
        # «пики пиками»: the trump suit beside the turned card of another suit
        assert "♠♥♦♣"[g.trump_suit] in side and card_text(g.trump, lang) in side
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
    base: dict[str, Any] = {
        "opponents": ["greedy"],
        "seed": 1,
        "delay": 0.0,
        "lang": "en",
        "save": tmp_path / "match.txt",
    }
    base.update(kw)
    return Settings(rules=rules, **base)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_podkidnoy_by_keys_to_the_end_of_a_match(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path, seed=3), skip_setup=True)
        async with app.run_test(size=(80, 24)) as pilot:
            mine = await play_deal(pilot, app, greedy_but(take_every=4))
            assert mine and any(a.kind == Kind.TAKE for a in mine)
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
        app = DurakApp(
            settings(rules, tmp_path, seed=8, opponents=["greedy", "random"]), skip_setup=True
        )
        async with app.run_test(size=(80, 24)) as pilot:
            mine = await play_deal(pilot, app, greedy_but(prefer=("transfer",), take_every=2))
            kinds = {a.kind for a in mine}
            assert Kind.TRANSFER in kinds and Kind.TAKE in kinds
            g = app.session.game  # type: ignore[union-attr]
            # a take followed by cards added for the taker (pile-on)
            replay = g.fresh()
            piled = False
            for a in g.history:
                if replay.phase == Phase.PILE_ON and a.kind == Kind.ATTACK:
                    piled = True
                replay.apply(a)
            assert piled

    run(go())


def test_team_game_with_showing_the_trump(tmp_path: Path) -> None:
    async def go() -> None:
        rules = Rules.preset("perevodnoy-proezdnoy", players=4, teams="2x2")
        app = DurakApp(settings(rules, tmp_path, seed=9, opponents=["greedy"] * 3), skip_setup=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            assert "partner" in text_of(app, "#seat-2")
            assert "partner" not in text_of(app, "#seat-1")
            mine = await play_deal(pilot, app, greedy_but(prefer=("show", "transfer")))
            assert {Kind.SHOW, Kind.TRANSFER} <= {a.kind for a in mine}
            o = app.session.game.outcome  # type: ignore[union-attr]
            assert o is not None
            assert o.losing_team is None if o.draw else o.losing_team == (o.durak or 0) % 2
            await settle(pilot, app)
            result = text_of(app, "#result")
            assert "team" in result.lower() or "draw" in result.lower()
            # the tally lists the two teams, not the four players
            assert "Player + Boris" in result and "Anna + Vera" in result
            assert "Deals lost" in result and "Durak" not in result
            lost = o.losing_team
            if lost is not None:
                team = ["Player + Boris", "Anna + Vera"][lost]
                assert any(
                    line.startswith(team) and line.rstrip().endswith("1")
                    for line in result.splitlines()
                )

    run(go())


def test_match_score_between_deals_in_russian(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(
            settings(
                Rules.preset("podkidnoy", deck=24),
                tmp_path,
                seed=2,
                deals=2,
                lang="ru",
                name="Ваня",
            ),
            skip_setup=True,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await play_deal(pilot, app, greedy_but())
            await settle(pilot, app)
            assert isinstance(app.screen, ResultScreen)
            result = text_of(app, "#result")
            assert "Сдача 1 окончена" in result and "Ваня" in result
            # the table under the result box already counts this deal
            table = app.screen_stack[-2]
            side = str(table.query_one("#side", Static).render())
            o = app.session.game.outcome  # type: ignore[union-attr]
            assert o is not None and "Счёт" in side
            names = app.session.names  # type: ignore[union-attr]
            assert ("ничьих: 1" in side) if o.durak is None else (f"{names[o.durak]} 1" in side)
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
            await pilot.press("ctrl+b")
            assert "does nothing" in text_of(app, "#message")
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
            assert len(g.history) > n and tuple(g.history[n].cards) == (cards[good],)
            await settle(pilot, app)
            # undo back to that decision
            await pilot.press("u")
            await pilot.pause()
            assert len(g.history) == n and g.to_act == 0
            assert "Taken back" in text_of(app, "#message")
            await hinted(pilot, app)
            assert "Hint" in text_of(app, "#message")
            await pilot.press("l")
            assert "Ваш ход" in text_of(app, "#status") or "Ходит" in text_of(app, "#status")
            await pilot.press("f")
            assert "без пауз" in text_of(app, "#message")
            check_screen(app)

    run(go())


async def start_screen(pilot: Pilot[Any], app: DurakApp) -> SetupScreen:
    """The start screen once shown, with «Start» focused."""
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, SetupScreen)
    assert app.focused is not None and app.focused.id == "start"
    return screen


def test_start_screen_sets_up_a_team_game_by_keys(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await start_screen(pilot, app)

            def row(key: str) -> Choice:
                return screen.query_one(f"#{key}", Choice)

            row("preset").focus()
            await pilot.pause()
            assert "▶" in str(row("preset").render())  # the focused row is marked
            assert "▶" not in str(row("players").render())
            assert row("transfer").value is False and "✓" not in str(row("transfer").render())
            await pilot.press("right")  # podkidnoy -> perevodnoy
            # the transfer row follows at once (it used to show «off» for a second)
            assert row("preset").value == "perevodnoy" and row("transfer").value is True
            assert "✓" in str(row("transfer").render())
            await pilot.press("down", "right", "right")  # players 2 -> 4
            assert app.focused is row("players") and row("players").value == 4
            assert [
                w.id for w in screen.query(Choice) if (w.id or "").startswith("opp-") and w.display
            ] == ["opp-1", "opp-2", "opp-3"]
            await pilot.press("down", "down", "right")  # teams: 2x2
            assert row("teams").value == "2x2" and "partner" in str(row("opp-2").render())
            row("pile_on").focus()
            await pilot.press("space")  # an on/off row flips with space
            assert row("pile_on").value is False and "✓" not in str(row("pile_on").render())
            row("opp-3").focus()
            await pilot.press("right")  # greedy (last) -> level 1 (first)
            assert row("opp-3").value == "level:1"
            await pilot.press("ctrl+s")
            await settle(pilot, app)
            assert isinstance(app.screen, GameScreen)
            s = app.session
            assert s is not None
            assert s.rules.players == 4 and s.rules.teams == "2x2" and s.rules.transfer
            assert not s.rules.pile_on and s.specs[3] == "level:1"
            check_screen(app)

    run(go())


def test_start_screen_language_and_how_to_play(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await start_screen(pilot, app)
            screen.query_one("#lang", Choice).focus()
            await pilot.press("right")  # Russian, in place: the focus stays on the row
            assert app.focused is screen.query_one("#lang", Choice)
            assert "Игра" in str(screen.query_one("#preset", Choice).render())
            footer = shown_keys(screen)
            assert "начать" in footer and "как играть" in footer
            screen.query_one("#preset", Choice).focus()
            await pilot.press("right", "f1")  # the how-to of the game chosen
            assert isinstance(app.screen, HowToScreen)
            text = str(app.screen.query_one("#howto-text", Static).render())
            assert "Как играть: Переводной" in text and "перевести" in text
            await pilot.press("right")
            text = str(app.screen.query_one("#howto-text", Static).render())
            assert "Переводной с проездным" in text and "показав козырь" in text
            await pilot.press("escape")
            assert app.screen is screen

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
            assert {"next move", "next bout", "next deal", "keys"} <= set(shown_keys(app.screen))
            await pilot.press("question_mark")  # every key of the stepper
            assert isinstance(app.screen, HelpScreen)
            assert "PgUp" in str(app.screen.query_one("#help", Static).render())
            await pilot.press("escape", "home")
            assert not isinstance(app.screen, HelpScreen) and app.pos == 0

    run(go())


def test_cli_arguments_build_the_match(tmp_path: Path) -> None:
    import argparse

    from durak.tui import cli

    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    args = p.parse_args(
        [
            "--preset",
            "pagony",
            "--players",
            "4",
            "--level",
            "2",
            "--fast",
            "--save",
            str(tmp_path / "x.txt"),
            "--lang",
            "ru",
            "--deals",
            "2",
        ]
    )
    st = cli.settings_from_args(args)
    assert st.rules.teams == "2x2" and st.rules.scoring == "pagony"
    assert st.opponent_specs() == ["level:2"] * 3 and st.delay == 0 and st.lang == "ru"
    for wrong in (
        ["--players", "3", "--teams", "2x2"],
        ["--opponents", "nobody"],
        ["--level", "99"],
    ):
        with pytest.raises(ValueError):
            cli.settings_from_args(p.parse_args(wrong))
    assert Game(st.rules, seed=1).rules == st.rules


def test_cli_opponents_take_the_bot_specs_of_durak_bots_make() -> None:
    """One way to name a bot: --opponents takes any spec ``durak.bots.make`` takes, options
    included, and refuses an option the bot does not have by its name."""
    import argparse

    from durak.tui import cli

    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    st = cli.settings_from_args(
        p.parse_args(["--players", "3", "--opponents", "level:3, ismcts:iterations=60,seed=1"])
    )
    assert st.opponent_specs() == ["level:3", "ismcts:iterations=60,seed=1"]
    with pytest.raises(ValueError, match="no option 'iteratons'"):
        cli.settings_from_args(p.parse_args(["--opponents", "ismcts:iteratons=5"]))


@pytest.mark.parametrize(
    "preset,players,extra",
    [
        ("prostoy", 2, {}),
        ("pogonny", 3, {}),
        ("pagony", 4, {"teams": "2x2"}),
        ("podkidnoy", 2, {"trump_exchange": True, "deck": 52}),
        ("beskozyrny", 3, {}),  # issue 36: no card turned, «no trumps» shown
        ("piki-pikami", 2, {}),
        ("dvukhkozyrny", 3, {}),  # issue 36: each seat's own trump shown by it
    ],
)
def test_other_presets_play_to_the_end(
    tmp_path: Path, preset: str, players: int, extra: dict[str, Any]
) -> None:
    async def go() -> None:
        rules = Rules.preset(preset, players=players, **extra)
        seed = 1 if rules.trump_exchange else 4  # seed 1: you hold the lowest trump
        app = DurakApp(settings(rules, tmp_path, seed=seed, opponents=["level:2"]), skip_setup=True)
        async with app.run_test(size=(80, 24)) as pilot:
            mine = await play_deal(pilot, app, greedy_but(prefer=("exchange",)))
            assert mine
            if rules.trump_exchange:  # the swap was made with the x key
                assert any(a.kind == Kind.EXCHANGE for a in mine)
            await settle(pilot, app)
            assert isinstance(app.screen, ResultScreen)
            if preset == "pogonny":
                assert "Pogony" in text_of(app, "#result")

    run(go())


async def play_until(
    pilot: Pilot[Any], app: DurakApp, policy: Policy, done: Callable[[GameScreen], bool]
) -> GameScreen:
    """Play by keys until ``done`` holds at one of the person's turns."""
    for _ in range(400):
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen) and not screen.session.game.is_over
        if done(screen):
            return screen
        await press_move(pilot, screen, policy(screen.session.game.observation(0)))
    raise AssertionError("never happened")


def test_enter_plays_the_card_under_the_cursor(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path, seed=3), skip_setup=True)
        async with app.run_test(size=(80, 24)) as pilot:
            policy = greedy_but()
            screen = await play_until(
                pilot, app, policy, lambda s: s.picker.obs.phase == Phase.ATTACK
            )
            g = screen.session.game
            cards = screen.hand_cards()
            await pilot.press("home", "right", "right")  # nothing marked, cursor on the third
            n = len(g.history)
            await pilot.press("enter")
            assert len(g.history) > n and tuple(g.history[n].cards) == (cards[2],)
            # a card that cannot be laid: Enter says why and plays nothing
            screen = await play_until(
                pilot,
                app,
                policy,
                lambda s: any(c not in s.picker.playable for c in s.hand_cards()),
            )
            cards = screen.hand_cards()
            i = next(i for i, c in enumerate(cards) if c not in screen.picker.playable)
            await pilot.press("home", *["right"] * i)
            n = len(g.history)
            await pilot.press("enter")
            assert len(g.history) == n and text_of(app, "#message")

    run(go())


def test_letter_keys_mark_cards_past_the_tenth(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(
            settings(Rules.preset("podkidnoy", deck=52), tmp_path, seed=5), skip_setup=True
        )
        async with app.run_test(size=(100, 30)) as pilot:
            greedy = greedy_but()

            def always_take(obs: Observation) -> Action:
                take = [a for a in obs.legal if a.kind == Kind.TAKE]
                return take[0] if take else greedy(obs)

            screen = await play_until(pilot, app, always_take, lambda s: len(s.hand_cards()) > 11)
            cards = screen.hand_cards()
            labels = text_of(app, "#hand").splitlines()[0].split()
            assert labels[:12] == [*"1234567890", "a", "b"]
            await pilot.press("escape", "b")  # the twelfth card
            assert screen.cursor == 11
            if cards[11] in screen.picker.playable:
                assert screen.picker.selected == cards[11].bit
            else:
                assert text_of(app, "#message")  # why it cannot be marked
            await pilot.press("escape", "и")  # the same key on a Russian layout
            assert screen.cursor == 11

    run(go())


def test_question_mark_opens_the_help_listing_every_key(tmp_path: Path) -> None:
    async def go() -> None:
        rules = Rules.preset("perevodnoy-proezdnoy", players=3)
        app = DurakApp(settings(rules, tmp_path, seed=2), skip_setup=True)
        async with app.run_test(size=(80, 30)) as pilot:
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            footer = shown_keys(screen)
            for word in (
                "lay",
                "take",
                "pass",
                "transfer",
                "show trump",
                "hint",
                "undo",
                "keys",
                "quit",
            ):
                assert word in footer
            assert "swap trump" not in footer  # not in these rules
            assert not screen.query("#keys")  # no hand-made key line any more
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            text = str(app.screen.query_one("#help", Static).render())
            flat = " ".join(text.split())  # long descriptions wrap beside their keys
            for keys, what in key_rows(screen.keys, "en"):
                assert keys in text and what in flat
            for key in (
                "Enter",
                "Esc",
                "← → Home End",
                "1…9 0 a…z",
                "↑ ↓ Tab",
                "space",
                "t",
                "p",
                "r",
                "s",
                "x",
                "h",
                "u",
                "f",
                "l",
                "n",
                "q",
            ):
                assert key in text
            await pilot.press("escape")
            assert app.screen is screen
            await pilot.press("l")  # Russian: the footer and the help follow
            assert "взять" in shown_keys(screen)
            await pilot.press("question_mark")
            assert "Клавиши" in str(app.screen.query_one("#help", Static).render())
            await pilot.press("question_mark")
            assert app.screen is screen

    run(go())


def test_arrows_move_between_the_lines_and_the_buttons_from_anywhere(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await start_screen(pilot, app)
            await pilot.press("up")  # from «Start» to the last line shown, marked ▶
            focused = app.focused
            assert isinstance(focused, Choice) and focused.id == "opp-1"
            assert "▶" in str(focused.render())
            await pilot.press("down")
            assert app.focused is not None and app.focused.id == "start"
            await pilot.press("right")  # ← → between the buttons
            assert app.focused is not None and app.focused.id == "howto"
            await pilot.press("right", "left", "left")
            assert app.focused is not None and app.focused.id == "start"
            await pilot.press("down")  # the next button, then round to the first line
            assert app.focused is not None and app.focused.id == "howto"
            await pilot.press("down", "down")
            assert app.focused is not None and app.focused.id == "lang"
            assert "▶" in str(screen.query_one("#lang", Choice).render())

    run(go())


def test_the_result_box_has_its_own_keys_and_says_why(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(
            settings(Rules.preset("podkidnoy", deck=24), tmp_path, seed=2, deals=2),
            skip_setup=True,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await play_deal(pilot, app, greedy_but())
            await settle(pilot, app)
            box = app.screen
            assert isinstance(box, ResultScreen)
            # the footer lists the box's keys, not the game's
            keys = shown_keys(box)
            assert keys == ["next deal", "look at the table", "review", "English / Russian", "quit"]
            await pilot.press("z")
            assert "Key z does nothing here" in text_of(app, "#result-why")
            await pilot.press("l")  # the language, in place
            assert app.screen is box
            assert "Сдача 1 окончена" in text_of(app, "#result")
            assert shown_keys(box)[0] == "следующая сдача"
            assert text_of(app, "#result-why") == ""
            await pilot.press("enter")
            await settle(pilot, app)
            game = app.screen
            assert isinstance(game, GameScreen) and app.session is not None
            assert app.session.deal_number == 2 and app.settings.lang == "ru"
            assert "взять" in shown_keys(game) or "пас" in shown_keys(game)

    run(go())


def test_replay_names_the_rules_and_says_why_a_key_does_nothing() -> None:
    m = Match(Rules.preset("perevodnoy", players=3), seed=2, deals=1)
    g = m.game
    while not g.is_over:
        g.apply(g.legal_actions()[0])

    async def go() -> None:
        deals, names = load(m.record())
        app = ReplayApp(deals, names, "ru")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            head = str(app.query_one("#head", Static).render())
            assert "Переводной, 3 игрока" in head and "(" not in head
            await pilot.press("z")
            assert "Клавиша z в записи ничего не делает" in str(
                app.query_one("#why", Static).render()
            )
            await pilot.press("right")
            assert str(app.query_one("#why", Static).render()) == ""

    run(go())


def test_the_name_line_is_marked_when_it_has_the_focus(tmp_path: Path) -> None:
    async def go() -> None:
        app = DurakApp(settings(Rules(), tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            await start_screen(pilot, app)
            assert "▶" not in text_of(app, "#label-name")
            await pilot.press("up", "up")  # from «Start»: the last opponent, then the name
            assert app.focused is not None and app.focused.id == "name"
            assert text_of(app, "#label-name").startswith("▶ ")
            await pilot.press("down")
            assert not text_of(app, "#label-name").startswith("▶")

    run(go())
