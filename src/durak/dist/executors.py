"""Run independent tasks here, on local processes, or on a Ray cluster; results as they finish.

A task is a picklable argument for a module-level function (``fn(task) -> result``); the
executor sends each task to a worker and yields the results in the order they finish. The
caller makes results independent of that order (the arena sorts games by deal), so every
backend gives the same answer.

>>> with executor("process", jobs=1) as ex:
...     sorted(ex.map_unordered(abs, [-2, 1, -3]))
[1, 2, 3]

``process`` runs in this process when ``jobs`` is 1, else on a ``multiprocessing`` pool;
``ray`` submits Ray tasks, to the cluster at ``address`` (or ``RAY_ADDRESS``), or to a
local Ray started with ``jobs`` CPUs (default: every core) and stopped afterwards. A Ray
that this process has already started is used as it is and left running.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import queue
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from ..errors import ArgumentError, UsageError

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("process", "ray")
# Ray tasks in flight per worker: enough that no worker waits for the next task, few
# enough that results stream back (and get written) as the run goes.
IN_FLIGHT = 2


class Executor(Protocol):
    workers: int

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]: ...


class InlineExecutor:
    """Every task in this process, one after another."""

    workers = 1

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        return map(fn, tasks)


class ProcessExecutor:
    """A pool of ``workers`` local processes. Tasks are taken from ``tasks`` only as workers
    free up (as on Ray), so a task generator can size the next task by the results so far."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: Any = None

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        if self._pool is None:
            self._pool = _context().Pool(self.workers)
        results: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        pending = 0
        for task in tasks:
            if pending >= IN_FLIGHT * self.workers:
                yield _unpack(results.get())
                pending -= 1
            self._pool.apply_async(fn, (task,), callback=lambda r: results.put((True, r)),
                                   error_callback=lambda e: results.put((False, e)))
            pending += 1
        for _ in range(pending):
            yield _unpack(results.get())

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def _unpack(item: tuple[bool, Any]) -> Any:
    ok, value = item
    if not ok:
        raise value
    return value


def _context() -> Any:
    # fork is the quickest start, but forking a process that runs Ray's threads can hang
    # the child, so once Ray is up in this process the pool starts from a clean server.
    if sys.platform == "darwin":
        return multiprocessing.get_context("spawn")
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("fork")


class RayExecutor:
    """Ray tasks on a running Ray (``ray.init`` done); ``workers`` is the cluster's CPUs."""

    def __init__(self) -> None:
        ray = import_ray()
        self._ray = ray
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        ray = self._ray
        remote = ray.remote(_call)
        fn_ref = ray.put(fn)  # sent once; any picklable callable (a builtin too) will do
        pending: list[Any] = []
        limit = IN_FLIGHT * self.workers
        for task in tasks:
            if len(pending) >= limit:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
            pending.append(remote.remote(fn_ref, task))
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])


def _call(fn: Callable[[T], R], task: T) -> R:
    return fn(task)


def import_ray() -> Any:
    """The ``ray`` module, or a clear error saying which extra brings it."""
    try:
        import ray
    except ImportError as e:
        raise UsageError(
            "the Ray backend needs Ray: pip install 'durak[dist]'"
        ) from e
    return ray


@contextmanager
def ray_session(address: str | None = None, cpus: int | None = None) -> Iterator[Any]:
    """A running Ray: the one this process already has, the cluster at ``address`` (or
    ``RAY_ADDRESS``), else a local one with ``cpus`` CPUs (default all), stopped at the end."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address:
        ray.init(address=address, logging_level="WARNING")
    else:
        # An explicit "local" start: without it Ray would join a cluster that `ray start`
        # left running on this machine, which is not what "no address" asks for.
        ray.init(address="local", num_cpus=cpus or os.cpu_count() or 1,
                 include_dashboard=False, logging_level="ERROR")
    try:
        yield ray
    finally:
        ray.shutdown()


@contextmanager
def executor(backend: str = "process", jobs: int | None = None,
             address: str | None = None) -> Iterator[Executor]:
    """The executor of ``backend`` (one of :data:`BACKENDS`), closed at the end."""
    if backend == "process":
        n = jobs or os.cpu_count() or 1
        if n <= 1:
            yield InlineExecutor()
            return
        pool = ProcessExecutor(n)
        try:
            yield pool
        finally:
            pool.close()
    elif backend == "ray":
        with ray_session(address, jobs):
            yield RayExecutor()
    else:
        raise ArgumentError(f"no backend {backend!r}; one of {', '.join(BACKENDS)}")


class Batcher:
    """Cuts ``items`` into tasks, lazily: each about ``target`` seconds of work, judged from
    the work done so far (:meth:`done`), so that quick games go many to a task (the parent
    handles few messages) and slow ones few (a stopped run loses little, and the workers
    finish together). ``size`` fixes the batch size instead.

    >>> b = Batcher(list(range(10)), workers=1)
    >>> next(b), next(b)
    ([0], [1])
    >>> b.done(items=2, seconds=0.02)   # 10 ms an item: 0.5 s is 50 items, capped by what is left
    >>> next(b)
    [2, 3, 4, 5]
    >>> list(Batcher(list(range(5)), workers=1, size=2))
    [[0, 1], [2, 3], [4]]
    """

    target = 0.5  # seconds a task
    most = 256

    def __init__(self, items: list[T], workers: int, size: int | None = None) -> None:
        if size is not None and size < 1:
            raise ArgumentError(f"a batch holds at least one item, not {size}")
        self.items = items
        self.workers = max(1, workers)
        self.size = size
        self.next = 0
        self.items_done = 0
        self.seconds = 0.0

    def done(self, items: int, seconds: float) -> None:
        """``items`` more were done in ``seconds`` of work."""
        self.items_done += items
        self.seconds += seconds

    def __iter__(self) -> Batcher:
        return self

    def __next__(self) -> list[Any]:
        left = len(self.items) - self.next
        if left <= 0:
            raise StopIteration
        if self.size is not None:
            n = self.size
        elif self.items_done == 0 or self.seconds <= 0:
            n = 1
        else:
            per_item = self.seconds / self.items_done
            # at most a share of what is left, so the last tasks end together
            share = math.ceil(left / (IN_FLIGHT * self.workers))
            n = max(1, min(self.most, int(self.target / per_item), share))
        batch = self.items[self.next:self.next + n]
        self.next += len(batch)
        return batch
