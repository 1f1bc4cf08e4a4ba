"""Bots: a bot sees only its seat's Observation and returns one of ``obs.legal``.

>>> from durak import Game, Rules
>>> from durak.bots import make
>>> g = Game(Rules(), seed=3)
>>> bots = [make("random", seed=1), make("greedy")]
>>> while not g.is_over:
...     g.apply(bots[g.to_act].choose(g.observation(g.to_act)))
>>> g.is_over
True

The protocol: ``choose(obs) -> Action``; ``name``; optionally ``reset()`` at the start of a
deal and ``observe(obs)`` to follow a game when it is another seat's turn. Budgets
(``time`` in seconds a move, ``iterations``) and ``seed`` are given to ``make``.

The bots, weakest first: ``random``; ``greedy`` (cheapest legal card, trumps last);
``heuristic`` (card memory and a club player's rules of thumb); ``ismcts``
(determinized Monte Carlo search over the seat's information set, rollouts by the
heuristic, an exact :mod:`~durak.bots.solver` once the talon is empty and two are left).
Difficulty levels 1..5 map onto them: ``level(n)`` or ``make("level3")``.

>>> [make(f"level{n}").name for n in range(1, 6)]
['random', 'greedy', 'heuristic', 'ismcts', 'ismcts']
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol, runtime_checkable

from ..actions import Action
from ..observation import Observation


@runtime_checkable
class Bot(Protocol):
    name: str

    def choose(self, obs: Observation) -> Action: ...


# name -> "module:factory"; modules are imported only when a bot is made.
REGISTRY: dict[str, str] = {
    "random": "durak.bots.random_bot:RandomBot",
    "greedy": "durak.bots.greedy:GreedyBot",
    "heuristic": "durak.bots.heuristic:HeuristicBot",
    "ismcts": "durak.bots.ismcts:ISMCTSBot",
}

# Difficulty levels: (bot, budget). Iteration budgets, not time, so that a level plays
# equally well on a busy machine; the gaps are measured in benchmarks/bots/README.md.
LEVELS: dict[int, tuple[str, dict[str, Any]]] = {
    1: ("random", {}),
    2: ("greedy", {}),
    3: ("heuristic", {}),
    4: ("ismcts", {"iterations": 60, "solver": False, "plain": 0.0}),
    5: ("ismcts", {"iterations": 800}),
}



def register(name: str, target: str) -> None:
    """Add a bot: ``target`` is ``"module:callable"`` taking the keyword budgets."""
    REGISTRY[name] = target


def level(n: int, seed: int | None = None, **options: Any) -> Bot:
    """The bot of difficulty ``n`` (1 easiest .. 5 strongest); ``options`` override its budget."""
    if n not in LEVELS:
        raise ValueError(f"no level {n}; levels are 1..{max(LEVELS)}")
    name, opts = LEVELS[n]
    return make(name, **{**opts, "seed": seed, **options})


def make(name: str, **options: Any) -> Bot:
    """A bot by name, e.g. ``make("ismcts", time=0.1, seed=1)``; ``"level1"`` .. ``"level5"``
    are the difficulty levels."""
    if name.startswith("level") and name[5:].isdigit() and name not in REGISTRY:
        return level(int(name[5:]), **options)
    target = REGISTRY.get(name)
    if target is None:
        raise ValueError(f"no bot {name!r}; one of {', '.join(sorted(REGISTRY))}")
    module, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module), attr)
    bot: Bot = factory(**options)
    return bot


def names() -> list[str]:
    """Every bot name ``make`` knows, levels included."""
    return sorted(REGISTRY) + [f"level{n}" for n in LEVELS]
