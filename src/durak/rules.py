"""Rules: every option of RULES.md as one frozen dataclass, presets and a text form.

>>> r = Rules.preset("perevodnoy", players=4, deck=52, teams="2x2")
>>> str(r)
'perevodnoy(players=4,deck=52,teams=2x2)'
>>> Rules.parse(str(r)) == r
True
>>> Rules.preset("podkidnoy", teams="3x3", players=4)
Traceback (most recent call last):
...
durak.errors.RulesError: teams: 3x3 needs 6 players, not 4
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any, Final, Literal, get_args

from mypy_extensions import mypyc_attr

from .actions import num_actions
from .cards import deck_mask, lowest_rank
from .errors import ArgumentTypeError
from .errors import RulesError as RulesError  # re-exported

# Long enough for any real deal (random play averages 90 to 250 actions a deal), short
# enough that a deal going round for ever (RULES.md 5, action_limit) ends soon.
BOT_ACTION_LIMIT: Final = 1000


def pagon_ladder(deck: int) -> tuple[int, ...]:
    """The pagon ranks in the order they are hung: 6 7 8 9 10 J K A, then the queen."""
    low = lowest_rank(deck)
    return tuple(r for r in (6, 7, 8, 9, 10, 11, 13, 14) if r >= low) + (12,)


# The options with named values, typed so that mypy catches a misspelt value.
Teams = Literal["none", "2x2", "3x3"]
Opening = Literal["same_rank", "single", "one_or_two"]
ThrowIn = Literal["table_ranks", "opening_rank", "none"]
Throwers = Literal["all", "neighbours", "attacker"]
NoTrumpLead = Literal["lot", "lowest_card"]
LeadAfterDurak = Literal["from_under", "under", "lowest_trump"]
Scoring = Literal["standard", "pogonny", "pagony"]
QueenSuit = Literal["spades", "hearts", "diamonds", "clubs"]
# turned: the card turned up under the talon names the trump; none: no trump
# (бескозырный); a suit: that suit is always trumps («пики пиками»: diamonds);
# per_player: each seat its own trump (двухкозырный, docs/rules.md 12).
Trump = Literal["turned", "none", "spades", "hearts", "diamonds", "clubs", "per_player"]
# шулерский (docs/rules.md 11): off, or open (every card face up; a seat may break the
# beating or throw-in rule, and the others may call it before the bout closes).
Cheating = Literal["off", "open"]
# What a wrong call costs (docs/rules.md 11): the caller takes the table (D, V) or nothing (P).
FalseCall = Literal["takes_table", "none"]

CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "teams": get_args(Teams),
    "opening": get_args(Opening),
    "throw_in": get_args(ThrowIn),
    "throwers": get_args(Throwers),
    "no_trump_lead": get_args(NoTrumpLead),
    "lead_after_durak": get_args(LeadAfterDurak),
    "scoring": get_args(Scoring),
    "pagony_queen": get_args(QueenSuit),
    "trump": get_args(Trump),
    "cheating": get_args(Cheating),
    "false_call": get_args(FalseCall),
}


# A plain Python class even in the compiled engine, so that a wrong type reaches
# __post_init__'s RulesError instead of a compiled constructor's TypeError.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Rules:
    """One rule set. Field names are the option names of RULES.md."""

    players: int = 2
    deck: int = 36
    hand_size: int = 6
    teams: Teams = "none"
    opening: Opening = "same_rank"
    throw_in: ThrowIn = "table_ranks"
    throwers: Throwers = "all"
    pile_on: bool = True
    bout_limit: int = 6
    first_bout_limit: int = 5
    transfer: bool = False
    transfer_first_bout: bool = False
    transfer_by_showing: bool = False
    trump_exchange: bool = False
    no_trump_lead: NoTrumpLead = "lot"
    lead_after_durak: LeadAfterDurak = "from_under"
    draws: bool = True
    scoring: Scoring = "standard"
    pagony_attack: bool = True
    pagony_queen: QueenSuit = "spades"
    action_limit: int = 0
    trump: Trump = "turned"
    spades_by_spades: bool = False
    cheating: Cheating = "off"
    false_call: FalseCall = "takes_table"

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            want = type(f.default)
            if want is bool and not isinstance(v, bool):
                raise RulesError(f"{f.name}: expected on/off, got {v!r}")
            if want is int and (isinstance(v, bool) or not isinstance(v, int)):
                raise RulesError(f"{f.name}: expected a whole number, got {v!r}")
            if f.name in CHOICES and v not in CHOICES[f.name]:
                raise RulesError(f"{f.name}: {v!r} is not one of {', '.join(CHOICES[f.name])}")
        if not 2 <= self.players <= 6:
            raise RulesError(f"players: 2 to 6, not {self.players}")
        try:
            deck_mask(self.deck)
        except ValueError:
            raise RulesError(f"deck: 24, 36 or 52 cards, not {self.deck}") from None
        if self.hand_size < 1:
            raise RulesError(f"hand_size: at least 1, not {self.hand_size}")
        if self.players * self.hand_size > self.deck:
            raise RulesError(
                f"hand_size: {self.players} players x {self.hand_size} cards "
                f"need more than a {self.deck}-card deck"
            )
        need = {"2x2": 4, "3x3": 6}.get(self.teams)
        if need is not None and self.players != need:
            raise RulesError(f"teams: {self.teams} needs {need} players, not {self.players}")
        if self.bout_limit < 1:
            raise RulesError(f"bout_limit: at least 1, not {self.bout_limit}")
        if self.first_bout_limit < 1:
            raise RulesError(f"first_bout_limit: at least 1, not {self.first_bout_limit}")
        if self.action_limit < 0:
            raise RulesError(f"action_limit: 0 (off) or more, not {self.action_limit}")
        if self.transfer_by_showing and not self.transfer:
            raise RulesError("transfer_by_showing: needs transfer=on")
        self._check_trump()
        if self.cheating == "off" and self.false_call != "takes_table":
            raise RulesError("false_call: only with cheating (not cheating=off)")

    def _check_trump(self) -> None:
        """бескозырный (docs/rules.md 10): nothing to exchange, no trump to show;
        двухкозырный (12): one card turned per seat, no shared trump."""
        if self.trump == "per_player":
            for name, bad in (
                ("teams", self.teams != "none"),
                ("trump_exchange", self.trump_exchange),
                ("transfer_by_showing", self.transfer_by_showing),
                ("scoring", self.scoring == "pagony"),
            ):
                if bad:
                    value = _show(getattr(self, name))
                    raise RulesError(f"{name}: {value} is not played with trump=per_player")
            if self.players > 4:
                raise RulesError(f"players: trump=per_player is for 2 to 4, not {self.players}")
            if self.players * (self.hand_size + 1) > self.deck:
                raise RulesError(
                    f"hand_size: {self.players} players x {self.hand_size} cards and a trump "
                    f"card each need more than a {self.deck}-card deck"
                )
        if self.trump == "none":
            if self.trump_exchange:
                raise RulesError("trump_exchange: needs a trump (not trump=none)")
            if self.transfer_by_showing:
                raise RulesError("transfer_by_showing: needs a trump (not trump=none)")

    # -- derived ---------------------------------------------------------------
    @property
    def team_size(self) -> int:
        """Players per side: 1 without teams."""
        return {"none": 1, "2x2": 2, "3x3": 3}[self.teams]

    @property
    def sides(self) -> int:
        """How many sides play: 2 in team play, else one per player."""
        return 2 if self.teams != "none" else self.players

    def team_of(self, seat: int) -> int:
        """The side a seat plays for: the seat itself without teams, else seat % 2."""
        return seat % 2 if self.teams != "none" else seat

    @property
    def num_actions(self) -> int:
        """Size of the fixed action encoding (see :mod:`durak.actions`)."""
        return num_actions(self)

    # -- presets and text ------------------------------------------------------
    @staticmethod
    def preset(name: str | object = "podkidnoy", **overrides: Any) -> Rules:
        """A named preset of RULES.md section 8, with options overridden by keyword.

        >>> Rules.preset("prostoy").throw_in
        'none'
        >>> Rules.preset("podkidnoy", colour="red")
        Traceback (most recent call last):
        ...
        durak.errors.RulesError: colour: no such option
        """
        # (``object``: the compiled engine would refuse a wrong type before this check
        # could name the argument)
        if not isinstance(name, str):
            raise ArgumentTypeError(
                f"preset: a name such as 'podkidnoy', not {type(name).__name__}"
            )
        base = PRESETS.get(name)
        if base is None:
            raise RulesError(f"preset: no preset {name!r}; one of {', '.join(PRESETS)}")
        names = {f.name for f in fields(Rules)}
        for k in overrides:
            if k not in names:
                raise RulesError(f"{k}: no such option")
        opts = {**base, **overrides}
        if name == "pagony" and "teams" not in overrides and opts.get("players") == 4:
            opts["teams"] = "2x2"
        return Rules(**opts)

    @staticmethod
    def parse(text: object) -> Rules:
        """Read the text form ``name(option=value,...)``; values as :meth:`__str__` writes them.

        >>> Rules.parse("podkidnoy(players=3,pile_on=off)").pile_on
        False
        >>> Rules.parse("podkidnoy(players=3,players=4)")
        Traceback (most recent call last):
        ...
        durak.errors.RulesError: players: given twice
        """
        if not isinstance(text, str):
            raise ArgumentTypeError(
                f"rules: text such as 'podkidnoy(players=3)', not {type(text).__name__}"
            )
        text = text.strip()
        name, paren, rest = text.partition("(")
        name = name.strip() or "podkidnoy"
        if paren and not rest.endswith(")"):
            raise RulesError(f"rules: missing ')' in {text!r}")
        if ")" in rest[:-1]:
            raise RulesError(f"rules: unexpected ')' in {text!r}")
        rest = rest[:-1]
        types = {f.name: type(f.default) for f in fields(Rules)}
        overrides: dict[str, Any] = {}
        for item in filter(None, (p.strip() for p in rest.split(","))):
            key, eq, val = item.partition("=")
            key, val = key.strip(), val.strip()
            if not eq:
                raise RulesError(f"rules: expected option=value, got {item!r}")
            if key not in types:
                raise RulesError(f"{key}: no such option")
            if key in overrides:
                raise RulesError(f"{key}: given twice")
            overrides[key] = _convert(key, val, types[key])
        return Rules.preset(name, **overrides)

    def preset_name(self) -> str:
        """The preset this rule set differs least from."""
        names = list(PRESETS)
        best, at = 999, 0
        for i, n in enumerate(names):
            try:
                k = len(self._overrides(n))
            except RulesError:  # a preset that does not take this many players
                continue
            if k < best:
                best, at = k, i
        return names[at]

    def _overrides(self, name: str) -> dict[str, Any]:
        base = Rules.preset(name, players=self.players)
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
            or (f.name == "players" and self.players != 2)
        }

    def __str__(self) -> str:
        text = _TEXT.get(self)
        if text is None:
            text = _TEXT[self] = self._text()
        return text

    def _text(self) -> str:
        name = self.preset_name()
        over = self._overrides(name)
        order = ["players", "deck", "teams"] + [f.name for f in fields(self)]
        # (no lambda: mypyc cannot compile closures in a plain-Python class's methods)
        items = [(k, over[k]) for k in sorted(over, key=order.index)]
        return f"{name}({','.join(f'{k}={_show(v)}' for k, v in items)})"

    def replace(self, **changes: Any) -> Rules:
        """These rules with some options changed (each checked as in the constructor)."""
        names = {f.name for f in fields(Rules)}
        for k in changes:
            if k not in names:
                raise RulesError(f"{k}: no such option")
        return dataclasses.replace(self, **changes)

    def with_action_limit(self, limit: int | None = None) -> Rules:
        """These rules with ``action_limit`` on (``BOT_ACTION_LIMIT`` unless given), if it
        is off: for deals only programs play, which must end (RULES.md 5).

        >>> Rules().with_action_limit().action_limit
        1000
        >>> Rules(action_limit=50).with_action_limit().action_limit
        50
        """
        if self.action_limit:
            return self
        return dataclasses.replace(self, action_limit=limit or BOT_ACTION_LIMIT)


# str(rules) searches the presets; rule sets are few and immutable, so remember it.
_TEXT: dict[Rules, str] = {}


def _show(v: object) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


def _convert(key: str, val: str, typ: type) -> Any:
    if typ is bool:
        low = val.lower()
        if low in ("on", "true", "yes", "1"):
            return True
        if low in ("off", "false", "no", "0"):
            return False
        raise RulesError(f"{key}: expected on or off, got {val!r}")
    if typ is int:
        try:
            return int(val)
        except ValueError:
            raise RulesError(f"{key}: expected a whole number, got {val!r}") from None
    return val


_PODKIDNOY: Final[dict[str, Any]] = {}
PRESETS: Final[dict[str, dict[str, Any]]] = {
    "podkidnoy": _PODKIDNOY,
    "perevodnoy": {"transfer": True},
    "perevodnoy-proezdnoy": {"transfer": True, "transfer_by_showing": True},
    "prostoy": {"opening": "one_or_two", "throw_in": "none"},
    "pogonny": {"scoring": "pogonny"},
    "pagony": {"scoring": "pagony"},
    "beskozyrny": {"trump": "none"},
    "piki-pikami": {"trump": "diamonds", "spades_by_spades": True},
    "shulerskiy": {"cheating": "open"},
    "dvukhkozyrny": {"trump": "per_player"},
}
