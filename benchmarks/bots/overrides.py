"""How often level 5 plays something other than its rules of thumb (the heuristic bot's
move), by kind of move, against the expert:

    python benchmarks/bots/overrides.py podkidnoy 8    # 8 deals, each played both ways
"""

from __future__ import annotations

import sys

from durak import Game, Rules
from durak.bots import make


def main(rules_name: str, deals: int) -> None:
    moves = searched = overrides = 0
    kinds: dict[tuple[str, str, str], int] = {}
    for deal in range(deals):
        for me in (0, 1):
            g = Game(Rules.preset(rules_name), seed=1000 + deal)
            bots = [make("level5", seed=deal), make("expert")]
            if me:
                bots.reverse()
            for b in bots:
                getattr(b, "reset", lambda: None)()
            while not g.is_over:
                s = g.to_act
                assert s is not None
                for i, b in enumerate(bots):
                    if i != s and hasattr(b, "observe"):
                        b.observe(g.observation(i))
                obs = g.observation(s)
                a = bots[s].choose(obs)
                if s == me and len(obs.legal) > 1:
                    moves += 1
                    bot = bots[s]
                    if not bot.last_stats.get("solver"):  # type: ignore[attr-defined]
                        searched += 1
                        p = bot.prior.choose(obs)  # type: ignore[attr-defined]
                        if a != p:
                            overrides += 1
                            k = (obs.phase, p.kind, a.kind)
                            kinds[k] = kinds.get(k, 0) + 1
                g.apply(a)
    print(
        f"{rules_name}, {deals} deals x 2: moves with a choice {moves}, searched {searched}, "
        f"not the heuristic's move {overrides}"
    )
    for (phase, prior, played), n in sorted(kinds.items(), key=lambda x: -x[1]):
        print(f"  {phase}: heuristic {prior}, played {played}: {n}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
