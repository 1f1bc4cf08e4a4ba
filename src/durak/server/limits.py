"""What one address or one connection may do: rates, caps and deadlines.

Rates are token buckets: ``burst`` tries at once, refilled at ``rate`` per second.

>>> b = Bucket(rate=1.0, burst=2)
>>> [b.take("a", now=0.0), b.take("a", now=0.0), b.take("a", now=0.0)]
[True, True, False]
>>> b.take("a", now=1.0), b.take("b", now=1.0)
(True, True)
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import DurakError


def net_key(address: str) -> str:
    """What the per-address limits count by: an IPv4 address as it is, an IPv6 address by
    its /64 (one host is given a whole /64, so its addresses are one client).

    >>> net_key("2001:db8:1:2:aaaa::1") == net_key("2001:db8:1:2:ffff::9")
    True
    >>> net_key("198.51.100.7"), net_key("::ffff:198.51.100.7"), net_key("testclient")
    ('198.51.100.7', '198.51.100.7', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def peer_key(scope: Mapping[str, Any]) -> str:
    """The key of an HTTP or WebSocket request's peer (``net_key`` of its address)."""
    client = scope.get("client")
    return net_key(str(client[0])) if client else "unknown"


def wide_key(address: str) -> str:
    """A coarser key for the caps a neighbourhood shares (live tables, new tables): an
    IPv4 /24, an IPv6 /48.

    >>> wide_key("198.51.100.7"), wide_key("2001:db8:1:2::1")
    ('198.51.100.0/24', '2001:db8:1::/48')
    """
    key = net_key(address)
    try:
        ip = ipaddress.ip_address(key.split("/")[0])
    except ValueError:
        return key
    bits = 24 if isinstance(ip, ipaddress.IPv4Address) else 48
    return str(ipaddress.ip_network((ip, bits), strict=False))


@dataclass(frozen=True)
class Limits:
    """The server's limits (docs/web.md lists them). ``Limits(creates_per_minute=60)``."""

    max_body: int = 16 * 1024  # bytes of an HTTP request body
    requests_per_second: float = 20.0  # HTTP requests per address
    requests_burst: int = 60
    creates_per_minute: float = 6.0  # new tables per address
    creates_burst: int = 5
    joins_per_minute: float = 20.0  # seats taken per address
    joins_burst: int = 10
    token_tries_per_minute: float = 10.0  # wrong tokens or invites per address
    token_tries_burst: int = 10
    messages_per_second: float = 10.0  # WebSocket messages per connection
    messages_burst: int = 30
    address_messages_per_second: float = 60.0  # WebSocket messages per address
    address_messages_burst: int = 120
    connections_per_address: int = 16  # open WebSockets
    tables_per_address: int = 4  # live (waiting or playing) tables made from one address key
    tables_per_network: int = 16  # ... and from one IPv4 /24 or IPv6 /48
    max_tables: int = 5000  # live tables on the server
    hello_deadline: float = 10.0  # seconds a new WebSocket has to say hello
    # Signing in (server/logins.py): per address key and per account name, then a lock.
    logins_per_minute: float = 10.0  # logins and registrations per address key
    logins_burst: int = 10
    account_logins_per_minute: float = 6.0  # logins per account name, from anywhere
    account_logins_burst: int = 10
    lock_after: int = 5  # wrong passwords in a row that lock an account name
    lock_first: float = 15.0  # seconds of the first lock; doubled by each further miss
    lock_max: float = 900.0
    hash_threads: int = 1  # threads that hash passwords (never the database's)
    hash_queue: int = 8  # hashes waiting at most; more sign-ins get 503
    # Slow requests (server/slowloris.py): seconds to send a request's head, and how
    # many connections one address key may have that have not sent theirs yet.
    header_timeout: float = 10.0
    half_open_per_address: int = 8
    # Wall seconds a seat bot may think about one move; past it the stand-in moves.
    bot_move_seconds: float = 5.0
    # Seat-bot moves the tables made from one address key may have thought about at once,
    # and hints searched at once for one address key: over every worker of a cluster
    # (the defaults are one process's bot and hint pools, so alone they change nothing).
    bots_per_address: int = 2
    hints_per_address: int = 1
    page_size: int = 50  # tables per page of /api/tables (at most 100)
    # Origins allowed to open /ws besides the server's own (scheme://host[:port]).
    allowed_origins: tuple[str, ...] = field(default_factory=tuple)


class Bucket:
    """One token bucket per key (an address, a connection)."""

    def __init__(self, rate: float, burst: int, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.max_keys = max_keys
        self._state: dict[object, tuple[float, float]] = {}

    def take(self, key: object, now: float | None = None) -> bool:
        """Spend one token of ``key``; False when it has none left."""
        t = time.monotonic() if now is None else now
        tokens, last = self._state.get(key, (self.burst, t))
        tokens = min(self.burst, tokens + (t - last) * self.rate)
        if tokens < 1.0:
            self._state[key] = (tokens, t)
            return False
        if len(self._state) >= self.max_keys and key not in self._state:
            self._prune(t)
        self._state[key] = (tokens - 1.0, t)
        return True

    async def acquire(self, key: str) -> bool:
        """``take`` as the server calls it: a bucket shared by several workers
        (``cluster.SharedBucket``) asks Redis instead."""
        return self.take(key)

    async def available(self, key: str) -> bool:
        """``peek`` as the server calls it (see ``acquire``)."""
        return self.peek(key)

    def peek(self, key: object, now: float | None = None) -> bool:
        """True if ``key`` has a token to spend (spends none)."""
        t = time.monotonic() if now is None else now
        tokens, last = self._state.get(key, (self.burst, t))
        return tokens + (t - last) * self.rate >= 1.0

    def _prune(self, now: float) -> None:
        """Forget keys whose bucket is full again (they would start full anyway)."""
        full = [
            k
            for k, (tok, last) in self._state.items()
            if tok + (now - last) * self.rate >= self.burst
        ]
        for k in full:
            del self._state[k]
        if len(self._state) >= self.max_keys:  # all busy: forget the oldest
            for k in list(self._state)[: len(self._state) // 2]:
                del self._state[k]


class Tally:
    """How many of something (open sockets, half-sent requests, bots thinking) each key
    has, up to ``limit``. ``acquire``/``release``/``wait`` are how the server counts;
    a tally shared by several workers (``cluster.SharedTally``) asks Redis instead.
    Those who ``wait`` are served in the order they came (a table whose bot just moved
    does not take its address's place again ahead of the tables waiting for it).

    >>> t = Tally(1)
    >>> asyncio.run(t.acquire("a")), asyncio.run(t.acquire("a")), asyncio.run(t.acquire("b"))
    (True, False, True)
    >>> asyncio.run(t.wait("a", 0.05))  # still held: given up after 0.05 s
    False
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count: dict[str, int] = {}
        self.waiting: dict[str, deque[asyncio.Future[bool]]] = {}

    def open(self, key: str) -> bool:
        """Count one more for ``key``; False (nothing counted) when it is at the limit
        or others wait for it."""
        n = self.count.get(key, 0)
        if n >= self.limit or self.waiting.get(key):
            return False
        self.count[key] = n + 1
        return True

    def close(self, key: str) -> None:
        """One fewer for ``key``: its place goes to the first who waits for it, if any."""
        queue = self.waiting.get(key)
        while queue:
            first = queue.popleft()
            if not first.done():
                first.set_result(True)
                if not queue:
                    del self.waiting[key]
                return
        self.waiting.pop(key, None)
        n = self.count.get(key, 0) - 1
        if n > 0:
            self.count[key] = n
        else:
            self.count.pop(key, None)

    async def acquire(self, key: str) -> bool:
        """``open`` as the server calls it."""
        return self.open(key)

    async def release(self, key: str) -> None:
        """``close`` as the server calls it."""
        self.close(key)

    async def wait(self, key: str, seconds: float) -> bool:
        """``acquire``, or wait in line up to ``seconds`` for a place; False if none came
        by then (nothing counted)."""
        if self.open(key):
            return True
        turn: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(key, deque()).append(turn)
        try:
            return await asyncio.wait_for(turn, seconds)
        except TimeoutError:
            self._leave(key, turn)
            return False
        except asyncio.CancelledError:
            self._leave(key, turn)
            raise

    def _leave(self, key: str, turn: asyncio.Future[bool]) -> None:
        """A waiter gave up: out of the line, and a place it was given at the last moment
        passed on."""
        if turn.done() and not turn.cancelled():
            self.close(key)
        queue = self.waiting.get(key)
        if queue is not None and turn in queue:
            queue.remove(turn)
            if not queue:
                del self.waiting[key]


BucketMaker = Callable[[str, float, int], Bucket]


def local_bucket(name: str, rate: float, burst: int) -> Bucket:
    """A bucket of this process alone (``name`` unused: it tells shared buckets apart)."""
    return Bucket(rate, burst)


class Guard:
    """Every limit of one server, keyed by the client's address. ``bucket`` makes its
    buckets: this process's own by default, shared through Redis by the workers of a
    cluster (``cluster.RedisCluster.guard``), where ``connect`` is counted there too."""

    def __init__(self, limits: Limits, bucket: BucketMaker = local_bucket) -> None:
        self.limits = lim = limits
        self.requests = bucket("requests", lim.requests_per_second, lim.requests_burst)
        self.creates = bucket("creates", lim.creates_per_minute / 60, lim.creates_burst)
        self.joins = bucket("joins", lim.joins_per_minute / 60, lim.joins_burst)
        self.token_tries = bucket(
            "token_tries", lim.token_tries_per_minute / 60, lim.token_tries_burst
        )
        self.messages = bucket(
            "messages", lim.address_messages_per_second, lim.address_messages_burst
        )
        self.sockets = Tally(lim.connections_per_address)
        # WebSocket messages dropped over a rate since the start: how hard this server
        # is flooded (and what a test waits for to know a flood was read to its end).
        self.dropped = 0

    async def connect(self, address: str) -> bool:
        """Count a new WebSocket of ``address``; False when it has too many open."""
        return await self.sockets.acquire(address)

    async def disconnect(self, address: str) -> None:
        await self.sockets.release(address)


class BodyTooLarge(DurakError):
    """A request body past ``Limits.max_body`` while it streams in (answered 413)."""


class Limited(DurakError):
    """A request over a limit: answered 429 (HTTP) or ``rate_limited`` (WebSocket)."""
