"""Between deals: who is the durak, and the score of the match so far."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ..match import Tally
from .i18n import tr
from .keys import KeyedNode, KeySpec, use_keys
from .session import HUMAN, Session
from .widgets import team_names
from .words import Entry, Team, outcome_entries, render


def result_content(session: Session) -> Content:
    """The deal's result and the match's tally as text."""
    lang = session.lang
    g = session.game
    o = g.outcome
    assert o is not None
    over = session.match_finished()
    title = tr(lang, "match_title") if over else tr(lang, "result_title", n=session.deal_number)
    lines = [Content.styled(title, "bold underline")]
    lines += [Content(render(e, lang, session.names)) for e in outcome_entries(g)]
    if o.draw or o.durak is None:
        verdict = tr(lang, "draw")
    elif o.losing_team is not None:
        verdict = tr(lang, "your_team_lost" if o.losing_team == HUMAN % 2 else "your_team_won")
    else:
        verdict = tr(lang, "you_lost" if o.durak == HUMAN else "you_won")
    lines.append(Content.styled(verdict, "bold #ffd75f"))
    lines.append(Content(""))
    t = session.tally_with_current()
    draws = t.draws
    if t.winner_side is not None:
        side = Team(
            s for s in range(session.rules.players) if session.rules.team_of(s) == t.winner_side
        )
        lines.append(
            Content.styled(
                render(Entry("match_won_by", {"team": side}), lang, session.names), "bold"
            )
        )
    if session.rules.teams != "none":
        lines += team_rows(session, t)
    else:
        lines += player_rows(session, t)
    if draws:
        lines.append(Content(tr(lang, "draws_n", n=draws)))
    lines.append(Content(""))
    lines.append(Content.styled(tr(lang, "press_new" if over else "press_next"), "italic"))
    return Content("\n").join(lines)


def team_rows(session: Session, t: Tally) -> list[Content]:
    """One row per team: its players and the deals it lost."""
    lang = session.lang
    rules = session.rules
    names = [team_names(session, side) for side in range(rules.sides)]
    width = max(16, *(len(n) + 2 for n in names))
    rows = [Content.styled(f"{tr(lang, 'col_team'):<{width}}{tr(lang, 'col_lost'):>16}", "bold")]
    for side, name in enumerate(names):
        rows.append(
            Content.styled(
                f"{name:<{width}}{t.side_losses[side]:>16}",
                "#ffd75f" if side == rules.team_of(HUMAN) else "",
            )
        )
    return rows


def player_rows(session: Session, t: Tally) -> list[Content]:
    """One row per player: how often the durak (and the pogony, in pogonny)."""
    lang = session.lang
    counts = t.durak_counts
    pogonny = session.rules.scoring == "pogonny"
    head = f"{tr(lang, 'col_player'):<16}{tr(lang, 'col_durak'):>8}"
    if pogonny:
        head += f"{tr(lang, 'col_pogony'):>10}"
    rows = [Content.styled(head, "bold")]
    for s in range(session.rules.players):
        row = f"{session.names[s]:<16}{counts[s]:>8}"
        if pogonny:
            row += f"{t.pogonny_scores[s]:>10}"
        rows.append(Content.styled(row, "#ffd75f" if s == HUMAN else ""))
    return rows


def result_keys(over: bool) -> tuple[KeySpec, ...]:
    """The result box's keys, as its footer shows them (instead of the game's)."""
    return (
        KeySpec("press('enter')", "enter", "key_new_match" if over else "key_next_deal"),
        KeySpec("press('escape')", "escape", "key_look_table"),
        KeySpec("press('r')", "r", "review.key_review", ru="к"),
        KeySpec("press('l')", "l", "key_lang", ru="д"),
        KeySpec("press('q')", "q", "key_quit", ru="й"),
    )


class ResultScreen(KeyedNode, ModalScreen[str]):
    """Dismissed with ``next``, ``new``, ``look``, ``review`` or ``quit``; ``l`` switches the
    language in place; any other key says which keys work here."""

    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    #result-box { width: 60; max-width: 100%; height: auto; max-height: 100%;
                  border: thick $accent; background: $panel; padding: 0 2; }
    #result-why { color: $warning; height: auto; }
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.keys = result_keys(session.match_finished())
        use_keys(self, self.keys, session.lang, inherit=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="result-box"):
            yield Static(result_content(self.session), id="result")
            yield Static(id="result-why")
        yield Footer(compact=True)

    def match_over(self) -> bool:
        return self.session.match_finished()

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.press(event.key, event.character)

    def action_press(self, key: str) -> None:
        self.press(key)

    def press(self, key: str, character: str | None = None) -> None:
        key = {"й": "q", "т": "n", "д": "l", "к": "r"}.get(key, key)
        if key == "q":
            self.dismiss("quit")
        elif key == "r":
            self.dismiss("review")  # the deal's review, then this box again
        elif key == "escape":
            self.dismiss("look")  # back to the finished table
        elif key in ("enter", "n", "space"):
            self.dismiss("new" if self.match_over() else "next")
        elif key == "l":
            s = self.session
            s.lang = "ru" if s.lang == "en" else "en"
            use_keys(self, self.keys, s.lang, inherit=False)
            self.query_one("#result", Static).update(result_content(s))
            self.query_one("#result-why", Static).update("")
        else:
            shown = character if character and character.isprintable() else key
            why = tr(self.session.lang, "why_result_key", key=shown)
            self.query_one("#result-why", Static).update(Content(why))

    def on_click(self, event: events.Click) -> None:
        if event.widget is not None and event.widget.id in ("result", "result-box"):
            self.dismiss("new" if self.match_over() else "next")
