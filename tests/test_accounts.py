"""Accounts, ratings, the leaderboard and personal history (server/accounts.py,
server/ratings.py, server/people.py) through Starlette's TestClient."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from durak.rules import Rules
from durak.server import create_app
from durak.server.accounts import hash_password, outdated, verify_password
from durak.server.ratings import MODEL, display, rate
from durak.server.settings import Timings

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", timings=Timings(bot_pace=0, deal_pause=0))
    with TestClient(app) as c:
        yield c


def register(c: TestClient, name: str, password: str = "secret-1") -> dict[str, Any]:
    r = c.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_passwords_are_salted_scrypt_hashes() -> None:
    a, b = hash_password("пароль"), hash_password("пароль")
    assert a != b and a.startswith("scrypt$32768$8$3$")
    assert verify_password("пароль", a) and not verify_password("Пароль", a)
    assert not verify_password("x", "md5$whatever")
    # A hash of the old, cheaper cost still signs in, and is marked for replacing.
    old = "scrypt$16384$8$1$" + "$".join(a.split("$")[4:])
    assert outdated(old) and not outdated(a)


def test_register_login_logout(client: TestClient) -> None:
    me = register(client, "Вера")
    assert me["rating"] == 1000 and me["games"] == 0 and me["kind"] == "person"
    # The name is one account whatever its case; errors name their code and field.
    r = client.post("/api/accounts", json={"name": "вера", "password": "another1"})
    assert r.status_code == 409 and r.json()["code"] == "name_taken"
    assert r.json()["field"] == "name"
    r = client.post("/api/accounts", json={"name": "Глеб", "password": "123"})
    assert r.status_code == 400 and r.json()["code"] == "short_password"
    r = client.post("/api/accounts", json={"name": "  ", "password": "123456"})
    assert r.json()["code"] == "need_name"
    assert (
        client.post("/api/login", json={"name": "ВЕРА", "password": "wrong!!"}).status_code == 401
    )
    r = client.post("/api/login", json={"name": "ВЕРА", "password": "secret-1"})
    assert r.status_code == 200 and r.json()["id"] == me["id"]
    token = r.json()["token"]
    assert client.get("/api/me", headers=auth(token)).json()["account"]["name"] == "Вера"
    client.post("/api/logout", headers=auth(token))
    assert client.get("/api/me", headers=auth(token)).status_code == 401
    # The first session still works: each sign-in is its own.
    assert client.get("/api/me", headers=auth(me["token"])).status_code == 200
    assert client.get("/api/me").status_code == 401


def test_rating_model_one_scale() -> None:
    start = (MODEL.mu, MODEL.sigma)
    assert display(*start) == 1000
    # The durak loses rating, the others gain; a draw between equals changes mu little.
    new = rate([start, start, start], sides=[0, 1, 2], loser_side=2)
    assert new[0] == new[1] and new[0][0] > start[0] > new[2][0]
    drawn = rate([start, start], sides=[0, 1], loser_side=None)
    assert abs(drawn[0][0] - start[0]) < 1e-9 and drawn[0][1] < start[1]
    # Teams: partners move together.
    teams = rate([start] * 4, sides=[0, 1, 0, 1], loser_side=1)
    assert teams[0] == teams[2] and teams[1] == teams[3] and teams[0][0] > teams[1][0]


def play_against_bot(c: TestClient, token: str | None, rules: str, bots: int = 1) -> dict[str, Any]:
    """Create a table against ``bots`` level-1 bots, signed in to an account if
    ``token`` (as the browser does: the seat plays as it from the first deal), and play
    the first legal action until the deal ends; the final state."""
    t = c.post(
        "/api/tables",
        json={
            "rules": rules,
            "name": "x",
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": 1}] * bots,
        },
        headers=auth(token) if token is not None else {},
    ).json()
    if token is not None:
        # Linking it again to the same account, as the browser does next, changes nothing.
        r = c.post(
            "/api/seat-account",
            json={"table": t["table"], "token": t["token"]},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text
    with c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "v": 1, "table": t["table"], "token": t["token"]})
        while True:
            m = ws.receive_json()
            if m["type"] != "state":
                continue
            if m["result"] is not None:
                return {**m, "table": t["table"]}
            obs = m["obs"]
            if obs and obs["legal"] and obs["to_act"] == m["seat"]:
                ws.send_json({"type": "act", "state": m["state"], "action": obs["legal"][0]})


def test_rated_deal_moves_the_person_and_the_bot(client: TestClient) -> None:
    me = register(client, "Анна")
    end = play_against_bot(client, me["token"], "podkidnoy(deck=24)")
    board = client.get("/api/leaderboard").json()["players"]
    person = next(p for p in board if p["kind"] == "person")
    bot = next(p for p in board if p["kind"] == "bot")
    assert person["name"] == "Анна" and bot["name"] == "level:1"
    assert person["games"] == bot["games"] == 1
    r = end["result"]
    if r["draw"]:
        assert person["rating"] > 1000 - 1 and bot["rating"] > 1000 - 1  # sigma shrank
    elif r["durak"] == 0:
        assert person["mu"] < 25 < bot["mu"]
    else:
        assert person["mu"] > 25 > bot["mu"]
    # The history lists the deal with its change and its replay.
    hist = client.get("/api/me", headers=auth(me["token"])).json()
    assert len(hist["games"]) == 1
    g = hist["games"][0]
    assert g["rated"] and g["change"] == person["rating"] - 1000
    assert g["rating_after"] == person["rating"]
    assert client.get(f"/api/games/{g['deal']}").status_code == 200
    assert client.get(f"/api/players/{me['id']}").json()["games"][0]["deal"] == g["deal"]


def test_one_bot_level_at_two_seats_takes_the_mean(client: TestClient) -> None:
    me = register(client, "Даша")
    end = play_against_bot(client, me["token"], "podkidnoy(players=3,deck=24)", bots=2)
    r = end["result"]
    start = (MODEL.mu, MODEL.sigma)
    new = rate([start] * 3, sides=[0, 1, 2], loser_side=None if r["draw"] else r["durak"])
    board = {p["kind"]: p for p in client.get("/api/leaderboard").json()["players"]}
    assert board["bot"]["games"] == 1
    assert board["bot"]["mu"] == pytest.approx((new[1][0] + new[2][0]) / 2, abs=1e-3)
    assert board["person"]["mu"] == pytest.approx(new[0][0], abs=1e-3)


def test_unsigned_people_make_a_deal_unrated(client: TestClient) -> None:
    play_against_bot(client, None, "podkidnoy(deck=24)")
    assert client.get("/api/leaderboard").json()["players"] == []


def test_seat_account_needs_the_seat_token_and_a_session(client: TestClient) -> None:
    me = register(client, "Борис")
    t = client.post(
        "/api/tables", json={"name": "Борис", "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json()
    body = {"table": t["table"], "token": t["token"]}
    assert client.post("/api/seat-account", json=body).status_code == 401
    bad = {"table": t["table"], "token": "not-a-token"}
    assert client.post("/api/seat-account", json=bad, headers=auth(me["token"])).status_code == 403
    assert client.post("/api/seat-account", json=body, headers=auth(me["token"])).status_code == 200
    assert client.get("/api/players/999").status_code == 404
    assert client.get("/api/players/abc").status_code == 404


def test_rules_name_is_served_catalogue(client: TestClient) -> None:
    common = client.get("/i18n/common.json").json()
    assert common["term.deal"] == {"en": "Deal", "ru": "Сдача"}
    assert client.get("/i18n/tui.json").status_code == 404
    assert str(Rules.parse("podkidnoy(deck=24)")) == "podkidnoy(deck=24)"


def test_a_new_database_gets_its_tables_even_where_a_freed_one_had_the_same_id(
    tmp_path: Path,
) -> None:
    """accounts.ensure remembered engines by id(): a freed engine's id came back for a new
    database, which then had no tables (a flaky "no such table: durak_accounts"). With the
    id-keyed set, some of these 30 new database files were left without tables."""
    import gc

    from sqlalchemy import create_engine, inspect

    from durak.server import accounts

    for i in range(30):
        engine = create_engine(f"sqlite:///{tmp_path / f'{i}.db'}")
        accounts.ensure(engine)
        assert "durak_accounts" in inspect(engine).get_table_names(), f"database {i}"
        engine.dispose()
        del engine
        gc.collect()
