"""The web server through Starlette's TestClient: lobby, whole games over WebSockets,
every kind of bad message, stale states, tokens, spectators, restarts and reconnection."""

from __future__ import annotations

import asyncio
import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    # only starlette's own notice that it would rather have httpx2 than httpx
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

import durak
from durak.server import create_app
from durak.server.clock import ManualClock
from durak.server.limits import Limits
from durak.server.settings import Timings
from durak.server.store import Store

pytestmark = [pytest.mark.timeout(90)]

Msg = dict[str, Any]
# Tests play at machine speed, far above a person's message rate.
FAST = Limits(
    messages_per_second=1e4,
    messages_burst=10_000,
    address_messages_per_second=1e4,
    address_messages_burst=10_000,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path / 'd.db'}", timings=Timings(bot_pace=0, deal_pause=0), limits=FAST
    )
    with TestClient(app) as c:
        yield c


def new_table(c: TestClient, seats: list[Msg], name: str = "Anna", **spec: Any) -> Msg:
    r = c.post("/api/tables", json={"seats": seats, "name": name, **spec})
    assert r.status_code == 201, r.text
    out: Msg = r.json()
    return out


def human() -> Msg:
    return {"kind": "human"}


def bot(name: str = "greedy") -> Msg:
    return {"kind": "bot", "bot": name}


def next_of(ws: Any, kind: str = "state") -> Msg:
    while True:
        m: Msg = ws.receive_json()
        if m["type"] == kind:
            return m


def next_error(ws: Any) -> Msg:
    """The next error reply; presence news may come first, a state change may not."""
    while True:
        m: Msg = ws.receive_json()
        if m["type"] not in ("seats", "clock", "deal"):
            assert m["type"] == "error", m
            return m


def hello(ws: Any, table: str, token: str | None = None, **extra: Any) -> Msg:
    ws.send_json({"type": "hello", "v": 1, "table": table, "token": token, **extra})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return next_of(ws)


def sync(wss: list[Any], states: list[Msg]) -> list[Msg]:
    """Read each socket until all have seen the same latest state."""
    target = max(m["state"] for m in states)
    out = []
    for ws, m in zip(wss, states, strict=True):
        while m["state"] < target:
            m = next_of(ws)
        out.append(m)
    return out


def play_out(wss: list[Any], states: list[Msg], limit: int = 2000) -> list[Msg]:
    """Every person plays their first legal action until the table stops playing.
    Each state change sends exactly one state message to every socket."""
    for _ in range(limit):
        if states[0]["status"] != "playing":
            return states
        for ws, m in zip(wss, states, strict=True):
            obs = m["obs"]
            if obs and obs["legal"] and m["result"] is None:
                ws.send_json({"type": "act", "state": m["state"], "action": obs["legal"][0]})
        states = [next_of(ws) for ws in wss]
        assert len({m["state"] for m in states}) == 1, [m["state"] for m in states]
    raise AssertionError("the game did not end")


async def awaiting(lobby: Any, name: str, table_id: str, done: Any, seconds: float = 60) -> None:
    """Wait until ``done()``, looking again each time table ``table_id`` of ``lobby``
    reaches the moment ``name`` (``clock.Events``), not by a poll; ``seconds`` bounds
    the whole wait. (Between a look and the ask for the next moment nothing else runs:
    no moment is missed.)"""
    async with asyncio.timeout(seconds):
        while not done():
            await lobby.events.next(name, table_id)


async def until_moved(lobby: Any, t: Any, state: int, seconds: float = 60) -> None:
    """Wait until table ``t`` of ``lobby`` reached ``state``: woken by each move it
    stores."""
    await awaiting(lobby, "moved", t.id, lambda: t.state >= state, seconds)


def lobby_of(c: TestClient) -> Any:
    """The lobby of the app ``c`` runs (through its middleware)."""
    app: Any = c.app
    while not hasattr(app, "state"):  # (Shield, a test's own)
        app = app.app
    return app.state.lobby


def when(c: TestClient, name: str, table_ids: list[str], then: Any, seconds: float = 60) -> None:
    """Do ``then()`` and wait, on the server's event loop, until each of ``table_ids``
    reached the moment ``name`` (``clock.Events``: "closed", "deal", "moved"...); the
    waiters are there before ``then`` runs, so none is missed."""
    lobby = lobby_of(c)

    async def ask() -> list[asyncio.Future[str]]:
        return [lobby.events.next(name, i) for i in table_ids]

    waiting = c.portal.call(ask)  # type: ignore[union-attr]
    then()

    async def wait() -> None:
        async with asyncio.timeout(seconds):
            await asyncio.gather(*waiting)

    c.portal.call(wait)  # type: ignore[union-attr]


def ping_ok(ws: Any) -> None:
    ws.send_json({"type": "ping", "id": 7})
    assert next_of(ws, "pong") == {"type": "pong", "id": 7}


# -- lobby -----------------------------------------------------------------------------


def test_meta_and_index(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert meta["protocol"] == 1
    assert "perevodnoy" in meta["presets"]
    assert any(o["name"] == "teams" and "2x2" in o["choices"] for o in meta["options"])
    assert meta["bots"]["levels"]
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert client.get("/static/app.js").status_code == 200


def test_lobby_create_join_leave(client: TestClient) -> None:
    t = new_table(
        client, [human(), human(), bot()], preset="perevodnoy", options={"players": 3, "deck": 36}
    )
    tid = t["table"]
    assert t["seat"] == 0 and len(t["token"]) >= 24 and t["invite"].endswith(tid)
    listed = client.get("/api/tables").json()["tables"]
    mine = next(x for x in listed if x["id"] == tid)
    assert mine["rules"] == "perevodnoy(players=3)" and mine["status"] == "waiting"
    # No token anywhere in what the lobby shows.
    assert t["token"] not in json.dumps(listed)
    j = client.post(f"/api/tables/{tid}/join", json={"name": "Boris\x07 "}).json()
    assert j["seat"] == 1 and j["summary"]["status"] == "playing"
    assert j["summary"]["seats"][1]["name"] == "Boris"
    assert client.post(f"/api/tables/{tid}/join", json={"name": "Vera"}).status_code == 409
    assert client.post("/api/tables/nope/join", json={}).status_code == 404
    assert client.post(f"/api/tables/{tid}/leave", json={"token": "x"}).status_code == 403
    assert client.post(f"/api/tables/{tid}/leave", json={"token": j["token"]}).status_code == 200
    # The seat is free again: someone else may take it, mid-game.
    v = client.post(f"/api/tables/{tid}/join", json={"name": "Vera"}).json()
    assert v["seat"] == 1 and v["summary"]["seats"][1]["name"] == "Vera"


@pytest.mark.parametrize(
    "body,needle",
    [
        ({"preset": "nosuch"}, "preset"),
        ({"preset": "podkidnoy", "options": {"players": 9}}, "players"),
        ({"preset": "podkidnoy", "options": {"colour": "red"}}, "colour"),
        ({"rules": "podkidnoy(teams=3x3,players=4)"}, "teams"),
        ({"seats": [{"kind": "human"}]}, "seats"),
        ({"seats": [{"kind": "human"}, {"kind": "robot"}]}, "seat 1"),
        ({"options": {"bout_limit": int("9" * 4000)}}, "bout_limit"),
        ({"rules": "podkidnoy(bout_limit=" + "9" * 300 + ")"}, "bout_limit"),
        ({"turn_timer": 0.5}, "turn_timer"),
        ({"private": "yes"}, "private"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "nosuch"}]}, "nosuch"),
        ({"deals": 0}, "deals"),
        ({"turn_timer": "soon"}, "turn_timer"),
    ],
)
def test_lobby_refuses_bad_tables(client: TestClient, body: Msg, needle: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and needle in r.json()["error"]
    as_json = {"Content-Type": "application/json"}
    assert client.post("/api/tables", content=b"[1,2]", headers=as_json).status_code == 400
    assert client.post("/api/tables", content=b"{nope", headers=as_json).status_code == 400


# -- whole games -----------------------------------------------------------------------


def test_whole_game_over_websockets(client: TestClient) -> None:
    t = new_table(client, [human(), human(), bot()], options={"players": 3})
    tid = t["table"]
    j = client.post(f"/api/tables/{tid}/join", json={"name": "Boris"}).json()
    with (
        client.websocket_connect("/ws") as w0,
        client.websocket_connect("/ws") as w1,
        client.websocket_connect("/ws") as spy,
    ):
        s0 = hello(w0, tid, t["token"])
        s1 = hello(w1, tid, j["token"], seat=1)
        sp = hello(spy, tid)
        assert s0["seat"] == 0 and s1["seat"] == 1 and sp["seat"] is None
        assert sp["obs"]["hand"] == [] and sp["obs"]["legal"] == []
        end = play_out([w0, w1, spy], sync([w0, w1, spy], [s0, s1, sp]))
    assert end[0]["status"] == "finished"
    result = end[0]["result"]
    assert result["draw"] or result["durak"] in (0, 1, 2)
    assert end[0]["match"]["played"] == 1
    # The stored game replays to the same end, and its log is what the table showed.
    games = client.get("/api/games").json()["games"]
    assert games[0]["table_id"] == tid and games[0]["names"][:2] == ["Anna", "Boris"]
    replay = client.get(f"/api/games/{games[0]['id']}").json()
    g = durak.Game.from_record(replay["record"])
    assert str(g.outcome) == result["text"] == replay["result"]
    start = end[0]["log_start"]
    assert [str(a) for a in g.history][start:] == [e["action"] for e in end[0]["log"]]
    assert len(replay["frames"]) == len(g.history) + 1
    assert replay["frames"][-1]["phase"] == "over"
    assert client.get("/api/games/99999").status_code == 404


def test_database_on_a_worker_thread_and_stats_for_the_operator_only(tmp_path: Path) -> None:
    """Every database call runs on the database thread; /api/stats answers only with the
    operator's token (finding 9: it was public)."""
    app = create_app(
        f"sqlite:///{tmp_path / 'th.db'}",
        timings=Timings(bot_pace=0, deal_pause=0),
        limits=FAST,
        stats_token="s3cret",
    )
    with TestClient(app) as c:
        assert c.get("/api/stats").status_code == 404
        assert c.get("/api/stats", headers={"Authorization": "Bearer nope"}).status_code == 404
        t = new_table(c, [human(), bot()])
        with c.websocket_connect("/ws") as w:
            end = play_out([w], [hello(w, t["table"], t["token"])])
        assert end[0]["status"] == "finished"
        assert c.get("/api/games").json()["games"][0]["table_id"] == t["table"]
        stats = c.get("/api/stats", headers={"Authorization": "Bearer s3cret"}).json()
        assert stats["actions"] > 0
    with TestClient(create_app(f"sqlite:///{tmp_path / 'th.db'}")) as c:
        assert c.get("/api/stats").status_code == 404  # no token set: not served at all


def test_match_of_two_deals_and_play_again(client: TestClient) -> None:
    t = new_table(client, [human(), bot("random")], deals=2)
    tid = t["table"]
    with client.websocket_connect("/ws") as w:
        end = play_out([w], [hello(w, tid, t["token"])])
        assert end[0]["status"] == "finished" and end[0]["match"]["played"] == 2
        assert sum(end[0]["match"]["durak_counts"]) + end[0]["match"]["draws"] == 2
        again = client.post(f"/api/tables/{tid}/again", json={"token": t["token"]})
        assert again.status_code == 200
        m = next_of(w)
        assert m["status"] == "playing" and m["match"]["no"] == 2 and m["match"]["played"] == 0
        assert m["state"] > end[0]["state"]
        end = play_out([w], [m])
        assert end[0]["match"]["played"] == 2
    assert len(client.get("/api/games").json()["games"]) == 4


def test_idle_finished_tables_are_closed_but_their_games_kept(tmp_path: Path) -> None:
    """A finished table nobody is connected to closes once it has been idle for its
    time, on the server's clock (a test's: moved on by the test, and the close waited
    for as the moment it is, not polled for)."""
    url = f"sqlite:///{tmp_path / 'idle.db'}"
    clock = ManualClock()
    times = Timings(bot_pace=0, deal_pause=0, close_finished_after=0.2)
    with TestClient(create_app(url, times, FAST, clock=clock)) as c:
        t = new_table(c, [human(), bot()])
        with c.websocket_connect("/ws") as w:
            play_out([w], [hello(w, t["table"], t["token"])])
        assert any(x["id"] == t["table"] for x in c.get("/api/tables").json()["tables"])
        when(c, "closed", [t["table"]], lambda: clock.advance(1.0))
        assert all(x["id"] != t["table"] for x in c.get("/api/tables").json()["tables"])
        assert c.get("/api/games").json()["games"][0]["table_id"] == t["table"]
    with TestClient(create_app(url)) as c:  # and it stays closed after a restart
        assert c.get("/api/tables").json()["tables"] == []


def test_bots_only_table_plays_itself(client: TestClient) -> None:
    t = new_table(client, [bot(), bot("random"), bot()], options={"players": 3})
    assert t["seat"] is None and t["token"] is None
    with client.websocket_connect("/ws") as spy:
        m = hello(spy, t["table"])
        while m["status"] == "playing":
            m = next_of(spy)
        assert m["status"] == "finished" and m["result"] is not None


# -- bad messages ----------------------------------------------------------------------

BAD_MESSAGES: list[tuple[Any, str]] = [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"state": 1}', "malformed"),
    ('{"type": 5}', "malformed"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "act", "state": 1}', "malformed"),
    ('{"type": "act", "action": "take"}', "malformed"),
    ('{"type": "act", "state": true, "action": "take"}', "malformed"),
    ('{"type": "act", "state": 1.5, "action": "take"}', "malformed"),
    ('{"type": "act", "state": 1, "action": ["take"]}', "malformed"),
    ('{"type": "act", "state": 1, "action": "take", "seat": 1}', "malformed"),
    ('{"type": "act", "state": 1, "action": "' + "6S+" * 40 + '"}', "malformed"),
    ('{"type": "hello", "v": 2, "table": "x"}', "version"),
    ('{"type": "hello", "v": 1}', "malformed"),
    ('{"type": "ping", "id": [1]}', "malformed"),
    ('{"type": "act", "state": 1, "action": "' + "x" * 5000 + '"}', "malformed"),
    (b"\x00\x01binary", "malformed"),
]


def test_every_bad_message_gets_an_error_and_changes_nothing(client: TestClient) -> None:
    t = new_table(client, [human(), human()])
    tid = t["table"]
    j = client.post(f"/api/tables/{tid}/join", json={"name": "Boris"}).json()
    tokens = {0: t["token"], 1: j["token"]}
    with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
        # Before hello: acting is refused.
        w0.send_json({"type": "act", "state": 1, "action": "take"})
        assert w0.receive_json()["code"] == "hello_first"
        s0, s1 = hello(w0, tid, tokens[0]), hello(w1, tid, tokens[1])
        s0, s1 = sync([w0, w1], [s0, s1])
        state = s0["state"]
        mover = s0["obs"]["to_act"]
        ws_m, ws_o = (w0, w1) if mover == 0 else (w1, w0)
        obs_m = (s0 if mover == 0 else s1)["obs"]
        for raw, code in BAD_MESSAGES:
            if isinstance(raw, bytes):
                ws_m.send_bytes(raw)
            else:
                ws_m.send_text(raw)
            err = next_error(ws_m)
            assert err["code"] == code, (raw, err)
        legal = obs_m["legal"][0]
        refused = [
            (ws_m, {"type": "act", "state": state - 1, "action": legal}, "stale"),
            (ws_m, {"type": "act", "state": state + 1, "action": legal}, "stale"),
            (ws_m, {"type": "act", "state": state, "action": "no such card"}, "illegal"),
            (ws_m, {"type": "act", "state": state, "action": "2S"}, "illegal"),
            (ws_m, {"type": "act", "state": state, "action": "pass"}, "illegal"),
            # The other seat tries the mover's legal action: not its turn.
            (ws_o, {"type": "act", "state": state, "action": legal}, "not_your_turn"),
            (ws_o, {"type": "hello", "v": 1, "table": "nosuch", "token": None}, "no_table"),
        ]
        for ws, msg, code in refused:
            ws.send_json(msg)
            err = next_error(ws)
            assert err["code"] == code, (msg, err)
            assert err["state"] == state
        # A token for the wrong seat, a made-up token, a seat without a token.
        with client.websocket_connect("/ws") as w2:
            for extra, code in [
                ({"token": tokens[0], "seat": 1}, "bad_token"),
                ({"token": "forged-token-000000000000"}, "bad_token"),
                ({"seat": 0}, "bad_token"),
            ]:
                w2.send_json({"type": "hello", "v": 1, "table": tid, **extra})
                assert next_error(w2)["code"] == code
            # Still a spectator after all that, and spectators cannot act.
            sp = hello(w2, tid)
            assert sp["seat"] is None and sp["state"] == state
            w2.send_json({"type": "act", "state": state, "action": legal})
            assert next_error(w2)["code"] == "not_seated"
        # Nothing changed; the connections still work and the game goes on.
        ping_ok(w0)
        ping_ok(w1)
        assert client.get(f"/api/tables/{tid}").json()["state"] == state
        ws_m.send_json({"type": "act", "state": state, "action": legal})
        after = [next_of(w0), next_of(w1)]
        assert after[0]["state"] == after[1]["state"] == state + 1
        assert (
            after[0]["log"][-1] == {"seat": mover, "action": legal, "bout": 0}
            or after[0]["log"][-1]["action"] == legal
        )
        play_out([w0, w1], after)


def test_token_of_another_table_is_refused(client: TestClient) -> None:
    a = new_table(client, [human(), bot()])
    b = new_table(client, [human(), bot()])
    with client.websocket_connect("/ws") as w:
        w.send_json({"type": "hello", "v": 1, "table": b["table"], "token": a["token"]})
        assert w.receive_json()["code"] == "bad_token"
    r = client.post(f"/api/tables/{b['table']}/leave", json={"token": a["token"]})
    assert r.status_code == 403


def test_left_seat_is_played_by_a_stand_in_and_can_be_taken(client: TestClient) -> None:
    t = new_table(client, [human(), human()])
    tid = t["table"]
    j = client.post(f"/api/tables/{tid}/join", json={"name": "Boris"}).json()
    with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
        s0 = hello(w0, tid, t["token"])
        s1 = hello(w1, tid, j["token"])
        s0, s1 = sync([w0, w1], [s0, s1])
        assert (
            client.post(f"/api/tables/{tid}/leave", json={"token": j["token"]}).status_code == 200
        )
        m = next_of(w1)
        assert m["seat"] is None  # the old connection is a spectator now
        w1.send_json({"type": "act", "state": m["state"], "action": "take"})
        assert next_of(w1, "error")["code"] in ("not_seated", "bad_token")
        # Seat 0 plays; the stand-in moves for seat 1.
        end = play_out([w0], [s0 if s0["obs"]["to_act"] == 0 else next_of(w0)])
        assert end[0]["status"] == "finished"
        seats = [e["seat"] for e in end[0]["log"]]
        assert 1 in seats


def test_turn_timer_lets_a_bot_move_for_an_absent_player(client: TestClient) -> None:
    t = new_table(client, [human(), bot()], turn_timer=1)
    tid = t["table"]
    with client.websocket_connect("/ws") as w:
        m = hello(w, tid, t["token"])
        while m["obs"]["to_act"] != 0:
            m = next_of(w)
        started = time.monotonic()
        m2 = next_of(w)  # nobody at seat 0 acts: the timer does
        waited = time.monotonic() - started
        assert m2["state"] == m["state"] + 1 and m2["log"][-1]["seat"] == 0
        assert waited > 0.8  # the timer waited its second (how soon after: load, not a rule)


# -- spectators, reconnection, restart -------------------------------------------------


def test_spectator_sees_only_public_information(client: TestClient) -> None:
    t = new_table(client, [human(), bot()])
    with client.websocket_connect("/ws") as w, client.websocket_connect("/ws") as spy:
        me = hello(w, t["table"], t["token"])
        sp = hello(spy, t["table"])
        me, sp = sync([w, spy], [me, sp])
        assert sp["obs"]["hand"] == [] and sp["obs"]["legal"] == [] and sp["seat"] is None
        assert sp["obs"]["hand_sizes"] == me["obs"]["hand_sizes"]
        assert not set(me["obs"]["hand"]) & set(sum(sp["obs"]["known"], []))
        assert sp["obs"]["table"] == me["obs"]["table"] and sp["obs"]["trump"] == me["obs"]["trump"]


def test_reconnection_returns_the_player_to_their_seat(client: TestClient) -> None:
    t = new_table(client, [human(), bot()])
    tid = t["table"]
    with client.websocket_connect("/ws") as w:
        m = hello(w, tid, t["token"])
        while m["obs"]["to_act"] != 0:
            m = next_of(w)
        w.send_json({"type": "act", "state": m["state"], "action": m["obs"]["legal"][0]})
        m = next_of(w)
    # The page reloads: a new connection with the token from localStorage.
    with client.websocket_connect("/ws") as w:
        again = hello(w, tid, t["token"])
        assert again["seat"] == 0 and again["state"] >= m["state"]
        assert again["log_start"] == m["log_start"] == 0
        assert again["log"][: len(m["log"])] == m["log"]
        end = play_out([w], [again])
        assert end[0]["status"] == "finished"


def test_restart_mid_game_restores_every_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    with TestClient(create_app(url, timings=Timings(bot_pace=0, deal_pause=0), limits=FAST)) as c:
        t = new_table(c, [human(), human(), bot()], options={"players": 3}, deals=2)
        tid = t["table"]
        j = c.post(f"/api/tables/{tid}/join", json={"name": "Boris"}).json()
        waiting = new_table(c, [human(), human()])
        with c.websocket_connect("/ws") as w0, c.websocket_connect("/ws") as w1:
            s = sync([w0, w1], [hello(w0, tid, t["token"]), hello(w1, tid, j["token"])])
            for _ in range(12):  # a few moves into the first deal
                for ws, m in zip((w0, w1), s, strict=True):
                    if m["obs"]["legal"]:
                        ws.send_json(
                            {"type": "act", "state": m["state"], "action": m["obs"]["legal"][0]}
                        )
                s = [next_of(w0), next_of(w1)]
                if s[0]["obs"]["phase"] == "over":
                    break
                # Stored before it was broadcast: the database already holds it.
                peek = Store(url)
                row = next(r for r in peek.load_tables() if r.id == tid)
                peek.close()
                assert row.deal_count + row.action_count >= s[0]["state"]
            before = s
            assert before[0]["status"] == "playing"
    # A new server process on the same database.
    with TestClient(create_app(url, timings=Timings(bot_pace=0, deal_pause=0), limits=FAST)) as c:
        listed = {x["id"]: x for x in c.get("/api/tables").json()["tables"]}
        assert listed[waiting["table"]]["status"] == "waiting"
        with c.websocket_connect("/ws") as w0, c.websocket_connect("/ws") as w1:
            s0, s1 = hello(w0, tid, t["token"]), hello(w1, tid, j["token"])
            if before[0]["obs"]["to_act"] in (0, 1):
                # A person is to act: nothing moved, everything is where it was.
                for b, a in zip(before, (s0, s1), strict=True):
                    assert a["state"] == b["state"]
                    assert a["obs"] == b["obs"] and a["log"] == b["log"]
            end = play_out([w0, w1], sync([w0, w1], [s0, s1]))
        assert end[0]["status"] == "finished" and end[0]["match"]["played"] == 2
        games = c.get("/api/games").json()["games"]
        assert len([g for g in games if g["table_id"] == tid]) == 2


def test_restart_between_deals_and_after_an_unrecorded_end(tmp_path: Path) -> None:
    """A restart while a finished deal is on show starts the next deal; a deal whose end
    was played but not recorded (a crash in between) is recorded on restart."""
    url = f"sqlite:///{tmp_path / 'between.db'}"
    with TestClient(create_app(url, timings=Timings(bot_pace=0, deal_pause=60), limits=FAST)) as c:
        t = new_table(c, [human(), bot()], deals=2)
        with c.websocket_connect("/ws") as w:
            m = hello(w, t["table"], t["token"])
            while m["result"] is None:  # play the first deal only
                if m["obs"]["legal"]:
                    w.send_json(
                        {"type": "act", "state": m["state"], "action": m["obs"]["legal"][0]}
                    )
                m = next_of(w)
            assert m["status"] == "playing" and m["match"]["played"] == 1
    # Forget that the deal ended, as if the server died right after its last action.
    peek = Store(url)
    with peek.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE durak_deals SET result = NULL, record = NULL")
    peek.close()
    with TestClient(create_app(url, timings=Timings(bot_pace=0, deal_pause=0), limits=FAST)) as c:
        assert len(c.get("/api/games").json()["games"]) == 1  # recorded again on restart
        with c.websocket_connect("/ws") as w:
            m = hello(w, t["table"], t["token"])
            end = play_out([w], [m if m["result"] is None else next_of(w)])
        assert end[0]["status"] == "finished" and end[0]["match"]["played"] == 2
        assert len(c.get("/api/games").json()["games"]) == 2
