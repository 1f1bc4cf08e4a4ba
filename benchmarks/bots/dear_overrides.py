"""Whose are level 5's dear leads: the rules of thumb's, or the search's overrides of them.

    python benchmarks/bots/dear_overrides.py DEALS

Plays DEALS deals (seeds 900...) of level 5 in seat 0 against ``expert`` (2-player
podkidnoy) and counts, at level 5's moves while the talon lasts, its leads, takes and
other moves, each as the prior's move (the rules of thumb) or an override by the
search, and among the leads the dear ones (a king, an ace or a trump led while the
hand keeps a cheaper plain card: ``ismcts._dear_lead``); ``prior-dear`` counts dear
leads the prior itself proposed (benchmarks/bots/README.md, v12).
"""

from __future__ import annotations

import sys
from collections import Counter

from durak.actions import ATTACK, TAKE, Action
from durak.arena import play_game
from durak.bots import make
from durak.bots.ismcts import ISMCTSBot, _dear_lead
from durak.enums import Phase
from durak.observation import Observation
from durak.rules import Rules


class Counting:
    """Level 5, counting into ``count`` whose each of its moves was while the talon lasts."""

    def __init__(self, bot: ISMCTSBot, count: Counter[str]) -> None:
        self.bot = bot
        self.count = count

    def reset(self) -> None:
        self.bot.reset()

    def observe(self, obs: Observation) -> None:
        self.bot.observe(obs)

    def choose(self, obs: Observation) -> Action:
        a = self.bot.choose(obs)
        if obs.talon_size > 0:
            prior = self.bot.prior.choose(obs)
            whose = "prior" if a is prior else "override"
            lead = a.kind == ATTACK and obs.phase == Phase.ATTACK
            kind = "take" if a.kind == TAKE else ("lead" if lead else "other")
            self.count[f"{kind} {whose}"] += 1
            if lead and _dear_lead(a, obs):
                self.count[f"dear lead {whose}"] += 1
            if _dear_lead(prior, obs):
                self.count["prior-dear"] += 1
        return a


def main(deals: int) -> None:
    count: Counter[str] = Counter()
    for d in range(deals):
        me = make("level5", seed=d)
        assert isinstance(me, ISMCTSBot)
        play_game(Rules(), [Counting(me, count), make("expert", seed=d)], 900 + d, 0)
    for k in sorted(count):
        print(f"{k:20s} {count[k]}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
