"""Match: a series of deals with the same players and rules (RULES.md sections 2, 7, 9).

The first dealer is chosen by lot; then the durak of the last deal deals. After a
draw nobody lost, so the same dealer deals again and the holder of the lowest
trump leads. The first deal is led by the holder of the lowest trump; later deals
follow ``rules.lead_after_durak``: ``from_under`` (the player on the durak's
left), ``under`` (the player on the durak's right, so the durak defends first) or
``lowest_trump``. The match ends after ``deals`` deals, when a seat has been durak
``target`` times, or, with ``scoring=pagony``, when a side hangs the queen.

>>> from durak import Rules
>>> m = Match(Rules(), seed=1, deals=3)
>>> while not m.is_over:
...     g = m.game
...     while not g.is_over:
...         g.apply(g.legal_actions()[0])
...     _ = m.next_deal()
>>> len(m.games), sum(m.tally.durak_counts) + m.tally.draws
(3, 3)
>>> Match.from_record(m.record()).tally == m.tally
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .checks import names as seat_names_arg
from .checks import rules_arg, whole
from .errors import ArgumentTypeError, StateError
from .game import Game, Outcome, pagon_ladder
from .record import (
    RecordError,
    game_headers,
    moves_text,
    parse_headers,
    replay_moves,
    write_headers,
)
from .rules import Rules


@dataclass
class Tally:
    """Running totals of a match, per seat and per side."""

    players: int
    sides: int = 0
    deals: int = 0
    draws: int = 0
    durak_counts: list[int] = field(default_factory=list)
    pogony_hung: list[int] = field(default_factory=list)
    pogonny_scores: list[int] = field(default_factory=list)
    side_losses: list[int] = field(default_factory=list)
    pagon_steps: list[int] = field(default_factory=list)
    winner_side: int | None = None

    def __post_init__(self) -> None:
        n = self.players
        self.sides = self.sides or n
        self.durak_counts = self.durak_counts or [0] * n
        self.pogony_hung = self.pogony_hung or [0] * n
        self.pogonny_scores = self.pogonny_scores or [0] * n
        self.side_losses = self.side_losses or [0] * self.sides
        self.pagon_steps = self.pagon_steps or [0] * self.sides

    def add(self, outcome: Outcome, rules: Rules) -> None:
        self.deals += 1
        if outcome.draw or outcome.durak is None:
            self.draws += 1
        else:
            self.durak_counts[outcome.durak] += 1
            self.pogony_hung[outcome.durak] += outcome.pogony
            self.side_losses[rules.team_of(outcome.durak)] += 1
        for s, v in enumerate(outcome.tally):
            self.pogonny_scores[s] += v
        if outcome.hung is not None:
            if self.pagon_steps[outcome.hung] == len(pagon_ladder(rules.deck)) - 1:
                self.winner_side = outcome.hung
            else:
                self.pagon_steps[outcome.hung] += 1

    def summary(self, names: list[str], rules: Rules) -> str:
        """A few lines a person can read."""
        lines = [f"deals {self.deals}, draws {self.draws}"]
        for s, name in enumerate(names):
            extra = ""
            if rules.scoring == "pogonny":
                extra = f", pogony scored {self.pogonny_scores[s]}"
            lines.append(
                f"  {name}: durak {self.durak_counts[s]} times"
                f", hung with pogony {self.pogony_hung[s]}{extra}"
            )
        if rules.scoring == "pagony":
            ladder = pagon_ladder(rules.deck)
            for side in range(self.sides):
                step = self.pagon_steps[side]
                rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(ladder[step], str(ladder[step]))
                lines.append(
                    f"  side {side + 1}: pagony of {rank}"
                    + (" — won the match" if self.winner_side == side else "")
                )
        return "\n".join(lines)


class Match:
    """A series of deals. ``game`` is the deal in play; call ``next_deal()`` when it is over.

    ``rules``: a Rules, or a preset name or rules text (``"perevodnoy(players=4)"``).
    ``deals``: stop after this many deals; ``target``: stop when a seat has been durak
    this many times. With neither, a match is one deal (pagony: until the queen).
    ``names``: one printable line per seat. Every argument is checked first
    (:mod:`durak.checks`) and refused by name, so that what is accepted replays:

    >>> Match("podkidnoy", seed=3).rules == Rules()
    True
    >>> Match(Rules(), deals="3")
    Traceback (most recent call last):
    ...
    durak.errors.ArgumentTypeError: deals: a whole number, not str
    """

    def __init__(
        self,
        rules: Rules | str,
        seed: int | None = None,
        deals: int | None = None,
        target: int | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        rules = rules_arg(rules, text=True)
        if seed is not None:
            whole("seed", seed)
        for what, v in (("deals", deals), ("target", target)):
            if v is not None:
                whole(what, v, low=1)
        seat_names = seat_names_arg(names, rules.players)
        if deals is None and target is None and rules.scoring != "pagony":
            deals = 1
        self.rules = rules
        self.seed = seed if seed is not None else random.randrange(2**63)
        self.rng = random.Random(self.seed)
        self.deals = deals
        self.target = target
        self.names = seat_names or [f"Player {i + 1}" for i in range(rules.players)]
        self.tally = Tally(rules.players, sides=rules.sides)
        self.games: list[Game] = []
        self.game = self._deal(self.rng.randrange(rules.players), None)

    def _deal(self, dealer: int, leader: int | None) -> Game:
        pagon = self.tally.pagon_steps if self.rules.scoring == "pagony" else None
        return Game(
            self.rules, seed=self.rng.randrange(2**63), dealer=dealer, leader=leader, pagon=pagon
        )

    @property
    def is_over(self) -> bool:
        t = self.tally
        if t.winner_side is not None:
            return True
        if self.deals is not None and t.deals >= self.deals:
            return True
        return self.target is not None and max(t.durak_counts) >= self.target

    @property
    def deal_number(self) -> int:
        """1 for the first deal."""
        return len(self.games) + (0 if self.games and self.games[-1] is self.game else 1)

    def next_deal(self) -> Game | None:
        """Score the finished deal and start the next; None when the match is over."""
        g = self.game
        if not g.is_over or g.outcome is None:
            raise StateError("the deal in play is not over")
        if not self.games or self.games[-1] is not g:
            self.games.append(g)
            self.tally.add(g.outcome, self.rules)
        if self.is_over:
            return None
        durak = g.outcome.durak
        n = self.rules.players
        dealer = g.dealer if durak is None else durak
        leader: int | None = None
        if durak is not None:
            mode = self.rules.lead_after_durak
            if mode == "from_under":
                leader = (durak + 1) % n
            elif mode == "under":
                leader = (durak - 1) % n
        self.game = self._deal(dealer, leader)
        return self.game

    # -- records ---------------------------------------------------------------------
    def record(self) -> str:
        """The whole match: its headers, then each deal's record in order."""
        head = {
            "Match": "durak",
            "Rules": str(self.rules),
            "MatchSeed": str(self.seed),
            **({"Deals": str(self.deals)} if self.deals is not None else {}),
            **({"Target": str(self.target)} if self.target is not None else {}),
        }
        for i, name in enumerate(self.names):
            head[f"Seat{i}"] = name
        parts = ["\n".join(write_headers(head))]
        deals = self.games + ([] if self.games and self.games[-1] is self.game else [self.game])
        for i, g in enumerate(deals, 1):
            h = {"Deal": str(i), **game_headers(g)}
            h["Result"] = str(g.outcome) if g.outcome else "*"
            parts.append("\n".join(write_headers(h)) + "\n\n" + moves_text(g))
        return "\n\n".join(parts) + "\n"

    @staticmethod
    def from_record(text: str) -> Match:
        """Replay a match record deal by deal; every deal must be the one the match
        seed makes, and its moves must replay."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"record: text, not {type(text).__name__}")
        sections = _split_deals(text)
        head, _ = parse_headers(sections[0])
        if head.get("Match") != "durak":
            raise RecordError('not a match record (no [Match "durak"] header)')
        try:
            rules = Rules.parse(head["Rules"])
            m = Match(
                rules,
                seed=int(head["MatchSeed"]),
                deals=int(head["Deals"]) if "Deals" in head else None,
                target=int(head["Target"]) if "Target" in head else None,
                names=[head.get(f"Seat{i}", f"Player {i + 1}") for i in range(rules.players)],
            )
        except (KeyError, ValueError) as e:
            raise RecordError(f"bad match headers: {e}") from None
        for k, section in enumerate(sections[1:], 1):
            h, body = parse_headers(section)
            g = m.game
            if h.get("Seed") != str(g.seed) or h.get("Dealer") != str(g.dealer):
                raise RecordError(f"deal {k}: its seed or dealer is not the one the match makes")
            replay_moves(g, body)
            result = h.get("Result", "*")
            if result != "*" and str(g.outcome) != result:
                raise RecordError(f"deal {k}: record says {result!r}, moves give {g.outcome}")
            if g.is_over and k < len(sections) - 1:
                m.next_deal()
        if m.game.is_over and (not m.games or m.games[-1] is not m.game):
            m.next_deal()
        return m


def _split_deals(text: str) -> list[str]:
    sections: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.startswith('[Deal "'):
            sections.append([])
        sections[-1].append(line)
    return ["\n".join(s) for s in sections]


def record_deals(text: str) -> tuple[list[Game], list[str]]:
    """The deals of a game record or a match record, each replayed, and the names of
    the seats (RecordError if the text does not replay).

    >>> g = Game(Rules(), seed=2)
    >>> while not g.is_over:
    ...     g.apply(g.legal_actions()[0])
    >>> deals, names = record_deals(g.record(names=["Ann", "Bob"]))
    >>> len(deals), deals[0].history == g.history, names
    (1, True, ['Ann', 'Bob'])
    """
    headers, _ = parse_headers(text)
    if headers.get("Match") == "durak":
        m = Match.from_record(text)
        deals = list(m.games)
        if not deals or deals[-1] is not m.game:
            deals.append(m.game)
        return deals, list(m.names)
    g = Game.from_record(text)
    return [g], [headers.get(f"Seat{i}", f"Seat {i}") for i in range(g.rules.players)]
