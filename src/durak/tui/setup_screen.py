"""The start screen: the game, the options that matter, opponents, language.

Everything fits in one column of one-line controls, so it works at 80x24. Enter on
«Start» (focused first) plays with what is shown.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from ..rules import PRESETS, Rules, RulesError
from .i18n import tr
from .session import Settings, opponent_choices, spec_label

BOOL_OPTIONS = ("transfer", "transfer_by_showing", "pile_on")


def form_from(settings: Settings) -> dict[str, Any]:
    r = settings.rules
    return {
        "lang": settings.lang, "preset": r.preset_name(), "players": r.players, "deck": r.deck,
        "teams": r.teams, "transfer": r.transfer, "transfer_by_showing": r.transfer_by_showing,
        "pile_on": r.pile_on, "bout_limit": r.bout_limit,
        "first_bout_limit": r.first_bout_limit, "throwers": r.throwers,
        "deals": settings.deals, "name": settings.name or "",
        "opponents": settings.opponent_specs() + [settings.opponent_specs()[-1]] * 5,
    }


def rules_from(form: dict[str, Any]) -> Rules:
    """The rules the form describes (RulesError if its options do not go together)."""
    over: dict[str, Any] = {k: form[k] for k in (
        "players", "deck", "teams", "transfer", "pile_on", "bout_limit", "first_bout_limit",
        "throwers")}
    over["transfer_by_showing"] = form["transfer_by_showing"] and form["transfer"]
    return Rules.preset(form["preset"], **over)


def settings_from(form: dict[str, Any], base: Settings) -> Settings:
    rules = rules_from(form)
    return replace(base, rules=rules, lang=form["lang"], deals=int(form["deals"]),
                   name=form["name"].strip() or None,
                   opponents=list(form["opponents"][: rules.players - 1]))


class SetupScreen(Screen[None]):
    DEFAULT_CSS = """
    SetupScreen { align: center top; }
    #setup { width: 78; max-width: 100%; height: 1fr; padding: 0 1; }
    #setup-title { text-style: bold; color: $accent; height: 1; margin-bottom: 1; }
    #form { grid-size: 2; grid-columns: 34 1fr; grid-rows: 1; grid-gutter: 0 1; height: auto; }
    #form Label { width: 100%; color: $text-muted; }
    #form Select, #form Input, #form Checkbox { width: 100%; }
    #error { color: $error; height: auto; margin-top: 1; }
    #setup-buttons { height: auto; margin-top: 1; }
    #setup-buttons Button { margin-right: 2; }
    #setup-help { color: $text-muted; height: auto; }
    """

    BINDINGS = [("ctrl+s", "start", "Start")]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.base = settings
        self.form = form_from(settings)
        self._refocus: str | None = "start"

    @property
    def lang(self) -> str:
        return str(self.form["lang"])

    def t(self, key: str, **kw: object) -> str:
        return tr(self.lang, key, **kw)

    def compose(self) -> ComposeResult:
        f = self.form
        on_off = self.t("on"), self.t("off")
        with VerticalScroll(id="setup"):
            yield Static(self.t("setup_title"), id="setup-title")
            with Grid(id="form"):
                yield Label(self.t("language"))
                yield self._select("lang", [("English", "en"), ("Русский", "ru")])
                yield Label(self.t("preset"))
                yield self._select("preset", [(self.t(f"preset_{p}"), p) for p in PRESETS])
                yield Label(self.t("players"))
                yield self._select("players", [(str(n), n) for n in range(2, 7)])
                yield Label(self.t("deck"))
                yield self._select("deck", [(self.t("cards_deck", n=n), n) for n in (24, 36, 52)])
                yield Label(self.t("teams"))
                teams = [(self.t("teams_none"), "none")]
                if f["players"] == 4:
                    teams.append(("2x2", "2x2"))
                if f["players"] == 6:
                    teams.append(("3x3", "3x3"))
                yield self._select("teams", teams)
                for opt in BOOL_OPTIONS:
                    yield Label(self.t(opt))
                    yield Checkbox(on_off[0] if f[opt] else on_off[1], f[opt], id=opt,
                                   compact=True, disabled=opt == "transfer_by_showing"
                                   and not f["transfer"])
                yield Label(self.t("throwers"))
                yield self._select("throwers", [(self.t(f"throwers_{t}"), t)
                                                for t in ("all", "neighbours", "attacker")])
                yield Label(self.t("bout_limit"))
                yield self._select("bout_limit", [(str(n), n) for n in range(1, 13)])
                yield Label(self.t("first_bout_limit"))
                yield self._select("first_bout_limit", [(str(n), n) for n in range(1, 13)])
                yield Label(self.t("deals"))
                deals = [(str(n), n) for n in (1, 2, 3, 5, 10, 20)]
                if f["preset"] == "pagony":
                    deals.insert(0, (self.t("deals_until_queen"), 0))
                yield self._select("deals", deals)
                yield Label(self.t("your_name"))
                yield Input(f["name"], placeholder=self.t("default_name"), id="name",
                            compact=True)
                choices = [(spec_label(s, self.lang), s) for s in opponent_choices()]
                for seat in range(1, f["players"]):
                    partner = f["teams"] != "none" and seat % 2 == 0
                    yield Label(self.t("partner_n" if partner else "opponent_n", n=seat))
                    spec = f["opponents"][seat - 1]
                    opts = choices + ([(spec_label(spec, self.lang), spec)]
                                      if spec not in dict((v, k) for k, v in choices) else [])
                    yield Select(opts, value=spec, allow_blank=False, compact=True,
                                 id=f"opp-{seat}")
            yield Static(self.error_text(), id="error")
            with Horizontal(id="setup-buttons"):
                yield Button(self.t("start"), id="start", variant="success", compact=True)
                yield Button(self.t("quit"), id="quit", compact=True)
            yield Static(self.t("setup_help"), id="setup-help")

    def _select(self, key: str, options: list[tuple[str, Any]]) -> Select[Any]:
        values = [v for _, v in options]
        value = self.form[key] if self.form[key] in values else values[0]
        self.form[key] = value
        return Select(options, value=value, allow_blank=False, compact=True, id=key)

    def on_mount(self) -> None:
        self._focus()

    def _focus(self) -> None:
        if self._refocus:
            try:
                self.query_one(f"#{self._refocus}").focus()
            except Exception:
                self.query_one("#start").focus()

    def error_text(self) -> str:
        try:
            rules_from(self.form)
        except RulesError as e:
            return self.t("bad_rules", reason=str(e))
        return ""

    async def _rebuild(self, focus: str) -> None:
        self._refocus = focus
        await self.recompose()
        self._focus()

    @on(Select.Changed)
    async def select_changed(self, event: Select.Changed) -> None:
        key = event.select.id or ""
        value: Any = event.value
        if key.startswith("opp-"):
            self.form["opponents"][int(key[4:]) - 1] = value
            return
        if self.form.get(key) == value:
            return
        self.form[key] = value
        if key == "preset":
            base = Rules.preset(str(value))
            for opt in BOOL_OPTIONS:
                self.form[opt] = getattr(base, opt)
            if value == "pagony":
                self.form["deals"] = 0
                if self.form["players"] == 4:
                    self.form["teams"] = "2x2"
        if key == "players":
            self.form["teams"] = {4: "2x2", 6: "3x3"}.get(int(value), "none") \
                if self.form["teams"] != "none" else "none"
        if key in ("lang", "preset", "players", "teams"):
            await self._rebuild(key)
        else:
            self.query_one("#error", Static).update(self.error_text())

    @on(Checkbox.Changed)
    async def checkbox_changed(self, event: Checkbox.Changed) -> None:
        key = event.checkbox.id or ""
        self.form[key] = event.value
        if key == "transfer" and not event.value:
            self.form["transfer_by_showing"] = False
        await self._rebuild(key)

    @on(Input.Changed, "#name")
    def name_changed(self, event: Input.Changed) -> None:
        self.form["name"] = event.value

    @on(Button.Pressed, "#start")
    def start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#quit")
    def quit_pressed(self) -> None:
        self.app.exit(0)

    def action_start(self) -> None:
        try:
            settings = settings_from(self.form, self.base)
        except RulesError as e:
            self.query_one("#error", Static).update(self.t("bad_rules", reason=str(e)))
            return
        app = self.app
        from .app import DurakApp

        assert isinstance(app, DurakApp)
        app.start_match(settings)
