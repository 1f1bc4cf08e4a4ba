"""Throwaway PostgreSQL and Redis servers for the tests (Debian's binaries, temporary
directories, nothing left behind). ``tests/conftest.py`` starts each once per session.

Without the binaries they fail, unless ``DURAK_SKIP_POSTGRES=1`` / ``DURAK_SKIP_REDIS=1``
opts out on purpose (``make test`` installs both: scripts/ensure-postgres.sh and
scripts/ensure-redis.sh). ``DURAK_TEST_DATABASE_URL`` / ``DURAK_TEST_REDIS_URL`` point
the tests at servers of your own instead.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Generator, Iterator

import pytest

from .waiting import until


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the postgres user."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


# The servers started here (not those given by URL): URL -> the data directory of a
# PostgreSQL, the process of a Redis. Only these may be paused (``paused``).
_STARTED: dict[str, str | subprocess.Popen[bytes]] = {}


def postgres(own: bool = False) -> Generator[str, None, None]:
    """A PostgreSQL on a temporary data directory and socket (no TCP port): its URL.
    ``own``: started here even if ``DURAK_TEST_DATABASE_URL`` names one (a test that
    stops its server must not stop one others use)."""
    given = None if own else os.environ.get("DURAK_TEST_DATABASE_URL")
    if given:
        yield given
        return
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        if os.environ.get("DURAK_SKIP_POSTGRES") == "1":
            pytest.skip("PostgreSQL not installed and DURAK_SKIP_POSTGRES=1")
        pytest.fail(
            "PostgreSQL is not installed (make test installs it; DURAK_SKIP_POSTGRES=1 to opt out)"
        )
    pytest.importorskip("psycopg")
    bindir = os.path.dirname(found[-1])
    root = tempfile.mkdtemp(prefix="durak-pg-")
    data, sock = os.path.join(root, "data"), os.path.join(root, "sock")
    os.mkdir(sock)
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    port = "5499"
    initdb = [f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", "durak", "--no-sync"]
    subprocess.run(
        _as_postgres([*initdb, "-E", "UTF8"]), check=True, capture_output=True, timeout=120
    )
    opts = f"-p {port} -k {sock} -c listen_addresses='' -F -c max_connections=200"
    start = [f"{bindir}/pg_ctl", "-D", data, "-o", opts, "-w", "-l", f"{root}/log", "start"]
    subprocess.run(_as_postgres(start), check=True, capture_output=True, timeout=120)
    url = f"postgresql+psycopg://durak@/postgres?host={sock}&port={port}"
    _STARTED[url] = data
    try:
        yield url
    finally:
        _STARTED.pop(url, None)
        subprocess.run(
            _as_postgres([f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"]),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)


def redis(own: bool = False) -> Generator[str, None, None]:
    """A Redis on a free local port, in memory only: its URL (``own``: as for
    ``postgres``)."""
    given = None if own else os.environ.get("DURAK_TEST_REDIS_URL")
    if given:
        yield given
        return
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.path.exists(binary):
        if os.environ.get("DURAK_SKIP_REDIS") == "1":
            pytest.skip("Redis not installed and DURAK_SKIP_REDIS=1")
        pytest.fail("redis-server is not installed (make test installs it; DURAK_SKIP_REDIS=1)")
    pytest.importorskip("redis")
    root = tempfile.mkdtemp(prefix="durak-redis-")
    port = free_port()
    args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(
        [binary, *args, "--dir", root, "--logfile", f"{root}/log"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        def answers() -> bool:
            assert proc.poll() is None, "redis-server exited at start"
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")

        until(answers, "redis-server to start")  # (an OSError: not yet)
        url = f"redis://127.0.0.1:{port}/0"
        _STARTED[url] = proc
        yield url
    finally:
        _STARTED.pop(f"redis://127.0.0.1:{port}/0", None)
        proc.kill()
        proc.wait(10)
        shutil.rmtree(root, ignore_errors=True)


def empty_database(url: str) -> None:
    """Drop every table the server makes (the store's, the accounts' and ratings'), so a
    test starts on an empty database: a deal id of an earlier test would otherwise come
    back for a new deal while the ratings still name it."""
    from sqlalchemy import create_engine

    from durak.server import accounts, store

    engine = create_engine(url)
    try:
        accounts.metadata.drop_all(engine)
        store.metadata.drop_all(engine)
    finally:
        engine.dispose()


def _processes(url: str) -> list[int]:
    """The processes of a server started here: a Redis's one, a PostgreSQL's postmaster
    and its children."""
    started = _STARTED[url]
    if isinstance(started, subprocess.Popen):
        return [started.pid]
    with open(os.path.join(started, "postmaster.pid")) as f:
        master = int(f.readline())
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == master:
                children.append(int(entry))
    return [master, *children]


@contextlib.contextmanager
def paused(*urls: str) -> Iterator[None]:
    """The servers at ``urls`` (started here by ``postgres(own=True)`` or
    ``redis(own=True)``) stopped with SIGSTOP meanwhile: alive, connections open, no
    answer (a machine that hangs, a network that drops everything); SIGCONT after."""
    pids = [pid for url in urls for pid in _processes(url)]
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
