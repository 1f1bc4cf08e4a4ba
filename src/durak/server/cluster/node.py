"""What the parts of a worker (``leases``, ``relay``, ``rpc``) use of the worker they
belong to (``worker.RedisCluster``), and the handler a worker is made with: written out
here so that the parts do not import the worker, which imports them."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Protocol

from ..lobby import Lobby
from ..table import Connection, LiveTable
from .wire import Message

if TYPE_CHECKING:
    from redis.asyncio import Redis


class Handler(Protocol):
    """What a client's frame is handed to on the worker that owns its table (app.py's
    ``Frames``: hello, act, claim, chat...), given to the worker when it is made."""

    def __call__(self, conn: Connection, text: str) -> Awaitable[object]: ...


class Node(Protocol):
    """One worker, as its parts see it."""

    worker: str  # its id
    redis: Redis

    @property
    def lobby(self) -> Lobby:
        """The lobby its tables live in."""
        ...

    async def publish(self, worker: str, message: Message) -> None:
        """``message`` to ``worker``, on its channel."""
        ...

    async def publish_text(self, worker: str, text: str) -> None:
        """A message already encoded, to ``worker``."""
        ...

    def spawn(self, coro: Awaitable[Any]) -> None:
        """Run ``coro`` in the background."""
        ...

    async def where(self, table_id: str) -> str | None:
        """The worker that owns ``table_id``; None: this one."""
        ...

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        """The present owner of each table (None: nobody)."""
        ...

    async def publish_live(self, tables: list[LiveTable]) -> None:
        """``tables`` listed as this worker's at once."""
        ...
