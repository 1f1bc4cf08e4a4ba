"""Waiting for a condition, the one way the tests wait for another process or thread.

A test that must wait for something outside its control (a server to listen, a worker
to take a table over, the bots to finish a deal) asks :func:`until` for the
*condition*: it is checked again and again until it holds, and only a deadline far
beyond any reasonable delay (a minute by default) fails the test. Nothing depends on
the thing happening within a short window, so a busy machine makes the test slower,
never red. What a test can control it does not wait for: it moves a ``ManualClock``,
waits on an ``Events`` moment, or meets the other side at a barrier.

>>> box = [0]
>>> def grow() -> int:
...     box[0] += 1
...     return box[0] if box[0] >= 3 else 0
>>> until(grow, "three")
3
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, cast, overload

T = TypeVar("T")

DEADLINE = 60.0  # seconds: far beyond what anything the tests wait for takes
_PAUSE = 0.02  # seconds between two checks (how often, not how long)


def until(
    check: Callable[[], T],
    what: str,
    seconds: float = DEADLINE,
    ignoring: tuple[type[Exception], ...] = (OSError,),
) -> T:
    """``check()``'s first true value, checked until it has one; fails with ``what``
    (what was waited for) and its last value if ``seconds`` pass first. A ``check``
    that raises one of ``ignoring`` (nothing listens yet) counts as not yet."""
    deadline = time.monotonic() + seconds
    last: object = None
    while True:
        try:
            got = check()
            if got:
                return got
            last = got
        except ignoring as e:
            last = e
        assert time.monotonic() < deadline, f"waited {seconds:g} s for {what}: {last!r}"
        time.sleep(_PAUSE)  # (the pause between two checks, not a wait for the thing)


@overload
async def until_async(
    check: Callable[[], Awaitable[T]], what: str, seconds: float = DEADLINE
) -> T: ...


@overload
async def until_async(check: Callable[[], T], what: str, seconds: float = DEADLINE) -> T: ...


async def until_async(
    check: Callable[[], Awaitable[T]] | Callable[[], T], what: str, seconds: float = DEADLINE
) -> T:
    """:func:`until` inside an event loop: ``check()`` (awaited when it returns an
    awaitable) until it is true, the loop free to run the rest between checks."""
    deadline = time.monotonic() + seconds
    while True:
        got = check()
        if inspect.isawaitable(got):
            got = await got
        if got:
            return cast(T, got)
        assert time.monotonic() < deadline, f"waited {seconds:g} s for {what}: {got!r}"
        await asyncio.sleep(_PAUSE)  # (the pause between two checks)
