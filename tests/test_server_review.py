"""The review on the web (issue 47): GET /api/games/{id}/review answers a finished deal's
review in its documented schema, nothing for a deal still in play, and a busy reviewer
turns requests away instead of queueing the server's CPU."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from starlette.testclient import TestClient

from durak import Game, Rules
from durak.server import reviews
from durak.server.app import create_app
from durak.server.settings import Timings
from tests.test_server import FAST, bot, hello, human, new_table, next_of

pytestmark = [pytest.mark.timeout(300)]
SCHEMA = json.loads(
    (Path(__file__).resolve().parent.parent / "docs" / "review.schema.json").read_text("utf-8")
)


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(reviews, "WORLDS", 2)  # (the judge's precision: not what is tested)
    monkeypatch.setattr(reviews, "DEPTH", 1)
    app = create_app(
        f"sqlite:///{tmp_path / 'd.db'}", timings=Timings(bot_pace=0, deal_pause=0), limits=FAST
    )
    with TestClient(app) as c:
        yield c


def test_a_finished_deal_has_a_review_and_a_deal_in_play_has_none(client: TestClient) -> None:
    t = new_table(client, [bot(), bot("random")])
    with client.websocket_connect("/ws") as spy:
        m = hello(spy, t["table"])
        while m["status"] == "playing":
            m = next_of(spy)
    game = client.get("/api/games").json()["games"][0]
    r = client.get(f"/api/games/{game['id']}/review")
    assert r.status_code == 200, r.text
    doc = r.json()
    jsonschema.validate(doc, SCHEMA)
    record = client.get(f"/api/games/{game['id']}").json()["record"]
    g = Game.from_record(record)
    assert doc["rules"] == str(g.rules) and {m["seat"] for m in doc["moves"]} <= {0, 1}
    assert client.get(f"/api/games/{game['id']}/review").json() == doc  # kept, the same
    assert client.get("/api/games/99999/review").status_code == 404
    assert client.get("/api/games/abc/review").status_code == 404
    # a deal in play: a person's table, nobody moved; its id is not a finished game
    live = new_table(client, [human(), bot()])
    with client.websocket_connect("/ws") as w:
        s = hello(w, live["table"], live["token"])
        assert s["status"] == "playing"
        newest = client.get("/api/games").json()["games"][0]["id"]
        assert client.get(f"/api/games/{newest + 1}/review").status_code == 404


def test_a_busy_reviewer_turns_requests_away_and_keeps_what_it_made() -> None:
    g = Game(Rules(), seed=3)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    record = g.record()

    async def run() -> None:
        done = reviews.Reviews(keep=1, max_waiting=1)
        first = await done.of(1, record)
        assert await done.of(1, record) is first  # kept
        busy = reviews.Reviews(max_waiting=0)
        with pytest.raises(reviews.ReviewBusy):
            await busy.of(2, record)

    asyncio.run(run())
