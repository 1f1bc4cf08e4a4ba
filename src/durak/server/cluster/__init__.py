"""Several workers behind one address: tables owned by leases in Redis, sockets relayed
over Redis pub/sub, limits counted in Redis, everything else in the shared database
(docs/scale.md has the picture).

Two implementations of one interface, chosen once in ``app.create_app``:

- ``Local`` (``local``): one process holds every table (``durak serve``, the default).
  Nothing crosses a process; this is the path the server always had.
- ``RedisCluster`` (``worker``): one of several workers (``durak serve --redis URL --db
  postgresql://...``, or ``--workers N`` on one machine), made of

  - ``leases``: each table is *owned* by one worker at a time, through a lease in Redis
    renewed at every beat; when an owner dies its leases run out and another worker
    adopts the table from the database (every confirmed action was stored before
    anyone was told of it). The database has the last word, through the table's epoch:
    of two workers that both hold a table only the one that took it last can store
    anything; the other lets it go as soon as a write of it is refused.
  - ``relay``: a browser may connect to any worker (the *edge*); its frames go to the
    owner, and what the owner sends that socket comes back tagged with the seat it was
    made for, forwarded only to the socket the owner welcomed as that seat.
  - ``rpc``: an HTTP request about a table, run by its owner.
  - ``limits``: rates, open sockets, bots thinking, wrong passwords, counted in Redis.
  - ``wire``: the typed messages the workers say to each other (msgspec Structs).
"""

from __future__ import annotations

from ..store import StoreUnavailable
from .leases import GONE, HERE, MOVING, TAKEN, Moving
from .limits import SharedTally
from .local import Local
from .node import Handler
from .relay import RemoteConnection
from .worker import RedisCluster

Cluster = Local | RedisCluster

__all__ = [
    "GONE",
    "HERE",
    "MOVING",
    "TAKEN",
    "Cluster",
    "Handler",
    "Local",
    "Moving",
    "RedisCluster",
    "RemoteConnection",
    "SharedTally",
    "services_down",
]


def services_down() -> tuple[type[BaseException], ...]:
    """The errors that mean the cluster's services do not answer: a request that meets
    one is answered 503 with Retry-After (``app``)."""
    try:
        from redis.exceptions import RedisError
    except ImportError:  # (one process without the cluster's extra)
        return (StoreUnavailable,)
    return (StoreUnavailable, RedisError)
