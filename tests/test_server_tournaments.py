"""Tournaments over the HTTP API (docs/protocol.md, «Tournaments»): a Swiss of 8 bots in
5 rounds and a group event of 12 bots at tables of 4 run to the end by themselves, every
round's pairing and the final standings checked against the rules recomputed here from
the served results; a person joins, is seated, and forfeits when absent (a manual clock:
nothing waits on time); an event survives a restart; and an abuser is refused."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from durak.server import create_app, tournament_store
from durak.server.clock import ManualClock
from durak.server.settings import Timings
from durak.server.store import Store
from durak.server.tournaments import TournamentLimits
from durak.tournaments import pairing
from durak.tournaments.model import Result, Round, Table
from durak.tournaments.standings import history, standings

from .test_server import FAST

pytestmark = [pytest.mark.timeout(300), pytest.mark.filterwarnings("ignore::DeprecationWarning")]
Msg = dict[str, Any]


def app(db: str, grace: float = 60.0, forfeit_after: float = 120.0, **kw: Any) -> Any:
    times = Timings(bot_pace=0, deal_pause=0, grace=grace, forfeit_after=forfeit_after)
    return create_app(db, times, FAST, **kw)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(app(f"sqlite:///{tmp_path / 't.db'}")) as c:
        yield c


def register(c: TestClient, name: str) -> dict[str, str]:
    r = c.post("/api/accounts", json={"name": name, "password": "secret-12"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def run_to_end(c: TestClient, tid: str, headers: dict[str, str] | None = None) -> Msg:
    """Long-poll the event (no sleeps: each answer comes when its version moves on)."""
    t = c.get(f"/api/tournaments/{tid}", headers=headers).json()
    for _ in range(500):
        if t["state"] == "finished":
            return t
        t = c.get(f"/api/tournaments/{tid}?after={t['version']}", headers=headers).json()
    raise AssertionError("the tournament did not finish")


def served_rounds(t: Msg) -> tuple[list[Round], list[list[Result]]]:
    rounds, results = [], []
    for r in t["rounds"]:
        tables = [Table(tuple(s["entrant"] for s in x["seats"]), x["teams"]) for x in r["tables"]]
        rounds.append(Round(r["number"], tuple(tables), tuple(b["entrant"] for b in r["byes"])))
        results.append(
            [
                Result(
                    tb,
                    tuple(x["result"]["points"]),
                    tuple(x["result"]["deal_points"]),
                    tuple(x["result"]["duraks"]),
                    x["result"]["walkover"],
                )
                for tb, x in zip(tables, r["tables"], strict=True)
            ]
        )
    return rounds, results


def check_every_round(t: Msg, bye: float) -> None:
    """Each served round is the one the pairing rules make from the results before it,
    and the final standings are the tie-break order of all the results."""
    fmt, entrants = t["settings"]["format"], [e["id"] for e in t["entrants"]]
    size, teams = t["settings"]["table_size"], t["settings"]["teams"]
    rounds, results = served_rounds(t)
    done: list[Result] = []
    byes: list[tuple[str, float]] = []
    for rnd, res in zip(rounds, results, strict=True):
        ranked = [s.entrant for s in standings(fmt, entrants, done, byes)]
        h = history(done)
        for e, _ in byes:
            h.byes[e] += 1
        if fmt == "swiss":
            want = pairing.swiss(ranked, h, rnd.number)
        else:
            want = pairing.groups(ranked, size, teams, h, rnd.number)
        assert rnd == want, f"round {rnd.number}"
        done += res
        byes += [(e, bye) for e in rnd.byes]
    final = standings(fmt, entrants, done, byes)
    assert [s["entrant"] for s in t["standings"]] == [s.entrant for s in final]
    assert [s["points"] for s in t["standings"]] == [s.points for s in final]


def run_bots(client: TestClient, **body: Any) -> Msg:
    """A bots-only tournament created by a new account, started at once, to its end."""
    r = client.post(
        "/api/tournaments", json={**body, "start": True}, headers=register(client, "boss")
    )
    assert r.status_code == 201, r.text
    return run_to_end(client, r.json()["id"])


def test_a_swiss_of_eight_bots_runs_five_rounds(client: TestClient) -> None:
    bots = [1, 2, 1, 2, "greedy", "random", "greedy", "random"]
    t = run_bots(client, format="swiss", rounds=5, deals=1, rules="podkidnoy", bots=bots)
    assert len(t["rounds"]) == 5 and all(len(x["tables"]) == 4 for x in t["rounds"])
    check_every_round(t, 1.0)
    met = [frozenset(s["entrant"] for s in x["seats"]) for r in t["rounds"] for x in r["tables"]]
    assert len(met) == len(set(met)), "a repeat pairing in 5 rounds of 8"
    assert t["tiebreaks"] == ["points", "buchholz", "sonneborn_berger", "deal_points", "seed"]
    link = t["rounds"][0]["tables"][0]["games"][0]
    assert client.get(link).status_code == 200  # every match's record, for the replay
    listed = client.get("/api/tournaments").json()["tournaments"]
    assert listed[0]["id"] == t["id"] and listed[0]["state"] == "finished"


def test_a_group_event_of_twelve_bots_at_tables_of_four(client: TestClient) -> None:
    bots = [1, 2, "greedy", "random"] * 3
    t = run_bots(client, format="groups", rounds=3, rules="podkidnoy(players=4)", bots=bots)
    assert len(t["rounds"]) == 3 and all(len(x["tables"]) == 3 for x in t["rounds"])
    check_every_round(t, 0.0)
    assert t["tiebreaks"] == ["points", "fewer_duraks", "deal_points", "seed"]
    # each table's place points: 3 + 2 + 1 + 0 a deal (or a draw's shares)
    for rnd in t["rounds"]:
        for x in rnd["tables"]:
            assert sum(x["result"]["points"]) == 6.0 or x["result"]["walkover"]


def test_a_person_joins_is_seated_and_forfeits_when_absent(tmp_path: Path) -> None:
    clock = ManualClock()
    lim = TournamentLimits(grace=30.0, poll=1.0)
    with TestClient(
        app(
            f"sqlite:///{tmp_path / 'p.db'}",
            clock=clock,
            grace=1000.0,
            forfeit_after=2000.0,
            tournaments=lim,
        )
    ) as c:
        boss, anna = register(c, "boss"), register(c, "anna")
        r = c.post(
            "/api/tournaments", json={"format": "swiss", "rounds": 1, "bots": [1]}, headers=boss
        )
        tid = r.json()["id"]
        j = c.post(f"/api/tournaments/{tid}/join", headers=anna).json()
        assert j["you"]["in"] and [e["name"] for e in j["entrants"]] == ["Level 1 #1", "anna"]
        assert c.post(f"/api/tournaments/{tid}/start", headers=anna).status_code == 403
        s = c.post(f"/api/tournaments/{tid}/start", headers=boss).json()
        t = c.get(f"/api/tournaments/{tid}?after={s['version']}", headers=anna).json()
        seat = t["you"]["seat"]
        assert seat["token"] and t["rounds"][0]["tables"][0]["table"] == seat["table"]
        assert c.get(f"/api/tables/{seat['table']}").json()["status"] == "playing"
        clock.advance(31)  # anna never came to her table
        t = run_to_end(c, tid, anna)
        res = t["rounds"][0]["tables"][0]["result"]
        assert res["walkover"] and t["standings"][0]["entrant"].startswith("bot")
        assert t["you"]["seat"] is None
    # A seat token is stored only while its table is in play (the tables keep hashes).
    store = Store(f"sqlite:///{tmp_path / 'p.db'}")
    row = tournament_store.load(store, tid)
    store.close()
    assert row is not None and row["data"]["seats"] == {} and row["data"]["tables"]


def test_an_event_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"
    with TestClient(app(db)) as c:
        h = register(c, "boss")
        body = {"format": "round_robin", "bots": [1, "random", "greedy"]}
        tid = c.post("/api/tournaments", json=body, headers=h).json()["id"]
        c.post(f"/api/tournaments/{tid}/join", headers=h)
    with TestClient(app(db)) as c:
        login = c.post("/api/login", json={"name": "boss", "password": "secret-12"}).json()
        h = {"Authorization": f"Bearer {login['token']}"}
        t = c.get(f"/api/tournaments/{tid}").json()
        assert t["state"] == "open" and len(t["entrants"]) == 4
        c.post(f"/api/tournaments/{tid}/withdraw", headers=h)  # not started: refused
        assert c.post(f"/api/tournaments/{tid}/leave", headers=h).status_code == 200
        assert c.post(f"/api/tournaments/{tid}/start", headers=h).status_code == 200
        t = run_to_end(c, tid)
        assert len(t["rounds"]) == 3 and len(t["standings"]) == 3


def test_an_abuser_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    roomy = dataclasses.replace(FAST, creates_burst=50)  # (the address's rate: its own test)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", limits=roomy)) as c:
        refuse_an_abuser(c)


def refuse_an_abuser(client: TestClient) -> None:
    body = {"format": "swiss", "rounds": 3, "bots": [1, 1]}
    assert client.post("/api/tournaments", json=body).status_code == 401  # a stranger
    h = register(client, "mallory")
    for bad in (
        {**body, "bots": [1] * 100},  # huge
        {**body, "rounds": 1000},
        {**body, "deals": 50},
        {**body, "max_entrants": 10_000},
        {**body, "format": "knockout"},
        {**body, "bots": ["ismcts:iterations=100000"]},  # a costly bot
        {**body, "rules": "podkidnoy(players=3)"},  # Swiss plays at tables of 2
    ):
        r = client.post("/api/tournaments", json=bad, headers=h)
        assert r.status_code == 400, (bad, r.text)
    made = [client.post("/api/tournaments", json=body, headers=h) for _ in range(3)]
    assert [m.status_code for m in made] == [201, 201, 429]  # two live an account
    tid = made[0].json()["id"]
    assert client.post(f"/api/tournaments/{tid}/join", headers=h).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/join", headers=h).status_code == 409  # twice
    other = register(client, "eve")
    assert client.post(f"/api/tournaments/{tid}/start", headers=other).status_code == 403
    assert client.post(f"/api/tournaments/{tid}/start", headers=h).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/join", headers=other).status_code == 409  # late
    assert client.post(f"/api/tournaments/{tid}/dance", headers=h).status_code == 404
    assert client.get("/api/tournaments/nope").status_code == 404
    t = client.get(f"/api/tournaments/{tid}").json()
    assert [e["id"] for e in t["entrants"]][-1] != "eve" and len(t["entrants"]) == 3


def test_creates_are_counted_per_address(client: TestClient) -> None:
    """The address's rate of new tables counts new tournaments too (5 at once here)."""
    h = register(client, "mallory")
    codes = [
        client.post("/api/tournaments", json={"format": "knockout"}, headers=h).status_code
        for _ in range(7)
    ]
    assert codes[:5] == [400] * 5 and codes[5:] == [429, 429]


def test_a_swiss_on_postgres_survives_a_restart(pg_url: str) -> None:
    """The same on PostgreSQL: stored, brought back after a restart, run to the end."""
    from . import services

    services.empty_database(pg_url)
    with TestClient(app(pg_url)) as c:
        h = register(c, "boss")
        body = {"format": "swiss", "rounds": 3, "bots": [1, 2, "greedy", "random", 1]}
        tid = c.post("/api/tournaments", json=body, headers=h).json()["id"]
    with TestClient(app(pg_url)) as c:
        login = c.post("/api/login", json={"name": "boss", "password": "secret-12"}).json()
        h = {"Authorization": f"Bearer {login['token']}"}
        assert c.post(f"/api/tournaments/{tid}/start", headers=h).status_code == 200
        t = run_to_end(c, tid)
        assert len(t["rounds"]) == 3 and all(len(r["byes"]) == 1 for r in t["rounds"])
        check_every_round(t, 1.0)


def test_a_person_who_withdraws_forfeits_the_match_in_play(client: TestClient) -> None:
    """Withdraw: refused before the start; in play, her match is a walkover, its table
    closed, and she is not paired again (three bots and her: she plays round 1)."""
    boss, anna = register(client, "boss"), register(client, "anna")
    body = {"format": "swiss", "rounds": 2, "bots": [1, "random", "greedy"]}
    tid = client.post("/api/tournaments", json=body, headers=boss).json()["id"]
    assert client.post(f"/api/tournaments/{tid}/withdraw", headers=anna).status_code == 409
    client.post(f"/api/tournaments/{tid}/join", headers=anna)
    t = client.post(f"/api/tournaments/{tid}/start", headers=boss).json()
    while t["state"] == "running" and t["rounds"][0]["tables"][1]["table"] is None:
        t = client.get(f"/api/tournaments/{tid}?after={t['version']}", headers=anna).json()
    table = t["rounds"][0]["tables"][1]
    assert [x["name"] for x in table["seats"]] in (["greedy #3", "anna"], ["anna", "greedy #3"])
    w = client.post(f"/api/tournaments/{tid}/withdraw", headers=anna)
    assert w.status_code == 200, w.text
    assert client.get(f"/api/tables/{table['table']}").status_code == 404
    t = run_to_end(client, tid, anna)
    assert t["rounds"][0]["tables"][1]["result"]["walkover"]
    me = next(s for s in t["standings"] if s["name"] == "anna")
    assert me["withdrawn"] and me["points"] == 0.0 and me["rank"] == 4
    assert all(me["entrant"] not in [x["entrant"] for x in r["byes"]] for r in t["rounds"])
    assert all(
        all(me["entrant"] not in [s["entrant"] for s in x["seats"]] for x in r["tables"])
        for r in t["rounds"][1:]
    )


def test_an_arena_of_bots_seats_the_free_until_its_window_closes(tmp_path: Path) -> None:
    """Arena: whoever is free is seated at once (nobody at two tables at once); when
    the (manual) clock passes the window no table opens, and it finishes once the last
    one ends; the standings are the arena's tie-break order of the results."""
    clock = ManualClock()
    with TestClient(app(f"sqlite:///{tmp_path / 'a.db'}", clock=clock)) as c:
        h = register(c, "boss")
        body = {"format": "arena", "minutes": 5, "bots": [1, 2, "greedy", "random", 1]}
        r = c.post("/api/tournaments", json={**body, "start": True}, headers=h)
        assert r.status_code == 201, r.text
        t = r.json()
        # five bots: the odd one waits, and is seated as soon as a table ends
        while len(t["rounds"]) < 2:
            r = c.get(f"/api/tournaments/{t['id']}?after={t['version']}")
            assert r.status_code == 200, r.text
            t = r.json()
        clock.advance(5 * 60)  # the window closes
        t = run_to_end(c, t["id"])
        seated = len(t["rounds"])
        assert t["state"] == "finished" and seated >= 2
        assert c.get(f"/api/tournaments/{t['id']}").json()["rounds"] == t["rounds"]
        for rnd in t["rounds"]:
            people = [s["entrant"] for x in rnd["tables"] for s in x["seats"]]
            assert len(people) == len(set(people)), "one entrant at two tables"
        _, results = served_rounds(t)
        entrants = [e["id"] for e in t["entrants"]]
        final = standings("arena", entrants, [x for rs in results for x in rs], [])
        assert [s["entrant"] for s in t["standings"]] == [s.entrant for s in final]
        assert t["tiebreaks"] == ["points", "deal_points", "fewer_played", "seed"]


def test_a_team_group_event_seats_sides_by_the_snake(client: TestClient) -> None:
    """Groups in teams (2x2): each table's sides are ranks 1 4 and 2 3 of its group, a
    side scores 1 a deal it did not lose for each member, and the rounds follow the rules."""
    bots = [1, 2, "greedy", "random"] * 2
    t = run_bots(
        client, format="groups", rounds=2, rules="podkidnoy(players=4,teams=2x2)", bots=bots
    )
    check_every_round(t, 0.0)
    for rnd in t["rounds"]:
        for x in rnd["tables"]:
            assert x["teams"]
            pts = x["result"]["points"]
            assert pts[0] == pts[2] and pts[1] == pts[3]  # partners: seats 0 2 and 1 3
            assert pts[0] + pts[1] == 1.0  # one deal: one side won it (or 1/2 each)
