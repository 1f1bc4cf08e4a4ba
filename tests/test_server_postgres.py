"""The server's store on PostgreSQL, a supported database: a throwaway PostgreSQL is
started for the session (tests/services.py: Debian's binaries, a temporary data
directory, a socket of its own, no TCP port) and stopped after. Without PostgreSQL
installed they fail, unless DURAK_SKIP_POSTGRES=1 opts out (`make test` installs it:
scripts/ensure-postgres.sh). ``DURAK_TEST_DATABASE_URL`` points them at a database of
your own instead."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from durak.server import create_app
from durak.server.settings import Timings
from durak.server.store import Fenced, Store

from . import services
from .test_server import FAST, bot, hello, human, new_table, next_of, play_out, sync

pytestmark = [pytest.mark.timeout(120), pytest.mark.filterwarnings("ignore::DeprecationWarning")]


@pytest.fixture
def url(pg_url: str) -> Iterator[str]:
    """A clean schema for each test."""
    services.empty_database(pg_url)
    yield pg_url


def test_store_round_trip(url: str) -> None:
    s = Store(url)
    try:
        s.create_table(
            {
                "id": "t1",
                "rules": "podkidnoy()",
                "deals": 1,
                "target": None,
                "turn_timer": 30.0,
                "status": "waiting",
                "match_no": 0,
                "invite_hash": None,
            },
            [
                {"seat": 0, "kind": "human", "bot": None, "name": "Аня", "token_hash": "h"},
                {"seat": 1, "kind": "bot", "bot": "greedy", "name": "B", "token_hash": None},
            ],
        )
        s.create_table(
            {
                "id": "p1",
                "rules": "podkidnoy()",
                "deals": 1,
                "target": None,
                "turn_timer": None,
                "status": "waiting",
                "match_no": 0,
                "invite_hash": "secret-hash",
            },
            [],
        )
        big = 2**63 - 1  # seeds use all 63 bits: BIGINT
        d = s.start_deal(
            "t1",
            1,
            1,
            big,
            0,
            None,
            "podkidnoy()",
            ["Аня", "B"],
            {"status": "playing", "match_no": 1, "match_seed": big},
            salt="ab",
        )
        p = s.start_deal("p1", 1, 1, 5, 0, None, "podkidnoy()", ["x", "y"])
        s.add_action(d, 0, 1, "6♠")
        s.add_action(d, 1, 0, "take", "timer")  # a move the turn clock's stand-in made
        s.finish_deal(d, "durak 0", '[Seed "1"]', "t1", "finished")
        s.finish_deal(p, "durak 1", '[Seed "5"]', "p1", "finished")
        rows = {r.id: r for r in s.load_tables()}
        t = rows["t1"]
        assert t.status == "finished" and t.match_seed == big and t.invite_hash is None
        assert t.seats[0]["name"] == "Аня" and t.current[0].salt == "ab"
        assert t.current[0].actions == [(1, "6♠", None), (0, "take", "timer")]
        assert t.deal_count == 1 and t.action_count == 2
        assert rows["p1"].invite_hash == "secret-hash"
        listed = s.finished_deals()
        assert [g["table_id"] for g in listed] == ["t1"]  # a private table's are not listed
        assert s.finished_deals(table_id="p1")[0]["id"] == p
        assert s.deal(d)["seed"] == big  # type: ignore[index]
    finally:
        s.close()


def test_restart_mid_match_on_postgres(url: str) -> None:
    """The same play and restart as on SQLite: nothing played is lost."""
    with TestClient(create_app(url, timings=Timings(bot_pace=0, deal_pause=0), limits=FAST)) as c:
        t = new_table(c, [human(), human(), bot()], options={"players": 3}, deals=2)
        tid = t["table"]
        j = c.post(f"/api/tables/{tid}/join", json={"name": "Boris"}).json()
        with c.websocket_connect("/ws") as w0, c.websocket_connect("/ws") as w1:
            s = sync([w0, w1], [hello(w0, tid, t["token"]), hello(w1, tid, j["token"])])
            for _ in range(10):
                for ws, m in zip((w0, w1), s, strict=True):
                    if m["obs"]["legal"]:
                        ws.send_json(
                            {"type": "act", "state": m["state"], "action": m["obs"]["legal"][0]}
                        )
                s = [next_of(w0), next_of(w1)]
    with TestClient(create_app(url, timings=Timings(bot_pace=0, deal_pause=0), limits=FAST)) as c:
        with c.websocket_connect("/ws") as w0, c.websocket_connect("/ws") as w1:
            s0, s1 = hello(w0, tid, t["token"]), hello(w1, tid, j["token"])
            assert s0["state"] >= s[0]["state"]
            end = play_out([w0, w1], sync([w0, w1], [s0, s1]))
        assert end[0]["status"] == "finished" and end[0]["match"]["played"] == 2
        games = [g for g in c.get("/api/games").json()["games"] if g["table_id"] == tid]
        assert len(games) == 2
        assert c.get(f"/api/games/{games[0]['id']}").json()["frames"]


def test_old_schema_gets_new_columns(url: str) -> None:
    """A database made before private tables, fair deals and fencing tokens gains their
    columns; a table of before has no epoch (null), and the first worker to take it
    over gets epoch 1."""
    s = Store(url)
    with s.engine.begin() as c:
        c.exec_driver_sql("ALTER TABLE durak_deals DROP COLUMN salt")
        c.exec_driver_sql("ALTER TABLE durak_tables DROP COLUMN invite_hash")
        c.exec_driver_sql("ALTER TABLE durak_tables DROP COLUMN epoch")
        c.exec_driver_sql("ALTER TABLE durak_tables DROP COLUMN owner")
    s.close()
    s = Store(url)
    try:
        s.create_table(
            {
                "id": "t",
                "rules": "podkidnoy()",
                "deals": 1,
                "target": None,
                "turn_timer": None,
                "status": "waiting",
                "match_no": 0,
                "invite_hash": "x",
            },
            [],
        )
        assert s.load_tables()[0].invite_hash == "x"
        assert (s.load_tables()[0].epoch, s.load_tables()[0].owner) == (0, None)
        taken = s.take_table("t")
        assert taken is not None and taken.epoch == 1
    finally:
        s.close()


def test_a_write_with_a_stale_epoch_is_fenced_off_and_writes_nothing(url: str) -> None:
    """The fencing token (docs/scale.md): once a second worker took the table over
    (epoch 2), a write fenced with the first's epoch raises ``Fenced`` and stores none
    of its transaction; the same write fenced with epoch 2 is stored."""
    s = Store(url)
    try:
        row = {"id": "t", "rules": "podkidnoy()", "status": "waiting", "match_no": 0}
        s.create_table({**row, "epoch": 1}, [])
        taken = s.take_table("t")
        assert taken is not None and taken.epoch == 2
        with s.fenced(("t", 1)), pytest.raises(Fenced):
            s.set_table("t", status="finished")
        assert s.load_tables()[0].status == "waiting"
        with s.fenced(("t", 2)):
            s.set_table("t", status="finished")
        assert s.load_tables()[0].status == "finished"
    finally:
        s.close()


def test_workers_starting_together_make_the_schema_once(url: str) -> None:
    """The workers of a cluster start at once on an empty database: each makes the
    store's and the accounts' tables (``Store()``, ``accounts.ensure``). Two ``CREATE
    TABLE`` s of one name at once fail on PostgreSQL (a worker of the load benchmark
    died so: "duplicate key ... pg_type_typname_nsp_index"); both take the schema's
    advisory lock, so one makes the tables and the others find them made."""
    for _ in range(3):
        services.empty_database(url)
        assert _start_together(url, 4) == []


def _start_together(url: str, n: int) -> list[str]:
    """``n`` processes (as the workers are: each its own ``_ready`` memo) that each open
    the store and make the account tables at once: the errors they met."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    start = ctx.Barrier(n)
    errors = ctx.Queue()
    procs = [ctx.Process(target=_make_schema, args=(url, start, errors)) for _ in range(n)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert all(p.exitcode == 0 for p in procs), [p.exitcode for p in procs]
    out: list[str] = []
    while not errors.empty():
        out.append(errors.get())
    return out


def _make_schema(url: str, start: Any, errors: Any) -> None:
    """One worker's start: the store, then the account tables (``_start_together``)."""
    from durak.server import accounts

    start.wait()
    try:
        s = Store(url)
        accounts.ensure(s.engine)
        s.close()
    except Exception as e:  # noqa: BLE001 - the test asserts there were none
        errors.put(repr(e)[:300])
