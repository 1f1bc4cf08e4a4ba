"""Seasons: the leaderboard inside one calendar quarter (UTC), beside the all-time one
(:func:`durak.server.ratings.leaderboard`).

There is one rating, moved by every rated deal under the rating invariants (docs/web.md):
a season is a window on it, not a second rating that could be farmed on its own. A
person's line in a season: the rated deals played in it (``games``), the rating after
the last of them (``rating``, what the season ranks by) and the change over the season
(``change``: from before the first of them). Tournament deals are ordinary deals: they
count in their season like any other. Bots are rated on the same scale by level but
keep no deal-by-deal history, so a season lists people.

>>> season_of(datetime(2026, 12, 5)), bounds("2026-Q4")[1]
('2026-Q4', datetime.datetime(2027, 1, 1, 0, 0))
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from sqlalchemy import select

from ..errors import ArgumentError
from .accounts import account_deals_t, accounts_t, display, ensure
from .store import Store, now

SEASON = re.compile(r"(\d{4})-Q([1-4])")


def season_of(at: datetime) -> str:
    """The season (``YYYY-Qn``) a moment falls in."""
    return f"{at.year}-Q{(at.month - 1) // 3 + 1}"


def bounds(season: str) -> tuple[datetime, datetime]:
    """The first moment of ``season`` and the first after it (UTC, naive as stored)."""
    m = SEASON.fullmatch(season)
    if m is None or not 2000 <= int(m[1]) <= 2999:
        raise ArgumentError(f"season: YYYY-Qn (2026-Q4) or current, not {season[:16]!r}")
    year, q = int(m[1]), int(m[2])
    start = datetime(year, 3 * q - 2, 1)
    end = datetime(year + 1, 1, 1) if q == 4 else datetime(year, 3 * q + 1, 1)
    return start, end


def previous(season: str) -> str:
    """The season before ``season``.

    >>> previous("2026-Q1")
    '2025-Q4'
    """
    start, _ = bounds(season)
    return season_of(
        datetime(start.year - 1, 12, 1)
        if start.month == 1
        else datetime(start.year, start.month - 3, 1)
    )


def leaderboard(store: Store, season: str, limit: int = 100) -> dict[str, Any]:
    """The people who played rated deals in ``season`` (``current``: this one), best
    first: ``{season, start, end, players: [{id, name, kind, rating, games, change}]}``."""
    name = season_of(now()) if season == "current" else season
    start, end = bounds(name)
    ensure(store.engine)
    q = (
        select(account_deals_t, accounts_t.c.name, accounts_t.c.kind)
        .join(accounts_t, accounts_t.c.id == account_deals_t.c.account_id)
        .where(
            account_deals_t.c.at >= start,
            account_deals_t.c.at < end,
            account_deals_t.c.mu_after.is_not(None),
            account_deals_t.c.mu_before.is_not(None),
        )
        .order_by(account_deals_t.c.deal_id)
    )
    lines: dict[int, dict[str, Any]] = {}
    with store.engine.connect() as c:
        for r in c.execute(q):
            line = lines.setdefault(
                r.account_id,
                {
                    "id": r.account_id,
                    "name": r.name,
                    "kind": r.kind,
                    "games": 0,
                    "first": display(r.mu_before, r.sigma_before),
                },
            )
            line["games"] += 1
            line["rating"] = display(r.mu_after, r.sigma_after)
    players = []
    for line in lines.values():
        first = line.pop("first")
        players.append({**line, "change": line["rating"] - first})
    players.sort(key=lambda p: (-p["rating"], -p["games"], p["name"]))
    return {
        "season": name,
        "start": start.isoformat() + "Z",
        "end": end.isoformat() + "Z",
        "previous": previous(name),
        "players": players[:limit],
    }
