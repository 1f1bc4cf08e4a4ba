"""Seasons on the leaderboard (server/seasons.py): a quarter's view of the one rating —
the people who played rated deals in it, ranked by their rating after the last of them,
with their games and change in it — beside the all-time view, which stays as it was."""

from __future__ import annotations

import warnings
from datetime import datetime
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from durak.errors import ArgumentError
from durak.server import accounts, create_app, seasons
from durak.server.accounts import account_deals_t, display
from durak.server.store import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_a_season_counts_only_its_own_rated_deals(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    store = Store(db)
    accounts.ensure(store.engine)
    anna, _ = accounts.create(store, "anna", "x")
    boris, _ = accounts.create(store, "boris", "x")
    # (deal, account, mu before -> after, when): anna rose in Q3 and fell in Q4; boris
    # played in Q4 only; an unrated deal (no ratings) counts in no season.
    rows = [
        (1, anna.id, 25.0, 28.0, datetime(2026, 8, 1)),
        (2, anna.id, 28.0, 30.0, datetime(2026, 9, 30, 23, 59)),
        (3, anna.id, 30.0, 27.0, datetime(2026, 10, 1)),
        (3, boris.id, 25.0, 29.0, datetime(2026, 10, 1)),
        (4, boris.id, None, None, datetime(2026, 11, 1)),
    ]
    with store.engine.begin() as c:
        for deal, who, before, after, at in rows:
            c.execute(
                account_deals_t.insert().values(
                    deal_id=deal,
                    account_id=who,
                    seat=0,
                    mu_before=before,
                    sigma_before=5.0,
                    mu_after=after,
                    sigma_after=5.0 if after else None,
                    at=at,
                )
            )
    store.close()
    with TestClient(create_app(db)) as c:
        q3 = c.get("/api/leaderboard?season=2026-Q3").json()
        assert [(p["name"], p["games"]) for p in q3["players"]] == [("anna", 2)]
        assert q3["players"][0]["rating"] == display(30.0, 5.0)
        assert q3["players"][0]["change"] == display(30.0, 5.0) - display(25.0, 5.0)
        q4 = c.get("/api/leaderboard?season=2026-Q4").json()
        assert [(p["name"], p["games"]) for p in q4["players"]] == [("boris", 1), ("anna", 1)]
        assert q4["players"][1]["change"] < 0 and q4["previous"] == "2026-Q3"
        assert c.get("/api/leaderboard?season=2026-Q1").json()["players"] == []
        for bad in ("2026-Q5", "Q4", "x" * 100):
            r = c.get(f"/api/leaderboard?season={bad}")
            assert r.status_code == 400 and r.json()["field"] == "season"
        assert "players" in c.get("/api/leaderboard").json()  # all time, as before


def test_season_bounds() -> None:
    assert seasons.bounds("2026-Q1") == (datetime(2026, 1, 1), datetime(2026, 4, 1))
    assert seasons.season_of(datetime(2026, 3, 31, 23, 59)) == "2026-Q1"
    assert seasons.previous("2027-Q1") == "2026-Q4"
    with pytest.raises(ArgumentError):
        seasons.bounds("1999-Q1")
