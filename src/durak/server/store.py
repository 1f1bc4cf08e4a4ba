"""Persistence through SQLAlchemy Core: tables, seats, deals and every accepted action.

SQLite by default (a file), any SQLAlchemy URL otherwise (``postgresql+psycopg://...``).
Only portable SQL is used. A table is rebuilt after a restart from its rules, its match
seed and the stored actions of each deal, replayed through the engine.

All calls are synchronous; the server runs every one of them on one worker thread (see
``AsyncStore``), SQLite included, so that the event loop never waits on the disk or on a
lock another process holds, and writes happen in order. A call that fails (a lock held
past the busy timeout, a lost connection) raises ``StoreUnavailable``: nothing was
stored, and the caller says so or tries again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from ..errors import DurakError
from .settings import STALL_SECONDS, Timings

LOCK_SECONDS = Timings().lock_timeout

log = logging.getLogger("durak.server")

# PostgreSQL's own bounds on each session of a worker (docs/scale.md, "A worker that
# stalls"): a session left idle inside a transaction this long (its worker stopped, or
# cut off, in the middle of a write) is ended by the server, and with it the row locks
# it held, so a table's next owner waits at most this long for them; and no statement
# runs longer than STATEMENT_SECONDS. A lock is waited for ``busy_timeout`` at most.
# (Their defaults: settings.Timings's ``stall`` and ``lock_timeout``.)
STATEMENT_SECONDS = 15.0
TAKERS = 2  # threads that take tables over, beside the one that writes (AsyncStore)

metadata = MetaData()

# A writer's claim on a table: its id and the epoch the writer took it over with.
Fence = tuple[str, int]

tables_t = Table(
    "durak_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("rules", Text, nullable=False),
    Column("deals", Integer, nullable=True),
    Column("target", Integer, nullable=True),
    Column("turn_timer", Float, nullable=True),
    Column("status", String(16), nullable=False),  # waiting, playing, finished
    Column("match_no", Integer, nullable=False, default=0),
    Column("match_seed", BigInteger, nullable=True),
    Column("created_at", DateTime, nullable=False),
    Column("invite_hash", String(64), nullable=True),  # set: a private table
    # The fencing token of a cluster (docs/scale.md): raised by one each time a worker
    # takes the table over; a write of the table's state is stored only by the worker
    # whose epoch is still this one. Null in a database made before it: read as 0.
    Column("epoch", Integer, nullable=True),
    # The creator's address as the per-address caps key it (limits.net_key): a table
    # brought back from the database still counts against its creator's cap.
    Column("owner", String(64), nullable=True),
    # Its wider network's key (limits.wide_key): the per-network cap of live tables.
    Column("network", String(64), nullable=True),
)

seats_t = Table(
    "durak_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("durak_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human, bot
    Column("bot", String(64), nullable=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),
    # A hash of the holder's address key (ratings.address_key): two seats from one
    # address make a deal unrated, after a restart too.
    Column("address", String(64), nullable=True),
)

deals_t = Table(
    "durak_deals",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("durak_tables.id"), nullable=False, index=True),
    Column("match_no", Integer, nullable=False),
    Column("deal_no", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("dealer", Integer, nullable=False),
    Column("leader", Integer, nullable=True),
    Column("rules", Text, nullable=False),
    Column("names", Text, nullable=False),  # JSON list
    Column("result", Text, nullable=True),  # null while in play
    Column("record", Text, nullable=True),
    Column("started_at", DateTime, nullable=False),
    Column("finished_at", DateTime, nullable=True),
    Column("salt", String(64), nullable=True),  # the seed's commitment: sha256(seed:salt)
    Column("assisted", Integer, nullable=True),  # 1: a hint or an undo was used (unrated)
    # The server's seed as committed, and the players' nonces (JSON list) mixed into it
    # to make ``seed`` (table.mix_seed); null for deals dealt before nonces.
    Column("server_seed", BigInteger, nullable=True),
    Column("nonces", Text, nullable=True),
)

actions_t = Table(
    "durak_actions",
    metadata,
    Column("deal_id", Integer, ForeignKey("durak_deals.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(64), nullable=False),
    Column("at", DateTime, nullable=False),
    # Who moved when not the seat's player: "timer" or "stand_in" (null: the player).
    Column("moved_by", String(16), nullable=True),
)

# Tournaments (server/tournament_store.py): one row each, the event as JSON.
tournaments_t = Table(
    "durak_tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("creator", Integer, nullable=True, index=True),  # the account (None: the operator)
    Column("state", String(16), nullable=False),  # open, running, finished
    Column("data", Text, nullable=False),  # the event and the director's notes, JSON
    Column("created_at", DateTime, nullable=False),
    Column("updated_at", DateTime, nullable=False),
    # Raised by each change; a write names the version it read (optimistic: none lost).
    Column("version", Integer, nullable=True),
    # The worker directing it, while ``lease_until`` (the lobby clock's time) is ahead.
    Column("director", String(64), nullable=True),
    Column("lease_until", Float, nullable=True),
)

LIVE = ("waiting", "playing", "finished")  # a table's statuses while it is open
BUSY = ("waiting", "playing")  # those a creator's caps count


@dataclass(frozen=True)
class Room:
    """The caps of live tables a new table must fit under (``Limits``), and its
    creator's keys (``limits.net_key``, ``limits.wide_key``; None: no creator)."""

    max_tables: int
    per_address: int
    per_network: int
    key: str | None = None
    wide: str | None = None


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


@dataclass
class DealRow:
    id: int
    match_no: int
    deal_no: int
    seed: int
    dealer: int
    leader: int | None
    result: str | None
    actions: list[tuple[int, str, str | None]] = field(default_factory=list)  # seat, action, by
    salt: str | None = None
    assisted: bool = False
    server_seed: int | None = None
    nonces: list[str] | None = None
    started_at: datetime | None = None


@dataclass
class TableRow:
    id: str
    rules: str
    deals: int | None
    target: int | None
    turn_timer: float | None
    status: str
    match_no: int
    match_seed: int | None
    seats: list[dict[str, Any]]
    current: list[DealRow]  # the deals of the current match, in order
    deal_count: int  # deals ever started at this table
    action_count: int  # actions ever played at this table
    invite_hash: str | None = None
    # When the last change of the current deal was stored (its last action, or its
    # start), UTC: the turn clock of the seat to act runs from here, so a table taken
    # over by another worker keeps its clocks (docs/scale.md).
    turn_since: datetime | None = None
    epoch: int = 0  # the fencing token (``Store.take_table``)
    owner: str | None = None  # the creator's address key


@contextmanager
def schema_lock(engine: Engine) -> Iterator[Connection]:
    """A transaction in which to create tables: on PostgreSQL it first takes an advisory
    lock, because the workers of a cluster start together and two ``CREATE TABLE`` s of
    one name at once fail (one makes the tables at a time; the next finds them made)."""
    with engine.begin() as c:
        if engine.dialect.name == "postgresql":
            # Not bounded by the sessions' lock timeout: a worker starting beside another
            # that makes the tables waits for it, however slow the machine.
            c.exec_driver_sql("SET LOCAL lock_timeout = 0")
            c.exec_driver_sql("SELECT pg_advisory_xact_lock(7318235)")
        yield c


class Store:
    """The database. ``Store("sqlite:///durak.db")``; ``Store("sqlite://")`` is in memory."""

    def __init__(
        self, url: str, busy_timeout: float = LOCK_SECONDS, stall: float = STALL_SECONDS
    ) -> None:
        self.url = url
        self.engine = make_engine(url, busy_timeout, stall)
        with schema_lock(self.engine) as c:
            metadata.create_all(c)
            _add_missing_columns(c)
        # The fence of the call running on this thread (``AsyncStore.write``): every
        # transaction ``begin`` opens checks it first.
        self._local = threading.local()
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if url.startswith("sqlite") and not _is_memory(url):
            # Checkpoints copy the WAL into the database and fsync it: on a busy disk
            # that takes 100 ms and more. Done here, on a thread of their own, they
            # never hold up the event loop's writes.
            self._checkpointer = threading.Thread(
                target=self._checkpoints, daemon=True, name="durak-db-checkpoint"
            )
            self._checkpointer.start()

    def _checkpoints(self, every: float = 1.0) -> None:
        while not self._stop.wait(every):
            try:
                with self.engine.connect() as c:
                    c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("WAL checkpoint failed")

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
            with self.engine.connect() as c:
                c.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        self.engine.dispose()

    # -- writes ----------------------------------------------------------------------
    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """A write transaction. Inside ``fenced((table, epoch))`` it first checks that
        ``epoch`` is still the table's and holds the table's row until it commits (an
        ``UPDATE`` of it: a worker taking the table over waits for the commit), so a
        worker whose table was taken over by another stores nothing more of it; it
        raises ``Fenced`` instead, and nothing of the transaction is written."""
        with self.engine.begin() as c:
            fence: Fence | None = getattr(self._local, "fence", None)
            if fence is not None:
                table_id, epoch = fence
                held = c.execute(
                    update(tables_t)
                    .where(tables_t.c.id == table_id, tables_t.c.epoch == epoch)
                    .values(epoch=epoch)
                ).rowcount
                if held != 1:
                    raise Fenced(f"table {table_id}: another worker took it over")
            yield c

    @contextmanager
    def fenced(self, fence: Fence | None) -> Iterator[None]:
        """Every ``begin`` of this thread checks ``fence`` meanwhile (None: no check)."""
        self._local.fence = fence
        try:
            yield
        finally:
            self._local.fence = None

    def take_table(self, table_id: str) -> TableRow | None:
        """Take ``table_id`` over (a worker adopting it): its epoch raised by one, then
        the table loaded with that epoch, in one transaction (a write the previous owner
        made before is loaded; one it tries after is fenced off). None if the database
        has no live table of that id.

        >>> s = Store("sqlite://")
        >>> s.create_table({"id": "t1", "rules": "podkidnoy", "status": "waiting",
        ...                 "match_no": 0, "epoch": 1}, [])
        >>> s.take_table("t1").epoch, s.take_table("t1").epoch, s.take_table("nope")
        (2, 3, None)
        """
        live = ("waiting", "playing", "finished")
        with self.engine.begin() as c:
            res = c.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.status.in_(live))
                .values(epoch=func.coalesce(tables_t.c.epoch, 0) + 1)
            )
            if res.rowcount != 1:
                return None
            rows = _load(c, live, [table_id])
            return rows[0] if rows else None

    def create_table(
        self, row: dict[str, Any], seats: list[dict[str, Any]], room: Room | None = None
    ) -> None:
        """A new table and its seats; with ``room``, only if it fits under those caps,
        counted in the same transaction as the insert (``Full`` if not): on PostgreSQL
        under one advisory lock, so creates on every worker are counted one at a time;
        one SQLite process writes on one thread, one transaction at a time."""
        with self.begin() as c:
            if room is not None:
                _check_room(c, room)
            c.execute(insert(tables_t).values(**row, created_at=now()))
            for s in seats:
                c.execute(insert(seats_t).values(table_id=row["id"], **s))

    def set_seat(self, table_id: str, seat: int, **values: Any) -> None:
        with self.begin() as c:
            c.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(**values)
            )

    def set_table(self, table_id: str, **values: Any) -> None:
        with self.begin() as c:
            c.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    # PLR0913: one row's columns, each a keyword
    def start_deal(  # noqa: PLR0913
        self,
        table_id: str,
        match_no: int,
        deal_no: int,
        seed: int,
        dealer: int,
        leader: int | None,
        rules: str,
        names: list[str],
        table_values: dict[str, Any] | None = None,
        salt: str | None = None,
        then: Callable[[Any, int], None] | None = None,
        server_seed: int | None = None,
        nonces: list[str] | None = None,
    ) -> int:
        """A new deal; ``then(connection, deal_id)`` writes more in the same transaction
        (the accounts that start it, see ratings.snapshot)."""
        with self.begin() as c:
            if table_values:
                c.execute(update(tables_t).where(tables_t.c.id == table_id).values(**table_values))
            res = c.execute(
                insert(deals_t).values(
                    table_id=table_id,
                    match_no=match_no,
                    deal_no=deal_no,
                    seed=seed,
                    dealer=dealer,
                    leader=leader,
                    rules=rules,
                    names=json.dumps(names),
                    started_at=now(),
                    salt=salt,
                    server_seed=server_seed,
                    nonces=json.dumps(nonces) if nonces is not None else None,
                )
            )
            key = res.inserted_primary_key
            assert key is not None
            if then is not None:
                then(c, int(key[0]))
            return int(key[0])

    def add_action(
        self, deal_id: int, ply: int, seat: int, action: str, moved_by: str | None = None
    ) -> None:
        with self.begin() as c:
            c.execute(
                insert(actions_t).values(
                    deal_id=deal_id, ply=ply, seat=seat, action=action, at=now(), moved_by=moved_by
                )
            )

    def set_assisted(self, deal_id: int) -> None:
        with self.begin() as c:
            c.execute(update(deals_t).where(deals_t.c.id == deal_id).values(assisted=1))

    def finish_deal(
        self,
        deal_id: int,
        result: str,
        record: str,
        table_id: str | None = None,
        status: str | None = None,
        then: Callable[[Any], None] | None = None,
    ) -> None:
        """A deal's end; ``then(connection)`` writes more in the same transaction (its
        ratings: the result and the ratings it moves are stored together or not at all)."""
        with self.begin() as c:
            c.execute(
                update(deals_t)
                .where(deals_t.c.id == deal_id)
                .values(result=result, record=record, finished_at=now())
            )
            if table_id is not None and status is not None:
                c.execute(update(tables_t).where(tables_t.c.id == table_id).values(status=status))
            if then is not None:
                then(c)

    # -- reads -----------------------------------------------------------------------
    def live_table_ids(
        self, statuses: tuple[str, ...] = ("waiting", "playing", "finished")
    ) -> list[str]:
        """The ids of the tables in one of ``statuses`` (those a restart brings back)."""
        with self.engine.connect() as c:
            q = select(tables_t.c.id).where(tables_t.c.status.in_(statuses))
            return [str(r[0]) for r in c.execute(q.order_by(tables_t.c.created_at))]

    def load_tables(
        self,
        statuses: tuple[str, ...] = ("waiting", "playing", "finished"),
        ids: list[str] | None = None,
    ) -> list[TableRow]:
        """Every table in one of ``statuses`` (of ``ids`` only, if given), with the deals
        of its current match."""
        with self.engine.connect() as c:
            return _load(c, statuses, ids)

    def finished_deals(self, limit: int = 50, table_id: str | None = None) -> list[dict[str, Any]]:
        """The most recent finished deals of public tables, newest first (no record
        text); a private table's deals are listed only by its id."""
        q = (
            select(
                deals_t.c.id,
                deals_t.c.table_id,
                deals_t.c.match_no,
                deals_t.c.deal_no,
                deals_t.c.rules,
                deals_t.c.names,
                deals_t.c.result,
                deals_t.c.finished_at,
            )
            .where(deals_t.c.result.is_not(None))
            .order_by(deals_t.c.finished_at.desc(), deals_t.c.id.desc())
            .limit(limit)
        )
        if table_id is not None:
            q = q.where(deals_t.c.table_id == table_id)
        else:
            q = q.where(
                deals_t.c.table_id.in_(
                    select(tables_t.c.id).where(tables_t.c.invite_hash.is_(None))
                )
            )
        with self.engine.connect() as c:
            return [
                {
                    **dict(r),
                    "names": json.loads(r["names"]),
                    "finished_at": r["finished_at"].isoformat() + "Z",
                }
                for r in c.execute(q).mappings()
            ]

    def deal(self, deal_id: int) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            r = c.execute(select(deals_t).where(deals_t.c.id == deal_id)).mappings().first()
            if r is None:
                return None
            d = dict(r)
            d["names"] = json.loads(d["names"])
            d["nonces"] = json.loads(d["nonces"]) if d.get("nonces") else None
            d["invite_hash"] = c.execute(
                select(tables_t.c.invite_hash).where(tables_t.c.id == d["table_id"])
            ).scalar_one_or_none()
            d["actions"] = [
                (a.seat, a.action)
                for a in c.execute(
                    select(actions_t.c.seat, actions_t.c.action)
                    .where(actions_t.c.deal_id == deal_id)
                    .order_by(actions_t.c.ply)
                )
            ]
            return d


def _load(c: Connection, statuses: tuple[str, ...], ids: list[str] | None) -> list[TableRow]:
    """``Store.load_tables`` on the connection ``c``."""
    out: list[TableRow] = []
    q = select(tables_t).where(tables_t.c.status.in_(statuses))
    if ids is not None:
        q = q.where(tables_t.c.id.in_(ids))
    rows = c.execute(q.order_by(tables_t.c.created_at)).mappings().all()
    for t in rows:
        seats = [
            dict(s)
            for s in c.execute(
                select(seats_t).where(seats_t.c.table_id == t["id"]).order_by(seats_t.c.seat)
            ).mappings()
        ]
        deals = [
            DealRow(
                d["id"],
                d["match_no"],
                d["deal_no"],
                d["seed"],
                d["dealer"],
                d["leader"],
                d["result"],
                salt=d["salt"],
                assisted=bool(d["assisted"]),
                server_seed=d["server_seed"],
                nonces=json.loads(d["nonces"]) if d["nonces"] else None,
                started_at=d["started_at"],
            )
            for d in c.execute(
                select(deals_t)
                .where(deals_t.c.table_id == t["id"], deals_t.c.match_no == t["match_no"])
                .order_by(deals_t.c.deal_no)
            ).mappings()
        ]
        turn_since = None
        for d in deals:
            rows_a = c.execute(
                select(
                    actions_t.c.seat,
                    actions_t.c.action,
                    actions_t.c.moved_by,
                    actions_t.c.at,
                )
                .where(actions_t.c.deal_id == d.id)
                .order_by(actions_t.c.ply)
            ).all()
            d.actions = [(a.seat, a.action, a.moved_by) for a in rows_a]
            turn_since = rows_a[-1].at if rows_a else d.started_at
        n_deals = c.execute(
            select(func.count()).select_from(deals_t).where(deals_t.c.table_id == t["id"])
        ).scalar_one()
        n_actions = c.execute(
            select(func.count())
            .select_from(actions_t.join(deals_t))
            .where(deals_t.c.table_id == t["id"])
        ).scalar_one()
        out.append(
            TableRow(
                id=t["id"],
                rules=t["rules"],
                deals=t["deals"],
                target=t["target"],
                turn_timer=t["turn_timer"],
                status=t["status"],
                match_no=t["match_no"],
                match_seed=t["match_seed"],
                seats=seats,
                current=deals,
                deal_count=int(n_deals),
                action_count=int(n_actions),
                invite_hash=t["invite_hash"],
                turn_since=turn_since,
                epoch=t["epoch"] or 0,
                owner=t["owner"],
            )
        )
    return out


def _check_room(c: Connection, room: Room) -> None:
    """``Full`` unless one more table fits under ``room``'s caps (on ``c``'s transaction)."""
    if c.dialect.name == "postgresql":
        c.exec_driver_sql("SELECT pg_advisory_xact_lock(7318236)")  # held to the commit

    def count(statuses: tuple[str, ...], *where: Any) -> int:
        q = select(func.count()).select_from(tables_t).where(tables_t.c.status.in_(statuses))
        return int(c.execute(q.where(*where)).scalar_one())

    if count(LIVE) >= room.max_tables:
        raise Full("the server has as many tables as it can hold", 503)
    if room.key is not None and count(BUSY, tables_t.c.owner == room.key) >= room.per_address:
        raise Full(f"at most {room.per_address} live tables from one address", 429)
    if room.wide is not None and count(BUSY, tables_t.c.network == room.wide) >= room.per_network:
        raise Full(f"at most {room.per_network} live tables from one network", 429)


def _is_memory(url: str) -> bool:
    return url in ("sqlite://", "sqlite:///:memory:")


def _add_missing_columns(c: Connection) -> None:
    """Columns added since a database was made (ALTER TABLE ... ADD COLUMN, nullable)."""
    have = inspect(c)
    for table in metadata.sorted_tables:
        present = {col["name"] for col in have.get_columns(table.name)}
        for col in table.columns:
            if col.name not in present:
                kind = col.type.compile(dialect=c.dialect)
                c.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN {col.name} {kind}")


def postgres_options(busy_timeout: float, stall: float) -> str:
    """The bounds every PostgreSQL session of the server runs with (libpq ``options``).

    >>> postgres_options(2.0, 5.0)
    '-c lock_timeout=2000 -c statement_timeout=15000 -c idle_in_transaction_session_timeout=5000'
    """
    ms = [int(busy_timeout * 1000), int(max(STATEMENT_SECONDS, busy_timeout) * 1000)]
    return (
        f"-c lock_timeout={ms[0]} -c statement_timeout={ms[1]}"
        f" -c idle_in_transaction_session_timeout={int(stall * 1000)}"
    )


def make_engine(
    url: str, busy_timeout: float = LOCK_SECONDS, stall: float = STALL_SECONDS
) -> Engine:
    if url.startswith("sqlite"):
        memory = _is_memory(url)
        engine = create_engine(
            url,
            # timeout: how long a write waits for a lock another process holds.
            connect_args={"check_same_thread": False, "timeout": busy_timeout},
            # An in-memory database lives in one connection; share it.
            poolclass=StaticPool if memory else None,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            if not memory:
                # WAL: readers do not block the writer; NORMAL sync is safe with WAL
                # (a power cut may lose the last commits, never corrupt the file).
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA wal_autocheckpoint=0")  # see Store._checkpoints
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    if url.startswith("postgresql"):
        options = postgres_options(busy_timeout, stall)
        return create_engine(url, pool_pre_ping=True, connect_args={"options": options})
    return create_engine(url, pool_pre_ping=True)


T = TypeVar("T")


class StoreUnavailable(DurakError, RuntimeError):
    """A database call failed (locked, gone): nothing it was to do was done."""


class Full(DurakError):
    """A new table refused: a cap of live tables is reached (``Store.create_table``).
    ``status``: the HTTP status to answer with."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Fenced(StoreUnavailable):
    """A write refused because another worker took the table over since the writer
    did (its epoch moved on: ``Store.begin``). Nothing was written; the writer is to let
    the table go."""


class AsyncStore:
    """A Store driven from asyncio: every call on one worker thread, in order, so the
    event loop never waits on the database (a busy SQLite lock, a slow network)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="durak-db")
        # Taking a table over waits for its row, which a stalled previous owner may hold
        # (until PostgreSQL ends its session: STALL_SECONDS): on threads of their own, so
        # the writes of every other table held here never wait behind it.
        self._takers = ThreadPoolExecutor(max_workers=TAKERS, thread_name_prefix="durak-db-take")
        # The calls handed to the thread and not finished, each with what it is (for
        # the log of a drain cut short: ``drain``).
        self._pending: dict[Future[Any], str] = {}

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await self.write(None, fn, *args, **kwargs)

    async def take(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``run`` on the takeover threads (``Store.take_table`` and what a table taken
        over reads): never behind, nor ahead of, the writes of the tables held here."""
        return await self._call(self._takers, None, fn, *args, **kwargs)

    async def write(
        self, fence: Fence | None, fn: Callable[..., T], *args: Any, **kwargs: Any
    ) -> T:
        """``run``, every transaction of the call fenced by ``fence`` (``Store.begin``);
        raises ``Fenced`` if the table's epoch is no longer the fence's."""
        return await self._call(self._pool, fence, fn, *args, **kwargs)

    async def _call(
        self,
        pool: ThreadPoolExecutor,
        fence: Fence | None,
        fn: Callable[..., T],
        *args: Any,
        **kwargs: Any,
    ) -> T:
        store = self.store

        def call() -> T:
            with store.fenced(fence):
                return fn(*args, **kwargs)

        work = pool.submit(call)
        self._pending[work] = _describe(fn, args)
        work.add_done_callback(lambda w: self._pending.pop(w, None))
        try:
            return await asyncio.wrap_future(work)
        except SQLAlchemyError as e:
            log.warning(
                "database call %s failed: %s", getattr(fn, "__name__", fn), str(e).splitlines()[0]
            )
            raise StoreUnavailable("the database is busy; try again") from e

    async def drain(self, seconds: float) -> list[str]:
        """Wait up to ``seconds`` for the calls already handed to the thread; what is
        left unfinished then (a database that stopped answering), described."""
        waiting = [asyncio.wrap_future(w) for w in list(self._pending)]
        if waiting:
            await asyncio.wait(waiting, timeout=max(0.0, seconds))
        return sorted(self._pending.values())

    def close(self, wait: bool = True) -> None:
        """Stop the thread after its calls (``wait``), or at once: a call stuck on a
        database that does not answer is left to the process's exit."""
        if wait:
            self._takers.shutdown(wait=True)
            self._pool.shutdown(wait=True)
            self.store.close()
        else:
            self._takers.shutdown(wait=False, cancel_futures=True)
            self._pool.shutdown(wait=False, cancel_futures=True)


def _describe(fn: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """A call as the log names it: the function and its leading ids.

    >>> _describe(Store.add_action, (17, 3, 0, "6♠"))
    'add_action(17, 3, 0, 6♠)'
    """
    ids = []
    for a in args[:4]:
        if isinstance(a, Store):
            continue
        if not isinstance(a, int | str) or len(str(a)) > 40:
            break
        ids.append(str(a))
    return f"{getattr(fn, '__name__', 'call')}({', '.join(ids)})"
