"""Signing in under attack: password hashing on its own bounded pool, login limits per
address and per account, and a lockout with backoff.

Hashing a password (scrypt) costs a large fraction of a second of CPU on purpose. It
runs on a pool of its own, never on the database thread that stores every move, and at
most ``queue`` hashes wait for it: a flood of logins is refused with 503 rather than
queued without end. Before any hash, the address (see ``limits.net_key``) and the
account name each spend a token of their own bucket; an account with ``lock_after``
wrong passwords in a row is locked, for twice as long after each further miss (from
``lock_first`` up to ``lock_max`` seconds), whatever the address: a lock cannot be
walked around with more addresses. A locked or limited name gets the same answer
whether or not an account has it, and an unknown name is checked against a dummy hash
so that it takes as long as a wrong password does.

>>> lk = Lockout(after=2, first=10.0, most=40.0)
>>> [lk.fail("ann", now=0.0) for _ in range(4)]
[0.0, 10.0, 20.0, 40.0]
>>> lk.wait("ann", now=30.0), lk.wait("ann", now=41.0)
(10.0, 0.0)
>>> lk.succeed("ann"); lk.wait("ann", now=41.0)
0.0
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from . import accounts
from .accounts import AccountError
from .limits import BucketMaker, Limits, local_bucket


class Lockout:
    """Consecutive wrong passwords per account name, and how long it is locked."""

    def __init__(self, after: int, first: float, most: float, max_keys: int = 100_000) -> None:
        self.after, self.first, self.most, self.max_keys = after, first, most, max_keys
        self._state: dict[str, tuple[int, float]] = {}  # key -> (misses, locked until)

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds ``key`` stays locked (0: it may try)."""
        t = time.monotonic() if now is None else now
        _, until = self._state.get(key, (0, 0.0))
        return max(0.0, until - t)

    def fail(self, key: str, now: float | None = None) -> float:
        """One more wrong password: the seconds of the lock it starts (0: none yet)."""
        t = time.monotonic() if now is None else now
        misses = self._state.get(key, (0, 0.0))[0] + 1
        lock = 0.0
        if misses >= self.after:
            lock = min(self.most, self.first * 2.0 ** (misses - self.after))
        if len(self._state) >= self.max_keys and key not in self._state:
            # Forget names whose lock is over (the oldest first when all are locked).
            stale = [k for k, (_, u) in self._state.items() if u <= t] or list(self._state)
            for k in stale[: max(1, len(stale) // 2)]:
                del self._state[k]
        self._state[key] = (misses, t + lock)
        return lock

    def succeed(self, key: str) -> None:
        self._state.pop(key, None)

    # As the server calls them: a lockout shared by several workers
    # (``cluster.SharedLockout``) keeps its counts in Redis instead.
    async def locked_for(self, key: str) -> float:
        return self.wait(key)

    async def missed(self, key: str) -> float:
        return self.fail(key)

    async def passed(self, key: str) -> None:
        self.succeed(key)


class Logins:
    """The hashing pool and the limits in front of it (one per server)."""

    def __init__(
        self, limits: Limits, bucket: BucketMaker = local_bucket, lockout: Lockout | None = None
    ) -> None:
        """``bucket`` and ``lockout``: this process's own by default, shared through
        Redis by the workers of a cluster (``cluster.RedisCluster.logins``)."""
        lim = limits
        self.pool = ThreadPoolExecutor(
            max_workers=lim.hash_threads, thread_name_prefix="durak-hash"
        )
        self.queue = lim.hash_queue
        self.waiting = 0
        self.by_address = bucket("logins", lim.logins_per_minute / 60, lim.logins_burst)
        self.by_account = bucket(
            "account_logins", lim.account_logins_per_minute / 60, lim.account_logins_burst
        )
        self.lockout = lockout or Lockout(lim.lock_after, lim.lock_first, lim.lock_max)
        self._dummy: str | None = None

    async def admit(self, address_key: str, name_key: str | None) -> None:
        """Refuse (AccountError 429) an address or a name over its limit, or a locked
        name; spends the tokens of an attempt."""
        if name_key is not None:
            wait = await self.lockout.locked_for(name_key)
            if wait > 0:
                raise AccountError(
                    "locked",
                    f"too many wrong passwords for this name; try again in {wait:.0f} s",
                    "password",
                    429,
                )
        if not await self.by_address.acquire(address_key):
            raise AccountError(
                "too_many", "too many sign-ins from your address; wait a little", None, 429
            )
        if name_key is not None and not await self.by_account.acquire(name_key):
            raise AccountError(
                "too_many", "too many sign-ins for this name; wait a little", "password", 429
            )

    async def run(self, fn: object, *args: object) -> object:
        """``fn(*args)`` on the hashing pool; 503 when ``queue`` hashes already wait."""
        if self.waiting >= self.queue:
            raise AccountError("busy", "the server is busy signing people in; try again", None, 503)
        self.waiting += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.pool, fn, *args)  # type: ignore[arg-type]
        finally:
            self.waiting -= 1

    async def hash(self, password: str) -> str:
        out = await self.run(accounts.hash_password, password)
        assert isinstance(out, str)
        return out

    async def verify(self, password: object, stored: str | None) -> bool:
        """Whether ``password`` matches ``stored``; for no account (``stored`` None) a
        dummy hash is checked, so that the answer takes as long."""
        if self._dummy is None:
            self._dummy = await self.hash("not the password of anyone")
        ok = await self.run(accounts.verify_password, password, stored or self._dummy)
        return bool(ok) and stored is not None

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
