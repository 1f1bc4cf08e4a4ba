"""The server's messages as ``msgspec`` structs: their JSON Schema is published beside
docs/protocol.md (``protocol.json_schemas()``), and the tests read every message the
server sends with ``SERVER_DECODER``, so the schema and the messages cannot drift apart.

>>> SERVER_DECODER.decode('{"type": "pong", "id": 7}')
Pong(id=7)
"""

from __future__ import annotations

from typing import Any, Final

import msgspec


class _Msg(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    pass


class PublicSeat(msgspec.Struct, forbid_unknown_fields=True):
    seat: int
    kind: str
    bot: str | None
    name: str
    taken: bool
    online: bool
    away: bool


class Welcome(_Msg, tag="welcome"):
    """Answers a good ``hello``; a ``state`` follows."""

    v: int
    table: str
    seat: int | None


class Fair(msgspec.Struct, forbid_unknown_fields=True):
    """A deal's seed commitment (of the server's seed) and the next deal's; once the deal
    is over its ``seed`` (the server's mixed with the players' nonces), ``server_seed``,
    ``salt`` and ``nonces``."""

    next_commit: str
    deal_id: int | None = None
    commit: str | None = None
    seed: str | None = None
    salt: str | None = None
    server_seed: str | None = None
    nonces: list[str] | None = None


class State(_Msg, tag="state"):
    """The table as one seat (or a spectator) may see it, after every change."""

    v: int
    table: str
    state: int
    status: str
    seat: int | None
    rules: str
    seats: list[PublicSeat]
    match: dict[str, Any] | None
    turn_timer: float | None
    deadline: float | None
    fair: Fair | None
    obs: dict[str, Any] | None
    log: list[dict[str, Any]]
    log_start: int
    result: dict[str, Any] | None
    # Once a finished deal is rated: each rated person's seat (as text) with their
    # rating before and after, {"0": {"before": 1012, "after": 1027}}.
    rating: dict[str, dict[str, int]] | None = None
    # двухкозырный (trump=per_player): the card turned for each seat, which names its
    # trump (public); absent in other games.
    turned: list[str] | None = None
    # Between deals of a match: the seats whose people asked for the next deal.
    ready: list[int] | None = None


class Seats(_Msg, tag="seats"):
    """A seat was taken or freed, or went on- or offline."""

    table: str
    state: int
    seats: list[PublicSeat]


class Clock(_Msg, tag="clock"):
    """The mover's deadline changed without a new state."""

    table: str
    state: int
    deadline: float | None


class Deal(_Msg, tag="deal"):
    """Sent before the first state of every deal: its seed commitment."""

    table: str
    deal_id: int
    deal: int
    commit: str


class Error(_Msg, tag="error"):
    """A refused message; nothing changed."""

    code: str
    message: str
    state: int | None = None


class Pong(_Msg, tag="pong"):
    id: int | str | None


class ChatLine(_Msg, tag="chat"):
    """A player's chat message, to everyone at the table."""

    seat: int
    name: str
    text: str
    at: float


class HintAnswer(_Msg, tag="hint"):
    """The searcher's move, to the player who asked."""

    state: int
    action: str
    cards: list[str]
    value: float


class ReviewAnswer(_Msg, tag="review"):
    """The review of the asker's own decisions so far in the deal in play (docs/review.md,
    ``in_play`` true), to them alone."""

    state: int
    review: dict[str, Any]


class VoteCount(_Msg, tag="vote"):
    """Votes to hand an idle person's seat to a bot."""

    seat: int
    votes: int
    need: int


class VotedOff(_Msg, tag="voted_off"):
    seat: int


ServerMessage = (
    Welcome
    | State
    | Seats
    | Clock
    | Deal
    | Error
    | Pong
    | ChatLine
    | HintAnswer
    | ReviewAnswer
    | VoteCount
    | VotedOff
)
SERVER_DECODER: Final = msgspec.json.Decoder(ServerMessage)
