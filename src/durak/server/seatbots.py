"""The bots that sit at web tables: by level (``durak.bots.level``) or by registry name.

A seat's bot is written as text so that it can be stored: ``"level:3"`` or ``"greedy"``.
"""

from __future__ import annotations

import logging
from typing import Any

from .. import bots
from ..bots import Bot

log = logging.getLogger("durak.server")

MAX_LEVEL = 10
STAND_IN = "greedy"  # moves for a person who is away when a turn timer runs out


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """The bot a seat spec names (``level:3``, ``greedy``, ``ismcts:iterations=300``),
    made by ``durak.bots.make``, the one parser of bot specs; ValueError for an unknown
    one."""
    return bots.make(spec, seed=seed)


def levels() -> list[int]:
    """The levels a table may offer."""
    known = getattr(bots, "LEVELS", None)
    if isinstance(known, dict):
        return sorted(known)
    level = getattr(bots, "level", None)
    if level is None:
        return [1, 2]
    found = []
    for n in range(1, MAX_LEVEL + 1):
        try:
            make_bot(f"level:{n}")
        except Exception:  # noqa: BLE001 - a level that cannot be made is not offered
            break
        found.append(n)
    return found or [1, 2]


def choices() -> dict[str, Any]:
    return {"levels": levels(), "names": bots.names()}
