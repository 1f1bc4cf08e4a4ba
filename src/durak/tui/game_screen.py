"""The game screen: opponents on top, the table in the middle, the hand below,
what can be done now, and the log of moves. Bots move on a timer so a person can
follow them; ``f`` makes them instant."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, RichLog, Static

from durak.enums import Kind

from ..actions import Action
from ..cards import Card
from ..rules import Rules
from .help_screen import HelpScreen
from .i18n import tr
from .keys import KeyedNode, KeySpec, use_keys
from .messages import (
    CardClicked,
    KeyClicked,
    LanguageChosen,
    NewMatch,
    OfferClicked,
    QuitGame,
    SaveMatch,
    TargetClicked,
)
from .picker import Offer, Picker
from .render import KEYS, hand_lines, join_lines, table_lines
from .result_screen import ResultScreen
from .review_screen import ReviewScreen
from .session import HUMAN, Session
from .widgets import (
    ActionBar,
    HandView,
    TableView,
    hand_header,
    opponent_content,
    side_content,
)
from .words import Entry, expected, render

# Keys of the Russian layout in the places of the Latin ones, so «е» works as «t».
RU_LAYOUT = dict(zip("qwertyuiopasdfghjklzxcvbnm", "йцукенгшщзфывапролдячсмить", strict=True))
SEAT_COLOURS = ("#ffd75f", "#87d7ff", "#ff87af", "#87ff87", "#d7afff", "#ffaf5f")


def game_keys(rules: Rules) -> list[KeySpec]:
    """Every key of the game screen; the footer shows the common moves and those the
    rules allow (transfer, showing, the swap of the trump)."""

    def key(k: str, text: str, show: bool = True, help: str = "") -> KeySpec:
        ru = ",".join(RU_LAYOUT[c] for c in k.split(",") if c in RU_LAYOUT)
        return KeySpec(f"press({k.split(',')[0]!r})", k, text, show, ru, help=help)

    cards = [
        KeySpec(f"press({k!r})", k, "key_cards", False, RU_LAYOUT.get(k, ""), display="1…9 0 a…z")
        for k in KEYS
    ]
    return [
        KeySpec("press('enter')", "enter", "key_lay", help="key_lay_help"),
        key("t", "key_take"),
        key("p", "key_pass"),
        key("r", "key_transfer", rules.transfer),
        key("s", "key_show", rules.transfer_by_showing, help="key_show_help"),
        key("x", "key_exchange", rules.trump_exchange, help="key_exchange_help"),
        # шулерский: every letter is taken, so the signs of the notation: ~ cheat, ! call
        KeySpec(
            "press('tilde')",
            "tilde,grave_accent",
            "key_cheat",
            rules.cheating != "off",
            "ё",
            display="~",
            help="key_cheat_help",
        ),
        KeySpec(
            "press('exclamation_mark')",
            "exclamation_mark",
            "key_call",
            rules.cheating != "off",
            display="!",
            help="key_call_help",
        ),
        key("h", "key_hint", help="key_hint_help"),
        key("u", "key_undo", help="key_undo_help"),
        KeySpec("press('question_mark')", "question_mark,f1", "key_help", help="key_help_help"),
        key("q", "key_quit", help="key_quit_help"),
        KeySpec("press('q')", "ctrl+c", "key_quit", False, help="key_quit_help"),
        *(
            KeySpec(f"press({k!r})", k, "key_cursor", False)
            for k in ("left", "right", "home", "end")
        ),
        KeySpec("press('space')", "space", "key_mark", False),
        *cards,
        *(
            KeySpec(f"press({k!r})", k, "key_target", False)
            for k in ("up", "down", "tab", "shift+tab")
        ),
        KeySpec("press('escape')", "escape", "key_clear", False),
        key("n", "key_next", False),
        key("f", "key_fast", False),
        key("l", "key_lang", False),
    ]


def sorted_hand(cards: list[Card], trump_suit: int) -> list[Card]:
    """Suits together, trumps last, low to high: how players hold their cards."""
    return sorted(cards, key=lambda c: (c.suit == trump_suit, c.suit, c.rank))


class GameScreen(KeyedNode, Screen[None]):
    AUTO_FOCUS = None
    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #opponents { height: auto; max-height: 7; }
    .opponent { width: 1fr; height: auto; min-height: 3; padding: 0 1; background: $boost;
                margin-right: 1; }
    .opponent.acting { background: #3a3a1a; }
    #opponents.many { height: 4; }
    #opponents.many .opponent { height: 4; text-wrap: nowrap; text-overflow: ellipsis; }
    #felt { height: auto; min-height: 5; background: #0d4f2b; }
    #table { width: 1fr; height: auto; min-height: 4; padding: 0 1; }
    #side { width: 30; height: auto; padding: 0 1; color: #e0e0e0; }
    #status { height: auto; padding: 0 1; text-style: bold; color: #ffffff; }
    #hand-header { height: 1; padding: 0 1; }
    #hand { height: auto; padding: 0 1; }
    #actions { height: auto; padding: 0 1; }
    #message { height: auto; padding: 0 1; color: #ffaf5f; }
    #log { height: 1fr; min-height: 3; padding: 0 1; border-top: solid $primary-darken-2;
           scrollbar-size-vertical: 1; scrollbar-background: $surface; }
    #main { height: 1fr; }
    GameScreen.wide #log { dock: right; width: 42; height: 1fr; border-top: none;
                           border-left: solid $primary-darken-2; }
    """

    def __init__(self, session: Session, delay: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.fast = delay <= 0
        self.picker = Picker(session.observation())
        self.cursor = 0
        self.message: Entry | str | None = None
        self.tall = False
        self._timer: Timer | None = None
        self._pending = False  # a bot move is scheduled
        self._thinking = False
        self._gen = 0  # bumped by undo and new deals: a late bot answer is dropped
        self._logged = 0
        self._result_shown = False
        self.keys = game_keys(session.rules)
        self._shown_lang = self.lang
        use_keys(self, self.keys, self.lang, inherit=False)

    @property
    def busy(self) -> bool:
        """A bot's move is scheduled or being thought out."""
        return self._pending or self._thinking

    @property
    def lang(self) -> str:
        return self.session.lang

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            many = "many" if self.session.rules.players >= 5 else ""
            with Horizontal(id="opponents", classes=many):
                for s in range(1, self.session.rules.players):
                    yield Static(id=f"seat-{s}", classes="opponent")
            with Horizontal(id="felt"):
                yield TableView(id="table")
                yield Static(id="side")
            yield Static(id="status")
            yield Static(id="hand-header")
            yield HandView(id="hand")
            yield ActionBar(id="actions")
            yield Static(id="message")
            log = RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
            log.can_focus = False  # every key belongs to the game's bindings
            yield log
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._relog()
        self.refresh_view()
        self.schedule_bot()

    def on_resize(self, event: events.Resize) -> None:
        wide = event.size.width >= 118
        moved = wide != self.has_class("wide")
        self.set_class(wide, "wide")
        self.tall = event.size.height >= 34
        if moved:
            # RichLog wraps lines when they are written: write them again at the new width.
            self.call_after_refresh(self._relog)
        self.refresh_view()

    # -- drawing ------------------------------------------------------------------------------
    def hand_cards(self) -> list[Card]:
        obs = self.picker.obs
        return sorted_hand(list(obs.hand), obs.trump_suit)

    def refresh_view(self) -> None:
        s = self.session
        obs = self.picker.obs
        lang = self.lang
        width = max(20, self.size.width - 2) if self.size.width else 78
        for seat in range(1, s.rules.players):
            w = self.query_one(f"#seat-{seat}", Static)
            w.update(
                opponent_content(
                    s, obs, seat, lang, max(4, w.size.width - 2), short=s.rules.players >= 5
                )
            )
            w.set_class(obs.to_act == seat, "acting")
        table_w = self.query_one("#table", Static)
        tw = max(20, table_w.size.width - 2) if table_w.size.width else width - 30
        if obs.table:
            targets = self.picker.targets() if obs.to_act == HUMAN else []
            lines = table_lines(
                obs.table,
                lang,
                target=self.picker.target,
                beatable=targets,
                tall=self.tall,
                width=tw,
            )
            table_w.update(join_lines(lines))
        else:
            table_w.update(Content.styled("\n" + tr(lang, "empty_table"), "italic #9fc9a9"))
        self.query_one("#side", Static).update(side_content(s, obs, lang, self.tall))
        self.query_one("#status", Static).update(self.status_text())
        self.query_one("#hand-header", Static).update(hand_header(s, obs, lang))
        cards = self.hand_cards()
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        playable = int(self.picker.playable) if obs.to_act == HUMAN else None
        hand_w = self.query_one("#hand", Static)
        hw = max(20, hand_w.size.width - 2) if hand_w.size.width else width
        lines = hand_lines(
            cards,
            lang,
            selected=self.picker.selected,
            playable=playable,
            cursor=self.cursor if cards else None,
            tall=self.tall,
            width=hw,
        )
        hand_w.update(join_lines(lines))
        self.query_one("#actions", Static).update(self.actions_content())
        msg = self.message
        if isinstance(msg, Entry):
            msg = render(msg, lang, s.names)
        self.query_one("#message", Static).update(msg or "")
        self._relog(incremental=True)

    def status_text(self) -> str:
        s = self.session
        g = s.game
        if g.is_over:
            return tr(self.lang, "match_over" if s.match_finished() else "deal_over_next")
        if g.to_act != HUMAN and self._thinking and self.delay > 0 and not self.fast:
            return tr(self.lang, "bot_thinking", name=s.names[g.to_act or 0])
        said = expected(g, HUMAN, s.names, self.lang)
        if self.picker.cheat and g.to_act == HUMAN:
            # шулерский: cheat mode is on for this move only; the status line says so
            return f"{tr(self.lang, 'cheat_mode_on_status')} {said}"
        return said

    def offers(self) -> list[Offer]:
        return self.picker.offers() if self.picker.obs.to_act == HUMAN else []

    def actions_content(self) -> Content:
        parts: list[Content | str] = []
        for i, offer in enumerate(self.offers()):
            label = render(offer.label, self.lang, self.session.names)
            key = {"enter": "⏎"}.get(offer.key, offer.key)
            text = f" {key + ' ' if key else ''}{label} "
            style = "bold #101010 on #87d7ff" if offer.key == "enter" else "bold on #3a3a5a"
            if parts:
                parts.append(" ")
            parts.append(Content.styled(text, style).stylize(f"@click=offer({i})"))
        return Content.assemble(*parts)

    def _relog(self, incremental: bool = False) -> None:
        log = self.query_one("#log", RichLog)
        entries = self.session.log
        if not incremental or self._logged > len(entries):
            log.clear()
            self._logged = 0
        for e in entries[self._logged :]:
            log.write(self._log_text(e))
        self._logged = len(entries)
        # the newest move must stay in view, also after a rewrite at another width
        self.call_after_refresh(log.scroll_end, animate=False)

    def _log_text(self, e: Entry) -> Text:
        text = render(e, self.lang, self.session.names)
        style = SEAT_COLOURS[e.seat % len(SEAT_COLOURS)] if e.seat is not None else "bold"
        t = Text(text, style=style)
        t.highlight_regex(r"\S+[♥♦]", "bold #ff5f5f")
        return t

    def say(self, msg: Entry | str | None) -> None:
        self.message = msg
        self.refresh_view()

    # -- the flow of the game ----------------------------------------------------------------
    def new_observation(self) -> None:
        self.picker = Picker(self.session.observation())

    def play(self, action: Action) -> None:
        """The person's move."""
        if self.session.game.to_act != HUMAN:
            self.say(self.picker.refusal())
            return
        cheat_mode = self.picker.cheat
        entries = self.session.apply(action)
        # (cheat mode lasts one move: say that it is off again)
        self.message = Entry("cheat_mode_off_after") if cheat_mode else None
        self.notice(entries)
        self.after_move()

    def notice(self, entries: list[Entry]) -> None:
        """шулерский: a call and what it found, on the message line as well as in the log."""
        if len(entries) > 1 and entries[0].key == "mv_call":
            self.message = Entry("ev_call_notice", {"move": entries[0], "outcome": entries[1]})

    def after_move(self) -> None:
        self.new_observation()
        self.refresh_view()
        if self.session.game.is_over:
            self.deal_over()
        else:
            self.schedule_bot()

    def schedule_bot(self) -> None:
        g = self.session.game
        if g.is_over or g.to_act == HUMAN or self._pending or self._thinking:
            return
        self._pending = True
        if self.fast or self.delay <= 0:
            self.call_later(self._bot_move)
        else:
            self._timer = self.set_timer(self.delay, self._bot_move)

    async def _bot_move(self) -> None:
        self._timer = None
        self._pending = False
        s = self.session
        g = s.game
        seat = g.to_act
        if g.is_over or seat is None or seat == HUMAN:
            return
        gen = self._gen
        self._thinking = True
        obs = g.observation(seat)
        try:
            if self.fast:
                action = s.bot_decide(seat, obs)
            else:
                self.query_one("#status", Static).update(self.status_text())
                action = await asyncio.to_thread(s.bot_decide, seat, obs)
        finally:
            self._thinking = False
        if gen != self._gen or s.game is not g or g.to_act != seat:
            return
        self.notice(s.apply(action))
        self.after_move()

    def deal_over(self) -> None:
        self._gen += 1
        self.post_message(SaveMatch())
        if self._result_shown:
            return
        self._result_shown = True
        self.app.push_screen(ResultScreen(self.session), self._after_result)

    def _after_result(self, choice: str | None) -> None:
        self._result_shown = False
        self.relabel()  # the language may have changed on the result box
        if choice == "quit":
            self.post_message(QuitGame())
        elif choice == "new":
            self.post_message(NewMatch())
        elif choice == "next":
            self.next_deal()
        elif choice == "review":
            # the deal's review (every seat: the deal is over), then the result again
            s = self.session
            self._result_shown = True
            screen = ReviewScreen(s.game, s.names, s.lang, deal=s.deal_number)
            self.app.push_screen(screen, lambda _: self._review_closed())

    def _review_closed(self) -> None:
        self.app.push_screen(ResultScreen(self.session), self._after_result)

    def next_deal(self) -> None:
        if not self.session.game.is_over:
            return
        if self.session.next_deal():
            self._gen += 1
            self.cursor = 0
            self.message = None
            self.after_move()
        else:
            self.post_message(NewMatch())

    # -- input -------------------------------------------------------------------------------
    def on_card_clicked(self, message: CardClicked) -> None:
        self.click_card(message.index)

    def on_target_clicked(self, message: TargetClicked) -> None:
        self.click_target(message.index)

    def on_offer_clicked(self, message: OfferClicked) -> None:
        self.click_offer(message.index)

    def on_key_clicked(self, message: KeyClicked) -> None:
        self.press(message.key)

    def click_card(self, i: int) -> None:
        cards = self.hand_cards()
        if 0 <= i < len(cards):
            self.cursor = i
            self.say(self.picker.toggle(cards[i]))

    def click_target(self, i: int) -> None:
        table = self.picker.obs.table
        if 0 <= i < len(table):
            self._do(self.picker.choose_target(table[i][0]))

    def click_offer(self, i: int) -> None:
        offers = self.offers()
        if 0 <= i < len(offers):
            self.play(offers[i].action)

    def _do(self, result: Action | Entry | None) -> None:
        if isinstance(result, Action):
            self.play(result)
        else:
            self.say(result)

    def on_key(self, event: events.Key) -> None:
        """Keys without a binding: say that they do nothing here."""
        if self.is_bound(event.key) or event.key in ("ctrl+q",):
            return  # the screen's bindings (or the app's ctrl+q) handle it
        event.stop()
        event.prevent_default()
        self.press(event.key, event.character)

    def action_press(self, key: str) -> None:
        self.press(key)

    # C901: the key map: one branch per key of the game
    def press(self, key: str, character: str | None = None) -> None:  # noqa: C901
        """One key of the game, by its name (``left``, ``enter``, ``t``...)."""
        p = self.picker
        cards = self.hand_cards()
        g = self.session.game
        if key in ("q", "ctrl+c", "ctrl+q"):
            self.post_message(QuitGame())
        elif key in ("n",) and g.is_over:
            self.next_deal()
        elif key == "left":
            self.cursor = max(0, self.cursor - 1)
            self.say(None)
        elif key == "right":
            self.cursor = min(len(cards) - 1, self.cursor + 1) if cards else 0
            self.say(None)
        elif key in ("home", "end"):
            self.cursor = 0 if key == "home" else max(0, len(cards) - 1)
            self.say(None)
        elif key == "space":
            if cards:
                self.say(p.toggle(cards[self.cursor]))
        elif key in KEYS:
            i = KEYS.index(key)
            if i < len(cards):
                self.cursor = i
                self.say(p.toggle(cards[i]))
            else:
                self.say(Entry("why_unknown_key", {"key": key}))
        elif key in ("up", "down", "tab", "shift+tab"):
            self.say(p.cycle_target(-1 if key in ("up", "shift+tab") else 1))
        elif key == "enter":
            if g.is_over:
                self.next_deal()
            elif not p.selected and cards and g.to_act == HUMAN:
                # nothing marked: play the card under the cursor
                refused = p.toggle(cards[self.cursor])
                self._do(refused if refused is not None else p.lay())
            else:
                self._do(p.lay())
        elif key == "escape":
            p.clear()
            self.say(None)
        elif key in ("tilde", "grave_accent", "ё"):
            self.say(p.toggle_cheat())
        elif key == "exclamation_mark":
            self._do(p.call())
        elif key in ("t", "p", "r", "s", "x"):
            fn = {"t": p.take, "p": p.pass_, "r": p.transfer, "s": p.show, "x": p.exchange}[key]
            self._do(fn())
        elif key == "u":
            self.undo()
        elif key == "h":
            self.run_worker(self.hint(), exclusive=True, group="hint")
        elif key == "f":
            self.fast = not self.fast
            self.say(Entry("fast_on" if self.fast else "fast_off"))
            if self.fast and self._timer is not None:
                self._cancel_timer()
                self.schedule_bot()
        elif key == "l":
            self.session.lang = "ru" if self.lang == "en" else "en"
            self.relabel()
            self.say(None)
        elif key == "question_mark":
            self.app.push_screen(HelpScreen(self.keys, self.lang))
        else:
            self.say(
                Entry(
                    "why_unknown_key",
                    {"key": character if character and character.isprintable() else key},
                )
            )

    def relabel(self) -> None:
        """Keys, log and the rest in the session's language, if it changed (by ``l`` here
        or on the result box); the application keeps it for the next match."""
        if self.lang == self._shown_lang:
            return
        self._shown_lang = self.lang
        use_keys(self, self.keys, self.lang, inherit=False)
        self._relog()
        self.refresh_view()
        self.post_message(LanguageChosen(self.lang))

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._pending = False

    def undo(self) -> None:
        self._cancel_timer()
        self._gen += 1
        if self.session.undo():
            self.message = Entry("ev_undo")
            self.new_observation()
            self.refresh_view()
            self.schedule_bot()
        else:
            self.say(Entry("why_no_undo"))
            self.schedule_bot()

    async def hint(self) -> None:
        if not self.session.human_to_act:
            self.say(self.picker.refusal())
            return
        obs = self.session.observation()
        from .hinting import hint_entry

        self.say(Entry("hint_wait"))
        entry = await asyncio.to_thread(hint_entry, obs)
        action = entry.values.get("move")
        if isinstance(action, Action) and self.session.observation() == obs:
            # Mark the suggested cards so Enter (or the key shown) plays it.
            self.picker.selected = (
                action.cards if action.kind in (Kind.ATTACK, Kind.DEFEND, Kind.TRANSFER) else 0
            )
            self.picker.target = action.target
        self.say(entry)
