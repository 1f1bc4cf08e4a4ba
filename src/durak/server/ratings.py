"""Ratings for people and bots on one scale, the leaderboard and personal history.

The model is openskill's Thurstone–Mosteller full-pairing model (Weng and Lin's
Bayesian approximation of TrueSkill): each player has a skill estimate ``mu`` and an
uncertainty ``sigma``, and every rated deal is one ranked result: everyone who is not
the durak shares first place, the durak (or, with teams, the durak's side) is last; a
draw ranks all alike. A deal is rated when every person at the table is signed in;
bots are rated by their level, so a person's number means the same against bots and
people. The number shown is ``1000 + 40 * (mu - 3 * sigma)``: it starts at 1000 and
rises as the server grows sure a player is strong.

>>> display(25.0, 25.0 / 3)
1000
>>> new = rate([(25.0, 25.0 / 3), (25.0, 25.0 / 3)], sides=[0, 1], loser_side=1)
>>> new[0][0] > 25.0 > new[1][0]
True
"""

from __future__ import annotations

import json
import logging
from typing import Any

from openskill.models import ThurstoneMostellerFull
from sqlalchemy import select

from ..rules import Rules
from .accounts import (
    Account,
    account_deals_t,
    accounts_t,
    bot_account,
    by_id,
    ensure,
    seat_accounts,
    set_rating,
)
from .store import Store, deals_t, now

log = logging.getLogger("durak.server")

MODEL = ThurstoneMostellerFull()


def display(mu: float, sigma: float) -> int:
    """The rating players see: a cautious estimate of skill on a 1000-based scale."""
    return round(1000 + 40 * (mu - 3 * sigma))


def rate(
    players: list[tuple[float, float]], sides: list[int], loser_side: int | None
) -> list[tuple[float, float]]:
    """New ``(mu, sigma)`` for each player after one deal; ``sides[i]``: player i's side
    (its seat without teams), ``loser_side``: the durak's side, None for a draw."""
    order = sorted(set(sides))
    teams = [
        [
            MODEL.rating(mu=players[i][0], sigma=players[i][1])
            for i in range(len(players))
            if sides[i] == s
        ]
        for s in order
    ]
    ranks = [2.0 if s == loser_side else 1.0 for s in order]
    result = MODEL.rate(teams, ranks=ranks)
    out: list[tuple[float, float]] = [(0.0, 0.0)] * len(players)
    for s, team in zip(order, result, strict=True):
        members = [i for i in range(len(players)) if sides[i] == s]
        for i, r in zip(members, team, strict=True):
            out[i] = (float(r.mu), float(r.sigma))
    return out


def rate_deal(
    store: Store,
    deal_id: int,
    table_id: str,
    rules: Rules,
    durak: int | None,
    seats: list[tuple[str, str | None]],
    unrated: bool = False,
) -> bool:
    """Write a finished deal into the personal history of every signed-in person at
    the table and, when every person is signed in, rate it. True if it was rated.
    ``seats``: ``(kind, bot spec)`` of each seat; ``unrated``: never rate it (an undo
    was used)."""
    ensure(store.engine)
    with store.engine.begin() as c:
        linked = seat_accounts(c, table_id)
        who: dict[int, Account] = {}
        for i, (kind, bot) in enumerate(seats):
            if kind == "bot" and bot:
                who[i] = bot_account(c, bot)
            elif i in linked:
                row = c.execute(select(accounts_t).where(accounts_t.c.id == linked[i])).first()
                if row is not None:
                    who[i] = Account(row.id, row.name, row.kind, row.mu, row.sigma, row.games)
        people = [i for i, (kind, _) in enumerate(seats) if kind == "human"]
        distinct = len({a.id for a in who.values() if a.kind == "person"}) == len(people)
        rated = not unrated and bool(people) and len(who) == len(seats) and distinct
        after: dict[int, tuple[float, float]] = {}
        if rated:
            order = sorted(who)
            sides = [rules.team_of(i) for i in order]
            loser = None if durak is None else rules.team_of(durak)
            new = rate([(who[i].mu, who[i].sigma) for i in order], sides, loser)
            # A bot level at several seats is one account: it takes the mean of the
            # ratings its seats came out with.
            by_account: dict[int, list[tuple[float, float]]] = {}
            for i, (mu, sigma) in zip(order, new, strict=True):
                after[i] = (mu, sigma)
                by_account.setdefault(who[i].id, []).append((mu, sigma))
            for account_id, results in by_account.items():
                set_rating(
                    c,
                    account_id,
                    sum(m for m, _ in results) / len(results),
                    sum(s for _, s in results) / len(results),
                    played=True,
                )
        for i in people:
            a = who.get(i)
            if a is None:
                continue
            mu_after, sigma_after = after.get(i, (None, None))
            c.execute(
                account_deals_t.insert().values(
                    deal_id=deal_id,
                    account_id=a.id,
                    seat=i,
                    mu_before=a.mu if rated else None,
                    sigma_before=a.sigma if rated else None,
                    mu_after=mu_after,
                    sigma_after=sigma_after,
                    at=now(),
                )
            )
    return rated


def deal_changes(store: Store, deal_id: int) -> dict[str, dict[str, int]]:
    """The rating change of each rated person of a deal, by seat (as text): the
    displayed rating before and after, for the end-of-deal panel."""
    ensure(store.engine)
    with store.engine.connect() as c:
        rows = c.execute(select(account_deals_t).where(account_deals_t.c.deal_id == deal_id)).all()
    return {
        str(r.seat): {
            "before": display(r.mu_before, r.sigma_before),
            "after": display(r.mu_after, r.sigma_after),
        }
        for r in rows
        if r.mu_before is not None and r.mu_after is not None
    }


def leaderboard(store: Store, limit: int = 100) -> list[dict[str, Any]]:
    """People and bots who have played a rated deal, best first."""
    ensure(store.engine)
    with store.engine.connect() as c:
        rows = c.execute(select(accounts_t).where(accounts_t.c.games > 0)).all()
    out = [Account(r.id, r.name, r.kind, r.mu, r.sigma, r.games).public() for r in rows]
    out.sort(key=lambda a: (-a["rating"], a["name"]))
    return out[:limit]


def history(store: Store, account_id: int, limit: int = 100) -> dict[str, Any] | None:
    """An account and the deals it played, newest first, each with its replay id and
    the rating change (None when unrated)."""
    account = by_id(store, account_id)
    if account is None:
        return None
    q = (
        select(
            account_deals_t,
            deals_t.c.rules,
            deals_t.c.names,
            deals_t.c.result,
            deals_t.c.table_id,
            deals_t.c.finished_at,
        )
        .join(deals_t, deals_t.c.id == account_deals_t.c.deal_id)
        .where(account_deals_t.c.account_id == account_id)
        .order_by(account_deals_t.c.deal_id.desc())
        .limit(limit)
    )
    games = []
    with store.engine.connect() as c:
        for r in c.execute(q):
            change = None
            if r.mu_before is not None and r.mu_after is not None:
                change = display(r.mu_after, r.sigma_after) - display(r.mu_before, r.sigma_before)
            games.append(
                {
                    "deal": r.deal_id,
                    "table": r.table_id,
                    "seat": r.seat,
                    "rules": r.rules,
                    "names": json.loads(r.names),
                    "result": r.result,
                    "finished_at": r.finished_at.isoformat() + "Z" if r.finished_at else None,
                    "rated": change is not None,
                    "change": change,
                    "rating_after": (
                        display(r.mu_after, r.sigma_after) if r.mu_after is not None else None
                    ),
                }
            )
    return {"account": account.public(), "games": games}
