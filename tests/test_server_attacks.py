"""Issue 32: each finding of the attack on accounts, ratings and the server's capacity,
reproduced through HTTP or the WebSocket as it was found, and the fix shown. Clocks and
limits are set small so that this runs fast."""

from __future__ import annotations

import asyncio
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from durak.observation import Observation
from durak.server import create_app
from durak.server.limits import Limits

from .test_server import FAST

pytestmark = [pytest.mark.timeout(120), pytest.mark.filterwarnings("ignore::DeprecationWarning")]

Msg = dict[str, Any]


def app_at(tmp_path: Path, limits: Limits = FAST, **kw: Any) -> Any:
    kw.setdefault("bot_pace", 0)
    kw.setdefault("deal_pause", 0)
    return create_app(f"sqlite:///{tmp_path / 'x.db'}", limits=limits, **kw)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(app_at(tmp_path)) as c:
        yield c


def until(ws: Any, pred: Any, limit: int = 2000) -> Msg:
    for _ in range(limit):
        m: Msg = ws.receive_json()
        if pred(m):
            return m
    raise AssertionError("never came")


# -- High 1: bot specs ------------------------------------------------------------------


@pytest.mark.parametrize(
    "seat",
    [
        {"kind": "bot", "bot": "ismcts:time=100000,cap=0"},
        {"kind": "bot", "bot": "ismcts"},
        {"kind": "bot", "bot": "level:5,cap=0"},
        {"kind": "bot", "bot": "expert"},
        {"kind": "bot", "level": 99},
        {"kind": "bot", "level": "5"},
        {"kind": "bot", "bot": ["level:5"]},
    ],
)
def test_h1_bot_seats_take_only_named_levels(client: TestClient, seat: Msg) -> None:
    r = client.post("/api/tables", json={"seats": [{"kind": "human"}, seat]})
    assert r.status_code == 400, r.text
    for ok in (
        {"kind": "bot", "level": 5},
        {"kind": "bot", "bot": "level:4"},
        {"kind": "bot", "bot": "greedy"},
    ):
        r = client.post("/api/tables", json={"seats": [{"kind": "bot", "level": 1}, ok]})
        assert r.status_code == 201, r.text


class _Stuck:
    """A seat bot that thinks until told to stop: the runaway search a spec with its cap
    lifted would be."""

    name = "stuck"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.entered = threading.Event()

    def choose(self, obs: Observation) -> Any:
        self.entered.set()
        self.release.wait(30)
        return obs.legal[0]


def test_h1_a_bot_past_its_time_cap_is_replaced_and_stand_ins_keep_their_own_pool(
    tmp_path: Path,
) -> None:
    """Every thread of the bot pool is held by runaway bots; another table's bot still
    moves (the stand-in moves for it past the cap) and a person's turn clock still gets
    its stand-in on time."""
    from durak.server.lobby import Lobby
    from durak.server.store import Store

    async def scenario() -> None:
        lobby = Lobby(
            Store(f"sqlite:///{tmp_path / 'p.db'}"),
            bot_pace=0,
            deal_pause=0,
            bot_threads=2,
            limits=Limits(bot_move_seconds=0.3),
        )
        stuck: list[_Stuck] = []
        try:
            # Two tables whose bots hold both threads of the bot pool.
            for _ in range(2):
                made = await lobby.create({"seats": [{"kind": "bot", "level": 1}] * 2})
                t = lobby.table(made["table"])
                async with t.lock:
                    for s in t.seats:
                        s.player = _Stuck()  # type: ignore[assignment]
                        stuck.append(s.player)  # type: ignore[arg-type]
                    t._schedule()
            for b in stuck[:1]:
                await asyncio.to_thread(b.entered.wait, 5)
            # A person against a bot, with a 1 s turn clock they let run out.
            made = await lobby.create(
                {"seats": [{"kind": "human"}, {"kind": "bot", "level": 1}], "turn_timer": 1}
            )
            t = lobby.table(made["table"])
            start = t.state
            loop = asyncio.get_running_loop()
            t0 = loop.time()
            while t.state < start + 3 and loop.time() - t0 < 10:
                await asyncio.sleep(0.05)
            assert t.state >= start + 3, "the clock's stand-in or the bot never moved"
            by = [e.get("by") for e in t.log]
            assert "timer" in by
            # The runaway tables moved too: their bots were cut off at the cap.
            for other in list(lobby.tables.values())[:2]:
                assert other.state > 1
        finally:
            for b in stuck:
                b.release.set()
            await lobby.close()

    asyncio.run(scenario())
