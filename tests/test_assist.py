"""Chat, voting an idle player off, hint and undo over the WebSocket (server/assist.py)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import durak
from durak.server import create_app
from durak.server.clock import ManualClock
from durak.server.settings import Timings

from .waiting import until

pytestmark = pytest.mark.timeout(90)
Msg = dict[str, Any]


def make_client(db: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{db}", timings=Timings(bot_pace=0, deal_pause=0)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "x.db") as c:
        yield c


def table(c: TestClient, seats: list[Msg], **spec: Any) -> Msg:
    r = c.post("/api/tables", json={"seats": seats, "name": "Анна", **spec})
    assert r.status_code == 201, r.text
    out: Msg = r.json()
    return out


def hello(ws: Any, tid: str, token: str | None) -> Msg:
    ws.send_json({"type": "hello", "v": 1, "table": tid, "token": token})
    return next_of(ws, "state")


def next_of(ws: Any, kind: str) -> Msg:
    while True:
        m: Msg = ws.receive_json()
        if m["type"] == kind:
            return m


def my_turn(ws: Any, m: Msg) -> Msg:
    while not (m["obs"]["legal"] and m["obs"]["to_act"] == m["seat"]):
        m = next_of(ws, "state")
    return m


HUMAN, BOT = {"kind": "human"}, {"kind": "bot", "level": 1}


def test_chat_reaches_everyone_and_is_kept(client: TestClient) -> None:
    t = table(client, [HUMAN, HUMAN])
    j = client.post(f"/api/tables/{t['table']}/join", json={"name": "Борис"}).json()
    with (
        client.websocket_connect("/ws") as a,
        client.websocket_connect("/ws") as b,
        client.websocket_connect("/ws") as spy,
    ):
        hello(a, t["table"], t["token"])
        hello(b, t["table"], j["token"])
        hello(spy, t["table"], None)
        a.send_json({"type": "chat", "text": "  привет\u0007 "})
        for ws in (a, b, spy):
            m = next_of(ws, "chat")
            assert (m["seat"], m["name"], m["text"]) == (0, "Анна", "привет")
        spy.send_json({"type": "chat", "text": "hi"})
        assert next_of(spy, "error")["code"] == "not_seated"
        a.send_json({"type": "chat", "text": "   "})
        assert next_of(a, "error")["code"] == "malformed"
        a.send_json({"type": "chat", "text": "x" * 201})
        assert next_of(a, "error")["code"] == "malformed"
    kept = client.get(f"/api/chat/{t['table']}").json()["messages"]
    assert [m["text"] for m in kept] == ["привет"]


def test_hint_only_for_your_own_move_against_bots(client: TestClient) -> None:
    t = table(client, [HUMAN, BOT])
    with client.websocket_connect("/ws") as ws:
        m = my_turn(ws, hello(ws, t["table"], t["token"]))
        ws.send_json({"type": "hint"})
        h = next_of(ws, "hint")
        assert h["state"] == m["state"] and h["action"] in m["obs"]["legal"]
        assert 0.0 <= h["value"] <= 1.0
    # Two people: no hints.
    t2 = table(client, [HUMAN, HUMAN])
    with client.websocket_connect("/ws") as ws:
        hello(ws, t2["table"], t2["token"])
        ws.send_json({"type": "hint"})
        assert next_of(ws, "error")["code"] == "not_allowed"


def test_undo_takes_back_my_move_and_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "u.db"
    with make_client(db) as c:
        t = table(c, [HUMAN, BOT], rules="podkidnoy(deck=24)")
        with c.websocket_connect("/ws") as ws:
            m = my_turn(ws, hello(ws, t["table"], t["token"]))
            ws.send_json({"type": "undo"})
            assert next_of(ws, "error")["code"] in ("nothing_to_undo",)
            before = m
            ws.send_json({"type": "act", "state": m["state"], "action": m["obs"]["legal"][0]})
            m = my_turn(ws, next_of(ws, "state"))
            assert len(m["log"]) > len(before["log"])
            ws.send_json({"type": "undo"})
            back = next_of(ws, "state")
            assert back["log"] == before["log"]
            assert sorted(back["obs"]["hand"]) == sorted(before["obs"]["hand"])
            assert back["obs"]["legal"] == before["obs"]["legal"]
            assert back["state"] > m["state"]
    # The database forgot the taken-back moves: a restart shows the same position.
    with make_client(db) as c, c.websocket_connect("/ws") as ws:
        again = hello(ws, t["table"], t["token"])
        assert again["log"] == before["log"]
        assert sorted(again["obs"]["hand"]) == sorted(before["obs"]["hand"])


def test_an_idle_player_can_be_voted_off(tmp_path: Path) -> None:
    clock = ManualClock()  # (the grace period ends when the test moves the clock)
    timings = Timings(bot_pace=0, deal_pause=0, grace=0.5)
    app = create_app(f"sqlite:///{tmp_path / 'v.db'}", timings=timings, clock=clock)
    with TestClient(app) as client:
        t = table(client, [HUMAN, HUMAN, BOT], options={"players": 3})
        j = client.post(f"/api/tables/{t['table']}/join", json={"name": "Борис"}).json()
        with client.websocket_connect("/ws") as a:
            hello(a, t["table"], t["token"])
            with client.websocket_connect("/ws") as b:
                hello(b, t["table"], j["token"])
                # Борис is here and not on a long move: not idle.
                a.send_json({"type": "vote", "seat": 1})
                assert next_of(a, "error")["code"] == "not_idle"
                a.send_json({"type": "vote", "seat": 0})
                assert next_of(a, "error")["code"] == "malformed"
            # Борис's connection just dropped: not idle within the grace period.
            seats = f"/api/tables/{t['table']}"
            until(lambda: not client.get(seats).json()["seats"][1]["online"], "the drop seen")
            a.send_json({"type": "vote", "seat": 1})
            assert next_of(a, "error")["code"] == "not_idle"
            # Away past the grace period: one vote (of one other person) is enough.
            clock.advance(0.6)
            assert client.get(seats).json()["seats"][1]["away"]
            a.send_json({"type": "vote", "seat": 1})
            v = next_of(a, "vote")
            assert (v["seat"], v["votes"], v["need"]) == (1, 1, 1)
            assert next_of(a, "voted_off")["seat"] == 1
        summary = client.get(f"/api/tables/{t['table']}").json()
        assert not summary["seats"][1]["taken"]
        # The seat can be taken again.
        r = client.post(f"/api/tables/{t['table']}/join", json={"name": "Глеб"})
        assert r.status_code == 200


def signed_in_against_a_bot(client: TestClient) -> tuple[Msg, Msg]:
    """A new account's session, and the table it made against a level-1 bot."""
    me: Msg = client.post("/api/accounts", json={"name": "Вера", "password": "secret-9"}).json()
    r = client.post(
        "/api/tables",
        json={"seats": [HUMAN, BOT], "name": "Вера", "rules": "podkidnoy(deck=24)"},
        headers={"Authorization": f"Bearer {me['token']}"},
    )
    return me, r.json()


def play_out(ws: Any, m: Msg) -> Msg:
    """Play the first legal action at every turn of ours until the deal's result."""
    while m["result"] is None:
        if m["obs"]["legal"] and m["obs"]["to_act"] == m["seat"]:
            ws.send_json({"type": "act", "state": m["state"], "action": m["obs"]["legal"][0]})
        m = next_of(ws, "state")
    return m


def test_hints_make_a_deal_unrated(client: TestClient) -> None:
    me, t = signed_in_against_a_bot(client)
    with client.websocket_connect("/ws") as ws:
        m = my_turn(ws, hello(ws, t["table"], t["token"]))
        ws.send_json({"type": "hint"})
        next_of(ws, "hint")
        play_out(ws, m)
    hist = client.get("/api/me", headers={"Authorization": f"Bearer {me['token']}"}).json()
    assert [g["rated"] for g in hist["games"]] == [False]
    assert hist["account"]["games"] == 0
    g = durak.Game.from_record(
        client.get(f"/api/games/{hist['games'][0]['deal']}").json()["record"]
    )
    assert g.is_over


def test_a_review_of_my_own_moves_so_far_during_a_deal(client: TestClient) -> None:
    # Issue 47: during a deal a person may review their own seat's decisions so far, and
    # no other seat's: every judged move is theirs, judged in play (in_play), and no
    # seat but theirs is summed. Under a hint's rule (against bots alone) it makes the
    # deal unrated, so the loser of a rated deal cannot unrate it by asking; a spectator
    # and a table of two people are refused.
    me, t = signed_in_against_a_bot(client)
    with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as spy:
        m = my_turn(ws, hello(ws, t["table"], t["token"]))
        for _ in range(2):
            ws.send_json({"type": "act", "state": m["state"], "action": m["obs"]["legal"][-1]})
            m = my_turn(ws, next_of(ws, "state"))
        ws.send_json({"type": "review"})
        answer = next_of(ws, "review")
        review = answer["review"]
        assert review["in_play"] is True and review["deals"] == 0
        seat = m["seat"]
        assert [s["seat"] for s in review["seats"]] == [seat]
        assert review["moves"] and {x["seat"] for x in review["moves"]} == {seat}
        mine = [e["action"] for e in m["log"] if e["seat"] == seat]
        # (a forced move, one legal action, is not judged: a subsequence of my moves)
        left = iter(mine)
        assert all(x["action"] in left for x in review["moves"])
        hello(spy, t["table"], None)
        spy.send_json({"type": "review"})
        assert next_of(spy, "error")["code"] == "not_seated"
        play_out(ws, m)
    hist = client.get("/api/me", headers={"Authorization": f"Bearer {me['token']}"}).json()
    assert [g["rated"] for g in hist["games"]] == [False]
    t2 = table(client, [HUMAN, HUMAN])
    with client.websocket_connect("/ws") as ws:
        hello(ws, t2["table"], t2["token"])
        ws.send_json({"type": "review"})
        assert next_of(ws, "error")["code"] == "not_allowed"
