"""The start screen: the game, the options that matter, opponents, language.

One line per option, so it fits 80x24: ↑ ↓ (or Tab) move between the lines, ← → change
a value. «Start» (focused first) plays with what is shown; ctrl+s starts from anywhere.

The form is built once. A change updates the few rows it touches in place (their text
and options, which opponent rows show), so the screen answers at once and the focus
stays where it was.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import Reactive
from textual.screen import Screen
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Static

from ..rules import PRESETS, Rules, RulesError
from .footer import KeysFooter
from .form import LABEL_W, Choice
from .howto_screen import HowToScreen
from .i18n import tr
from .keys import KeyedNode, KeySpec, use_keys, widths
from .messages import StartMatch
from .session import Settings, default_opponent, opponent_choices, spec_label

BOOL_OPTIONS = ("transfer", "transfer_by_showing", "pile_on")
FIELDS = (
    "lang",
    "preset",
    "players",
    "deck",
    "teams",
    *BOOL_OPTIONS,
    "throwers",
    "bout_limit",
    "first_bout_limit",
    "deals",
)
# Rows named by the rule option's name in the shared catalogue.
COMMON_LABELS = (*BOOL_OPTIONS, "deck", "teams", "throwers", "bout_limit", "first_bout_limit")
MAX_OPPONENTS = 5
OPPONENTS = tuple(f"opp-{seat}" for seat in range(1, MAX_OPPONENTS + 1))
# The form keeps room for every opponent, so showing or hiding one changes no size
# (a change of size costs Textual a second layout pass and frame); with the title, the
# error line, the buttons, the line of help and the footer it fills 80x24 exactly.
FORM_ROWS = len(FIELDS) + 1 + MAX_OPPONENTS
SETUP_KEYS: tuple[KeySpec, ...] = (
    KeySpec("start", "ctrl+s", "key_start"),
    KeySpec("howto", "f1", "key_howto"),
    # q and Esc quit, as on the other screens (typing q into the name field types it)
    KeySpec("app.quit", "q,escape,ctrl+q", "key_quit", ru="й"),
)


def form_from(settings: Settings) -> dict[str, Any]:
    r = settings.rules
    specs = settings.opponent_specs()
    return {
        "lang": settings.lang,
        "preset": r.preset_name(),
        "players": r.players,
        "deck": r.deck,
        "teams": r.teams,
        "transfer": r.transfer,
        "transfer_by_showing": r.transfer_by_showing,
        "pile_on": r.pile_on,
        "bout_limit": r.bout_limit,
        "first_bout_limit": r.first_bout_limit,
        "throwers": r.throwers,
        "deals": settings.deals,
        "name": settings.name or "",
        "opponents": specs + [specs[-1]] * (MAX_OPPONENTS - len(specs)),
    }


def rules_from(form: dict[str, Any]) -> Rules:
    """The rules the form describes (RulesError if its options do not go together)."""
    over: dict[str, Any] = {
        k: form[k]
        for k in (
            "players",
            "deck",
            "teams",
            "transfer",
            "pile_on",
            "bout_limit",
            "first_bout_limit",
            "throwers",
        )
    }
    over["transfer_by_showing"] = form["transfer_by_showing"] and form["transfer"]
    return Rules.preset(form["preset"], **over)


def settings_from(form: dict[str, Any], base: Settings) -> Settings:
    rules = rules_from(form)
    return replace(
        base,
        rules=rules,
        lang=form["lang"],
        deals=int(form["deals"]),
        name=form["name"].strip() or None,
        opponents=list(form["opponents"][: rules.players - 1]),
    )


def apply_change(form: dict[str, Any], key: str, value: Any) -> None:
    """Put one changed field into ``form``, with what it implies for the others."""
    was = form.get("preset")
    form[key] = value
    if key == "preset":
        base = Rules.preset(str(value))
        # шулерский: the bots that cheat and call are the opponents (the level bots
        # never do, and against them it is plain подкидной); other games: level bots.
        cheating = base.cheating != "off"
        before = was in PRESETS and Rules.preset(str(was)).cheating != "off"
        if cheating != before:
            form["opponents"] = (
                ["cheater"] + ["catcher"] * (MAX_OPPONENTS - 1)
                if cheating
                else [default_opponent()] * MAX_OPPONENTS
            )
        for opt in BOOL_OPTIONS:
            form[opt] = getattr(base, opt)
        if value == "pagony":
            form["deals"] = 0
            if form["players"] == 4:
                form["teams"] = "2x2"
        elif form["deals"] == 0:
            form["deals"] = 3
    elif key == "players" and form["teams"] != "none":
        form["teams"] = {4: "2x2", 6: "3x3"}.get(int(value), "none")
    elif key == "transfer" and not value:
        form["transfer_by_showing"] = False


class Column(VerticalScroll, can_focus=False):
    """The start screen's scrolling column. Not a Tab stop of its own (Textual's is an
    unmarked one): its lines are, and the focused line is scrolled into view."""


def relabel_text(widget: Static, text: VisualType) -> None:
    """Show ``text`` in ``widget``, with a new layout only if it needs more or fewer
    lines (a layout pass redraws the whole screen and, when a size changes, needs a
    second pass and frame)."""
    size = widget.content_size
    widget.update(text, layout=False)
    if not size or widget.get_content_height(size, size, size.width) != size.height:
        widget.refresh(layout=True)


class SetupScreen(KeyedNode, Screen[None]):
    # Textual repaints the whole screen when the focus moves; here the rows, the name
    # and the buttons repaint themselves (their :focus styles), so a move redraws two.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    # ↑ ↓ move between the lines and the buttons from anywhere (a line's own ↑ ↓ do the
    # same); ← → move between the buttons when one has the focus.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
        Binding("left", "button(-1)", show=False),
        Binding("right", "button(1)", show=False),
    ]
    DEFAULT_CSS = f"""
    SetupScreen {{ align: center top; }}
    #setup {{ width: 78; max-width: 100%; height: 1fr; padding: 0 1;
              scrollbar-gutter: stable; }}
    #setup-title {{ text-style: bold; color: $accent; height: 1; margin-bottom: 1; }}
    #form {{ height: {FORM_ROWS}; }}
    #row-name {{ height: 1; }}
    #row-name Label {{ width: {LABEL_W}; height: 1; color: $text-muted; }}
    #row-name:focus-within {{ background: $accent 35%; }}
    #row-name:focus-within Label {{ color: $text; text-style: bold; }}
    #name {{ width: 1fr; }}
    #error {{ color: $error; height: auto; min-height: 1; }}
    #setup-buttons {{ height: auto; }}
    #setup-buttons Button {{ margin-right: 2; }}
    #setup-buttons Button:focus {{ text-style: bold reverse; }}
    #setup-help {{ color: $text-muted; height: auto; }}
    """

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.base = settings
        self.form = form_from(settings)
        use_keys(self, SETUP_KEYS, self.lang)

    @property
    def lang(self) -> str:
        return str(self.form["lang"])

    def t(self, key: str, **kw: object) -> str:
        return tr(self.lang, key, **kw)

    # -- what each row offers -------------------------------------------------------------
    def options(self, key: str) -> list[tuple[str, Any]]:
        f = self.form
        if key == "lang":
            return [("English", "en"), ("Русский", "ru")]
        if key == "preset":
            return [(self.t(f"preset.{p}"), p) for p in PRESETS]
        if key == "players":
            return [(str(n), n) for n in range(2, 7)]
        if key == "deck":
            return [(self.t("count.cards", n=n), n) for n in (24, 36, 52)]
        if key == "teams":
            teams = [(self.t("val.teams.none"), "none")]
            if f["players"] == 4:
                teams.append(("2x2", "2x2"))
            if f["players"] == 6:
                teams.append(("3x3", "3x3"))
            return teams
        if key in BOOL_OPTIONS:
            return [(self.t("val.on"), True), (self.t("val.off"), False)]
        if key == "throwers":
            return [(self.t(f"val.throwers.{t}"), t) for t in ("all", "neighbours", "attacker")]
        if key in ("bout_limit", "first_bout_limit"):
            return [(str(n), n) for n in range(1, 13)]
        if key == "deals":
            deals = [(str(n), n) for n in (1, 2, 3, 5, 10, 20)]
            if f["preset"] == "pagony":
                deals.insert(0, (self.t("deals_until_queen"), 0))
            return deals
        choices = [(spec_label(s, self.lang), s) for s in opponent_choices()]
        spec = self.value(key)
        if spec not in [v for _, v in choices]:
            choices.append((spec_label(spec, self.lang), spec))
        return choices

    def value(self, key: str) -> Any:
        if key in OPPONENTS:
            return self.form["opponents"][int(key[4:]) - 1]
        return self.form[key]

    def _set_value(self, key: str, value: Any) -> None:
        if key in OPPONENTS:
            self.form["opponents"][int(key[4:]) - 1] = value
        else:
            self.form[key] = value

    def label_text(self, key: str) -> str:
        if key in OPPONENTS:
            seat = int(key[4:])
            partner = self.form["teams"] != "none" and seat % 2 == 0
            return self.t("partner_n" if partner else "opponent_n", n=seat)
        if key in COMMON_LABELS:
            return self.t(f"opt.{key}")  # the option's name, as the web table shows it
        return self.t({"name": "your_name", "lang": "language"}.get(key, key))

    # -- building and updating ---------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Column(id="setup"):
            yield Static(self.t("setup_title"), id="setup-title")
            with Vertical(id="form"):
                for key in FIELDS:
                    yield self._choice(key)
                with Horizontal(id="row-name"):
                    yield Label("  " + self.label_text("name"), id="label-name")
                    yield Input(
                        self.form["name"],
                        id="name",
                        compact=True,
                        placeholder=self.t("default_name"),
                    )
                for key in OPPONENTS:
                    yield self._choice(key)
            yield Static(id="error")
            with Horizontal(id="setup-buttons"):
                yield Button(self.t("start"), id="start", variant="success", compact=True)
                yield Button(self.t("howto"), id="howto", compact=True)
                yield Button(self.t("quit"), id="quit", compact=True)
            yield Static(self.t("setup_help"), id="setup-help")
        yield KeysFooter(widths=widths(SETUP_KEYS))

    def _choice(self, key: str) -> Choice:
        choice = Choice(
            self.label_text(key),
            self.options(key),
            self.value(key),
            id=key,
            switch=key in BOOL_OPTIONS,
        )
        self._set_value(key, choice.value)  # a value no longer offered became the first
        return choice

    def on_mount(self) -> None:
        self.sync(relabel=False)
        # Every opponent row is laid out once, unseen (transparent), before the unused
        # ones are hidden: a row shown for the first time changes size (from none),
        # which costs Textual a second layout pass and frame; shown again, it does not.
        for seat, key in enumerate(OPPONENTS, 1):
            if seat >= self.form["players"]:
                row = self.query_one(f"#{key}", Choice)
                row.display, row.styles.opacity = True, 0
        self.call_after_refresh(self.show_opponents)
        self.query_one("#start").focus()

    def sync(self, relabel: bool) -> None:
        """Bring every row in line with the form; ``relabel`` after a change of language.
        Rows repaint only themselves; only showing or hiding opponents moves anything."""
        for key in (*FIELDS, *OPPONENTS):
            choice = self.query_one(f"#{key}", Choice)
            choice.set(self.label_text(key), self.options(key), self.value(key))
            self._set_value(key, choice.value)
        self.query_one("#transfer_by_showing", Choice).disabled = not self.form["transfer"]
        self.show_opponents()
        if relabel:
            self.mark_name_row()
            relabel_text(self.query_one("#setup-title", Static), self.t("setup_title"))
            self.query_one("#name", Input).placeholder = self.t("default_name")
            for button in ("start", "howto", "quit"):
                self.query_one(f"#{button}", Button).label = self.t(button)
            relabel_text(self.query_one("#setup-help", Static), self.t("setup_help"))
            use_keys(self, SETUP_KEYS, self.lang)
        error = self.query_one("#error", Static)
        text = self.error_text()
        if str(error.render()) != text:
            relabel_text(error, Content(text))  # (no markup: a reason may hold [ ])

    def mark_name_row(self) -> None:
        """The name's label, marked ▶ like the other lines while its field has the focus."""
        focused = self.focused is not None and self.focused.id == "name"
        text = ("▶ " if focused else "  ") + self.label_text("name")
        label = self.query_one("#label-name", Label)
        if str(label.render()) != text:
            relabel_text(label, text)

    def on_descendant_focus(self) -> None:
        self.mark_name_row()

    def on_descendant_blur(self) -> None:
        self.mark_name_row()

    def show_opponents(self) -> None:
        """Show a row for each opponent the form has, hide the others."""
        for seat, key in enumerate(OPPONENTS, 1):
            row = self.query_one(f"#{key}", Choice)
            row.display = seat < self.form["players"]
            row.styles.clear_rule("opacity")

    def error_text(self) -> str:
        try:
            rules_from(self.form)
        except RulesError as e:
            return self.clash_text(e)
        return ""

    def clash_text(self, e: RulesError) -> str:
        """Why the form's options do not go together, in the player's language (the
        catalogue's words shared with the web form; the engine's own reason, in English,
        only for a clash the form has no words for)."""
        f = self.form
        hand = Rules.preset(f["preset"]).hand_size
        if f["players"] * hand > f["deck"]:
            reason = self.t("form.hand_too_big", players=f["players"], hand=hand, deck=f["deck"])
        else:
            reason = str(e)
        return self.t("bad_rules", reason=reason)

    # -- events ----------------------------------------------------------------------------
    @on(Choice.Changed)
    def choice_changed(self, event: Choice.Changed) -> None:
        key = event.choice.id or ""
        if key in OPPONENTS:
            self._set_value(key, event.value)
            return
        apply_change(self.form, key, event.value)
        self.sync(relabel=key == "lang")

    @on(Input.Changed, "#name")
    def name_changed(self, event: Input.Changed) -> None:
        self.form["name"] = event.value

    @on(Button.Pressed, "#start")
    def start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#howto")
    def howto_pressed(self) -> None:
        self.action_howto()

    @on(Button.Pressed, "#quit")
    def quit_pressed(self) -> None:
        self.app.exit(0)

    def action_button(self, step: int) -> None:
        """← → on a button: the previous or next button."""
        buttons = list(self.query("#setup-buttons Button").results(Button))
        if self.focused in buttons:
            i = buttons.index(self.focused)
            buttons[(i + step) % len(buttons)].focus()

    def action_howto(self) -> None:
        self.app.push_screen(HowToScreen(str(self.form["preset"]), self.lang))

    def action_start(self) -> None:
        try:
            settings = settings_from(self.form, self.base)
        except RulesError as e:
            self.query_one("#error", Static).update(self.clash_text(e))
            return
        self.post_message(StartMatch(settings))
