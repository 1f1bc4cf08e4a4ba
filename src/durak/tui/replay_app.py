"""``durak replay FILE --step``: step through a game or match record in the terminal.

Every hand is shown face up (a record holds the whole deck), with the table, the
trump, talon and discard, and the moves so far in plain words.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Footer, RichLog, Static

from ..game import Game
from ..i18n import rules_name, seat_names
from ..match import record_deals
from ..record import RecordError
from .help_screen import HelpScreen
from .i18n import default_lang, plural, tr
from .keys import KeyedNode, KeySpec, use_keys
from .render import chip, join_lines, table_lines, trump_suit_content
from .words import Entry, Seat, deal_trump, outcome_entries, own_trumps_text, play, render

REPLAY_KEYS: tuple[KeySpec, ...] = (
    KeySpec("press('right')", "right,space,enter", "key_step_next"),
    KeySpec("press('left')", "left", "key_step_back"),
    KeySpec("press('pagedown')", "pagedown", "key_bout_next"),
    KeySpec("press('pageup')", "pageup", "key_bout_back"),
    KeySpec("press('home')", "home", "key_first", False),
    KeySpec("press('end')", "end", "key_last", False),
    KeySpec("press('right_square_bracket')", "right_square_bracket", "key_deal_next"),
    KeySpec("press('left_square_bracket')", "left_square_bracket", "key_deal_back"),
    KeySpec("press('l')", "l", "key_lang", False, ru="д"),
    KeySpec("press('question_mark')", "question_mark,f1", "key_help"),
    KeySpec("press('q')", "q,escape", "key_quit", ru="й"),
)


def load(text: str) -> tuple[list[Game], list[str]]:
    """The deals of a game or match record, each replayed, and the players' names."""
    return record_deals(text)


class Stepper:
    """Positions in one deal: ``state(k)`` is the game after its first ``k`` actions."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.states: list[Game] = [game.fresh()]
        self.entries: list[list[Entry]] = [[]]

    def __len__(self) -> int:
        return len(self.game.history) + 1

    def state(self, k: int) -> Game:
        while len(self.states) <= k:
            g = self.states[-1].clone()
            entries = play(g, self.game.history[len(self.states) - 1], reveal=True)
            self.states.append(g)
            self.entries.append(entries)
        return self.states[k]

    def log(self, k: int) -> list[Entry]:
        self.state(k)
        return [e for es in self.entries[1 : k + 1] for e in es]


class ReplayApp(KeyedNode, App[int]):
    TITLE = "Durak replay"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #head { height: 1; padding: 0 1; text-style: bold; background: $boost; }
    #hands { height: auto; padding: 0 1; }
    #felt { height: auto; min-height: 4; background: #0d4f2b; }
    #table { width: 1fr; height: auto; padding: 0 1; }
    #side { width: 26; height: auto; padding: 0 1; }
    #last { height: auto; padding: 0 1; text-style: bold; }
    #why { height: auto; padding: 0 1; color: $warning; }
    #log { height: 1fr; min-height: 3; padding: 0 1; border-top: solid $primary-darken-2; }
    """
    AUTO_FOCUS = None

    def __init__(self, deals: list[Game], names: list[str], lang: str | None = None) -> None:
        super().__init__()
        self.deals = [Stepper(g) for g in deals]
        self.raw_names = names
        self.lang = lang or default_lang()
        self.deal = 0
        self.pos = 0
        use_keys(self, REPLAY_KEYS, self.lang)

    @property
    def names(self) -> list[str]:
        """The players' names, the default ones («Игрок 2») in the language shown."""
        return seat_names(self.raw_names, self.lang)

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield Static(id="hands")
        with Horizontal(id="felt"):
            yield Static(id="table")
            yield Static(id="side")
        yield Static(id="last")
        yield Static(id="why")
        log = RichLog(id="log", wrap=True, markup=False, min_width=20)
        log.can_focus = False  # the arrows step through the record, not the log
        yield log
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.show()

    @property
    def stepper(self) -> Stepper:
        return self.deals[self.deal]

    def show(self) -> None:
        lang = self.lang
        st = self.stepper
        g = st.state(self.pos)
        head = (
            f"{tr(lang, 'replay_title')} · {rules_name(g.rules, lang)} · "
            + tr(lang, "replay_deal", i=self.deal + 1, n=len(self.deals))
            + " · "
            + tr(lang, "replay_pos", i=self.pos, n=len(st) - 1)
        )
        self.query_one("#head", Static).update(head)
        width = max(30, self.size.width - 2)
        lines: list[Content] = []
        for s in range(g.rules.players):
            role = ""
            if not g.is_over:
                role = ("▶ " if g.to_act == s else "") + (
                    tr(lang, "term.attacker")
                    if s == g.attacker
                    else tr(lang, "term.defender")
                    if s == g.defender
                    else ""
                )
            if g.out[s]:
                role = tr(lang, "term.out")
            name = Content.styled(
                f"{self.names[s][:12]:<12} {role[:12]:<12} ",
                "bold reverse #ffd75f" if g.to_act == s else "bold",
            )
            chips: list[Content | str] = []
            for c in sorted(g.hand(s), key=lambda c: (c.suit == g.trump_suit, c.suit, c.rank)):
                chips.append(chip(c, lang)[0])
                chips.append(" ")
            line = Content.assemble(name, *chips)
            lines.append(line.truncate(width) if line.cell_length > width else line)
        self.query_one("#hands", Static).update(join_lines(lines))
        if g.table:
            table = join_lines(table_lines(g.table, lang, width=max(20, width - 28)))
        else:
            table = Content(tr(lang, "empty_table"))
        self.query_one("#table", Static).update(table)
        side = [
            Content.assemble(
                f"{tr(lang, 'term.trump')} ",
                chip(g.trump, lang)[0]
                if g.trump is not None and g.trump.suit == g.trump_suit
                else trump_suit_content(g.trump_suit, g.trump, lang)
                if not g.observation(0).trumps
                else own_trumps_text(g.observation(0).trumps, self.names),  # двухкозырный
            ),
            Content(f"{tr(lang, 'term.talon')}: {g.talon_size}"),
            Content(f"{tr(lang, 'term.discard')}: {plural(lang, len(g.discard), 'cards')}"),
            Content(f"{tr(lang, 'term.bout')} {g.bout + 1}"),
        ]
        self.query_one("#side", Static).update(join_lines(side))
        if self.pos == 0:
            last = [
                Entry(
                    "ev_deal_start",
                    {"n": self.deal + 1, "dealer": Seat(g.dealer), "trump": deal_trump(g)},
                )
            ]
        else:
            st.state(self.pos)
            last = st.entries[self.pos]
        if g.is_over and self.pos == len(st) - 1 and not last:
            last = outcome_entries(g)
        self.query_one("#last", Static).update("\n".join(render(e, lang, self.names) for e in last))
        log = self.query_one("#log", RichLog)
        log.clear()
        for e in st.log(self.pos):
            log.write(Text(render(e, lang, self.names)))

    def step(self, delta: int) -> None:
        self.pos = max(0, min(len(self.stepper) - 1, self.pos + delta))
        self.show()

    def bout_step(self, delta: int) -> None:
        """To the start of the next (or this / the previous) bout."""
        st = self.stepper
        bout = st.state(self.pos).bout
        k = self.pos
        if delta > 0:
            while k < len(st) - 1 and st.state(k).bout == bout:
                k += 1
        else:
            k = self._bout_start(bout)
            if k == self.pos and bout > 0:
                k = self._bout_start(bout - 1)
        self.pos = k
        self.show()

    def _bout_start(self, bout: int) -> int:
        k = 0
        while self.stepper.state(k).bout < bout:
            k += 1
        return k

    def on_key(self, event: events.Key) -> None:
        """A key without a binding: say which keys work here."""
        if self.is_bound(event.key) or event.key.startswith("ctrl+"):
            return
        event.stop()
        shown = event.character if event.character and event.character.isprintable() else event.key
        self.query_one("#why", Static).update(Content(tr(self.lang, "why_replay_key", key=shown)))

    def action_press(self, key: str) -> None:
        """One key of the stepper (bound in REPLAY_KEYS)."""
        self.query_one("#why", Static).update("")
        if key in ("right", "space", "enter"):
            self.step(1)
        elif key == "left":
            self.step(-1)
        elif key == "pagedown":
            self.bout_step(1)
        elif key == "pageup":
            self.bout_step(-1)
        elif key == "home":
            self.step(-len(self.stepper))
        elif key == "end":
            self.step(len(self.stepper))
        elif key in ("right_square_bracket", "left_square_bracket"):
            d = 1 if key == "right_square_bracket" else -1
            self.deal = max(0, min(len(self.deals) - 1, self.deal + d))
            self.pos = 0
            self.show()
        elif key == "l":
            self.lang = "ru" if self.lang == "en" else "en"
            use_keys(self, REPLAY_KEYS, self.lang)
            self.show()
        elif key == "question_mark":
            self.push_screen(HelpScreen(REPLAY_KEYS, self.lang))
        elif key == "q":
            self.exit(0)


def run_replay(text: str, lang: str | None = None) -> int:
    """Open the stepper on a record's text; 1 if the record cannot be read."""
    import sys

    try:
        deals, names = load(text)
    except RecordError as e:
        print(f"durak replay: {e}", file=sys.stderr)
        return 1
    result = ReplayApp(deals, names, lang).run()
    return result or 0
