"""The server's timings in one value (``settings.Timings``) and the typed messages its
workers say to each other (``cluster.wire``), with the relay's rule that a seat's frame
reaches only the socket welcomed as that seat: no Redis, no database."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
from typing import Any

import msgspec
import pytest

from durak.errors import ArgumentError
from durak.server import cli
from durak.server.cluster.relay import Relays
from durak.server.cluster.wire import (
    ConnectSri,
    DisconnectSri,
    DropSri,
    Message,
    MovedSri,
    Req,
    ReqResponse,
    TellSeat,
    TellSri,
    WelcomeSri,
    decode,
    encode,
)
from durak.server.lobby import TableOp
from durak.server.settings import Timings
from durak.server.table import Connection


def parsed(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_the_cli_builds_the_one_timings_value_with_its_defaults_kept_in_one_place() -> None:
    assert cli.timings(parsed()) == Timings()
    got = cli.timings(parsed("--grace", "5", "--lease", "2", "--db-stall", "7"))
    assert got == dataclasses.replace(Timings(), grace=5.0, lease=2.0, stall=7.0)
    assert (got.beat, got.worker_gone) == (pytest.approx(2 / 6), pytest.approx(10 / 3))
    assert Timings(bot_pace=0.5).unattended_pause == 2.0
    assert Timings(deal_pause=1.0).unattended_pause == 1.0
    assert Timings().close_after == {"finished": 600.0, "waiting": 300.0, "playing": 900.0}


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--lease", "0.5"), "--lease 0.5: at least 1 second"),
        (("--drain", "0"), "--drain 0: more than 0 seconds"),
        (("--db-lock-timeout", "0"), "--db-lock-timeout and --db-stall: more than 0"),
        (("--grace", "-1"), "--bot-pace, --deal-pause, --grace, --forfeit-after: at least 0"),
    ],
)
def test_a_timing_out_of_range_is_refused_naming_its_option(
    argv: tuple[str, ...], said: str
) -> None:
    assert cli.bad_settings(parsed(*argv)) == said
    with pytest.raises(ArgumentError, match=said.split(":")[0]):
        cli.timings(parsed(*argv))


def test_timings_are_one_frozen_value() -> None:
    t = Timings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.grace = 1.0  # type: ignore[misc]
    assert t.grace == 60.0


EVERY: list[Message] = [
    ConnectSri("w.edge", "1", "198.51.100.7", '{"type": "hello", "v": 1, "table": "t"}'),
    TellSri("w.edge", "1", "198.51.100.7", '{"type": "chat", "text": "hello"}'),
    DisconnectSri("w.edge", "1"),
    WelcomeSri("w.owner", "1", 0, '{"type": "state"}'),
    WelcomeSri("w.owner", "2", None, '{"type": "state"}'),
    TellSeat("w.owner", "1", 1, '{"type": "state"}'),
    DropSri("w.owner", "1"),
    MovedSri("w.owner", "1"),
    Req("w.edge", "w.edge:3", TableOp("join", "t", {"name": "Boris"}, 7, "a", False)),
    ReqResponse("w.edge:3", 403, {"error": "bad token"}),
]


@pytest.mark.parametrize("m", EVERY, ids=lambda m: type(m).__name__)
def test_every_message_comes_back_as_itself(m: Message) -> None:
    assert decode(encode(m)) == m


@pytest.mark.parametrize(
    "text",
    [
        "\x00".join(("hello", "w.edge", "1", "a", '{"type": "hello"}')),  # the old wire
        '{"t": "hello", "edge": "w", "sri": "1", "address": "a", "payload": "x"}',
        '{"t": "tell/seat", "owner": "w", "sri": "1", "seat": "0", "payload": "x"}',
        '{"t": "connect/sri", "edge": "w", "sri": "1"}',
        '{"type": "hello", "v": 1, "table": "t"}',
    ],
)
def test_a_text_that_is_no_message_is_refused_whole(text: str) -> None:
    with pytest.raises(msgspec.MsgspecError):
        decode(text)


class Node:
    """A worker as the relay sees it, that keeps what it would publish."""

    worker = "w.edge"

    def __init__(self) -> None:
        self.sent: list[tuple[str, Message]] = []

    async def publish(self, worker: str, message: Message) -> None:
        self.sent.append((worker, message))

    def spawn(self, coro: Any) -> None:
        coro.close()


def test_a_seats_frame_reaches_only_the_socket_welcomed_as_that_seat() -> None:
    """On the edge: the owner's frames for seat 1 reach the socket it welcomed as seat
    1, never one welcomed as seat 0 or as a spectator; public frames (no seat) reach
    every one; nothing is taken from a worker that is not the socket's owner."""

    async def scenario() -> dict[str, list[str]]:
        node = Node()

        async def nothing(conn: Any, text: str) -> None:
            raise AssertionError("nothing is handled here")

        relays = Relays(node, nothing)  # type: ignore[arg-type]
        got: dict[str, list[str]] = {}
        conns = {}

        async def unsent(text: str) -> None:
            raise AssertionError("pushed, not sent")

        for name in ("seat0", "seat1", "watcher"):
            c = Connection(unsent)
            c.push = got.setdefault(name, []).append  # type: ignore[method-assign]
            conns[name] = c
            await relays.relay(c, "w.owner", "t", '{"type": "hello"}')
        sri = {name: relays.relays[c].sri for name, c in conns.items()}
        assert [type(m) for _, m in node.sent] == [ConnectSri] * 3
        for name, seat in (("seat0", 0), ("seat1", 1), ("watcher", None)):
            relays.take(WelcomeSri("w.owner", sri[name], seat, f"welcome {name}"))
        for name in conns:
            relays.take(TellSeat("w.owner", sri[name], 1, "seat 1's hand"))
            relays.take(TellSeat("w.owner", sri[name], None, "the table"))
            relays.take(TellSeat("w.other", sri[name], None, "from a stale owner"))
        return got

    got = asyncio.run(scenario())
    assert got == {
        "seat0": ["welcome seat0", "the table"],
        "seat1": ["welcome seat1", "seat 1's hand", "the table"],
        "watcher": ["welcome watcher", "the table"],
    }
