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
}


def register(name: str, target: str) -> None:
    """Add a bot: ``target`` is ``"module:callable"`` taking the keyword budgets."""
    REGISTRY[name] = target


def make(name: str, **options: Any) -> Bot:
    """A bot by name, e.g. ``make("ismcts", time=0.1, seed=1)``."""
    target = REGISTRY.get(name)
    if target is None:
        raise ValueError(f"no bot {name!r}; one of {', '.join(sorted(REGISTRY))}")
    module, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module), attr)
    bot: Bot = factory(**options)
    return bot


def names() -> list[str]:
    return sorted(REGISTRY)
