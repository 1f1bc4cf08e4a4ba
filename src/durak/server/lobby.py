"""The lobby: every live table, creating and joining them, and bringing them back after
a restart. No accounts: holding a seat means holding its secret token; watching or joining
a private table means holding its invite.

Tables do not pile up: a table nobody is connected to closes after a while (see
``Lobby.sweep``), and one address may hold only a few live tables (``Limits``).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import fields
from typing import Any, Protocol

import msgspec

from ..errors import DurakError
from ..game import Game
from ..rules import Rules, RulesError
from . import accounts
from .clock import Clock, Events
from .limits import Limits, Tally, net_key, wide_key
from .protocol import ProtocolError, call_outcome, clean_name, turned_cards
from .ratings import address_key
from .reviews import ReviewBusy, Reviews
from .seatbots import public_spec
from .settings import Timings
from .store import AsyncStore, Full, Room, Store, StoreUnavailable, TableRow
from .table import LiveTable, Seat, commitment, hash_token
from .tablecore import TableCore

log = logging.getLogger("durak.server")

RULE_OPTIONS = {f.name for f in fields(Rules)}
MAX_RULE_INT = 52  # no whole-number rule means anything above the biggest deck
MAX_RULES_TEXT = 400
DEFAULT_TURN_TIMER = 30.0  # seconds: the clock of a table with people unless set


class TableOp(msgspec.Struct, frozen=True):
    """One request about a table (``Lobby.op``): what is asked (``name``), of which
    table, with the request's body, the account and address key it came from, and
    whether that address is over its limit of wrong guesses. It crosses between the
    workers of a cluster as it is (``cluster.wire.Req``)."""

    name: str
    table: str
    body: dict[str, Any]
    account_id: int | None = None
    address: str | None = None
    guesser: bool = False


class LobbyError(DurakError, ValueError):
    """A lobby request refused; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Registry(Protocol):
    """Where the live tables are counted: this process alone (``LocalRegistry``), or
    every worker of a cluster (``cluster.RedisCluster``, docs/scale.md)."""

    async def created(self, t: LiveTable) -> None:
        """A new table, held here."""
        ...

    async def closed(self, table_id: str) -> None:
        """A table closed for good."""
        ...

    def holds(self, table_id: str) -> bool:
        """Whether the table is surely still held here (not taken over meanwhile by
        another worker while this one stalled): what it is sent is shown only then."""
        ...

    def outdated(self, table_id: str) -> None:
        """The table held here is behind the database (``LiveTable`` found a move's
        number taken): load it again."""
        ...

    def fenced(self, table_id: str) -> None:
        """Another worker took over the table held here (a write of it was fenced off,
        ``store.Fenced``): let it go at once."""
        ...


class LocalRegistry:
    """The tables of one process: the lobby's own."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    async def created(self, t: LiveTable) -> None:
        pass

    def holds(self, table_id: str) -> bool:
        return table_id in self.lobby.tables

    async def closed(self, table_id: str) -> None:
        pass

    def outdated(self, table_id: str) -> None:
        # One process is the only writer of its tables: nothing else stores their moves.
        log.error("table %s: a move's number was taken in the database", table_id)

    def fenced(self, table_id: str) -> None:
        # One process writes unfenced (``Lobby.fencing`` is off): never called.
        log.error("table %s: a write was fenced off", table_id)


class Sharing(Protocol):
    """What a lobby shares with the other workers of a cluster, given to it when it is
    made (``cluster.RedisCluster``); one process shares nothing (``cluster.Local``)."""

    fencing: bool  # tables' writes checked against their epoch (``store.Store.begin``)

    def registry(self, lobby: Lobby) -> Registry:
        """Where ``lobby``'s live tables are counted."""
        ...

    def tally(self, name: str, limit: int) -> Tally:
        """A count of what each address key holds at once (``name``: bots, hints)."""
        ...


class Alone:
    """One process: its tables, its counts and its writes are its own."""

    fencing = False

    def registry(self, lobby: Lobby) -> Registry:
        return LocalRegistry(lobby)

    def tally(self, name: str, limit: int) -> Tally:
        return Tally(limit)


class Lobby:
    """Every table of one server process."""

    def __init__(
        self,
        store: Store,
        timings: Timings | None = None,
        limits: Limits | None = None,
        clock: Clock | None = None,
        bot_threads: int = 2,
        sharing: Sharing | None = None,
    ) -> None:
        """``timings``: the server's waits and pauses (``settings.Timings``: its defaults
        when None); ``clock``: the time the tables read (a test's
        ``clock.ManualClock``); ``bot_threads``: the threads seat bots think on;
        ``sharing``: what it shares with the other workers of a cluster (None: one
        process, ``Alone``)."""
        shared = sharing or Alone()
        self.clock = clock or Clock()
        self.events = Events()  # the moments the tables announce (clock.Events)
        self.timings = timings or Timings()
        self.limits = limits or Limits()
        accounts.ensure(store.engine)  # deals write their seats' accounts as they start
        self.store = AsyncStore(store)
        self.reviews = Reviews()  # (finished deals reviewed one at a time, the last kept)
        # Three pools, so that no one kind of work can hold the threads another needs:
        # seat bots think on ``bot_pool``; stand-ins (turn clocks, away players, a seat
        # bot past its time cap) on ``stand_in_pool``, where only the cheap stand-in
        # runs; hints on ``hint_pool``, one at a time.
        self.bot_pool = ThreadPoolExecutor(max_workers=bot_threads, thread_name_prefix="durak-bot")
        self.stand_in_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="durak-stand-in")
        self.hint_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="durak-hint")
        # What one address key may hold of those pools at once: counted in this process,
        # or over every worker of a cluster.
        self.bot_slots = shared.tally("bots", self.limits.bots_per_address)
        self.hint_slots = shared.tally("hints", self.limits.hints_per_address)
        self.tables: dict[str, LiveTable] = {}
        # Seconds from a person's action arriving to its update being queued for sending.
        self.latencies: deque[float] = deque(maxlen=100_000)
        # How late the event loop wakes up for a timer: a busy or starved loop shows here.
        self.lags: deque[float] = deque(maxlen=10_000)
        self._watch: asyncio.Task[None] | None = None
        self.registry: Registry = shared.registry(self)
        # Tables' writes checked against their epoch (``store.Store.begin``): on for the
        # workers of a cluster, off for one process.
        self.fencing = shared.fencing

    async def _watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        sweep = loop.time()
        while True:
            t = loop.time()
            await asyncio.sleep(0.05)
            self.lags.append(loop.time() - t - 0.05)
            if t - sweep > min(60.0, *self.timings.close_after.values()):
                sweep = t
                try:
                    await self.sweep()
                except Exception:
                    log.exception("closing idle tables failed")

    async def sweep(self) -> list[str]:
        """Close tables nobody is connected to (for ``close_after[status]`` seconds): they
        leave memory and the lobby, their games stay in the database. A table of people
        who all left closes too, however its bots and stand-ins are doing."""
        now = self.clock.monotonic()
        closed = []
        for t in list(self.tables.values()):
            limit = self.timings.close_after.get(t.status)
            if limit is not None and t.idle_for(now) > limit:
                try:
                    await t.write(self.store.store.set_table, t.id, status="closed")
                except StoreUnavailable:
                    continue  # the next sweep tries again
                await t.close()
                del self.tables[t.id]
                await self.registry.closed(t.id)
                closed.append(t.id)
        return closed

    async def restore(self) -> int:
        """Bring back every table the database holds that is not closed."""
        self.start_watch()
        rows = await self.store.run(self.store.store.load_tables)
        for row in rows:
            await self._revive(row)
        return len(rows)

    def start_watch(self) -> None:
        """The janitor and the loop-lag probe (once)."""
        if self._watch is None:
            self._watch = asyncio.create_task(self._watch_loop())

    async def adopt(self, table_id: str) -> LiveTable | None:
        """Take over ``table_id`` from the database (its owner is gone: docs/scale.md),
        its turn clock running from the stored time of its last change; None if the
        database has no live table of that id."""
        if self.fencing:  # the table's epoch raised: its previous owner's writes fenced off
            row = await self.store.take(self.store.store.take_table, table_id)
        else:
            rows = await self.store.take(self.store.store.load_tables, ids=[table_id])
            row = rows[0] if rows else None
        if row is None:
            return None
        return await self._revive(row, keep_clock=True)

    async def _revive(self, row: TableRow, keep_clock: bool = False) -> LiveTable | None:
        try:
            rules = Rules.parse(row.rules)
            seats = [
                Seat(s["seat"], s["kind"], s["bot"], s["name"], s["token_hash"]) for s in row.seats
            ]
            for held, stored in zip(seats, row.seats, strict=True):
                held.address = stored.get("address")
            t = LiveTable(
                self,
                row.id,
                rules,
                seats,
                row.deals,
                row.target,
                row.turn_timer,
                invite_hash=row.invite_hash,
                owner=row.owner,
            )
            t.epoch = row.epoch if self.fencing else None
            end = t.restore(row, keep_clock)
            links = await self.store.take(accounts.linked_seats, self.store.store, row.id)
            for seat, account_id in links.items():
                if 0 <= seat < len(t.seats) and t.seats[seat].token_hash is not None:
                    t.seats[seat].account_id = account_id
        except Exception:
            log.exception("table %s could not be restored; left in the database", row.id)
            return None
        self.tables[t.id] = t
        await t.resume(end)
        return t

    def outdated(self, table_id: str) -> None:
        self.registry.outdated(table_id)

    def holds(self, table: TableCore[Any]) -> bool:
        """Whether ``table`` is surely still held here (``Registry.holds``)."""
        return self.tables.get(table.id) is table and self.registry.holds(table.id)

    def fenced(self, table: TableCore[Any]) -> None:
        # Only the copy held now: a stale copy's late write (one dropped and loaded again
        # meanwhile) must not make the lobby let go of the fresh one.
        if self.tables.get(table.id) is table:
            self.registry.fenced(table.id)

    async def drop(self, table_id: str) -> None:
        """Let go of a table another worker now owns: out of memory, nothing written."""
        t = self.tables.pop(table_id, None)
        if t is not None:
            await t.close()

    async def close(self, seconds: float | None = None) -> list[str]:
        """Stop every table and finish the database's work: all of it, or (``seconds``
        given) what finishes within ``seconds``, the database thread then left behind.
        Returns what could not be stored (empty: everything was): the writes still
        running or waiting at the deadline, and the ones the tables were retrying."""
        loop = asyncio.get_running_loop()
        end = loop.time() + (seconds or 0.0)
        if self._watch is not None:
            self._watch.cancel()
        left = [
            f"table {t.id}: {what} (was being retried)"
            for t in self.tables.values()
            for what in sorted(t.retrying)
        ]
        closing = [asyncio.ensure_future(t.close()) for t in self.tables.values()]
        if closing:
            await asyncio.wait(
                closing, timeout=None if seconds is None else max(0.0, end - loop.time())
            )
        for pool in (self.bot_pool, self.stand_in_pool, self.hint_pool):
            pool.shutdown(wait=False, cancel_futures=True)
        if seconds is None:
            self.store.close()
            return left
        unfinished = await self.store.drain(end - loop.time())
        self.store.close(wait=not unfinished)
        return left + unfinished

    def table(self, table_id: str, invite: object = None) -> LiveTable:
        """The table ``table_id``; a private one only with its invite (else, as for a
        table that does not exist, 404: a private table's existence is not told)."""
        t = self.tables.get(table_id)
        if t is None or not t.admits(invite):
            raise LobbyError(f"no table {table_id[:64]!r}", 404)
        return t

    def stats(self) -> dict[str, Any]:
        """How busy the server is and how long it takes to handle an action."""
        times, lags = sorted(self.latencies), sorted(self.lags)

        def pct(p: float, xs: list[float] = times) -> float | None:
            return round(xs[min(len(xs) - 1, int(p * len(xs)))] * 1000, 2) if xs else None

        return {
            "tables": len(self.tables),
            "playing": sum(1 for t in self.tables.values() if t.status == "playing"),
            "connections": sum(len(t.conns) for t in self.tables.values()),
            "actions": len(times),
            "handle_ms": {"p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": pct(1.0)},
            "loop_lag_ms": {"p50": pct(0.5, lags), "p99": pct(0.99, lags), "max": pct(1.0, lags)},
        }

    def summaries(self, offset: int = 0, limit: int = 50) -> dict[str, Any]:
        """One page of the public tables, newest first, and how many there are."""
        public = [t for t in self.tables.values() if t.invite_hash is None]
        public.reverse()
        page = public[offset : offset + limit]
        return {
            "tables": [t.summary() for t in page],
            "total": len(public),
            "offset": offset,
            "limit": limit,
        }

    # -- requests --------------------------------------------------------------------
    def room(self, owner: str | None) -> Room:
        """The caps a new table from ``owner``'s address must fit under, counted by the
        database in the very transaction that stores it (``Store.create_table``): over
        every worker, and never beaten by creates that arrive together."""
        lim = self.limits
        key = net_key(owner)[:64] if owner is not None else None
        wide = wide_key(owner)[:64] if owner is not None else None
        return Room(lim.max_tables, lim.tables_per_address, lim.tables_per_network, key, wide)

    def _new_table(
        self, spec: dict[str, Any], owner: str | None
    ) -> tuple[LiveTable, str | None, Rules]:
        """The table a request body asks for (not stored yet), its invite if private,
        and its rules as asked (a table of bots only plays them with an action limit)."""
        rules = rules_of(spec)
        seat_specs = spec.get("seats")
        if seat_specs is None:
            seat_specs = [{"kind": "human"}] + [{"kind": "bot", "level": 2}] * (rules.players - 1)
        if not isinstance(seat_specs, list) or len(seat_specs) != rules.players:
            raise LobbyError(f"seats: a list of {rules.players} seats")
        seats = [seat_from_spec(i, s) for i, s in enumerate(seat_specs)]
        deals = _opt_int(spec, "deals", 1, 1, 100)
        target = _opt_int(spec, "target", None, 1, 100)
        if target is not None and "deals" not in spec:
            deals = None
        if deals is None and target is None and rules.scoring != "pagony":
            deals = 1
        timer = _turn_timer(spec, any(s.kind == "human" for s in seats))
        private = spec.get("private", False)
        if not isinstance(private, bool):
            raise LobbyError("private: true or false")
        invite = secrets.token_urlsafe(12) if private else None
        t = LiveTable(
            self,
            secrets.token_urlsafe(9),
            rules,
            seats,
            deals,
            target,
            timer,
            invite_hash=hash_token(invite) if invite else None,
            owner=owner,
        )
        return t, invite, rules

    async def create(
        self, spec: dict[str, Any], owner: str | None = None, account_id: int | None = None
    ) -> dict[str, Any]:
        """A new table from a request body (see docs/protocol.md); the creator takes the
        first person's seat, if there is one, playing as ``account_id``."""
        t, invite, spec_rules = self._new_table(spec, owner)
        seats, table_id = t.seats, t.id
        token: str | None = None
        me = next((s for s in seats if s.kind == "human"), None)
        if me is not None:
            token = secrets.token_urlsafe(24)
            me.name = clean_name(spec.get("name"), f"Player {me.index + 1}")
            me.token_hash = hash_token(token)
            me.account_id, me.address = account_id, address_key(owner)
            nonce = nonce_of(spec)
            if nonce is not None:
                t.set_nonce(me.index, nonce)
        try:
            await self.store.run(
                self.store.store.create_table,
                {
                    "id": table_id,
                    "rules": str(spec_rules),
                    "deals": t.deals,
                    "target": t.target,
                    "turn_timer": t.turn_timer,
                    "status": "waiting",
                    "match_no": 0,
                    "invite_hash": t.invite_hash,
                    "epoch": 1,
                    "owner": net_key(owner)[:64] if owner is not None else None,
                    "network": wide_key(owner)[:64] if owner is not None else None,
                },
                [s.row() for s in seats],
                self.room(owner),
            )
            if me is not None and account_id is not None:
                # Linked before the match can start: its first deal counts.
                await self.store.run(
                    accounts.link_seat, self.store.store, table_id, me.index, account_id
                )
        except Full as e:
            raise LobbyError(str(e), e.status) from None
        except StoreUnavailable as e:
            raise LobbyError(str(e), 503) from None
        t.epoch = 1 if self.fencing else None
        self.tables[table_id] = t
        await self.registry.created(t)
        try:
            await t.start_if_ready()
        except StoreUnavailable:
            t.spawn(t.start_if_ready_later())
        link = f"/#/t/{table_id}" + (f"/{invite}" if invite else "")
        return {
            "table": table_id,
            "seat": me.index if me else None,
            "token": token,
            "invite": link,
            "secret": invite,
            "summary": t.summary(),
        }

    async def join(
        self,
        table_id: str,
        body: dict[str, Any],
        account_id: int | None = None,
        address: str | None = None,
    ) -> dict[str, Any]:
        """Take a free person's seat (``seat``, or the first free), playing as
        ``account_id``; 409 when none is free or another took it first."""
        t = self.table(table_id, body.get("invite"))
        want = body.get("seat")
        free = [s for s in t.seats if s.kind == "human" and s.token_hash is None]
        if want is not None:
            free = [s for s in free if s.index == want]
        if not free:
            raise LobbyError("no free seat at this table", 409)
        token = secrets.token_urlsafe(24)
        # Another request may take a seat between this look and the table's lock: then
        # the next free one is tried (a named seat has no next: 409).
        for seat in free:
            name = clean_name(body.get("name"), f"Player {seat.index + 1}")
            try:
                await t.take_seat(
                    seat.index,
                    name,
                    hash_token(token),
                    account_id,
                    address_key(address),
                    nonce_of(body),
                )
            except ProtocolError:
                continue
            except StoreUnavailable as e:
                raise LobbyError(str(e), 503) from None
            return {"table": table_id, "seat": seat.index, "token": token, "summary": t.summary()}
        raise LobbyError("someone took that seat first", 409)

    def seat_of(self, table_id: str, token: object) -> tuple[LiveTable, int]:
        t = self.tables.get(table_id)
        if t is None:
            raise LobbyError("that token holds no seat at this table", 403)
        seat = t.seat_of_token(token) if isinstance(token, str) else None
        if seat is None:
            raise LobbyError("that token holds no seat at this table", 403)
        return t, seat

    async def leave(self, table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        t, seat = self.seat_of(table_id, body.get("token"))
        try:
            await t.free_seat(seat)
        except StoreUnavailable as e:
            raise LobbyError(str(e), 503) from None
        return {"table": table_id, "left": seat}

    async def again(self, table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        t, _ = self.seat_of(table_id, body.get("token"))
        try:
            await t.again()
        except ProtocolError as e:
            raise LobbyError(e.message, 409) from None
        except StoreUnavailable as e:
            raise LobbyError(str(e), 503) from None
        return {"table": table_id, "summary": t.summary()}

    async def op(self, op: TableOp) -> dict[str, Any]:
        """One request about a table held here (``summary``, ``join``, ``leave``,
        ``again``, ``link``), from this worker or relayed from another (docs/scale.md).
        ``op.guesser``: the address is over its limit of wrong guesses, so only a right
        seat token is honoured."""
        name, table_id, body, account_id = op.name, op.table, op.body, op.account_id
        address, guesser = op.address, op.guesser
        t = self.tables.get(table_id)
        token = body.get("token")
        holds = t is not None and isinstance(token, str) and t.seat_of_token(token) is not None
        if guesser and not holds:
            raise LobbyError("too many wrong tokens from your address; wait a little", 429)
        if name == "summary":
            return self.table(table_id, body.get("invite")).summary()
        if name == "join":
            return await self.join(table_id, body, account_id, address)
        if name == "leave":
            return await self.leave(table_id, body)
        if name == "again":
            return await self.again(table_id, body)
        if name == "link" and account_id is not None:
            t, seat = self.seat_of(table_id, token)
            try:
                await t.link_account(seat, account_id)
            except ProtocolError as e:
                raise LobbyError(e.message, 409) from None
            except StoreUnavailable as e:
                raise LobbyError(str(e), 503) from None
            return {"table": t.id, "seat": seat, "account": account_id}
        raise LobbyError(f"no such request: {name[:32]}", 404)

    # -- finished games ----------------------------------------------------------------
    async def games(self, limit: int = 50) -> list[dict[str, Any]]:
        try:
            return await self.store.run(self.store.store.finished_deals, limit)
        except StoreUnavailable as e:
            raise LobbyError(str(e), 503) from None

    async def _finished(self, deal_id: int, invite: object) -> dict[str, Any]:
        """A finished deal's stored row; one of a private table only with its invite."""
        try:
            d = await self.store.run(self.store.store.deal, deal_id)
        except StoreUnavailable as e:
            raise LobbyError(str(e), 503) from None
        secret = d.get("invite_hash") if d is not None else None
        if (
            d is None
            or d["record"] is None
            or (
                secret is not None
                and not (
                    isinstance(invite, str) and hmac.compare_digest(secret, hash_token(invite))
                )
            )
        ):
            raise LobbyError(f"no finished game {deal_id}", 404)
        return d

    async def game(self, deal_id: int, invite: object = None) -> dict[str, Any]:
        """A finished deal; one of a private table only with the table's invite."""
        return replay_json(await self._finished(deal_id, invite))

    async def review(self, deal_id: int, invite: object = None) -> dict[str, Any]:
        """The review of a finished deal (every seat's decisions, each judged from its own
        view: :mod:`durak.server.reviews`), to whoever may see its replay. A deal in play
        has no record yet: it has no review either."""
        d = await self._finished(deal_id, invite)
        try:
            return await self.reviews.of(deal_id, d["record"])
        except ReviewBusy as e:
            raise LobbyError(str(e), 503) from None


def replay_json(d: dict[str, Any]) -> dict[str, Any]:
    """A finished deal, frame by frame, with every hand face up: for the replay view."""
    final = Game.from_record(d["record"])
    g = final.fresh()
    frames = [_frame(g, None, None)]
    for a in final.history:
        seat = g.to_act
        assert seat is not None
        called = call_outcome(g, seat, a)  # (шулерский: a call's outcome, in words)
        g.apply(a)
        frames.append({**_frame(g, seat, str(a)), **called})
    salt = d.get("salt")
    # The commitment is of the server's part; deals from before nonces had only that.
    server = d["server_seed"] if d.get("server_seed") is not None else d["seed"]
    return {
        "id": d["id"],
        "table": d["table_id"],
        "rules": d["rules"],
        "names": d["names"],
        "result": d["result"],
        "record": d["record"],
        "frames": frames,
        # (None when no card is turned, trump=none; the suit is the rules' trump: 4 = none)
        "trump": str(g.trump) if g.trump is not None else None,
        "trump_suit": g.trump_suit,
        # (двухкозырный: each seat's own trump suit, public from the deal; else [])
        "trumps": list(g.observation(0).trumps),
        "turned": turned_cards(g),
        "seed": str(d["seed"]),
        "salt": salt,
        "commit": commitment(server, salt) if salt else None,
        "server_seed": str(d["server_seed"]) if d.get("server_seed") is not None else None,
        "nonces": d.get("nonces"),
    }


def _frame(g: Game, seat: int | None, action: str | None) -> dict[str, Any]:
    return {
        "seat": seat,
        "action": action,
        "hands": [[str(c) for c in g.hand(s)] for s in range(g.rules.players)],
        "table": [[str(a), str(b) if b else None] for a, b in g.table],
        "talon": g.talon_size,
        "discard": len(g.discard),
        "to_act": g.to_act,
        "attacker": g.attacker if not g.is_over else None,
        "defender": g.defender if not g.is_over else None,
        "phase": str(g.phase),
        "bout": g.bout,
    }


def rules_of(spec: dict[str, Any]) -> Rules:
    """Rules from ``{"rules": "perevodnoy(players=3)"}`` or
    ``{"preset": "perevodnoy", "options": {"players": 3}}``."""
    try:
        if isinstance(spec.get("rules"), str):
            if len(spec["rules"]) > MAX_RULES_TEXT:
                raise LobbyError(f"rules: at most {MAX_RULES_TEXT} characters")
            rules = Rules.parse(spec["rules"])
        else:
            preset = spec.get("preset", "podkidnoy")
            options = spec.get("options") or {}
            if not isinstance(preset, str) or not isinstance(options, dict):
                raise LobbyError("preset: a name; options: an object")
            for k, v in options.items():
                if isinstance(v, int) and not isinstance(v, bool) and not 0 <= v <= MAX_RULE_INT:
                    raise LobbyError(f"{k}: a whole number 0..{MAX_RULE_INT}")
            rules = Rules.preset(preset, **options)
    except (RulesError, TypeError, ValueError) as e:
        if isinstance(e, LobbyError):
            raise
        raise LobbyError(str(e)[:200]) from None
    for f in fields(Rules):
        v = getattr(rules, f.name)
        if isinstance(v, int) and not isinstance(v, bool) and v > MAX_RULE_INT:
            raise LobbyError(f"{f.name}: a whole number up to {MAX_RULE_INT}")
    return rules


def nonce_of(body: dict[str, Any]) -> str | None:
    """A request's ``nonce`` for the next deal (16-64 hex digits), if it has a good one."""
    value = body.get("nonce")
    if isinstance(value, str) and 16 <= len(value) <= 64 and all(c in HEX for c in value):
        return value
    return None


HEX = frozenset("0123456789abcdef")


def seat_from_spec(index: int, spec: object) -> Seat:
    if not isinstance(spec, dict) or spec.get("kind") not in ("human", "bot"):
        raise LobbyError(f'seat {index}: {{"kind": "human"}} or {{"kind": "bot", ...}}')
    if spec["kind"] == "human":
        return Seat(index, "human", None, "", None)
    level, name = spec.get("level"), spec.get("bot")
    if level is not None and (isinstance(level, bool) or not isinstance(level, int)):
        raise LobbyError(f"seat {index}: level is a whole number")
    if name is not None and not isinstance(name, str):
        raise LobbyError(f"seat {index}: bot is a level's name")
    try:
        # Only named levels: a stranger's options could lift a searcher's CPU cap.
        bot = public_spec(f"level:{level}" if level is not None else name or "level:2")
    except ValueError as e:
        raise LobbyError(f"seat {index}: {e}") from None
    return Seat(index, "bot", bot, clean_name(spec.get("name"), f"Bot {index + 1}"), None)


def _opt_int(spec: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> int | None:
    v = spec.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise LobbyError(f"{key}: a whole number {lo}..{hi}")
    return v


def _turn_timer(spec: dict[str, Any], people: bool) -> float | None:
    """The request's turn clock in seconds, or None for none ("0: none" on the lobby's
    form, 0 or null); the default clock only where people sit."""
    timer = spec.get("turn_timer", DEFAULT_TURN_TIMER if people else None)
    if timer == "0" or (
        isinstance(timer, int | float) and not isinstance(timer, bool) and timer == 0
    ):
        return None
    if timer is not None and (
        isinstance(timer, bool) or not isinstance(timer, int | float) or not 1 <= timer <= 600
    ):
        raise LobbyError("turn_timer: seconds, 1 to 600, or 0 or null for none")
    return None if timer is None else float(timer)
