"""A match of one person against bots, without any screen: moves, the log, undo, records.

The person always sits at seat 0; in team games seat 2 (and 4) are their partners.
Bots see only their own ``game.observation(seat)``.

>>> from durak import Rules
>>> s = Session(Settings(Rules(), opponents=["greedy"], seed=3, save=None))
>>> while not s.game.is_over:
...     seat = s.game.to_act
...     _ = s.apply(s.bot_choice() if seat != 0 else s.game.legal_actions()[0])
>>> s.match.next_deal() is None
True
"""

from __future__ import annotations

import copy
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import bots as bots_pkg
from ..actions import Action
from ..errors import TurnError
from ..game import Game
from ..match import Match, Tally
from ..observation import Observation
from ..rules import Rules
from ..seats import Seats
from .i18n import has, seat_names, tr
from .words import Entry, Seat, deal_trump, play

HUMAN = 0


@dataclass
class Settings:
    """Everything the start screen asks for."""

    rules: Rules = field(default_factory=Rules)
    opponents: list[str] = field(default_factory=list)  # a bot spec per seat 1..n-1
    deals: int = 1
    seed: int | None = None
    name: str | None = None
    lang: str = "en"
    save: Path | None = None  # where the record goes on exit; None: not saved
    delay: float = 0.6  # seconds between bot moves

    def opponent_specs(self) -> list[str]:
        """One spec per other seat; missing ones are the default level."""
        n = self.rules.players - 1
        specs = list(self.opponents[:n])
        default = default_opponent()
        return specs + [specs[-1] if specs else default] * (n - len(specs))


# -- bots and their levels ---------------------------------------------------------------------
def level_count() -> int:
    """How many numbered levels ``durak.bots.level`` offers."""
    return len(bots_pkg.LEVELS)


def opponent_choices() -> list[str]:
    """Bot specs for the start screen, weakest first (the learned player, then the
    cheater and the catcher of шулерский, last)."""
    return [f"level:{i}" for i in range(1, level_count() + 1)] + ["learned", "cheater", "catcher"]


def default_opponent() -> str:
    """A fair opponent for a newcomer: level 4, a quick searcher."""
    return "level:4"


def split_specs(text: str) -> list[str]:
    """The bot specs of ``--opponents``: comma-separated, where a ``key=value`` item after
    a spec is that spec's option.

    >>> split_specs("level:3, ismcts:iterations=600,seed=1,greedy")
    ['level:3', 'ismcts:iterations=600,seed=1', 'greedy']
    """
    specs: list[str] = []
    for item in filter(None, (p.strip() for p in text.split(","))):
        if specs and "=" in item and ":" not in item:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def make_bot(spec: str, seed: int | None = None) -> bots_pkg.Bot:
    """A bot from a spec (``level:N``, a registered name, options after a colon), made by
    ``durak.bots.make``, the one parser of bot specs."""
    return bots_pkg.make(spec, seed=seed)


def spec_label(spec: str, lang: str, short: bool = False) -> str:
    """How a bot spec is shown: «level 3» (or «L3»), «greedy»…"""
    if spec.startswith("level:"):
        return tr(lang, "level_short" if short else "level_n", n=spec.partition(":")[2])
    key = f"bot_{spec}"
    return tr(lang, key) if has(key) else tr(lang, "bot_other", name=spec)


# -- records ---------------------------------------------------------------------------------------
def data_dir() -> Path:
    """Where records go by default: ``$XDG_DATA_HOME/durak`` or ``~/.local/share/durak``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "durak"


def default_save_path() -> Path:
    return data_dir() / "games" / time.strftime("match-%Y%m%d-%H%M%S.txt")


class Session:
    """One match: the person at seat 0 against bots at the other seats."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        rules = settings.rules
        self._lang = settings.lang
        self.names = seat_names(settings.lang, rules.players, settings.name)
        self.specs = [""] + settings.opponent_specs()
        # deals 0: play until the match ends by itself (pagony: a side hangs the queen).
        deals = settings.deals if settings.deals > 0 or rules.scoring != "pagony" else None
        self.match = Match(
            rules,
            seed=settings.seed,
            deals=max(1, deals) if deals is not None else None,
            names=self.names,
        )
        base = self.match.seed % 10_000
        # the person's seat is played from the screen; the bots see every move through it
        self.seats = Seats(
            None if s == HUMAN else make_bot(self.specs[s], seed=base + s)
            for s in range(rules.players)
        )
        self.log: list[Entry] = []
        self.points: list[int] = []  # history lengths at the person's decisions
        self.saved_to: Path | None = None
        self._start_deal()

    @property
    def lang(self) -> str:
        return self._lang

    @lang.setter
    def lang(self, value: str) -> None:
        """The language; the default names (the bots', and yours if you gave none)
        follow it, in place."""
        self._lang = value
        self.names[:] = seat_names(value, self.rules.players, self.settings.name)

    # -- state -------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def deal_number(self) -> int:
        return self.match.deal_number

    def match_finished(self) -> bool:
        """True when the deal in play is over and it was the match's last."""
        m = self.match
        g = self.game
        if not g.is_over or g.outcome is None:
            return False
        if g in m.games:
            return m.is_over
        t = copy.deepcopy(m.tally)
        t.add(g.outcome, m.rules)
        return (
            t.winner_side is not None
            or (m.deals is not None and t.deals >= m.deals)
            or (m.target is not None and max(t.durak_counts) >= m.target)
        )

    def tally_with_current(self) -> Tally:
        """The match's tally counting the deal in play if it is over (Match adds a deal
        only when the next one is dealt)."""
        m = self.match
        t = copy.deepcopy(m.tally)
        g = self.game
        if g.is_over and g.outcome is not None and g not in m.games:
            t.add(g.outcome, m.rules)
        return t

    def observation(self) -> Observation:
        return self.game.observation(HUMAN)

    @property
    def human_to_act(self) -> bool:
        return self.game.to_act == HUMAN

    def is_partner(self, seat: int) -> bool:
        return self.rules.teams != "none" and seat != HUMAN and seat % 2 == HUMAN % 2

    # -- moves -----------------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Entry]:
        """Play ``action`` for the seat to act (IllegalActionError if it is not legal)."""
        g = self.game
        if g.to_act == HUMAN:
            self.points.append(len(g.history))
        try:
            entries = play(g, action)
        except ValueError:
            if g.to_act == HUMAN:
                self.points.pop()
            raise
        self.log.extend(entries)
        self.seats.show(g)
        return entries

    def bot_choice(self) -> Action:
        """The move of the bot to act, from its own observation only."""
        seat = self.game.to_act
        if seat is None or seat == HUMAN:
            raise TurnError("no bot is to act")
        return self.bot_decide(seat, self.game.observation(seat))

    def bot_decide(self, seat: int, obs: Observation) -> Action:
        """Ask seat's bot; safe to call in a worker thread (it touches only ``obs``)."""
        bot = self.seats[seat]
        if bot is None:
            raise TurnError(f"seat {seat} is the person's")
        action = bot.choose(obs)
        if action not in obs.legal and action not in obs.cheats + obs.calls:  # (шулерский)
            # A bot bug must not end the person's game: fall back to the cheapest move.
            action = bots_pkg.make("greedy").choose(obs)
        return action

    def undo(self) -> bool:
        """Back to the person's previous decision in this deal; False if there is none."""
        g = self.game
        if g in self.match.games or not self.points:
            return False
        target = self.points.pop()
        while len(g.history) > target:
            g.undo()
        self.seats.reset(g)  # the bots forget the moves taken back
        self.log.append(Entry("ev_undo"))
        return True

    def next_deal(self) -> bool:
        """Score the finished deal and deal the next; False when the match is over."""
        if self.match.next_deal() is None:
            return False
        self.points = []
        self._start_deal()
        return True

    def _start_deal(self) -> None:
        g = self.game
        self.log.append(
            Entry(
                "ev_deal_start",
                {"n": self.deal_number, "dealer": Seat(g.dealer), "trump": deal_trump(g)},
            )
        )
        self.seats.reset(g)

    def hint(self) -> Entry:
        """The searcher's suggestion for the person's move, as a log entry."""
        from .hinting import hint_entry

        return hint_entry(self.observation())

    # -- records ---------------------------------------------------------------------------------
    def record(self) -> str:
        """The match so far as a match record (``durak replay`` reads it); empty if no
        move was made."""
        if not self.match.games and not self.game.history:
            return ""
        return self.match.record()

    def save(self) -> Path | None:
        """Write the record to ``settings.save``; None if nothing was played or no path."""
        path = self.settings.save
        text = self.record()
        if path is None or not text:
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.saved_to = path
        return path
