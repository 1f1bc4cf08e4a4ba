"""The searcher's values for each of its dear leads (a king, an ace or a trump led while
holding a cheaper plain card) in a few games of level 5 against the expert: the best
few candidates with their estimated scores, and the worlds sampled.

    python benchmarks/bots/dear_leads.py > benchmarks/bots/pool/dear-leads.txt
"""

from __future__ import annotations

from durak import Game, Rules
from durak.actions import ATTACK
from durak.bots import make
from durak.bots.ismcts import ISMCTSBot, dear_cards
from durak.enums import Phase

for seed in range(100, 106):
    g = Game(Rules(), seed=seed)
    searcher = make("level5", seed=1)
    assert isinstance(searcher, ISMCTSBot)
    bots = [searcher, make("expert", seed=2)]
    while not g.is_over:
        s = g.to_act
        assert s is not None
        other = bots[1 - s]
        if hasattr(other, "observe"):
            other.observe(g.observation(1 - s))
        obs = g.observation(s)
        if s == 0 and obs.phase == Phase.ATTACK and g.talon_size > 0 and len(obs.legal) > 1:
            searcher.observe(obs)
            ranked = searcher.evaluate(obs, every_value=True)
            a = ranked[0][0]
            if a.kind == ATTACK and dear_cards(a.cards, int(obs.hand), g.trump_suit):
                print(
                    f"seed {seed} talon {g.talon_size} trump {g.trump} hand {obs.hand} "
                    f"opp {g.hand(1)}"
                )
                print(
                    "   ",
                    [(str(x), round(v, 3)) for x, v in ranked[:6]],
                    searcher.last_stats.get("worlds"),
                )
            g.apply(a)
        else:
            g.apply(bots[s].choose(obs))
    assert g.outcome is not None
    print("seed", seed, "durak", g.outcome.durak, flush=True)
