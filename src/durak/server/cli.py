"""``durak serve``: the web table under uvicorn.

durak serve                         # http://127.0.0.1:8000, SQLite file durak.db
durak serve --host 0.0.0.0 --port 8080 --db postgresql+psycopg://u:p@host/durak
durak serve --workers 4 --redis redis://localhost:6379/0 --db postgresql+psycopg://...
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import logging
import math
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from typing import Any

from ..argtypes import port
from ..errors import ArgumentError
from .limits import Limits
from .settings import Timings

DEFAULT_DB = "sqlite:///durak.db"


DEFAULTS = Timings()

# The options that set a timing: option -> (Timings field, help). Their defaults are
# Timings's own, written nowhere else.
TIMING_OPTIONS: dict[str, tuple[str, str]] = {
    "--bot-pace": ("bot_pace", "seconds a bot takes for a move, so people can follow"),
    "--deal-pause": (
        "deal_pause",
        "at most how long (seconds) a finished deal of a match stays on show (default: "
        "until every connected person presses Next deal; 4 x pace with nobody connected)",
    ),
    "--grace": ("grace", "seconds a person may be disconnected before a bot plays for them"),
    "--forfeit-after": (
        "forfeit_after",
        "seconds away after which the others may claim the win",
    ),
    "--lease": (
        "lease",
        "how long a table stays with a worker that stopped answering before another "
        "takes it over (with --redis; at least 1)",
    ),
    "--drain": (
        "drain",
        "with --redis: how long a worker told to stop waits for its sockets' requests, "
        "then as long again for its tables' writes, before it leaves anyway (exit status 1 "
        "and a log of what it could not store)",
    ),
    "--db-lock-timeout": (
        "lock_timeout",
        "how long a database write waits for a lock before it fails and is retried "
        "(SQLite's busy timeout, PostgreSQL's lock_timeout)",
    ),
    "--db-stall": (
        "stall",
        "PostgreSQL: a session idle this long inside a transaction (its worker stopped "
        "or cut off mid-write) is ended by the server, and the table rows it held freed for "
        "the worker taking them over (docs/scale.md)",
    ),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--port", type=port, default=8000, help="port to listen on (0: any free port)"
    )
    parser.add_argument(
        "--db", default=DEFAULT_DB, help=f"SQLAlchemy database URL (default {DEFAULT_DB})"
    )
    parser.add_argument("--bot-threads", type=int, default=2, help="threads that bots think on")
    for option, (name, text) in TIMING_OPTIONS.items():
        default = getattr(DEFAULTS, name)
        shown = "" if default is None else f" (default {default:g})"
        parser.add_argument(
            option, type=float, default=None, metavar="SECONDS", dest=name, help=text + shown
        )
    _add_cluster_arguments(parser)
    parser.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="URL",
        help="another origin allowed to open /ws (repeatable)",
    )
    parser.add_argument(
        "--stats-token",
        default=os.environ.get("DURAK_STATS_TOKEN"),
        help="bearer token for /api/stats (default $DURAK_STATS_TOKEN; "
        "without one /api/stats is not served)",
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one of the limits (docs/web.md), e.g. --limit tables_per_address=8",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="ADDRESSES",
        help="trust X-Forwarded-For and X-Forwarded-Proto only from these comma-separated "
        "addresses or networks (your load balancer's; '*': any). Default: none, so no "
        "client can choose the address the per-address limits count it by",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="how much the server logs",
    )


def _add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="join the workers of a cluster through this Redis (docs/scale.md); "
        "the database must then be one they share (PostgreSQL); default: none, this "
        "process holds every table",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes on this address (default 1; more needs --redis)",
    )
    parser.add_argument(
        "--worker-id", default=None, help="this worker's name in the cluster (default: random)"
    )


def timings(args: argparse.Namespace) -> Timings:
    """The timings ``durak serve``'s options set (Timings's defaults for the others);
    ArgumentError naming the option when one is out of its range."""
    given = {name: getattr(args, name) for name, _ in TIMING_OPTIONS.values()}
    return Timings(**{k: v for k, v in given.items() if v is not None})


def bad_settings(args: argparse.Namespace) -> str:
    """What is wrong with ``durak serve``'s numbers ("" when nothing is)."""
    if args.workers < 1 or (args.workers > 1 and not args.redis):
        return "--workers N needs N >= 1, and --redis URL when N > 1"
    try:
        timings(args)
    except ArgumentError as e:
        return str(e)
    return ""


def limits_of(args: argparse.Namespace) -> Limits | str:
    """The limits ``--origin`` and ``--limit`` set, or what is wrong with a ``--limit``."""
    changes: dict[str, object] = {"allowed_origins": tuple(args.origin)}
    kinds = {f.name: f.type for f in dataclasses.fields(Limits)}
    for item in args.limit:
        name, _, value = item.partition("=")
        if name not in kinds or name == "allowed_origins":
            return f"no limit {name!r}; limits: {', '.join(kinds)}"
        changes[name] = (float if kinds[name] in (float, "float") else int)(value)
    return Limits(**changes)  # type: ignore[arg-type]


def run(args: argparse.Namespace) -> int:
    wrong = bad_settings(args)
    if wrong:
        print(f"durak serve: {wrong}", file=sys.stderr)
        return 2
    try:  # first the address: a refusal leaves nothing behind (no database created)
        sock = listen(args.host, args.port)
    except OSError as e:
        print(
            f"durak serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}",
            file=sys.stderr,
        )
        return 1
    # One server to a database: a second one on the same file would restore and run the
    # first one's live tables beside it (several workers share one through Redis).
    taken = "" if args.redis else hold_database(args.db)
    if taken:
        sock.close()
        print(f"durak serve: {taken}", file=sys.stderr)
        return 1
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(message)s")
    limits = limits_of(args)
    if isinstance(limits, str):
        print(f"durak serve: {limits}")
        return 2
    # Said only now that the address is ours.
    print(
        f"durak: serving on http://{url_host(args.host)}:{sock.getsockname()[1]}/ "
        f"(database {args.db})",
        flush=True,
    )
    # Bots think in Python on threads and hold the GIL while they do; the event loop
    # waits up to one switch interval each time it wants it back. 1 ms instead of 5 ms
    # keeps other tables' moves quick while bots think (benchmarks/load/flood.py).
    sys.setswitchinterval(0.001)
    serve = functools.partial(serve_worker, args, sock, timings(args), limits)
    if args.workers == 1:
        serve(None)
        return 0
    return supervise(args.workers, serve)


def serve_worker(
    args: argparse.Namespace,
    sock: socket.socket,
    times: Timings,
    limits: Limits,
    slot: int | None,
) -> None:
    """One worker, until it is told to stop; made in the worker's own process, so each
    has its own id."""
    import uvicorn

    from .app import create_app
    from .slowloris import protocol_class

    class QuietServer(uvicorn.Server):
        """uvicorn's server, whose second Ctrl-C (leave now, without waiting for the
        application's shutdown) ends without logging the cancelled lifespan's traceback."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.should_exit and sig == signal.SIGINT:
                logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)
            super().handle_exit(sig, frame)

    worker = args.worker_id
    trusted = proxies(args.forwarded_allow_ips)
    if worker is not None and slot is not None:
        worker = f"{worker}-{slot}"
    app = create_app(
        args.db,
        times,
        limits,
        bot_threads=args.bot_threads,
        stats_token=args.stats_token,
        redis_url=args.redis,
        worker=worker,
        stopped=undrained_exit,
    )
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        ws_max_size=64 * 1024,
        http=protocol_class(limits),
        # A worker's sockets get as long to finish their requests as its tables get
        # to store their writes afterwards (a request may wait on a database that
        # stopped answering); one process waits for them as it always did.
        # (whole seconds: uvicorn's type)
        timeout_graceful_shutdown=math.ceil(times.drain) if args.redis else None,
        proxy_headers=trusted is not None,
        forwarded_allow_ips=trusted,
    )
    server = QuietServer(config)

    def on_sigint(signum: int, frame: Any) -> None:
        # Before uvicorn takes the signals itself (its serve() begins), a Ctrl-C asks the
        # server to stop once it has started: a KeyboardInterrupt raised there would land
        # anywhere in the event loop, and a startup it cancels can leave the server
        # running. Once stopped, uvicorn raises the signal again for the handler it found
        # (this one), which then keeps it quiet (a second Ctrl-C would otherwise end the
        # event loop mid-shutdown with a traceback).
        server.should_exit = True

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        server.run(sockets=[sock])
    finally:
        signal.signal(signal.SIGINT, previous)


def proxies(allowed: str) -> list[str] | None:
    """The addresses proxy headers are trusted from (``--forwarded-allow-ips``); None:
    none, and uvicorn then reads no proxy header at all (by default it would trust
    127.0.0.1, or $FORWARDED_ALLOW_IPS: any local process could then choose the address
    every per-address limit sees).

    >>> proxies(""), proxies("10.0.0.5, 10.0.1.0/24")
    (None, ['10.0.0.5', '10.0.1.0/24'])
    """
    ips = [a.strip() for a in allowed.split(",") if a.strip()]
    return ips or None


_HELD: list[object] = []  # the open lock file: the lock lasts as long as the process


def hold_database(url: str) -> str:
    """Lock an SQLite database file for this server ("" when it is ours; else why not):
    a lock file beside it, held (``flock``) for as long as this process runs, so that a
    server that ended in any way frees it. Other databases are not locked here."""
    import fcntl

    from sqlalchemy.engine import make_url

    try:
        u = make_url(url)
    except Exception:
        return ""  # (the store says what is wrong with it)
    if u.get_backend_name() != "sqlite" or u.database in (None, "", ":memory:"):
        return ""
    path = os.path.abspath(str(u.database)) + ".lock"
    try:
        f = open(path, "a+", encoding="utf-8")  # noqa: SIM115 (held open on purpose)
    except OSError:
        return ""  # a read-only place: the database will say so
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        other = f.read().strip()
        f.close()
        return (
            f"another server is already using {u.database}"
            + (f" (process {other})" if other else "")
            + "; stop it first, or give this one another database: --db sqlite:///other.db"
        )
    f.seek(0)
    f.truncate()
    f.write(str(os.getpid()))
    f.flush()
    _HELD.append(f)
    return ""


def undrained_exit(unstored: list[str]) -> None:
    """A worker that stopped without storing everything (its database or Redis did not
    answer within ``--drain``) leaves at once with status 1: its database thread may be
    stuck in a call that never returns, which a normal exit would wait for."""
    if unstored:
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)


def supervise(n: int, serve: Callable[[int], None]) -> int:
    """Run ``serve`` in ``n`` forked worker processes sharing the listening socket (the
    kernel hands each new connection to one of them); a worker that dies is started
    again after a second. Returns when interrupted (SIGINT, SIGTERM), the workers
    stopped first."""
    children: dict[int, int] = {}  # pid -> slot

    def start(slot: int) -> None:
        pid = os.fork()
        if pid == 0:  # the worker: serves until told to stop, then leaves at once
            signal.signal(signal.SIGTERM, signal.default_int_handler)
            code = 0
            try:
                serve(slot)
            except KeyboardInterrupt:
                pass
            except BaseException:
                code = 1
            os._exit(code)
        children[pid] = slot
        # Its worker id is --worker-id's name and the slot ("w-1.<random>"): which
        # process that is, for an operator (and the test that kills one).
        print(f"durak serve: worker {slot} is process {pid}", flush=True)

    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    for slot in range(n):
        start(slot)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        slot = children.pop(pid, -1)
        if not stopping and slot >= 0:
            print(f"durak serve: worker {pid} ended ({status}); starting another", flush=True)
            time.sleep(1.0)
            start(slot)
    return 0


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (OSError if that address cannot be had)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
