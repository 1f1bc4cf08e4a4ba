"""One live table: its seats, its match, its connections, its bots and its clocks.

Every change goes through the table's lock: an action is checked, stored, applied and
then broadcast, in that order, so what the database holds is never behind what a
client has seen. Bots think on a thread pool and never hold the lock while thinking.

Nobody can stall a table: a person on the move has the turn clock (a stand-in bot moves
for them when it runs out); a person with no connection for the grace period is away,
and a stand-in plays all their moves until they come back with their token; when every
other person is away past the forfeit time, a player present may claim the win.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ..actions import Action
from ..bots import Bot
from ..errors import RecordError
from ..game import Game
from ..match import Match
from ..observation import Observation
from ..rules import Rules
from ..seats import Seats
from . import accounts, protocol, ratings
from .clock import Clock, Events
from .limits import Limits, Tally, net_key
from .protocol import PROTOCOL_VERSION, ProtocolError
from .seatbots import STAND_IN, make_bot
from .store import Fence, Fenced, StoreUnavailable, TableRow
from .store import now as now_utc


class Host(Protocol):
    """What a table needs of the lobby that holds it (``lobby.Lobby``); written out so
    that this module does not import the lobby, which imports it."""

    store: Any  # AsyncStore
    limits: Limits
    grace: float
    forfeit_after: float
    bot_pace: float
    deal_pause: float | None
    unattended_pause: float
    bot_pool: ThreadPoolExecutor
    stand_in_pool: ThreadPoolExecutor
    hint_pool: ThreadPoolExecutor
    bot_slots: Tally  # bots thinking at once, per address key (Limits.bots_per_address)
    hint_slots: Tally  # hints searched at once, per address key
    timings: Any  # deque[float]
    clock: Clock  # the time tables read (a test's own: clock.ManualClock)
    events: Events  # the moments tables announce (a deal started, a move stored...)

    def outdated(self, table_id: str) -> None:
        """The database holds an action this table has not played: another process
        stored it (a worker that had stalled past its lease, docs/scale.md)."""
        ...

    def fenced(self, table: LiveTable) -> None:
        """Another worker took ``table`` over: a write of it was fenced off."""
        ...

    def holds(self, table: LiveTable) -> bool:
        """Whether ``table`` is surely still held by this process (not taken over by
        another worker while this one stalled past its lease)."""
        ...


log = logging.getLogger("durak.server")

T = TypeVar("T")

_GIVING_BACK: set[asyncio.Task[None]] = set()


def _give_back(loop: asyncio.AbstractEventLoop, slots: Tally, key: str) -> None:
    """A bot's thread is done (any thread): its address's place is given back, on the
    event loop (a shared tally's count is in Redis)."""

    async def give() -> None:
        try:
            await slots.release(key)
        except Exception:
            log.exception("giving back a bot's place of %s failed", key)

    def start() -> None:
        task = loop.create_task(give())
        _GIVING_BACK.add(task)
        task.add_done_callback(_GIVING_BACK.discard)

    with contextlib.suppress(RuntimeError):  # the loop is closed: the count went with it
        loop.call_soon_threadsafe(start)


LOG_TAIL = 60  # moves of the deal's log sent with each update
OUTBOX_LIMIT = 512  # messages queued for one client before it is dropped as too slow


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def commitment(seed: int, salt: str) -> str:
    """The hash a deal's seed is committed with before the deal: sha256 of ``seed:salt``.

    >>> commitment(7, "00")[:16]
    'd36c2a837a4c39e4'
    """
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def mix_seed(server_seed: int, salt: str, nonces: list[str]) -> int:
    """A deal's seed: the server's committed seed mixed with the players' nonces (63
    bits of sha256 of ``server_seed:salt:nonce,nonce``). Neither side alone chooses it:
    the server committed to its seed before the players sent theirs, and they did not
    know it.

    >>> mix_seed(7, "00", []) != mix_seed(7, "00", ["ab" * 8])
    True
    """
    text = f"{server_seed}:{salt}:{','.join(nonces)}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:16], 16) >> 1


RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)  # between tries of an automatic move the store refused


def forfeit_text(names: list[str], gone: list[int], claimer: int) -> str:
    """How a claimed win is stored as the deal's result."""
    return f"forfeit: {', '.join(names[i] for i in gone)} left; {names[claimer]} claimed the win"


def forfeit_seats(names: list[str], text: str) -> tuple[list[int], int | None]:
    """The seats that forfeited and the one that claimed, read back from a stored result
    (the one reading that writes the same text; none: ``[], None``).

    >>> names = ["Anna, Jr.", "Boris", "Vera"]
    >>> forfeit_seats(names, forfeit_text(names, [0, 2], 1))
    ([0, 2], 1)
    """
    seats = range(len(names))
    for claimer in seats:
        others = [i for i in seats if i != claimer]
        for k in range(1, len(others) + 1):
            for gone in itertools.combinations(others, k):
                if forfeit_text(names, list(gone), claimer) == text:
                    return list(gone), claimer
    return [], None


def forfeit_result(text: str, gone: list[int], claimer: int | None) -> dict[str, Any]:
    """A claimed win as the result a table reports: the away seats lose the match."""
    return {
        "durak": gone[0] if len(gone) == 1 else None,
        "draw": False,
        "out_order": [],
        "pogony": 0,
        "losing_team": None,
        "text": text,
        "forfeit": gone,
        "claimed_by": claimer,
    }


class Connection:
    """One client's outbox: a writer task drains it, so that a slow client never holds
    up its table or the others."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]] | None = None,
        address: str = "",
    ) -> None:
        self._send = send
        self._close = close
        self.address = address
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: LiveTable | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.closed = False

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= OUTBOX_LIMIT:
            log.warning("dropping a client that does not read its messages")
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def welcome(self, text: str, seat: int | None) -> None:
        """Push ``text``, the ``welcome`` that seats this connection as ``seat`` (None: a
        spectator); a relayed connection tells its edge which seat it was welcomed as."""
        self.push(text)

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                if self._close is not None:
                    with contextlib.suppress(Exception):
                        await self._close()
                return
            try:
                await self._send(text)
            except UnicodeError:  # a message that cannot be sent is skipped, never the writer
                log.exception("a message could not be encoded")
            except Exception:  # the client is gone; its reader ends the connection
                self.closed = True
                return

    def stop(self) -> None:
        self.closed = True
        self.queue.put_nowait(None)


@dataclass
class Seat:
    index: int
    kind: str  # "human" or "bot"
    bot: str | None  # the bot spec of a bot seat
    name: str
    token_hash: str | None  # who holds a human seat; None while it is free
    gone_since: float | None = None  # monotonic time the holder was last connected
    account_id: int | None = None  # the account the holder plays as (ratings)
    address: str | None = None  # hash of the address key the holder took it from

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def row(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "token_hash": self.token_hash,
            "address": self.address,
        }


class LiveTable:
    """A table in memory. Public coroutines take the lock; ``_`` methods expect it held."""

    # PLR0913: a table's settings, one keyword each as the lobby passes them
    def __init__(  # noqa: PLR0913
        self,
        lobby: Host,
        table_id: str,
        rules: Rules,
        seats: list[Seat],
        deals: int | None = 1,
        target: int | None = None,
        turn_timer: float | None = None,
        invite_hash: str | None = None,
        owner: str | None = None,
    ) -> None:
        self.lobby = lobby
        self.id = table_id
        # a table of bots only must end its deals (RULES.md 5, action_limit)
        self.rules = rules.with_action_limit() if all(s.kind == "bot" for s in seats) else rules
        self.seats = seats
        self.deals = deals
        self.target = target
        self.turn_timer = turn_timer
        self.invite_hash = invite_hash  # set: a private table, seen only with its invite
        self.owner = owner  # the address that created it (for the per-address cap)
        self.deadline: float | None = None  # wall time the mover's clock runs out
        self.salt: str | None = None  # of the deal on show; revealed when it is over
        self.server_seed: int | None = None  # the server's part of that deal's seed
        self.deal_nonces: list[str] | None = None  # the players' part
        # The next deal's server seed, committed in every state (``next_commit``) before
        # the players send their nonces for it (``nonces``: seat -> hex).
        self.next_seed, self.next_salt = secrets.randbits(63), secrets.token_hex(16)
        self.nonces: dict[int, str] = {}
        self.forfeit: dict[str, Any] | None = None  # set when a player claimed the win
        self.status = "waiting"
        self.match: Match | None = None
        self.match_no = 0
        self.game: Game | None = None  # the deal on show (a finished one between deals)
        self.pending: Game | None = None  # the next deal, shown after a pause
        # Between deals of a match: the seats whose people pressed "Next deal"; the next
        # deal starts when every connected person is in it (``schedule``).
        self.ready: set[int] = set()
        self.rating: dict[str, dict[str, int]] | None = None  # the last deal's changes
        self.deal_no = 0
        self.deal_id: int | None = None
        self.state = 0
        self.log: list[dict[str, Any]] = []
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        # the last change or connection: for the janitor
        self.touched = self.lobby.clock.monotonic()
        self.alone_since = self.touched  # when the last connection left
        # When the mover's turn began (monotonic), and at which state: the turn clock
        # runs from here, so a reconnect does not start it again.
        self.turn_started = self.touched
        self.turn_state = -1
        self.task: asyncio.Task[None] | None = None
        self.later: set[asyncio.Task[None]] = set()  # writes retried in the background
        # Let go (closed, or taken over by another worker): nothing of it runs again, no
        # clock is armed, no write tried (a stale copy must not keep on for ever).
        self.let_go = False
        self.retrying: set[str] = set()  # what those writes are (``_store_or_retry``)
        # The epoch this worker took the table over with (the fencing token of a cluster,
        # ``store.Store.begin``); None: one process, writes not fenced.
        self.epoch: int | None = None
        self.assisted: set[int] = set()  # deal ids with a hint or an undo (unrated)
        self.stand_in: Bot = make_bot(STAND_IN)
        # the bot of each bot seat; people's seats are played from their browsers
        self.bots = Seats(make_bot(s.bot) if s.kind == "bot" and s.bot else None for s in seats)
        for s in seats:
            s.gone_since = self.touched

    # -- views -----------------------------------------------------------------------
    @property
    def store(self) -> Any:
        return self.lobby.store

    @property
    def fence(self) -> Fence | None:
        return None if self.epoch is None else (self.id, self.epoch)

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A write of this table's state (on the database thread, as ``store.run``),
        fenced by the epoch the table was taken with. Fenced off (another worker took
        the table over): nothing was written; every connection is let go at once, so
        that nothing more of this copy of the table reaches anyone, and the lobby drops
        it. Raises ``Fenced`` (a ``StoreUnavailable``) then."""
        try:
            result: T = await self.store.write(self.fence, fn, *args, **kwargs)
        except Fenced:
            log.warning("table %s: taken over by another worker; letting it go", self.id)
            self.let_go = True
            self.lobby.fenced(self)
            self.lobby.events.emit("let_go", self.id)
            raise
        return result

    def names(self) -> list[str]:
        return [s.name or f"Seat {s.index + 1}" for s in self.seats]

    def public_seats(self) -> list[dict[str, Any]]:
        online = self._online()
        now = self.lobby.clock.monotonic()
        return [
            {
                "seat": s.index,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "taken": s.taken,
                "online": s.kind == "bot" or s.index in online,
                "away": self._away_for(s, online, now) >= self.lobby.grace,
            }
            for s in self.seats
        ]

    def away_for(self, seat: int, now: float | None = None) -> float:
        """Seconds the person holding ``seat`` has had no connection (0 if connected)."""
        at = self.lobby.clock.monotonic() if now is None else now
        return self._away_for(self.seats[seat], self._online(), at)

    @staticmethod
    def _away_for(s: Seat, online: set[int], now: float) -> float:
        """Seconds a held person's seat has had no connection (0 when connected)."""
        if s.kind != "human" or s.token_hash is None or s.index in online or s.gone_since is None:
            return 0.0
        return now - s.gone_since

    @property
    def budget_key(self) -> str:
        """Whose share of the bots this table's bots think on: its creator's address key
        (a table taken over from the database does not know its creator: its own)."""
        return net_key(self.owner) if self.owner is not None else f"table:{self.id}"

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "id": self.id,
            "rules": protocol.rules_text(self.rules),
            "status": self.status,
            "seats": self.public_seats(),
            "deals": self.deals,
            "target": self.target,
            "turn_timer": self.turn_timer,
            "deal": self.deal_no,
            "state": self.state,
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "private": self.invite_hash is not None,
        }

    def _match_json(self) -> dict[str, Any] | None:
        if self.match is None:
            return None
        t = self.match.tally
        return {
            "no": self.match_no,
            "deal": self.deal_no,
            "deals": self.deals,
            "target": self.target,
            "played": t.deals,
            "draws": t.draws,
            "durak_counts": t.durak_counts,
            "pogony_hung": t.pogony_hung,
            "pogonny_scores": t.pogonny_scores,
            "team_losses": t.side_losses,
        }

    def _result_json(self) -> dict[str, Any] | None:
        g = self.game
        if self.forfeit is not None:
            return self.forfeit
        if g is None or g.outcome is None:
            return None
        o = g.outcome
        return {
            "durak": o.durak,
            "draw": o.draw,
            "out_order": list(o.out_order),
            "pogony": o.pogony,
            "losing_team": o.losing_team,
            "text": str(o),
        }

    def message(self, seat: int | None) -> str:
        """The update for one seat (None: a spectator): its Observation and public facts."""
        g = self.game
        obs: dict[str, Any] | None = None
        if g is not None:
            obs = (
                protocol.observation_json(g.observation(seat))
                if seat is not None
                else protocol.public_json(g)
            )
        return protocol.dumps(
            {
                "type": "state",
                "v": PROTOCOL_VERSION,
                "table": self.id,
                "state": self.state,
                "status": self.status,
                "seat": seat,
                "rules": protocol.rules_text(self.rules),
                "seats": self.public_seats(),
                "match": self._match_json(),
                "turn_timer": self.turn_timer,
                "deadline": self.deadline,
                "obs": obs,
                "fair": self._fair_json(),
                # The log's tail keeps every message small however long the deal runs.
                "log": self.log[-LOG_TAIL:],
                "log_start": max(0, len(self.log) - LOG_TAIL),
                "result": self._result_json(),
                "rating": self.rating if g is not None and g.is_over else None,
                # between deals of a match: the seats ready for the next one
                "ready": sorted(self.ready) if self.pending is not None else None,
                # двухкозырный: the card turned for each seat (public); else absent
                **(
                    {"turned": protocol.turned_cards(g)}
                    if g is not None and g.rules.trump == "per_player"
                    else {}
                ),
            }
        )

    def _fair_json(self) -> dict[str, Any]:
        """The deal's seed commitment; the seed and salt too once the deal is over."""
        g = self.game
        # The next deal's commitment is out before any nonce for it can come in.
        out: dict[str, Any] = {"next_commit": commitment(self.next_seed, self.next_salt)}
        if g is None or self.salt is None or self.deal_id is None:
            return out
        server = self.server_seed if self.server_seed is not None else g.seed
        out.update(deal_id=self.deal_id, commit=commitment(server, self.salt))
        if g.is_over or self.forfeit is not None:
            out.update(seed=str(g.seed), salt=self.salt)
            if self.server_seed is not None:
                out.update(server_seed=str(self.server_seed), nonces=self.deal_nonces or [])
        return out

    def set_nonce(self, seat: int, value: str) -> None:
        """The holder of ``seat`` gives its nonce for the next deal (the last one wins)."""
        self.nonces[seat] = value

    def broadcast(self) -> None:
        cache: dict[int | None, str] = {}
        for c in list(self.conns):
            if c.seat not in cache:
                cache[c.seat] = self.message(c.seat)
            c.push(cache[c.seat])

    def broadcast_seats(self) -> None:
        text = protocol.dumps(
            {"type": "seats", "table": self.id, "state": self.state, "seats": self.public_seats()}
        )
        for c in list(self.conns):
            c.push(text)

    # -- connections -----------------------------------------------------------------
    def admits(self, invite: object) -> bool:
        """True for a public table, and for a private one with its invite secret."""
        if self.invite_hash is None:
            return True
        return (
            isinstance(invite, str)
            and len(invite) <= 64
            and hmac.compare_digest(self.invite_hash, hash_token(invite))
        )

    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.index
        return None

    def _online(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None}

    def attach(self, conn: Connection, seat: int | None, token_hash: str | None) -> None:
        """Put ``conn`` at this table as ``seat`` (None: a spectator); a connection already
        here just changes seat. Only a seat going on- or offline is announced, once:
        spectators come and go unannounced, and a repeated hello announces nothing."""
        before = self._online()
        self.conns.add(conn)
        conn.table, conn.seat, conn.token_hash = self, seat, token_hash
        conn.push(self.message(seat))
        self._presence_changed(before)

    def idle_for(self, now: float) -> float:
        """Seconds since the last connection left, or 0 while someone is connected."""
        return 0.0 if self.conns else now - self.alone_since

    def detach(self, conn: Connection) -> None:
        if conn in self.conns:
            before = self._online()
            self.conns.discard(conn)
            if not self.conns:
                self.alone_since = self.lobby.clock.monotonic()
            self._presence_changed(before)
        conn.table = conn.seat = None

    def _presence_changed(self, before: set[int]) -> None:
        after = self._online()
        if after == before:
            return
        now = self.lobby.clock.monotonic()
        for s in self.seats:
            if (s.index in before) != (s.index in after):
                s.gone_since = None if s.index in after else now
        self.broadcast_seats()
        g = self.game
        if self.status == "playing" and g is not None and g.to_act in before ^ after:
            # The mover came or went: their clock changes.
            self.spawn(self._reschedule())
        elif self.pending is not None:
            # Between deals: who must be ready for the next one changed.
            self.spawn(self._reschedule())

    def spawn(self, coro: Awaitable[None]) -> None:
        if self.let_go:
            if asyncio.iscoroutine(coro):
                coro.close()
            return
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self.later.add(task)
        task.add_done_callback(self.later.discard)

    async def _reschedule(self) -> None:
        async with self.lock:
            before = self.deadline
            self.schedule()
            if self.deadline != before:
                text = protocol.dumps(
                    {
                        "type": "clock",
                        "table": self.id,
                        "state": self.state,
                        "deadline": self.deadline,
                    }
                )
                for c in list(self.conns):
                    c.push(text)

    # -- playing -----------------------------------------------------------------------
    async def act(self, conn: Connection, state: int, text: str) -> None:
        """A person's action through their connection; ProtocolError if refused."""
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators cannot act")
        action = protocol.parse_action(text)
        t0 = time.perf_counter()
        async with self.lock:
            seat = self.seats[conn.seat]
            if seat.token_hash is None or seat.token_hash != conn.token_hash:
                conn.seat = None
                raise ProtocolError("bad_token", "this seat is no longer yours")
            try:
                await self._act(conn.seat, state, action)
            except StoreUnavailable:
                raise ProtocolError(
                    "unavailable", "the move could not be stored, so it was not played; try again"
                ) from None
        self.lobby.timings.append(time.perf_counter() - t0)

    async def _act(self, seat: int, state: int, action: Action, by: str | None = None) -> None:
        """``by``: who moved for the seat when not its player ("timer": the turn timer
        ran out; "stand_in": nobody holds the seat), shown as such in the log."""
        g = self.game
        if self.status != "playing" or g is None or g.is_over or self.pending is not None:
            raise ProtocolError("not_playing", "no deal is in play")
        if state != self.state:
            raise ProtocolError("stale", f"state {state} is not the current state {self.state}")
        if g.to_act != seat:
            raise ProtocolError("not_your_turn", f"seat {g.to_act} is to act, not seat {seat}")
        why = g.why_illegal(action)  # (None: legal, a cheat or a call included, шулерский)
        if why is not None:
            raise ProtocolError("illegal", why)
        assert self.deal_id is not None
        # Stored first: a crash after this line replays the action on restart; a store
        # that fails leaves everything as it was.
        try:
            await self.write(
                self.store.store.add_action, self.deal_id, len(g.history), seat, str(action), by
            )
        except StoreUnavailable as e:
            if isinstance(e.__cause__, IntegrityError):  # that move's number is taken
                self.lobby.outdated(self.id)
            raise
        phase = g.phase
        called = protocol.call_outcome(g, seat, action)  # (шулерский: what a call finds)
        g.apply(action)
        self.state += 1
        entry: dict[str, Any] = {
            "seat": seat,
            "action": str(action),
            "bout": g.bout,
            "phase": str(phase),
            **called,
        }
        if by is not None:
            entry["by"] = by
        self.log.append(entry)
        if g.is_over:
            await self._deal_over()
        self.bots.show(g)
        self.touched = self.lobby.clock.monotonic()
        self.schedule()
        self.broadcast()
        self.lobby.events.emit("moved", self.id)

    async def _deal_over(self) -> None:
        g, m = self.game, self.match
        assert g is not None and m is not None and g.outcome is not None
        nxt = m.next_deal()
        status = "finished" if nxt is None else None
        if nxt is None:
            self.status = "finished"
        else:
            self.pending = nxt
        assert self.deal_id is not None
        await self._store_or_retry(
            self.store.store.finish_deal,
            self.deal_id,
            str(g.outcome),
            g.record(self.names(), Table=self.id),
            self.id,
            status,
            self._rating(None if g.outcome.draw else g.outcome.durak),
        )
        # The rating change of each rated person, for the end-of-deal panel (display only:
        # a fault here never touches the stored deal or its ratings).
        try:
            changes = await self.store.run(ratings.deal_changes, self.store.store, self.deal_id)
            self.rating = changes or None
        except Exception:
            log.exception("table %s: reading deal %s's rating changes", self.id, self.deal_id)

    def _abandoned(self) -> set[int]:
        """Seats of the deal in play whose moves the stand-in (or the turn clock's
        stand-in) made more of than their holder did."""
        own: dict[int, int] = {}
        auto: dict[int, int] = {}
        for e in self.log:
            side = auto if e.get("by") else own
            side[e["seat"]] = side.get(e["seat"], 0) + 1
        return {seat for seat, n in auto.items() if n > own.get(seat, 0)}

    def _rating(self, durak: int | None, gone: list[int] | None = None) -> Callable[[Any], None]:
        """What rates the deal in play, inside the transaction that records its end
        (server/ratings.py). A fault in the rating itself is logged and leaves the
        deal unrated; it never keeps the deal's end from being stored."""
        deal_id = self.deal_id
        assert deal_id is not None
        seats = [(s.kind, s.bot, s.token_hash) for s in self.seats]
        abandoned = self._abandoned() | set(gone or ())
        helped = self.deal_id in self.assisted
        rules = self.rules

        def write(c: Any) -> None:
            try:
                ratings.rate_in(c, deal_id, rules, durak, seats, abandoned, helped)
            except SQLAlchemyError:
                raise
            except Exception:
                log.exception("table %s: rating deal %s failed", self.id, deal_id)

        return write

    async def _store_or_retry(self, fn: Callable[..., Any], *args: Any) -> None:
        """A write that records what already happened (the actions are stored): if the
        database refuses it now, it is tried again in the background until it takes
        (and a restart before that records it from the stored actions)."""
        try:
            await self.write(fn, *args)
        except Fenced:
            return  # the table's new owner stores it (from the stored actions)
        except StoreUnavailable:
            what = f"{fn.__name__}({args[0]})"

            async def again() -> None:
                try:
                    for delay in (*RETRY_DELAYS, *[10.0] * 60):
                        await self.lobby.clock.sleep(delay)
                        try:
                            await self.write(fn, *args)
                            return
                        except Fenced:
                            return
                        except StoreUnavailable:
                            continue
                    log.error("table %s: gave up storing %s", self.id, fn.__name__)
                finally:
                    self.retrying.discard(what)

            self.retrying.add(what)
            self.spawn(again())

    def _fair_deal(self, game: Game, seed: int) -> Game:
        """The deal ``game`` stands for, dealt from ``seed`` (the server's seed from the
        operating system's cryptographic source, mixed with the players' nonces) instead
        of the match's generator."""
        return Game(
            self.rules,
            seed=seed,
            dealer=game.dealer,
            leader=game.leader,
            pagon=game.pagon or None,
        )

    async def _start_deal(
        self, game: Game, table_values: dict[str, Any] | None = None, match: Match | None = None
    ) -> None:
        """Store and show a new deal (of ``match``, else of the match in play); raises
        StoreUnavailable, changing nothing, when the store refuses."""
        m = match or self.match
        assert m is not None
        server_seed, salt = self.next_seed, self.next_salt
        nonces = [self.nonces[i] for i in sorted(self.nonces)]
        game = self._fair_deal(game, mix_seed(server_seed, salt, nonces))
        match_no = self.match_no + 1 if match is not None else self.match_no
        deal_no = 1 if match is not None else self.deal_no + 1
        names = self.names()
        self.deal_id = await self.write(
            self.store.store.start_deal,
            self.id,
            match_no,
            deal_no,
            game.seed,
            game.dealer,
            game.leader,
            protocol.rules_text(self.rules),
            names,
            table_values,
            salt,
            functools.partial(
                ratings.snapshot,
                holders=[
                    (s.index, s.account_id, s.token_hash, s.address)
                    for s in self.seats
                    if s.kind == "human"
                ],
            ),
            server_seed=server_seed,
            nonces=nonces,
        )
        # This deal's seed is fixed: the next one's is drawn and committed now.
        self.next_seed, self.next_salt = secrets.randbits(63), secrets.token_hex(16)
        self.nonces = {}
        self.server_seed, self.deal_nonces = server_seed, nonces
        m.game = game
        if match is not None:
            self.match, self.match_no, self.status = match, match_no, "playing"
        self.deal_no = deal_no
        self.game, self.salt, self.forfeit = game, salt, None
        self.pending = None
        self.ready = set()
        self.rating = None
        self.state += 1
        self.log = []
        self.bots.reset(game)
        # The commitment reaches every seat before any card of the deal does.
        commit = protocol.dumps(
            {
                "type": "deal",
                "table": self.id,
                "deal_id": self.deal_id,
                "deal": deal_no,
                "commit": commitment(server_seed, salt),
            }
        )
        for c in list(self.conns):
            c.push(commit)
        self.schedule()
        self.broadcast()
        self.lobby.events.emit("deal", self.id)

    async def _begin_match(self) -> None:
        seed = secrets.randbits(63)
        m = Match(self.rules, seed=seed, deals=self.deals, target=self.target, names=self.names())
        await self._start_deal(
            m.game,
            {"status": "playing", "match_no": self.match_no + 1, "match_seed": seed},
            match=m,
        )

    async def start_if_ready(self) -> None:
        async with self.lock:
            await self._start_if_ready()

    async def _start_if_ready(self) -> None:
        if self.status == "waiting" and all(s.taken for s in self.seats):
            await self._begin_match()

    # -- seats -------------------------------------------------------------------------
    async def take_seat(
        self,
        seat: int,
        name: str,
        token_hash: str,
        account_id: int | None = None,
        address: str | None = None,
        nonce: str | None = None,
    ) -> None:
        """Give a free person's seat to ``token_hash``, playing as ``account_id``, with its
        ``nonce`` for the next deal (which may start now that the seat is taken). Checked
        under the lock: of two who reach for one seat, the second is refused
        (``seat_taken``), and the first one's token stays good."""
        async with self.lock:
            s = self.seats[seat]
            if s.kind != "human" or s.token_hash is not None:
                raise ProtocolError("seat_taken", "someone took that seat first")
            await self.write(
                self.store.store.set_seat,
                self.id,
                seat,
                name=name,
                token_hash=token_hash,
                address=address,
            )
            await self.write(accounts.link_seat, self.store.store, self.id, seat, account_id)
            s.name, s.token_hash = name, token_hash
            s.account_id, s.address = account_id, address
            if nonce is not None:
                self.set_nonce(seat, nonce)
            s.gone_since = self.lobby.clock.monotonic()  # taken over HTTP; not yet connected
            self.broadcast_seats()
            try:
                await self._start_if_ready()
            except StoreUnavailable:
                # The seat is taken; the match starts when the next change comes through.
                log.warning("table %s: the match could not start yet", self.id)
                self.spawn(self.start_if_ready_later())
            self.schedule()

    def deal_in_play(self) -> bool:
        g = self.game
        return self.status == "playing" and g is not None and not g.is_over and not self.pending

    async def link_account(self, seat: int, account_id: int) -> None:
        """The holder of ``seat`` plays as ``account_id``: only while no deal is in play
        (a link made mid-deal could move a deal's result to another account), unless it
        is the link the seat already has."""
        async with self.lock:
            s = self.seats[seat]
            if s.account_id == account_id:
                return
            if self.deal_in_play():
                raise ProtocolError(
                    "deal_in_play", "a seat's account is set before a deal, not during it"
                )
            await self.write(accounts.link_seat, self.store.store, self.id, seat, account_id)
            s.account_id = account_id

    async def start_if_ready_later(self) -> None:
        for delay in RETRY_DELAYS:
            await self.lobby.clock.sleep(delay)
            try:
                await self.start_if_ready()
                return
            except StoreUnavailable:
                continue

    async def free_seat(self, seat: int) -> None:
        async with self.lock:
            s = self.seats[seat]
            name = s.name if self.status == "playing" else ""
            await self.write(
                self.store.store.set_seat, self.id, seat, name=name, token_hash=None, address=None
            )
            # The account plays this seat no more (the deal in play still counts as
            # theirs: as a loss, see ratings.rate_in).
            await self.write(accounts.link_seat, self.store.store, self.id, seat, None)
            s.token_hash, s.name = None, name
            s.account_id = s.address = None
            for c in list(self.conns):
                if c.seat == seat:
                    c.seat = c.token_hash = None
                    c.push(self.message(None))
            self.broadcast_seats()
            self.schedule()

    async def again(self) -> None:
        """Another match with the same seats, once this one is over."""
        async with self.lock:
            if self.status != "finished":
                raise ProtocolError("not_finished", "the match is still in play")
            await self.write(self.store.store.set_table, self.id, status="waiting")
            self.status = "waiting"
            await self._start_if_ready()
            if self.status == "waiting":
                self.broadcast()

    async def claim(self, conn: Connection) -> None:
        """Claim the win: every other person at the table has been away for the forfeit
        time. The deal ends there; the away seats lose it and the match is over."""
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators cannot claim")
        async with self.lock:
            g = self.game
            if self.status != "playing" or g is None:
                raise ProtocolError("not_playing", "no match is in play")
            seat = self.seats[conn.seat]
            if seat.token_hash is None or seat.token_hash != conn.token_hash:
                raise ProtocolError("bad_token", "this seat is no longer yours")
            online, now = self._online(), self.lobby.clock.monotonic()
            others = [
                s for s in self.seats if s.kind == "human" and s.index != conn.seat and s.token_hash
            ]
            wait = self.lobby.forfeit_after
            gone = [s.index for s in others if self._away_for(s, online, now) >= wait]
            if not others or len(gone) < len(others):
                raise ProtocolError(
                    "cannot_claim",
                    "a win can be claimed only when every "
                    f"other person has been away for {wait:g} s",
                )
            names = self.names()
            text = forfeit_text(names, gone, conn.seat)
            assert self.deal_id is not None
            await self.write(
                self.store.store.finish_deal,
                self.deal_id,
                text,
                g.record(names, Table=self.id),
                self.id,
                "finished",
                self._rating(None, gone),
            )
            self.status = "finished"
            self.pending = None
            self.forfeit = forfeit_result(text, gone, conn.seat)
            self.state += 1
            self.schedule()
            self.broadcast()

    # -- bots and timers -----------------------------------------------------------------
    def schedule(self) -> None:
        """After every change: start whatever must happen next without a person, and set
        the mover's deadline."""
        me = asyncio.current_task()
        if self.task is not None and self.task is not me:
            self.task.cancel()
        self.task = None
        self.deadline = None
        if self.let_go:
            return
        now = self.lobby.clock.monotonic()
        if self.turn_state != self.state:
            self.turn_state, self.turn_started = self.state, now
        if self.status != "playing":
            return
        if self.pending is not None:
            # The finished deal stays on show until every connected person has pressed
            # "Next deal" (then at once), or for the deal pause when nobody is connected
            # or the server was given one (``deal_pause``: at most that long).
            waiting = {
                s.index for s in self.seats if s.kind == "human" and s.token_hash is not None
            } & self._online()
            pause = self.lobby.deal_pause
            if waiting and waiting <= self.ready:
                pause = 0.0
            elif waiting and pause is None:
                return
            self.task = asyncio.create_task(
                self._next_deal_later(
                    self.state, self.lobby.unattended_pause if pause is None else pause
                )
            )
            return
        g = self.game
        if g is None or g.to_act is None:
            return
        seat = self.seats[g.to_act]
        pace = self.lobby.bot_pace
        bot = self.bots[seat.index]
        if seat.kind == "bot" and bot is not None:
            self.task = asyncio.create_task(self._bot_move(seat.index, bot, pace))
            return
        if seat.token_hash is None:
            # Nobody holds the seat (they left): a stand-in plays it.
            self.task = asyncio.create_task(self._bot_move(seat.index, self.stand_in, pace))
            return
        # A person: the turn clock, or what is left of the grace period if they are not
        # connected; past the grace period a stand-in plays for them at the bot pace.
        clock = self.turn_timer - (now - self.turn_started) if self.turn_timer else None
        waits = [clock] if clock is not None else []
        away = self._away_for(seat, self._online(), now)
        if seat.index not in self._online():
            waits.append(self.lobby.grace - away)
        if not waits:
            return
        wait = max(0.0, min(waits))
        if wait <= 0:
            # The clock ran out while it was being rescheduled: its move, now.
            timed_out = clock is not None and clock <= 0
            self.task = asyncio.create_task(
                self._bot_move(seat.index, self.stand_in, 0.0 if timed_out else pace, timed_out)
            )
            return
        self.deadline = round(self.lobby.clock.time() + wait, 3)
        self.task = asyncio.create_task(
            self._bot_move(seat.index, self.stand_in, wait, wait_first=True)
        )

    async def _bot_move(self, seat: int, bot: Bot, delay: float, wait_first: bool = False) -> None:
        state = self.state
        g = self.game
        assert g is not None
        try:
            if wait_first:
                await self.lobby.clock.sleep(delay)
            t0 = self.lobby.clock.monotonic()
            obs = g.observation(seat)
            action = await self._think(seat, bot, obs)
            if not wait_first:
                rest = delay - (self.lobby.clock.monotonic() - t0)
                if rest > 0:
                    await self.lobby.clock.sleep(rest)
            by = "timer" if wait_first else "stand_in" if bot is self.stand_in else None
            for retry in (*RETRY_DELAYS, None):
                async with self.lock:
                    if self.state != state:
                        return
                    if (
                        bot is self.stand_in
                        and seat in self._online()
                        and not (wait_first and self.turn_timer)
                    ):
                        # The person came back while the stand-in thought: their move
                        # (the reschedule their return spawned may not have run yet).
                        # Only their own turn clock running out moves for them now.
                        return
                    try:
                        await self._act(seat, state, action, by)
                        return
                    except Fenced:
                        return  # another worker holds the table now: this copy is let go
                    except StoreUnavailable:
                        if retry is None:
                            raise
                        log.warning("table %s: a bot move could not be stored; retrying", self.id)
                await self.lobby.clock.sleep(retry)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: automatic move failed; trying again", self.id)
            # Never leave the table stuck: the next attempt comes after a pause.
            self.spawn(self._reschedule_later(state, RETRY_DELAYS[-1]))

    async def _think(self, seat: int, bot: Bot, obs: Observation) -> Action:
        """``bot``'s move, within the hard time cap of a move. A seat bot thinks on the
        bot pool; past the cap (or failing) the stand-in moves instead, on a pool of its
        own that seat bots never hold, so turn clocks and away players are never kept
        waiting by another table's bots."""
        loop = asyncio.get_running_loop()
        if bot is not self.stand_in:
            cap = self.lobby.limits.bot_move_seconds
            start = loop.time()
            # The bots of one address key's tables think only so many at once (over every
            # worker of a cluster): a stranger's tables cannot fill every worker's pool.
            # Waiting for a place counts against the move's cap, as a queue did.
            slots, key = self.lobby.bot_slots, self.budget_key
            try:
                held = await slots.wait(key, cap)
            except Exception:
                log.exception("table %s: counting its bots failed; a stand-in moves", self.id)
                held = False
            if not held:
                log.warning("table %s: its address's bots were busy for %g s", self.id, cap)
            else:
                # The place is held for as long as the bot's thread thinks, past the cap
                # or the table's end too (as the thread of a pool is): given back when
                # the thread is done.
                work = self.lobby.bot_pool.submit(bot.choose, obs)
                work.add_done_callback(lambda _: _give_back(loop, slots, key))
                try:
                    return await asyncio.wait_for(
                        asyncio.wrap_future(work), max(0.0, start + cap - loop.time())
                    )
                except TimeoutError:
                    log.warning(
                        "table %s: bot %s took over %g s; a stand-in moves", self.id, bot.name, cap
                    )
                    # The late bot's thread may still be using it: the seat gets a fresh one.
                    spec = self.seats[seat].bot
                    if self.bots[seat] is bot and spec:
                        self.bots.seat(seat, make_bot(spec))
                except Exception:
                    log.exception("bot %s failed at table %s; a stand-in moves", bot.name, self.id)
        try:
            return await loop.run_in_executor(self.lobby.stand_in_pool, self.stand_in.choose, obs)
        except Exception:
            log.exception("the stand-in failed at table %s; the first legal move", self.id)
            return obs.legal[0]

    async def _reschedule_later(self, state: int, delay: float) -> None:
        await self.lobby.clock.sleep(delay)
        async with self.lock:
            if self.state == state:
                self.schedule()

    async def set_ready(self, seat: int) -> None:
        """The person at ``seat`` wants the next deal of the match (shown to the table)."""
        async with self.lock:
            if self.pending is None or seat in self.ready:
                return
            self.ready.add(seat)
            self.schedule()
            self.broadcast()

    async def _next_deal_later(self, state: int, pause: float) -> None:
        try:
            if pause > 0:
                await self.lobby.clock.sleep(pause)
            for retry in (*RETRY_DELAYS, *[10.0] * 30):
                async with self.lock:
                    if self.state != state or self.pending is None or self.let_go:
                        return
                    try:
                        await self._start_deal(self.pending)
                        return
                    except StoreUnavailable:
                        log.warning(
                            "table %s: the next deal could not be stored; retrying", self.id
                        )
                await self.lobby.clock.sleep(retry)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: could not start the next deal", self.id)

    async def close(self) -> None:
        self.let_go = True
        for task in [self.task, *self.later]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        for c in list(self.conns):
            c.stop()
        self.lobby.events.emit("closed", self.id)

    # -- restoring ---------------------------------------------------------------------
    def restore(self, row: TableRow, keep_clock: bool = False) -> bool:
        """Rebuild from the database: replay the current match. True if the last deal's
        end was played but not recorded as such (the caller stores it). ``keep_clock``
        (a table taken over from another worker): the turn clock runs from the stored
        time of the last change, not from now."""
        self.status = row.status
        self.match_no = row.match_no
        self.state = row.deal_count + row.action_count
        if keep_clock and row.turn_since is not None:
            since = (now_utc() - row.turn_since).total_seconds()
            started = self.lobby.clock.monotonic() - max(0.0, since)
            self.turn_state, self.turn_started = self.state, started
        unrecorded_end = False
        if row.match_seed is None or not row.current:
            return False
        m = self.match = Match(
            self.rules,
            seed=row.match_seed,
            deals=self.deals,
            target=self.target,
            names=self.names(),
        )
        for i, d in enumerate(row.current):
            g = m.game
            if (g.seed, g.dealer, g.leader) != (d.seed, d.dealer, d.leader):
                # Each deal was dealt from a seed of its own (``_fair_deal``), stored
                # with it: the stored deal wins.
                g = m.game = Game(
                    self.rules,
                    seed=d.seed,
                    dealer=d.dealer,
                    leader=d.leader,
                    pagon=g.pagon or None,
                )
            self.salt = d.salt
            self.server_seed, self.deal_nonces = d.server_seed, d.nonces
            self.log = []
            if d.assisted:
                self.assisted.add(d.id)
            for seat, text, moved_by in d.actions:
                if g.to_act != seat:
                    raise RecordError(
                        f"table {self.id}: stored action {text} by seat {seat}, "
                        f"but seat {g.to_act} is to act"
                    )
                phase = g.phase
                called = protocol.call_outcome(g, seat, protocol.parse_action(text))
                g.apply(text)
                entry: dict[str, Any] = {
                    "seat": seat,
                    "action": text,
                    "bout": g.bout,
                    "phase": str(phase),
                    **called,
                }
                if moved_by is not None:
                    entry["by"] = moved_by
                self.log.append(entry)
            self.game, self.deal_id, self.deal_no = g, d.id, d.deal_no
            if d.result is not None and d.result.startswith("forfeit"):
                gone, by = forfeit_seats(self.names(), d.result)
                self.forfeit = forfeit_result(d.result, gone, by)
                continue
            if g.is_over:
                nxt = m.next_deal()
                if d.result is None:
                    unrecorded_end = True
                if nxt is None:
                    self.status = "finished"
                elif i == len(row.current) - 1:
                    self.pending = nxt
            elif i != len(row.current) - 1:
                raise RecordError(f"table {self.id}: deal {d.id} unfinished but not the last")
        return unrecorded_end

    async def resume(self, record_end: bool) -> None:
        async with self.lock:
            if record_end:
                g = self.game
                assert g is not None and self.deal_id is not None
                assert g.outcome is not None
                await self.write(
                    self.store.store.finish_deal,
                    self.deal_id,
                    str(g.outcome),
                    g.record(self.names(), Table=self.id),
                    self.id,
                    self.status,
                    self._rating(None if g.outcome.draw else g.outcome.durak),
                )
            self.schedule()
