"""How often level 5 plays the same move twice (issue 15, v14): on v13's fixed positions
(``regret.py``'s ``pos-*.json``), the move level 5 played in the game against the move
it chose when the game was replayed to it with another seed (``regret.py score``'s
``level5``), and both against the rules of thumb's; leads (a bout opened while the
talon lasts) apart from the rest.

    python benchmarks/bots/self_agreement.py > pool-v14/self-agreement.txt
"""

from __future__ import annotations

import json

from distill_leads import is_lead
from regret import deal_seed

from durak.game import Game
from durak.rules import Rules


def main() -> None:
    for r in ("podkidnoy", "perevodnoy"):
        with open(f"pool-v13/pos-{r}.json") as f:
            d = json.load(f)
        rules = Rules.parse(d["rules"])
        ch = d["choices"]
        tally: dict[str, list[int]] = {}
        for gi, x in enumerate(d["games"]):
            g = Game(rules.with_action_limit(), seed=deal_seed(x["deal"]))
            kept = {p: k for k, p in enumerate(x["positions"])}
            for n, i in enumerate(x["moves"]):
                if n in kept:
                    k = kept[n]
                    t = tally.setdefault("leads" if is_lead(g) else "other", [0, 0, 0, 0])
                    t[0] += 1
                    t[1] += ch["level5"][gi][k] == i
                    t[2] += ch["heuristic"][gi][k] == i
                    t[3] += ch["level5"][gi][k] == ch["heuristic"][gi][k]
                g.apply(g.legal_actions()[i])
        for key, (n, same, heur, lh) in tally.items():
            print(
                f"{r} {key}: {n} positions; level 5 replayed with another seed plays the "
                f"move it played {same / n:.3f}; the rules of thumb play it {heur / n:.3f}; "
                f"the replay plays the rules of thumb's {lh / n:.3f}"
            )


if __name__ == "__main__":
    main()
