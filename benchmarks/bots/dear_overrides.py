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

from durak.actions import ATTACK, TAKE
from durak.bots import make
from durak.bots.ismcts import ISMCTSBot, _dear_lead
from durak.game import Game
from durak.rules import Rules


def main(deals: int) -> None:
    count: Counter[str] = Counter()
    for d in range(deals):
        g = Game(Rules(), seed=900 + d)
        me, other = make("level5", seed=d), make("expert", seed=d)
        assert isinstance(me, ISMCTSBot)
        bots = [me, other]
        for b in bots:
            getattr(b, "reset", lambda: None)()
        while not g.is_over:
            s = g.to_act
            assert s is not None
            watcher = bots[1 - s]
            if hasattr(watcher, "observe"):
                watcher.observe(g.observation(1 - s))
            obs = g.observation(s)
            a = bots[s].choose(obs)
            if s == 0 and g.talon_size > 0:
                prior = me.prior.choose(obs)
                whose = "prior" if a is prior else "override"
                lead = a.k == ATTACK and obs.phase == "attack"
                kind = "take" if a.k == TAKE else ("lead" if lead else "other")
                count[f"{kind} {whose}"] += 1
                if lead and _dear_lead(a, obs):
                    count[f"dear lead {whose}"] += 1
                if _dear_lead(prior, obs):
                    count["prior-dear"] += 1
            g.apply(a)
    for k in sorted(count):
        print(f"{k:20s} {count[k]}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
