"""Ratings for people and bots on one scale, the leaderboard and personal history.

The model is openskill's Thurstone–Mosteller full-pairing model (Weng and Lin's
Bayesian approximation of TrueSkill): each player has a skill estimate ``mu`` and an
uncertainty ``sigma``, and every rated deal is one ranked result: everyone who is not
the durak shares first place, the durak (or, with teams, the durak's side) is last; a
draw ranks all alike. Bots are rated by their level, so a person's number means the
same against bots and people. The number shown is ``1000 + 40 * (mu - 3 * sigma)``: it
starts at 1000 and rises as the server grows sure a player is strong.

What a rating may be moved by (docs/web.md, "Rating invariants"):

1. Only what was so when the deal started counts: the account linked to each person's
   seat and the seat's holder are written down then (``snapshot``, in the transaction
   that starts the deal). A link made or changed later counts from the next deal.
2. A deal is rated for everyone only if every person's seat was linked to a distinct
   account when it started, each seat was held by the same token to the end and played
   by its holder (not mostly by the stand-in), no hint or undo was used, no two seats
   were taken from one address (key), and no pair of its accounts has already played
   ``PAIR_LIMIT`` rated deals together in the last day.
3. A person who left (Leave, voted off, or away while the stand-in made most of their
   moves, or forfeited) takes the deal as a loss, and only they are rated for it: the
   others gain nothing from a leaver, so an accomplice's leaving farms nothing.
4. The result and the ratings it moves are one transaction (``Store.finish_deal``'s
   ``then``): both are stored, or neither.

>>> new = rate([(25.0, 25.0 / 3), (25.0, 25.0 / 3)], sides=[0, 1], loser_side=1)
>>> new[0][0] > 25.0 > new[1][0]
True
"""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import timedelta
from typing import Any

from openskill.models import ThurstoneMostellerFull
from sqlalchemy import and_, func, select
from sqlalchemy.orm import aliased

from ..rules import Rules
from .accounts import (
    Account,
    account_deals_t,
    accounts_t,
    bot_account,
    by_id,
    deal_seats_t,
    display,
    ensure,
    set_rating,
)
from .store import Store, deals_t, now, tables_t

__all__ = ["MODEL", "display", "history", "leaderboard", "rate", "rate_in", "snapshot"]

log = logging.getLogger("durak.server")

MODEL = ThurstoneMostellerFull()
PAIR_LIMIT = 10  # rated deals one pair of accounts may play together in a day
PAIR_WINDOW = timedelta(days=1)


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


def address_key(address: str | None) -> str | None:
    """What the server keeps of a seat holder's address key (``Seat.address``, in the
    database too): a hash, enough to tell two seats from one address apart and no more."""
    if not address:
        return None
    return hashlib.sha256(f"durak-seat:{address}".encode()).hexdigest()[:32]


def snapshot(
    c: Any, deal_id: int, holders: list[tuple[int, int | None, str | None, str | None]]
) -> None:
    """Write who holds each person's seat as the deal starts: ``(seat, account id,
    token hash, address hash)`` (run inside the transaction that starts the deal)."""
    for seat, account_id, token, address in holders:
        c.execute(
            deal_seats_t.insert().values(
                deal_id=deal_id,
                seat=seat,
                account_id=account_id,
                token_hash=token,
                address=address,
            )
        )


def _account_of(c: Any, account_id: int) -> Account | None:
    row = c.execute(select(accounts_t).where(accounts_t.c.id == account_id)).first()
    return (
        None if row is None else Account(row.id, row.name, row.kind, row.mu, row.sigma, row.games)
    )


def _pairs_over_limit(c: Any, ids: list[int]) -> bool:
    """Whether two of ``ids`` have played PAIR_LIMIT rated deals together lately."""
    since = now() - PAIR_WINDOW
    a, b = aliased(account_deals_t), aliased(account_deals_t)
    for i, x in enumerate(ids):
        for y in ids[i + 1 :]:
            n = c.execute(
                select(func.count())
                .select_from(a.join(b, and_(a.c.deal_id == b.c.deal_id)))
                .where(
                    a.c.account_id == x,
                    b.c.account_id == y,
                    a.c.mu_before.is_not(None),
                    b.c.mu_before.is_not(None),
                    a.c.at > since,
                )
            ).scalar_one()
            if n >= PAIR_LIMIT:
                return True
    return False


def _seated_accounts(
    c: Any, seats: list[tuple[str, str | None, str | None]], start: dict[int, Any]
) -> dict[int, Account]:
    """The account of each seat that has one: a bot seat's level, or the account a
    person started the deal as."""
    who: dict[int, Account] = {}
    for i, (kind, bot, _) in enumerate(seats):
        if kind == "bot" and bot:
            who[i] = bot_account(c, bot)
        elif i in start and start[i].account_id is not None:
            a = _account_of(c, start[i].account_id)
            if a is not None:
                who[i] = a
    return who


def _ratings_after(
    rules: Rules, who: dict[int, Account], durak: int | None, left: list[int] | None
) -> dict[int, tuple[float, float]]:
    """The new (mu, sigma) of the seats a deal moves: every seat's by the result when
    the deal is rated (``left`` None), else only each leaver's, alone: a loss against
    the table as it stood; nobody else moves."""
    order = sorted(who)
    players = [(who[i].mu, who[i].sigma) for i in order]
    sides = [rules.team_of(i) for i in order]
    after: dict[int, tuple[float, float]] = {}
    if left is None:
        loser = None if durak is None else rules.team_of(durak)
        for i, r in zip(order, rate(players, sides, loser), strict=True):
            after[i] = r
    else:
        for i in left:
            new = rate(players, sides, rules.team_of(i))
            after[i] = new[order.index(i)]
    return after


def rate_in(
    c: Any,
    deal_id: int,
    rules: Rules,
    durak: int | None,
    seats: list[tuple[str, str | None, str | None]],
    abandoned: set[int],
    assisted: bool = False,
) -> dict[int, str]:
    """Write a finished deal into the personal history of the accounts that started it
    and rate it by the invariants above (inside the deal's finishing transaction).
    ``seats``: ``(kind, bot spec, token hash now)`` of each seat; ``abandoned``: seats
    whose holder was away while the stand-in made most of their moves, or forfeited.
    Returns how each account's seat was counted: "rated", "left" or "unrated"."""
    start = {
        r.seat: r for r in c.execute(select(deal_seats_t).where(deal_seats_t.c.deal_id == deal_id))
    }
    people = [i for i, (kind, _, _) in enumerate(seats) if kind == "human"]
    who = _seated_accounts(c, seats, start)
    left = [
        i
        for i in people
        if i in who
        and (start[i].token_hash is None or seats[i][2] != start[i].token_hash or i in abandoned)
    ]
    ids = [who[i].id for i in people if i in who]
    addresses = [start[i].address for i in people if i in start]
    everyone = (
        not assisted
        and bool(people)
        and len(who) == len(seats)
        and not left
        and len(set(ids)) == len(people)
        and None not in addresses
        and len(set(addresses)) == len(addresses)
        and not _pairs_over_limit(c, ids)
    )
    after = _ratings_after(rules, who, durak, left if not everyone else None)
    # A bot level at several seats is one account: it takes the mean of its seats.
    by_account: dict[int, list[tuple[float, float]]] = {}
    for i, r in after.items():
        by_account.setdefault(who[i].id, []).append(r)
    for account_id, results in by_account.items():
        set_rating(
            c,
            account_id,
            sum(m for m, _ in results) / len(results),
            sum(sd for _, sd in results) / len(results),
            played=True,
        )
    counted: dict[int, str] = {}
    for i in people:
        a = who.get(i)
        if a is None:
            continue
        mu_after, sigma_after = after.get(i, (None, None))
        counted[i] = "rated" if everyone else "left" if i in left else "unrated"
        c.execute(
            account_deals_t.insert().values(
                deal_id=deal_id,
                account_id=a.id,
                seat=i,
                mu_before=a.mu if i in after else None,
                sigma_before=a.sigma if i in after else None,
                mu_after=mu_after,
                sigma_after=sigma_after,
                at=now(),
            )
        )
    return counted


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


def history(
    store: Store, account_id: int, limit: int = 100, own: bool = True
) -> dict[str, Any] | None:
    """An account and the deals it played, newest first, each with its replay id and
    the rating change (None when unrated). Seen by others (``own`` False), a deal of a
    private table keeps its result for the account and the rating change, and shows
    nothing that leads to the table: no table id, no deal id, no names."""
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
            tables_t.c.invite_hash,
        )
        .join(deals_t, deals_t.c.id == account_deals_t.c.deal_id)
        .join(tables_t, tables_t.c.id == deals_t.c.table_id)
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
            hidden = r.invite_hash is not None and not own
            games.append(
                {
                    "deal": None if hidden else r.deal_id,
                    "table": None if hidden else r.table_id,
                    "private": r.invite_hash is not None,
                    "seat": r.seat,
                    "rules": r.rules,
                    "names": [] if hidden else json.loads(r.names),
                    "result": None if hidden else r.result,
                    "finished_at": r.finished_at.isoformat() + "Z" if r.finished_at else None,
                    "rated": change is not None,
                    "change": change,
                    "rating_after": (
                        display(r.mu_after, r.sigma_after) if r.mu_after is not None else None
                    ),
                }
            )
    return {"account": account.public(), "games": games}
