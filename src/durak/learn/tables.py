"""The tables the every-table network learns on: a seeded draw of a rule set per deal.

Durak is mostly played by three to six people, so the mix leans there: players 2-6
(weights :data:`PLAYERS`), podkidnoy or perevodnoy (sometimes проездной or простой),
teams at 4 and 6 players, a 24- or 52-card deck now and then, the other trump kinds
(бескозырный, «пики пиками», двухкозырный) and scorings (погонный, пагоны). A draw that
makes no valid rule set (six players of a 24-card deck) is drawn again.

>>> import random
>>> rng = random.Random(1)
>>> tables = [draw(rng) for _ in range(400)]
>>> sorted({r.players for r in tables})
[2, 3, 4, 5, 6]
>>> any(r.teams != "none" for r in tables), any(r.deck == 52 for r in tables)
(True, True)
>>> all(r.action_limit > 0 and r.cheating == "off" for r in tables)
True
"""

from __future__ import annotations

import random
from typing import Any, Final

from ..errors import RulesError
from ..rules import BOT_ACTION_LIMIT, Rules

PLAYERS: Final = {2: 0.2, 3: 0.25, 4: 0.25, 5: 0.1, 6: 0.2}
BASES: Final = {"podkidnoy": 0.42, "perevodnoy": 0.4, "perevodnoy-proezdnoy": 0.1, "prostoy": 0.08}


def _pick(rng: random.Random, weights: dict[Any, float]) -> Any:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def draw(rng: random.Random) -> Rules:
    """One table of the mix (with the bots' action limit, so that every deal ends)."""
    while True:
        n = _pick(rng, PLAYERS)
        options: dict[str, Any] = {"players": n}
        if n in (4, 6) and rng.random() < 0.3:
            options["teams"] = "2x2" if n == 4 else "3x3"
        x = rng.random()
        if x < 0.12:
            options["deck"] = 52
        elif x < 0.2:
            options["deck"] = 24
        x = rng.random()
        if x < 0.06:
            options["trump"] = "none"
        elif x < 0.1:
            options.update(trump="diamonds", spades_by_spades=True)
        elif x < 0.16:
            options["trump"] = "per_player"
        x = rng.random()
        if x < 0.06:
            options["scoring"] = "pogonny"
        elif x < 0.1:
            options["scoring"] = "pagony"
        try:
            rules = Rules.preset(_pick(rng, BASES), **options)
        except RulesError:
            continue
        return rules.replace(action_limit=BOT_ACTION_LIMIT)
