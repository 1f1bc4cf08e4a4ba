"""The limits of a cluster, counted in Redis over every worker: token buckets per key
(on Redis's clock: the workers' clocks may differ), wrong passwords in a row per account
name, and tallies of what each key holds at once (open sockets, bots thinking, hints
searched), of which only the live workers' counts are summed."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from typing import TYPE_CHECKING

from ..limits import Bucket, Guard, Limits, Tally
from ..logins import Lockout

if TYPE_CHECKING:
    from redis.asyncio import Redis


# A token bucket per key, on Redis's clock (workers' clocks may differ): ARGV rate,
# burst, cost (1: take a token, 0: only look). Returns 1 when a token was there.
BUCKET_LUA = """
local t = redis.call('time')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local rate, burst, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('hmget', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
if tokens < 1 then return 0 end
if cost > 0 then
  redis.call('hset', KEYS[1], 'tokens', tostring(tokens - cost), 'at', tostring(now))
  redis.call('pexpire', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
end
return 1
"""

# One more of something a key holds (an address's open sockets, its bots thinking) if
# the live workers' counts leave room and no one waits ahead: KEYS[1] the key's hash
# (worker -> its count), KEYS[2] its line (a sorted set of waiters "worker|n" by the
# time they came); ARGV limit, this worker, this waiter ("" for none: not put in line).
# A worker is live while its key durak:worker:<id> is there: looked up here, in the
# same step, so a worker that has just started counts at once, on every worker; the
# count of a worker that is gone is not summed, and its waiters leave the line.
TAKE_LUA = """
local function live(w) return redis.call('exists', 'durak:worker:' .. w) == 1 end
local n = 0
local counts = redis.call('hgetall', KEYS[1])
for i = 1, #counts, 2 do
  if counts[i] == ARGV[2] or live(counts[i]) then n = n + tonumber(counts[i + 1]) end
end
local free = tonumber(ARGV[1]) - n
if free > 0 then
  local ahead = 0
  for _, m in ipairs(redis.call('zrange', KEYS[2], 0, -1)) do
    if m == ARGV[3] then break end
    local w = string.match(m, '^(.*)|')
    if w == ARGV[2] or live(w) then ahead = ahead + 1
    else redis.call('zrem', KEYS[2], m) end
  end
  if ahead < free then
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('expire', KEYS[1], 86400)
    if ARGV[3] ~= '' then redis.call('zrem', KEYS[2], ARGV[3]) end
    return 1
  end
end
if ARGV[3] ~= '' then
  local t = redis.call('time')
  redis.call('zadd', KEYS[2], 'NX', tonumber(t[1]) * 1000000 + tonumber(t[2]), ARGV[3])
  redis.call('expire', KEYS[2], 3600)
end
return 0
"""


# One fewer of what KEYS[1]'s key holds on worker ARGV[1], in one step: between a
# decrement and a separate delete, a take could count one that the delete then forgets.
GIVE_LUA = """
if redis.call('hincrby', KEYS[1], ARGV[1], -1) <= 0 then redis.call('hdel', KEYS[1], ARGV[1]) end
return 1
"""


class SharedBucket(Bucket):
    """A token bucket every worker spends from: its state is a Redis hash per key."""

    def __init__(self, redis: Redis, name: str, rate: float, burst: int) -> None:
        super().__init__(rate, burst)
        self.redis, self.name = redis, name
        self._script = redis.register_script(BUCKET_LUA)

    async def _ask(self, key: str, cost: int) -> bool:
        got = await self._script(
            keys=[f"durak:rate:{self.name}:{key}"], args=[self.rate, self.burst, cost]
        )
        return bool(got)

    async def acquire(self, key: str) -> bool:
        return await self._ask(key, 1)

    async def available(self, key: str) -> bool:
        return await self._ask(key, 0)


# A wrong password for KEYS[1]: ARGV after, first, most; returns the lock's seconds.
MISS_LUA = """
local t = redis.call('time')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local after, first, most = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local misses = (tonumber(redis.call('hget', KEYS[1], 'misses')) or 0) + 1
local lock = 0
if misses >= after then lock = math.min(most, first * 2 ^ (misses - after)) end
redis.call('hset', KEYS[1], 'misses', misses, 'until', tostring(now + lock))
redis.call('expire', KEYS[1], 86400)
return tostring(lock)
"""

LOCKED_LUA = """
local t = redis.call('time')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local til = tonumber(redis.call('hget', KEYS[1], 'until')) or 0
return tostring(math.max(0, til - now))
"""


class SharedLockout(Lockout):
    """Wrong passwords in a row per account name, counted over every worker."""

    def __init__(self, redis: Redis, after: int, first: float, most: float) -> None:
        super().__init__(after, first, most)
        self.redis = redis
        self._miss = redis.register_script(MISS_LUA)
        self._locked = redis.register_script(LOCKED_LUA)

    async def locked_for(self, key: str) -> float:
        return float(await self._locked(keys=[f"durak:lock:{key}"]))

    async def missed(self, key: str) -> float:
        args = [self.after, self.first, self.most]
        return float(await self._miss(keys=[f"durak:lock:{key}"], args=args))

    async def passed(self, key: str) -> None:
        await self.redis.delete(f"durak:lock:{key}")


class SharedTally(Tally):
    """How many of something each key holds at once, over every worker: a Redis hash per
    key (worker -> its count), of which only the live workers' counts are summed, so the
    places a worker held are free again once it is gone (its beat stopped); those who
    wait stand in one line in Redis, in the order they came, whichever worker they are
    on."""

    poll = 0.05  # seconds between two looks while waiting (each is a round trip)

    def __init__(self, redis: Redis, worker: str, name: str, limit: int) -> None:
        """``worker``: the id of the worker counting (its counts go when it does)."""
        super().__init__(limit)
        self.redis, self.worker, self.name = redis, worker, name
        self._take = redis.register_script(TAKE_LUA)
        self._give = redis.register_script(GIVE_LUA)
        self._waiters = itertools.count(1)

    def key(self, key: str) -> str:
        return f"durak:{self.name}:{key}"

    async def _ask(self, key: str, waiter: str) -> bool:
        got = await self._take(
            keys=[self.key(key), self.key(key) + ":line"],
            args=[self.limit, self.worker, waiter],
        )
        return bool(got)

    async def acquire(self, key: str) -> bool:
        return await self._ask(key, "")

    async def release(self, key: str) -> None:
        await self._give(keys=[self.key(key)], args=[self.worker])

    async def wait(self, key: str, seconds: float) -> bool:
        waiter = f"{self.worker}|{next(self._waiters)}"
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        got = False
        try:
            while not (got := await self._ask(key, waiter)):
                if loop.time() >= end:
                    return False
                await asyncio.sleep(self.poll)
            return True
        finally:
            if not got:  # out of the line (given up, or cancelled)
                with contextlib.suppress(Exception):
                    await self.redis.zrem(self.key(key) + ":line", waiter)


class SharedGuard(Guard):
    """The limits of one address over every worker: buckets and open sockets in Redis."""

    def __init__(self, limits: Limits, redis: Redis, worker: str) -> None:
        super().__init__(limits, lambda name, rate, burst: SharedBucket(redis, name, rate, burst))
        self.sockets = SharedTally(redis, worker, "sockets", limits.connections_per_address)
