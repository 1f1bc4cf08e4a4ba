"""Tournaments in the database (SQLite or PostgreSQL, the server's own store: the
table ``durak_tournaments`` of ``store.py``'s schema): one row each, the event as JSON
(``durak.tournaments.event.Tournament.to_json`` and what the director adds), its state
and creator as columns, so that the caps are counted by the database in the
transaction that inserts a new one.

>>> from durak.server.store import Store
>>> s = Store("sqlite://")
>>> insert(s, "t1", 7, "open", {"x": 1}, Caps(per_account=1, live=5))
>>> load(s, "t1")["data"], live_ids(s)
({'x': 1}, ['t1'])
>>> insert(s, "t2", 7, "open", {}, Caps(per_account=1, live=5))
Traceback (most recent call last):
...
durak.server.store.Full: at most 1 open or running tournaments an account
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy import insert as sql_insert

from .store import Full, Store, now, tables_t, tournaments_t

LIVE = ("open", "running")


@dataclass(frozen=True)
class Caps:
    """How many live (open or running) tournaments one account, and the server, may hold."""

    per_account: int
    live: int


def insert(
    store: Store, tid: str, creator: int | None, state: str, data: dict[str, Any], caps: Caps
) -> None:
    """A new tournament, if it fits under ``caps`` (``Full`` if not), counted in the
    insert's transaction (on PostgreSQL under an advisory lock: one create at a time)."""
    with store.engine.begin() as c:
        if c.dialect.name == "postgresql":
            c.exec_driver_sql("SELECT pg_advisory_xact_lock(7318237)")
        live = tournaments_t.c.state.in_(LIVE)
        count = select(func.count()).select_from(tournaments_t).where(live)
        if int(c.execute(count).scalar_one()) >= caps.live:
            raise Full("the server runs as many tournaments as it can", 503)
        mine = count.where(tournaments_t.c.creator == creator)
        if creator is not None and int(c.execute(mine).scalar_one()) >= caps.per_account:
            raise Full(f"at most {caps.per_account} open or running tournaments an account", 429)
        at = now()
        row = {
            "id": tid,
            "creator": creator,
            "state": state,
            "data": json.dumps(data),
            "version": 0,
        }
        c.execute(sql_insert(tournaments_t).values(**row, created_at=at, updated_at=at))


def save(store: Store, tid: str, state: str, data: dict[str, Any], read: int) -> bool:
    """A tournament's new state, only if it is still at version ``read`` (what the writer
    read; the new one is ``read + 1``, also in ``data``): False, and nothing written,
    when another writer changed it since."""
    with store.engine.begin() as c:
        res = c.execute(
            update(tournaments_t)
            .where(tournaments_t.c.id == tid, func.coalesce(tournaments_t.c.version, 0) == read)
            .values(state=state, data=json.dumps(data), version=read + 1, updated_at=now())
        )
        return bool(res.rowcount == 1)


def claim(store: Store, worker: str, at: float, lease: float) -> list[str]:
    """The running tournaments ``worker`` directs from now on: those it directs already
    (their leases renewed to ``at + lease``), and those nobody does or whose director's
    lease ran out (a worker that died). One statement: two workers never both win one."""
    t = tournaments_t.c
    with store.engine.begin() as c:
        c.execute(
            update(tournaments_t)
            .where(
                t.state == "running",
                or_(t.director.is_(None), t.director == worker, t.lease_until < at),
            )
            .values(director=worker, lease_until=at + lease)
        )
        q = select(t.id).where(t.state == "running", t.director == worker)
        return [str(r[0]) for r in c.execute(q.order_by(t.created_at))]


def table_status(store: Store, table_id: str) -> str | None:
    """A lobby table's status as stored (``closed`` once it left the lobby), or None."""
    with store.engine.connect() as c:
        q = select(tables_t.c.status).where(tables_t.c.id == table_id)
        return c.execute(q).scalar_one_or_none()


def load(store: Store, tid: str) -> dict[str, Any] | None:
    """One tournament's row (``data`` decoded), or None."""
    with store.engine.connect() as c:
        r = c.execute(select(tournaments_t).where(tournaments_t.c.id == tid)).mappings().first()
    return None if r is None else {**dict(r), "data": json.loads(r["data"])}


def live_ids(store: Store) -> list[str]:
    """The open and running tournaments, oldest first (what a restart brings back)."""
    with store.engine.connect() as c:
        q = select(tournaments_t.c.id).where(tournaments_t.c.state.in_(LIVE))
        return [str(r[0]) for r in c.execute(q.order_by(tournaments_t.c.created_at))]


def listing(store: Store, limit: int = 50) -> list[dict[str, Any]]:
    """The latest tournaments, newest first: id, state, creator and the event's JSON."""
    with store.engine.connect() as c:
        q = select(tournaments_t).order_by(tournaments_t.c.created_at.desc()).limit(limit)
        return [{**dict(r), "data": json.loads(r["data"])} for r in c.execute(q).mappings()]
