"""Bots: a bot sees only its seat's Observation and returns one of ``obs.legal``.

>>> from durak import Game, Rules
>>> from durak.bots import make
>>> g = Game(Rules(), seed=3)
>>> bots = [make("random", seed=1), make("greedy")]
>>> while not g.is_over:
...     g.apply(bots[g.to_act].choose(g.observation(g.to_act)))
>>> g.is_over
True

The protocol (:class:`Bot`, in :mod:`durak.bots.base`): ``name``, ``choose(obs) -> Action``,
``reset()`` at the start of a deal and ``observe(obs)`` to follow a game when it is
another seat's turn; :class:`BaseBot` gives the last two as no-ops, and the seat driver
(:mod:`durak.seats`) calls them. Budgets
(``time`` in seconds a move, ``iterations``) and ``seed`` are given to ``make``.

The bots, weakest first: ``random``; ``greedy`` (cheapest legal card, trumps last);
``heuristic`` (card memory and a club player's rules of thumb); ``expert`` (a careful
player written apart from the searcher: card counting, trump economy, take-or-beat by
cost, exact two-player endgames); ``ismcts`` (determinized Monte Carlo search over the
seat's information set, rollouts by the heuristic, an exact :mod:`~durak.bots.solver`
once two are left and nothing is hidden).
Difficulty levels 1..6 map onto them: ``level(n)`` or ``make("level3")``.

>>> [make(f"level{n}").name for n in range(1, 7)]
['random', 'greedy', 'heuristic', 'ismcts', 'ismcts', 'learned']
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from ..errors import ArgumentError, ArgumentTypeError
from .base import BaseBot, Bot, legal_of

__all__ = [
    "LEVELS",
    "REGISTRY",
    "BaseBot",
    "Bot",
    "legal_of",
    "level",
    "make",
    "names",
    "parse",
    "register",
]

# name -> "module:factory"; modules are imported only when a bot is made.
REGISTRY: dict[str, str] = {
    "random": "durak.bots.random_bot:RandomBot",
    "greedy": "durak.bots.greedy:GreedyBot",
    "heuristic": "durak.bots.heuristic:HeuristicBot",
    "ismcts": "durak.bots.ismcts:ISMCTSBot",
    "expert": "durak.bots.expert:ExpertBot",
    "learned": "durak.bots.learned:LearnedBot",
    "policy": "durak.bots.learned:LearnedBot",
    "zoo": "durak.learn.zoo:bot",  # zoo:NAME, a published network (python -m durak.learn.zoo)
    # шулерский (cheating=open): a cheater and a catcher, each over the heuristic
    "cheater": "durak.bots.cheater:CheaterBot",
    "catcher": "durak.bots.catcher:CatcherBot",
}

# Difficulty levels: (bot, budget). Iteration budgets, not time, so that a level plays
# equally well on a busy machine; the gaps are measured in benchmarks/bots/README.md.
LEVELS: dict[int, tuple[str, dict[str, Any]]] = {
    1: ("random", {}),
    2: ("greedy", {}),
    3: ("heuristic", {}),
    4: ("ismcts", {"iterations": 60, "solver": False}),
    5: (
        "ismcts",
        {
            "iterations": 500,
            "heads_up": 1000,
            "nodes": 60_000,
            "model": "careful",
            "worlds": "belief",
            "decision": "keep",
        },
    ),
    # the self-play network's look-ahead in 64 worlds and the exact endgame in games of
    # two (benchmarks/bots/README.md); level 5 itself at the tables it does not read
    6: ("learned", {"endgame": True, "worlds": 64, "fallback": "level5", "table": False}),
}


def register(name: str, target: str) -> None:
    """Add a bot: ``target`` is ``"module:callable"`` taking the keyword options."""
    REGISTRY[name] = target


def level(n: int, seed: int | None = None, **options: Any) -> Bot:
    """The bot of difficulty ``n`` (1 easiest .. 5 strongest); ``options`` override its budget."""
    if n not in LEVELS:
        raise ArgumentError(f"no level {n}; levels are 1..{max(LEVELS)}")
    name, opts = LEVELS[n]
    return make(name, **{**opts, "seed": seed, **options})


def parse(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec as (name, options): ``name`` or ``name:key=value,key=value``.

    Values ``on``/``off`` (``true``/``false``, ``yes``/``no``) are booleans, numbers are
    numbers. A level is ``level3`` or ``level:3``.

    >>> parse("ismcts:iterations=600,solver=off")
    ('ismcts', {'iterations': 600, 'solver': False})
    >>> parse("level:3")
    ('level3', {})
    >>> parse("ismcts:iterations")
    Traceback (most recent call last):
    ...
    durak.errors.ArgumentError: bot option 'iterations' in 'ismcts:iterations': expected key=value
    """
    if not isinstance(spec, str):
        raise ArgumentTypeError(f"a bot spec is text like 'level3', not {type(spec).__name__}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if name == "level" and rest.strip().isdigit():
        return f"level{rest.strip()}", {}
    if name == "policy" and rest.strip() and "=" not in rest:
        return "policy", {"path": rest.strip()}  # policy:PATH, a saved network
    if name == "zoo" and rest.strip() and "=" not in rest:
        return "zoo", {"model": rest.strip()}  # zoo:NAME, a network of durak.learn.zoo
    opts: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, val = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ArgumentError(f"bot option {item!r} in {spec!r}: expected key=value")
        if key in opts:
            raise ArgumentError(f"bot option {key!r} given twice in {spec!r}")
        opts[key] = _value(val.strip())
    return name, opts


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("on", "true", "yes"):
        return True
    if low in ("off", "false", "no"):
        return False
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _check_options(name: str, factory: Any, options: dict[str, Any]) -> None:
    """ArgumentError for an option the bot does not take, or a value of the wrong kind."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin without a signature: cannot check
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return  # a registered bot that takes anything
    known = [k for k, p in params.items() if p.kind is not inspect.Parameter.VAR_POSITIONAL]
    for key, value in options.items():
        if key not in params:
            raise ArgumentError(
                f"bot {name!r} has no option {key!r}; its options: {', '.join(known) or 'none'}"
            )
        if value is None:
            continue
        # The annotation as written (text under ``from __future__ import annotations``).
        kind = str(params[key].annotation)
        if kind.startswith("bool") and not isinstance(value, bool | int):
            raise ArgumentError(f"bot {name!r}: option {key!r} is on/off, not {value!r}")
        if kind.startswith(("int", "float")) and (
            isinstance(value, bool) or not isinstance(value, int | float)
        ):
            raise ArgumentError(f"bot {name!r}: option {key!r} is a number, not {value!r}")


def make(spec: str, **options: Any) -> Bot:
    """A bot from its spec, the one parser of bot specs (the arena, the terminal game and
    the server all come here): a name (``"greedy"``), a level (``"level3"`` or
    ``"level:3"``) or a name with options (``"ismcts:iterations=600,seed=1"``).
    Keyword ``options`` are added to the spec's (and override them). An option the bot
    does not take is refused.

    >>> make("ismcts:iterations=50", seed=1).iterations
    50
    >>> make("level3").name
    'heuristic'
    >>> make("ismcts", iteratons=5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    durak.errors.ArgumentError: bot 'ismcts' has no option 'iteratons'; its options: ...
    """
    name, opts = parse(spec)
    opts.update(options)
    if name.startswith("level") and name[5:].isdigit() and name not in REGISTRY:
        return level(int(name[5:]), **opts)
    target = REGISTRY.get(name)
    if target is None:
        levels = ", ".join(f"level{n}" for n in LEVELS)
        raise ArgumentError(f"no bot {name!r}; one of {', '.join(sorted(REGISTRY))}, {levels}")
    module, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module), attr)
    _check_options(name, factory, opts)
    bot: Bot = factory(**opts)
    return bot


def names() -> list[str]:
    """Every bot name ``make`` knows, levels included."""
    return sorted(REGISTRY) + [f"level{n}" for n in LEVELS]
