"""The core of a live table: its state, its lock, its fenced writes, and the parts every
other room of the table builds on (a ``Seat``; what a table needs of its lobby, ``Host``,
and of a client's connection, ``Client``; the fair deal's hashes). The jobs of a table
live beside it, each in a module of its own: ``tableviews`` (what it shows and
sends), ``tableseating`` (who sits where, who is connected), ``tabledeals`` (the move
pipeline and the deal lifecycle), ``tableclock`` (bots, stand-ins and turn clocks),
``tablerestore`` (rebuilding it from the database); ``table.LiveTable`` is all of them.

Every change goes through the table's lock: an action is checked, stored, applied and
then broadcast, in that order, so what the database holds is never behind what a
client has seen. Public coroutines take the lock; ``_`` methods expect it held."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ..bots import Bot
from ..game import Game
from ..match import Match
from ..rules import Rules
from ..seats import Seats
from .clock import Clock, Events
from .limits import Limits, Tally
from .reviews import Reviews
from .seatbots import STAND_IN, make_bot
from .settings import Timings
from .store import Fence, Fenced, StoreUnavailable

log = logging.getLogger("durak.server")

T = TypeVar("T")

LOG_TAIL = 60  # moves of the deal's log sent with each update
OUTBOX_LIMIT = 512  # messages queued for one client before it is dropped as too slow
RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)  # between tries of an automatic move the store refused


def hash_token(token: str) -> str:
    """What is kept of a secret token (a seat's, an invite's): its sha256, in hex."""
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


class Host(Protocol):
    """What a table needs of the lobby that holds it (``lobby.Lobby``); written out so
    that this module does not import the lobby, which imports it."""

    store: Any  # AsyncStore
    limits: Limits
    timings: Timings  # the server's waits and pauses (grace, bot pace...)
    bot_pool: ThreadPoolExecutor
    stand_in_pool: ThreadPoolExecutor
    hint_pool: ThreadPoolExecutor
    bot_slots: Tally  # bots thinking at once, per address key (Limits.bots_per_address)
    hint_slots: Tally  # hints searched at once, per address key
    reviews: Reviews  # reviews made one at a time (a seat's own during a deal, too)
    latencies: Any  # deque[float]: action to update queued, seconds
    clock: Clock  # the time tables read (a test's own: clock.ManualClock)
    events: Events  # the moments tables announce (a deal started, a move stored...)

    def outdated(self, table_id: str) -> None:
        """The database holds an action this table has not played: another process
        stored it (a worker that had stalled past its lease, docs/scale.md)."""
        ...

    def fenced(self, table: TableCore[Any]) -> None:
        """Another worker took ``table`` over: a write of it was fenced off."""
        ...

    def holds(self, table: TableCore[Any]) -> bool:
        """Whether ``table`` is surely still held by this process (not taken over by
        another worker while this one stalled past its lease)."""
        ...


class Client(Protocol):
    """What a table's jobs use of a client's connection (``table.Connection``, whose
    ``table`` is the ``LiveTable`` it sits at)."""

    seat: int | None  # the seat it sits at (None: a spectator)
    token_hash: str | None  # the token it said hello with
    address: str  # its address key

    def push(self, text: str) -> None:
        """Queue ``text`` to be sent to it."""
        ...

    def welcome(self, text: str, seat: int | None) -> None:
        """Queue the ``welcome`` that seats it as ``seat``."""
        ...

    def stop(self) -> None:
        """Close it."""
        ...


C = TypeVar("C", bound=Client)  # the connections of a table (table.Connection)


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


class TableCore(ABC, Generic[C]):
    """A table's state and what every job of it shares (see the module's docstring)."""

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
        self.conns: set[C] = set()
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
        it. Raises ``Fenced`` (a ``StoreUnavailable``) then. Any other refusal of the
        database (``StoreUnavailable``) is announced (``"refused"``) and raised."""
        try:
            result: T = await self.store.write(self.fence, fn, *args, **kwargs)
        except Fenced:
            log.warning("table %s: taken over by another worker; letting it go", self.id)
            self.let_go = True
            self.lobby.fenced(self)
            self.lobby.events.emit("let_go", self.id)
            raise
        except StoreUnavailable:
            self.lobby.events.emit("refused", self.id)
            raise
        return result

    def spawn(self, coro: Awaitable[None]) -> None:
        if self.let_go:
            if asyncio.iscoroutine(coro):
                coro.close()
            return
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self.later.add(task)
        task.add_done_callback(self.later.discard)

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

    # What the jobs call of one another (each defined in its own room).
    @abstractmethod
    def schedule(self) -> None:
        """After every change: whatever must happen next without a person (tableclock)."""

    @abstractmethod
    def broadcast(self) -> None:
        """Every connection sent the table as its seat sees it (tableviews)."""
