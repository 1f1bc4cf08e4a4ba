"""The end of a rated deal carries each person's rating change in the state message
(the web table shows it in the result panel): issue 33."""

from __future__ import annotations

from tests.test_accounts import auth, client, play_against_bot, register

__all__ = ["client"]  # the fixture


def test_a_rated_deal_ends_with_the_rating_change(client) -> None:  # type: ignore[no-untyped-def]
    me = register(client, "Вера")
    end = play_against_bot(client, me["token"], "podkidnoy(deck=24)")
    change = end["rating"]["0"]
    assert set(change) == {"before", "after"} and change["before"] == 1000
    hist = client.get("/api/me", headers=auth(me["token"])).json()
    assert change["after"] - change["before"] == hist["games"][0]["change"]
    # a guest's deal is not rated: nothing to show
    guest = play_against_bot(client, None, "podkidnoy(deck=24)")
    assert guest["rating"] in (None, {})
