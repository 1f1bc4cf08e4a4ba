"""Tournaments: Swiss, round robin, arena and groups of 3-6, for people and bots.

The pure core (no server, no engine beyond the outcome's fields): the value types
(:mod:`.model`), how deals score (:mod:`.scoring`), pairing (:mod:`.pairing`), standings
and tie-breaks (:mod:`.standings`) and an event's life (:mod:`.event`: join, leave, start,
rounds, results, withdraw, forfeit). ``durak tournament`` (:mod:`.cli`) plays bots-only
events locally; the web server stores and directs them (``durak.server.tournaments``).
"""

from __future__ import annotations

from .model import Result, Round, Table
from .standings import TIEBREAKS, Standing, standings

__all__ = ["TIEBREAKS", "Result", "Round", "Standing", "Table", "standings"]
