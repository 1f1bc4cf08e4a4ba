"""The bots that sit at web tables: by level (``durak.bots.level``) or by registry name.

A seat's bot is written as text so that it can be stored: ``"level:3"`` or ``"greedy"``.

A table's creator is a stranger: a bot spec with options can lift a searcher's budget
and CPU cap (``ismcts:time=100000,cap=0``) and hold a thread of the bot pool for as long
as it likes. So a request names only a level (``"level:3"``, ``{"level": 3}``) or a bot
that is exactly one of the levels without options (``"greedy"``); ``public_spec`` checks
that, and everything else is refused.

>>> public_spec("level:5"), public_spec("greedy")
('level:5', 'greedy')
>>> public_spec("ismcts:time=100000,cap=0")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
durak.errors.ArgumentError: bot 'ismcts:time=100000,cap=0': only a level (1..6) or one of ...
"""

from __future__ import annotations

import logging
from typing import Any

from .. import bots
from ..bots import Bot
from ..errors import ArgumentError

log = logging.getLogger("durak.server")

STAND_IN = "greedy"  # moves for a person who is away when a turn timer runs out


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """The bot a seat spec names (``level:3``, ``greedy``, ``ismcts:iterations=300``),
    made by ``durak.bots.make``, the one parser of bot specs; ValueError for an unknown
    one."""
    return bots.make(spec, seed=seed)


def levels() -> list[int]:
    """The levels a table may offer."""
    return sorted(bots.LEVELS)


# Fixed bots a stranger may seat besides the levels: no options, a bounded cost a move
# (the learned player is one forward pass of a small network).
# The cheater and the catcher (шулерский) are the heuristic with a rule of thumb more.
EXTRA_PUBLIC = ("learned", "cheater", "catcher")


def _plain_names() -> list[str]:
    """Bots that are a level as they are (no options), and the fixed extra ones."""
    return sorted({name for name, opts in bots.LEVELS.values() if not opts} | set(EXTRA_PUBLIC))


def public_spec(spec: str) -> str:
    """``spec`` if a stranger may seat it: ``level:N`` / ``levelN`` of a known level, or
    a bot name that is a level without options; ValueError otherwise."""
    text = spec.strip()
    name, sep, rest = text.partition(":")
    if name == "level" and rest.isdigit() and int(rest) in bots.LEVELS:
        return f"level:{int(rest)}"
    if not sep and name.startswith("level") and name[5:].isdigit() and int(name[5:]) in bots.LEVELS:
        return f"level:{int(name[5:])}"
    if not sep and name in _plain_names():
        return name
    raise ArgumentError(
        f"bot {text[:64]!r}: only a level (1..{max(bots.LEVELS)}) or one of "
        f"{', '.join(_plain_names())}"
    )


def choices() -> dict[str, Any]:
    return {"levels": levels(), "names": _plain_names()}
