"""What the workers of a cluster say to each other on their Redis channels: typed
messages, one ``msgspec`` Struct each, in a tagged union, encoded as JSON (the tag in
``"t"``), named as lila-ws names its own (``ConnectSri``, ``TellSri``, ...; a *sri* is
a socket's id on its edge). Nothing is read out of a message's text by hand: a
message is decoded whole, into its type, or refused.

Edge -> owner: ``ConnectSri`` (a client's hello: opens the socket on the owner),
``TellSri`` (a client's other frames), ``DisconnectSri`` (the socket left), ``Req`` (an
HTTP request about a table, run by its owner). Owner -> edge: ``WelcomeSri`` (the
welcome, with the seat it gives the socket), ``TellSeat`` (a frame for a socket, with
the seat it was made for), ``DropSri`` (close the socket), ``MovedSri`` (the table left
this worker; ask again), ``ReqResponse`` (a request's answer). Those from an owner name
it: an edge takes them only from the socket's present owner.

>>> decode(encode(TellSeat("w.1a2b3c", "7", None, '{"type": "pong"}')))
TellSeat(owner='w.1a2b3c', sri='7', seat=None, payload='{"type": "pong"}')
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..lobby import TableOp


class _FromClient(msgspec.Struct, tag_field="t", frozen=True):
    """Edge -> owner: a client's text (``payload``, as sent) on socket ``sri``."""

    edge: str
    sri: str
    address: str  # the client's address key (for the owner's per-address limits)
    payload: str


class ConnectSri(_FromClient, tag="connect/sri", frozen=True):
    """Edge -> owner: a client said hello: the only message that opens a socket on the
    owner."""


class TellSri(_FromClient, tag="tell/sri", frozen=True):
    """Edge -> owner: a client's frame other than its hello."""


class DisconnectSri(msgspec.Struct, tag="disconnect/sri", tag_field="t", frozen=True):
    """Edge -> owner: the socket left."""

    edge: str
    sri: str


class _ToClient(msgspec.Struct, tag_field="t", frozen=True):
    """Owner -> edge: a frame (``payload``) for socket ``sri``, made for ``seat``."""

    owner: str
    sri: str
    seat: int | None
    payload: str


class WelcomeSri(_ToClient, tag="welcome/sri", frozen=True):
    """Owner -> edge: the welcome, seating the socket as ``seat`` (None: a spectator)."""


class TellSeat(_ToClient, tag="tell/seat", frozen=True):
    """Owner -> edge: a frame for the socket, made for ``seat`` (None: for anyone)."""


class DropSri(msgspec.Struct, tag="drop/sri", tag_field="t", frozen=True):
    """Owner -> edge: close the socket."""

    owner: str
    sri: str


class MovedSri(msgspec.Struct, tag="moved/sri", tag_field="t", frozen=True):
    """Owner -> edge: the socket's table is not here (any more): say hello again."""

    owner: str
    sri: str


class Req(msgspec.Struct, tag="req", tag_field="t", frozen=True):
    """An HTTP request about a table (``Lobby.op``'s), run by its owner."""

    caller: str
    id: str
    op: TableOp


class ReqResponse(msgspec.Struct, tag="req/response", tag_field="t", frozen=True):
    """A request's answer: an HTTP status (0: the table is not here; ask again)."""

    id: str
    status: int
    body: dict[str, Any]


Message = (
    ConnectSri | TellSri | DisconnectSri | WelcomeSri | TellSeat | DropSri | MovedSri | Req
) | ReqResponse

_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(Message)


def encode(message: Message) -> str:
    """``message`` as the text published on a worker's channel."""
    return _ENCODER.encode(message).decode()


def decode(text: str | bytes) -> Message:
    """The message ``text`` holds (``msgspec.ValidationError`` or ``DecodeError`` if it
    is none)."""
    return _DECODER.decode(text)
