"""The tournament director: events stored in the database, their rounds played at
ordinary lobby tables, results read back from the stored deals, the next round paired.

One :class:`Director` a server. It wakes when a table's move is stored (the lobby's
``moved`` event), when a request changes an event, or every ``poll`` seconds of the
lobby's clock, and then, for each running event it holds: seats the tables of the
round in play that have no live table yet (bots by level, people with a seat token the
director takes for them, handed to them by ``GET /api/tournaments/{id}``), scores the
tables whose match ended (each deal replayed from its stored record: who went out in
which order), forfeits a person away from a tournament table ``grace`` seconds, and
pairs the next round (:mod:`durak.tournaments.event`). Every change is stored before it
is shown, so a restart goes on where it stopped. Tournament tables are ordinary tables:
their deals are rated (or not) by the same rules as every other table's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import DurakError
from ..game import Game
from ..outcome import Outcome
from ..rules import Rules
from ..tournaments.event import Settings, Tournament
from ..tournaments.model import Result, Table
from ..tournaments.scoring import duel, group, walkover
from ..tournaments.standings import TIEBREAKS
from . import tournament_store as tstore
from .lobby import LobbyError, rules_of
from .protocol import clean_name
from .seatbots import public_spec
from .store import Full, StoreUnavailable
from .table import forfeit_seats

if TYPE_CHECKING:
    from .accounts import Account
    from .lobby import Lobby

log = logging.getLogger("durak.server")


@dataclass(frozen=True)
class TournamentLimits:
    """Who may create a tournament and how big (docs/web.md, «Tournaments»): accounts
    only; ``max_entrants``, ``max_bots`` of them bots; ``max_rounds``, ``max_deals`` a
    match, ``max_minutes`` an arena's window; ``per_account`` open or running events an
    account, ``live`` on the server;
    ``grace``: seconds a person may be away from a tournament table before forfeiting
    it; ``poll``: seconds between the director's rounds when nothing wakes it."""

    max_entrants: int = 32
    max_bots: int = 16
    max_rounds: int = 15
    max_minutes: int = 180
    max_deals: int = 5
    per_account: int = 2
    live: int = 20
    grace: float = 120.0
    poll: float = 2.0


@dataclass
class Entry:
    """One event as the director holds it: the event, and its notes: who created it,
    its name and rules, each entrant's name and account, the live table of each
    (round, table), each person's seat token there, and a version that every change
    raises (what the page's long poll waits on)."""

    id: str
    event: Tournament
    creator: int | None
    name: str
    rules: str
    names: dict[str, str]
    accounts: dict[str, int] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)
    seats: dict[str, dict[str, Any]] = field(default_factory=dict)
    games: dict[str, list[int]] = field(default_factory=dict)
    # Each person's address as it joined (its limits key): the tables the director opens
    # take their seats from it, so the rating rules see one address a person, as at any
    # table (two seats from one address: unrated), and its table caps count them.
    addresses: dict[str, str] = field(default_factory=dict)
    version: int = 0
    director: str | None = None  # the worker directing it, as last read (not stored)

    def to_json(self) -> dict[str, Any]:
        """What is stored."""
        return {
            "event": self.event.to_json(),
            "creator": self.creator,
            "name": self.name,
            "rules": self.rules,
            "names": self.names,
            "accounts": self.accounts,
            "tables": self.tables,
            "seats": self.seats,
            "games": self.games,
            "addresses": self.addresses,
            "version": self.version,
        }

    @staticmethod
    def from_json(tid: str, d: dict[str, Any], clock: Callable[[], float] = time.time) -> Entry:
        """The entry :meth:`to_json` stored; its event reads ``clock`` (the lobby's
        ``time``: an arena's window is measured on it)."""
        return Entry(
            tid,
            Tournament.from_json(d["event"], clock),
            d["creator"],
            d["name"],
            d["rules"],
            dict(d["names"]),
            {k: int(v) for k, v in d["accounts"].items()},
            dict(d["tables"]),
            dict(d["seats"]),
            {k: list(v) for k, v in d.get("games", {}).items()},
            dict(d.get("addresses", {})),
            int(d["version"]),
        )


def settings_of(body: dict[str, Any], rules: Rules, lim: TournamentLimits) -> Settings:
    """The event's settings from a create request, within ``lim``."""
    fmt = body.get("format", "swiss")
    rounds, deals = body.get("rounds", 3), body.get("deals", 1)
    size = body.get("max_entrants", lim.max_entrants)
    minutes = body.get("minutes", 30)
    for key, v, hi in (
        ("rounds", rounds, lim.max_rounds),
        ("deals", deals, lim.max_deals),
        ("max_entrants", size, lim.max_entrants),
        ("minutes", minutes, lim.max_minutes),
    ):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= hi:
            raise LobbyError(f"{key}: a whole number 1..{hi}")
    if fmt not in ("swiss", "round_robin", "groups", "arena"):
        raise LobbyError("format: swiss, round_robin, groups or arena")
    if fmt != "groups" and rules.players != 2:
        raise LobbyError(f"rules: {fmt} plays at tables of 2 (groups: 3 to 6)")
    try:
        return Settings(
            fmt,
            rounds=rounds,
            table_size=rules.players,
            teams=rules.teams != "none",
            deals=deals,
            max_entrants=max(2, size),
            minutes=float(minutes),
        )
    except DurakError as e:
        raise LobbyError(str(e)) from None


def bot_entrants(body: dict[str, Any], lim: TournamentLimits) -> list[tuple[str, str]]:
    """(entrant id, name) of the request's ``bots``: a list of levels (1..6) or names."""
    raw = body.get("bots", [])
    if not isinstance(raw, list) or len(raw) > lim.max_bots:
        raise LobbyError(f"bots: a list of at most {lim.max_bots} levels")
    out = []
    for k, b in enumerate(raw):
        try:
            spec = public_spec(
                f"level:{b}" if isinstance(b, int) and not isinstance(b, bool) else str(b)
            )
        except DurakError as e:
            raise LobbyError(f"bots: {e}") from None
        out.append((f"bot{k + 1}:{spec}", f"{spec.replace('level:', 'Level ')} #{k + 1}"))
    return out


def outcome_of(record: str) -> Outcome | None:
    """A stored deal's outcome, replayed from its record (None: ended by a claim)."""
    return Game.from_record(record).outcome


def score_table(table: Table, deals: list[dict[str, Any]], game: str | None) -> Result:
    """A live table's result from its stored deals (each with ``record``, ``result`` and
    ``names``): a claimed forfeit is a walkover against the seats that forfeited."""
    outcomes = []
    for d in deals:
        o = outcome_of(d["record"])
        if o is None:
            gone, _ = forfeit_seats(d["names"], d["result"] or "")
            return walkover(table, {table.seats[s] for s in gone} or set(table.seats), len(deals))
        outcomes.append(o)
    if not outcomes:
        return walkover(table, set(table.seats), 1)
    score = duel if len(table.seats) == 2 else group
    return score(table, outcomes, game)


class Conflict(StoreUnavailable):
    """Another writer (a request on another worker) changed the tournament since it was
    read: nothing was written."""


class Director:
    """Every tournament of one server (see the module's doc). Directing is a leased role
    (``tournament_store.claim``): each running tournament is directed by one worker at a
    time, the one whose lease in the database is current; a worker that dies stops
    renewing its leases and another takes its tournaments over from what is stored.
    Every write names the version it read, so none is lost between workers.
    ``shared``: requests may arrive at other workers too (a cluster): they are served
    from the database rather than from memory."""

    def __init__(  # noqa: PLR0913
        self,
        lobby: Lobby,
        limits: TournamentLimits | None = None,
        worker: str | None = None,
        shared: bool = False,
        lease: float = 6.0,
    ) -> None:
        self.lobby = lobby
        self.limits = limits or TournamentLimits()
        self.worker = worker or f"w.{secrets.token_hex(3)}"
        self.shared = shared
        # Renewed every pass (at least every ``poll`` seconds): three passes of slack.
        self.lease = max(lease, 3 * self.limits.poll)
        self._held: set[str] = set()
        self.entries: dict[str, Entry] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.changed = asyncio.Condition()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- running -----------------------------------------------------------------------
    async def start(self) -> None:
        """Bring back the open and running events from the database (one process: held
        in memory), and start directing."""
        if not self.shared:
            store = self.lobby.store
            for tid in await store.run(tstore.live_ids, store.store):
                self.entries[tid] = await self._load(tid)
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Stop directing (what is stored stays; the leases run out)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _load(self, tid: str) -> Entry:
        store = self.lobby.store
        row = await store.run(tstore.load, store.store, tid) if len(tid) <= 32 else None
        if row is None:
            raise LobbyError(f"no tournament {tid[:32]!r}", 404)
        e = Entry.from_json(tid, row["data"], self.lobby.clock.time)
        e.director = row.get("director")
        return e

    async def _claim(self) -> None:
        """Renew this worker's leases and take the tournaments nobody directs: those
        newly held are read from the database; those held no more are let go."""
        store = self.lobby.store
        held = await store.run(
            tstore.claim, store.store, self.worker, self.lobby.clock.time(), self.lease
        )
        for tid in held:
            if tid not in self._held or tid not in self.entries:
                async with self._lock(tid):
                    self.entries[tid] = await self._load(tid)
        for tid, e in list(self.entries.items()):
            if e.event.state == "running" and tid not in held:
                del self.entries[tid]  # (directed by another worker now)
        self._held = set(held)

    async def _loop(self) -> None:
        while True:
            try:
                await self._claim()
            except (StoreUnavailable, LobbyError) as e:
                log.warning("tournaments: claiming: %s (tried again)", e)
            for tid in list(self.entries):
                try:
                    await self.step(tid)
                except (StoreUnavailable, LobbyError) as e:
                    log.warning("tournament %s: %s (tried again)", tid, e)
                except Exception:
                    log.exception("tournament %s: a step failed", tid)
            moved = asyncio.ensure_future(self.lobby.events.next("moved"))
            woken = asyncio.ensure_future(self._wake.wait())
            waits: list[asyncio.Future[Any]] = [moved, woken]
            # Timed passes only when there is something to time: a tournament held, or
            # other workers' to take over (one process with none arms no clock).
            if self.shared or self.entries:
                waits.append(asyncio.ensure_future(self.lobby.clock.sleep(self.limits.poll)))
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for f in waits:
                f.cancel()
            self._wake.clear()

    def _lock(self, tid: str) -> asyncio.Lock:
        return self.locks.setdefault(tid, asyncio.Lock())

    async def _save(self, e: Entry) -> None:
        read = e.version
        e.version = read + 1
        store = self.lobby.store
        try:
            ok = await store.run(tstore.save, store.store, e.id, e.event.state, e.to_json(), read)
        except StoreUnavailable:
            e.version = read
            raise
        if not ok:
            e.version = read
            raise Conflict(f"tournament {e.id} changed meanwhile")
        if e.event.state == "finished":
            self.entries.pop(e.id, None)
        async with self.changed:
            self.changed.notify_all()
        self._wake.set()

    async def step(self, tid: str) -> bool:
        """One pass over event ``tid`` (see the module's doc); True if it changed."""
        e = self.entries.get(tid)
        if e is None or e.event.state != "running":
            return False
        async with self._lock(tid):
            changed = False
            for _ in range(self.limits.max_rounds + 2):  # walkovers may finish rounds at once
                moved = await self._tables(e)
                rnd = e.event.advance()
                if not moved and rnd is None:
                    break
                changed = True
            if changed or str(e.event.state) == "finished":
                try:
                    await self._save(e)
                except Conflict:  # a request elsewhere came first: again from what it left
                    self.entries[tid] = await self._load(tid)
                    return False
            return changed

    async def _tables(self, e: Entry) -> bool:
        """Seat, score or forfeit the tables in play; True if any changed."""
        changed = False
        for (n, i), table in e.event.pending().items():
            key = f"{n}:{i}"
            live_id = e.tables.get(key)
            if live_id is None:
                changed |= await self._seat(e, key, table)
                continue
            live = self.lobby.tables.get(live_id)
            if live is None:  # (swept, or held by another worker of a cluster)
                store = self.lobby.store
                status = await store.run(tstore.table_status, store.store, live_id)
                if status not in (None, "finished", "closed"):
                    continue  # in play elsewhere: its end is read from the database
            if live is None or live.status == "finished":
                deals = await self._deals(live_id)
                if live is not None and live.forfeit is None and len(deals) < (live.deals or 1):
                    continue  # (its last deal's end is still on its way to the database)
                e.games[key] = [d["deal_id"] for d in deals]
                e.event.record(n, i, score_table(table, deals, live_id))
                self._forget_tokens(e, live_id)
                changed = True
                continue
            gone = {
                table.seats[s.index]
                for s in live.seats
                if s.kind == "human" and live.away_for(s.index) >= self.limits.grace
            }
            if gone:
                e.event.forfeit(n, i, gone)
                self._forget_tokens(e, live_id)
                await self._close(live_id)
                changed = True
        return changed

    @staticmethod
    def _forget_tokens(e: Entry, live_id: str) -> None:
        """The seat tokens of a table decided: kept (stored) only while it is in play,
        for its people to play with (the tables themselves keep only their hashes)."""
        for entrant in [x for x, seat in e.seats.items() if seat["table"] == live_id]:
            del e.seats[entrant]

    async def _close(self, live_id: str) -> None:
        """Close a tournament table decided without it (a forfeit, a withdrawal): closed
        in the database too, so that a restart does not bring it back."""
        live = self.lobby.tables.get(live_id)
        if live is None:
            return
        await live.write(self.lobby.store.store.set_table, live_id, status="closed")
        await live.close()
        self.lobby.tables.pop(live_id, None)
        await self.lobby.registry.closed(live_id)

    async def _deals(self, table_id: str) -> list[dict[str, Any]]:
        """The finished deals of a tournament table's first match, in order."""
        store = self.lobby.store
        rows = await store.run(store.store.finished_deals, 200, table_id)
        first = min((r["match_no"] for r in rows), default=0)
        out = []
        for r in sorted(rows, key=lambda r: r["id"]):
            if r["match_no"] == first:
                d = await store.run(store.store.deal, r["id"])
                if d is not None:
                    out.append({**d, "deal_id": r["id"]})
        return out

    async def _seat(self, e: Entry, key: str, table: Table) -> bool:
        """Open the live table of ``table``: bots by level, people's seats taken for them."""
        specs: list[dict[str, Any]] = []
        for entrant in table.seats:
            if entrant in e.accounts:
                specs.append({"kind": "human"})
            else:
                level = entrant.split(":", 1)[1].replace("level:", "")
                # (no name: the table's default bot names, which the page translates)
                seat: dict[str, Any] = {"kind": "bot"}
                seat.update({"level": int(level)} if level.isdigit() else {"bot": level})
                specs.append(seat)
        people = [s for s, x in enumerate(table.seats) if x in e.accounts]
        body: dict[str, Any] = {"rules": e.rules, "deals": e.event.settings.deals, "seats": specs}
        if people:
            body["name"] = e.names[table.seats[people[0]]]
        first = table.seats[people[0]] if people else None
        try:
            made = await self.lobby.create(
                body,
                e.addresses.get(first) if first else None,
                e.accounts.get(first) if first else None,
            )
        except LobbyError as err:
            log.warning("tournament %s: table %s not opened yet: %s", e.id, key, err)
            return False
        tid = made["table"]
        e.tables[key] = tid
        if people:
            e.seats[table.seats[people[0]]] = {
                "table": tid,
                "seat": made["seat"],
                "token": made["token"],
            }
        for s in people[1:]:
            entrant = table.seats[s]
            try:
                got = await self.lobby.join(
                    tid,
                    {"seat": s, "name": e.names[entrant]},
                    e.accounts[entrant],
                    e.addresses.get(entrant),
                )
            except LobbyError as err:  # (a seat left free would wait forever: again later)
                log.warning("tournament %s: table %s not seated yet: %s", e.id, key, err)
                del e.tables[key]
                await self._close(tid)
                return False
            e.seats[entrant] = {"table": tid, "seat": s, "token": got["token"]}
        return True

    # -- requests ----------------------------------------------------------------------
    async def create(self, body: dict[str, Any], account: Account | None) -> dict[str, Any]:
        """A new event (``POST /api/tournaments``): accounts only, within the limits;
        bots by level enter at once; ``"start": true`` starts it now (a bots-only event
        then runs by itself)."""
        if account is None:
            raise LobbyError("sign in to create a tournament", 401)
        rules = rules_of(body)
        settings = settings_of(body, rules, self.limits)
        bots = bot_entrants(body, self.limits)
        if len(bots) > settings.max_entrants:
            raise LobbyError(f"bots: more than max_entrants ({settings.max_entrants})")
        tid = secrets.token_urlsafe(9)
        name = clean_name(body.get("name"), f"Tournament {tid[:4]}")
        e = Entry(
            tid,
            Tournament(settings, self.lobby.clock.time),
            account.id,
            name,
            str(rules),
            dict(bots),
        )
        for entrant, _ in bots:
            e.event.join(entrant)
        start = body.get("start", False)
        if not isinstance(start, bool):
            raise LobbyError("start: true or false")
        if start:
            self._start(e)
        store = self.lobby.store
        caps = tstore.Caps(self.limits.per_account, self.limits.live)
        try:
            await store.run(
                tstore.insert, store.store, tid, account.id, e.event.state, e.to_json(), caps
            )
        except Full as err:
            raise LobbyError(str(err), err.status) from None
        if e.event.state != "finished":
            self.entries[tid] = e
        self._wake.set()
        return self.view(e, account)

    def _start(self, e: Entry) -> None:
        try:
            e.event.start()
        except DurakError as err:
            raise LobbyError(str(err), 409) from None

    async def entry(self, tid: str) -> Entry:
        """The event ``tid``: held here, else as stored; 404 if none."""
        e = self.entries.get(tid)
        return e if e is not None else await self._load(tid)

    async def act(
        self, tid: str, action: str, account: Account | None, address: str | None = None
    ) -> dict[str, Any]:
        """``join``, ``leave``, ``withdraw`` (the signed-in account) or ``start`` (its
        creator) on event ``tid``; 409 when not possible now, nothing changed."""
        if account is None:
            raise LobbyError("sign in first", 401)
        me = f"a{account.id}"
        async with self._lock(tid):
            held = self.entries.get(tid)
            e = held if held is not None else await self._load(tid)
            if e.event.state == "finished":
                raise LobbyError("the tournament is over", 409)
            before = e.to_json()
            self._apply(e, action, account, address)
            closing = e.seats[me]["table"] if action == "withdraw" and me in e.seats else None
            if closing is not None:  # (its match is a walkover now: the table goes)
                self._forget_tokens(e, closing)
            try:
                await self._save(e)
            except Conflict:
                if held is not None:
                    self.entries[tid] = await self._load(tid)
                raise LobbyError("the tournament changed meanwhile; try again", 409) from None
            except StoreUnavailable:
                if held is not None:
                    # nothing changed
                    self.entries[tid] = Entry.from_json(tid, before, self.lobby.clock.time)
                raise
            if held is None and not self.shared and str(e.event.state) != "finished":
                self.entries[tid] = e
        if closing is not None:
            await self._close(closing)
        return self.view(e, account)

    def _apply(self, e: Entry, action: str, account: Account, address: str | None) -> None:
        """A request's change to ``e``, or a LobbyError (409: not now; 403: not yours)."""
        me = f"a{account.id}"
        try:
            if action == "join":
                e.event.join(me)
                e.names[me], e.accounts[me] = account.name, account.id
                if address is not None:
                    e.addresses[me] = address
            elif action == "leave":
                e.event.leave(me)
            elif action == "withdraw":
                e.event.withdraw(me)
            elif account.id != e.creator:
                raise LobbyError("only its creator starts a tournament", 403)
            else:
                self._start(e)
        except DurakError as err:
            if isinstance(err, LobbyError):
                raise
            raise LobbyError(str(err), 409) from None

    async def wait(self, tid: str, after: int, seconds: float = 25.0) -> None:
        """Return once event ``tid``'s version is past ``after`` (or ``seconds`` passed):
        the page's long poll. One process: woken by the change; a cluster's worker, where
        the change may be made by another, reads the database every half second."""
        if self.shared:
            loop = asyncio.get_running_loop()
            end = loop.time() + seconds
            while loop.time() < end:
                e = await self.entry(tid)
                if e.version > after or e.event.state == "finished":
                    return
                await asyncio.sleep(0.5)
            return

        async def past() -> None:
            async with self.changed:
                await self.changed.wait_for(
                    lambda: tid not in self.entries or self.entries[tid].version > after
                )

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(past(), seconds)

    async def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        """The latest events, newest first, in brief."""
        store = self.lobby.store
        rows = await store.run(tstore.listing, store.store, limit)
        out = []
        for r in rows:
            e = self.entries.get(r["id"]) or Entry.from_json(r["id"], r["data"])
            s = e.event.settings
            out.append(
                {
                    "id": e.id,
                    "name": e.name,
                    "state": e.event.state,
                    "format": s.format,
                    "rules": e.rules,
                    "entrants": len(e.event.entrants),
                    "rounds": len(e.event.rounds),
                    "link": f"/tournament.html#{e.id}",
                }
            )
        return out

    def view(self, e: Entry, account: Account | None = None) -> dict[str, Any]:
        """The event as shown (:func:`view_json`)."""
        return view_json(e, account, self.worker if e.id in self._held else e.director)


def view_json(e: Entry, account: Account | None, director: str | None) -> dict[str, Any]:
    """The event as ``GET /api/tournaments/{id}`` shows it, ``director`` the worker
    directing it; a signed-in entrant also gets its own seat (table, seat and token) at
    its table in play."""
    ev = e.event
    name = e.names.get

    def table_json(n: int, i: int, t: Table) -> dict[str, Any]:
        key = f"{n}:{i}"
        r = ev.results.get((n, i))
        return {
            "seats": [{"entrant": x, "name": name(x, x)} for x in t.seats],
            "teams": t.teams,
            "table": e.tables.get(key),
            "result": None
            if r is None
            else {
                "points": r.points,
                "deal_points": r.deal_points,
                "duraks": r.duraks,
                "walkover": r.walkover,
            },
            "games": [f"/api/games/{g}" for g in e.games.get(key, [])],
        }

    me = f"a{account.id}" if account is not None else None
    mine = e.seats.get(me) if me is not None else None
    live = mine is not None and any(
        e.tables.get(f"{n}:{i}") == mine["table"] for n, i in ev.pending()
    )
    return {
        "id": e.id,
        "name": e.name,
        "state": ev.state,
        "rules": e.rules,
        "settings": ev.settings.to_json(),
        "tiebreaks": list(TIEBREAKS[ev.settings.format]),
        "version": e.version,
        # the worker directing it (a cluster's: docs/scale.md), as last read here
        "director": director,
        "entrants": [
            {
                "id": x,
                "name": name(x, x),
                "person": x in e.accounts,
                "withdrawn": x in ev.withdrawn,
            }
            for x in ev.entrants
        ],
        "rounds": [
            {
                "number": r.number,
                "byes": [{"entrant": b, "name": name(b, b)} for b in r.byes],
                "tables": [table_json(r.number, i, t) for i, t in enumerate(r.tables)],
            }
            for r in ev.rounds
        ],
        "standings": [{**s.to_json(), "name": name(s.entrant, s.entrant)} for s in ev.standings()],
        "you": None
        if me is None
        else {
            "entrant": me,
            "in": me in ev.entrants,
            "creator": account is not None and account.id == e.creator,
            "seat": mine if live else None,
        },
    }
