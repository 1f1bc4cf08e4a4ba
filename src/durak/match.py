"""Match: a series of deals with the same players and rules.

The first dealer is chosen by lot; then the durak of the last deal deals (after a
draw the same dealer deals again). The first deal is led by the holder of the
lowest trump; later deals follow ``rules.lead_after_durak``. The match ends after
``deals`` deals, when someone has been durak ``target`` times, or when a variant
says so.

>>> from durak import Rules
>>> m = Match(Rules(), seed=1, deals=3)
>>> while not m.is_over:
...     g = m.game
...     while not g.is_over:
...         g.apply(g.legal_actions()[0])
...     _ = m.next_deal()
>>> len(m.games), sum(m.tally.durak_counts) + m.tally.draws
(3, 3)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .game import Game, Outcome
from .rules import Rules


@dataclass
class Tally:
    """Running totals of a match, per seat and per side."""

    players: int
    deals: int = 0
    draws: int = 0
    durak_counts: list[int] = field(default_factory=list)
    pogony_hung: list[int] = field(default_factory=list)
    pogonny_scores: list[int] = field(default_factory=list)
    team_losses: list[int] = field(default_factory=lambda: [0, 0])

    def __post_init__(self) -> None:
        n = self.players
        self.durak_counts = self.durak_counts or [0] * n
        self.pogony_hung = self.pogony_hung or [0] * n
        self.pogonny_scores = self.pogonny_scores or [0] * n

    def add(self, outcome: Outcome) -> None:
        self.deals += 1
        if outcome.draw or outcome.durak is None:
            self.draws += 1
        else:
            self.durak_counts[outcome.durak] += 1
            self.pogony_hung[outcome.durak] += outcome.pogony
        if outcome.losing_team is not None:
            self.team_losses[outcome.losing_team] += 1
        for s, v in enumerate(outcome.tally):
            self.pogonny_scores[s] += v


class Match:
    """A series of deals. ``game`` is the deal in play; call ``next_deal()`` when it is over."""

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        deals: int | None = None,
        target: int | None = None,
        names: list[str] | None = None,
    ) -> None:
        if deals is None and target is None and rules.scoring != "pagony":
            deals = 1
        self.rules = rules
        self.seed = seed if seed is not None else random.randrange(2**63)
        self.rng = random.Random(self.seed)
        self.deals = deals
        self.target = target
        self.names = names or [f"Player {i + 1}" for i in range(rules.players)]
        self.tally = Tally(rules.players)
        self.games: list[Game] = []
        dealer = self.rng.randrange(rules.players)
        self.game = Game(rules, seed=self.rng.randrange(2**63), dealer=dealer)

    @property
    def is_over(self) -> bool:
        t = self.tally
        if self.deals is not None and t.deals >= self.deals:
            return True
        return self.target is not None and max(t.durak_counts) >= self.target

    def next_deal(self) -> Game | None:
        """Score the finished deal and start the next; None when the match is over."""
        g = self.game
        if not g.is_over or g.outcome is None:
            raise ValueError("the deal in play is not over")
        if not self.games or self.games[-1] is not g:
            self.games.append(g)
            self.tally.add(g.outcome)
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
        self.game = Game(self.rules, seed=self.rng.randrange(2**63), dealer=dealer, leader=leader)
        return self.game
