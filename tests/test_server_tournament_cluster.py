"""Tournaments in a cluster (``durak serve --redis``, docs/scale.md): directing one is a
leased role like a table's owner. Two workers share one PostgreSQL and one Redis; a
bots-only Swiss runs; the worker directing it is killed with SIGKILL between rounds; the
other takes the tournament over when the lease runs out (and the dead one's tables, as
any table) and it goes on to the end with nothing lost: every round paired by the rules
from the results before it, every table scored."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("redis")
pytest.importorskip("websockets")

from . import services  # noqa: E402
from .test_server_tournaments import check_every_round  # noqa: E402
from .test_server_workers import Worker, running  # noqa: E402

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]


@pytest.fixture
def pair(pg_url: str, redis_url: str) -> Iterator[list[Worker]]:
    services.empty_database(pg_url)
    import redis

    redis.Redis.from_url(redis_url).flushall()
    # (bots a little slow, so that rounds take a while; short leases: a quick takeover)
    args = ("--bot-pace", "0.01", "--lease", "1")
    with running([Worker(n, pg_url, redis_url, *args) for n in "ab"]) as workers:
        yield workers


def follow(w: Worker, tid: str, until: Any) -> dict[str, Any]:
    """Long-poll the tournament on worker ``w`` until ``until(t)`` holds."""
    with w.http() as c:
        c.timeout = 40
        t: dict[str, Any] = c.get(f"/api/tournaments/{tid}").json()
        for _ in range(400):
            if until(t):
                return t
            t = c.get(f"/api/tournaments/{tid}?after={t['version']}").json()
    raise AssertionError(f"the tournament never got there: {t['state']}, {len(t['rounds'])}")


def test_kill_9_of_the_director_and_the_tournament_goes_on(pair: list[Worker]) -> None:
    a, b = pair
    with a.http() as c:
        r = c.post("/api/accounts", json={"name": "boss", "password": "secret-12"})
        h = {"Authorization": f"Bearer {r.json()['token']}"}
        body = {
            "format": "swiss",
            "rounds": 4,
            "deals": 1,
            "start": True,
            "bots": [1, 2, 1, 2, "greedy", "random", "greedy", "random"],
        }
        r = c.post("/api/tournaments", json=body, headers=h)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
    t = follow(b, tid, lambda t: t["director"] is not None and len(t["rounds"]) >= 2)
    assert t["state"] == "running", "it ended before the kill: slow the bots down"
    director = next(w for w in pair if t["director"].startswith(w.name + "."))
    survivor = b if director is a else a
    director.kill()
    t = follow(survivor, tid, lambda t: t["state"] == "finished")
    assert t["director"] is not None and t["director"].startswith(survivor.name + ".")
    assert len(t["rounds"]) == 4 and all(x["result"] for r in t["rounds"] for x in r["tables"])
    check_every_round(t, 1.0)  # nothing lost: each round from the results before it
    with survivor.http() as c:
        assert c.get(t["rounds"][-1]["tables"][0]["games"][0]).status_code == 200
