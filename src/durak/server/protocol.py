"""The WebSocket protocol (version 1): client messages read by a schema, server messages built.

Every client message is one JSON object with a ``type``; each type is a ``msgspec.Struct``
below, and ``msgspec`` reads it strictly: unknown types, unknown or missing fields, wrong
types (a boolean is not a number), values out of range, nesting too deep and lone UTF-16
surrogates are all refused with a ``ProtocolError`` whose ``code`` goes back to the client
in an ``error`` message. ``json_schemas()`` is the JSON Schema of every message, published
as docs/protocol.schema.json; docs/protocol.md is the written form of this module.

Cards travel as text, ``"10♠"``; actions in the engine's notation, ``"6♠/10♠"``.

>>> parse_client('{"type": "act", "state": 3, "action": "6S"}')
Act(state=3, action='6S')
>>> parse_client('{"type": "act", "state": "3", "action": "6S"}')
Traceback (most recent call last):
...
durak.server.protocol.ProtocolError: malformed: Expected `int`, got `str` - at `$.state`
>>> parse_client('{"type": "dance"}')
Traceback (most recent call last):
...
durak.server.protocol.ProtocolError: unknown_type: no message type 'dance'
"""

from __future__ import annotations

import dataclasses
import functools
import json
from typing import Annotated, Any, Final

import msgspec
from msgspec import Meta

from ..actions import Action
from ..cards import Card, CardSet
from ..enums import Kind, Phase
from ..errors import ArgumentTypeError, DurakError
from ..game import Game
from ..observation import Observation
from ..rules import Rules

PROTOCOL_VERSION: Final = 1
MAX_MESSAGE_BYTES: Final = 4096
MAX_NAME = 32
MAX_STATE: Final = 2**53  # state ids stay exact in a JavaScript number

Short = Annotated[str, Meta(max_length=64)]
TokenText = Annotated[str, Meta(max_length=128)]


class ProtocolError(DurakError):
    """A message refused: ``code`` is one of the error codes of docs/protocol.md."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Hello(msgspec.Struct, tag_field="type", tag="hello", forbid_unknown_fields=True, frozen=True):
    """Join a table: with a seat's token as that seat, without one as a spectator;
    ``invite``: the secret of a private table (not needed with a token)."""

    table: Short
    v: int
    token: TokenText | None = None
    seat: Annotated[int, Meta(ge=0, le=5)] | None = None
    invite: Short | None = None


class Act(msgspec.Struct, tag_field="type", tag="act", forbid_unknown_fields=True, frozen=True):
    """Play ``action`` (notation text) against state ``state``."""

    state: Annotated[int, Meta(ge=0, le=MAX_STATE)]
    action: Short


class Ping(msgspec.Struct, tag_field="type", tag="ping", forbid_unknown_fields=True, frozen=True):
    """Answered by a ``pong`` with the same ``id``."""

    id: Annotated[int, Meta(ge=-MAX_STATE, le=MAX_STATE)] | Short | None = None


class Claim(msgspec.Struct, tag_field="type", tag="claim", forbid_unknown_fields=True, frozen=True):
    """Claim the win: every other person has been away past the forfeit time."""


class Chat(msgspec.Struct, tag_field="type", tag="chat", forbid_unknown_fields=True, frozen=True):
    """A player's chat message to the table."""

    text: Annotated[str, Meta(max_length=200)]


class Vote(msgspec.Struct, tag_field="type", tag="vote", forbid_unknown_fields=True, frozen=True):
    """Vote to hand the idle person at ``seat`` over to a bot."""

    seat: Annotated[int, Meta(ge=0, le=5)]


class Hint(msgspec.Struct, tag_field="type", tag="hint", forbid_unknown_fields=True, frozen=True):
    """Ask for the searcher's move (only against bots alone)."""


class ReviewMine(
    msgspec.Struct, tag_field="type", tag="review", forbid_unknown_fields=True, frozen=True
):
    """Ask for the review of your own decisions so far in the deal in play (only against
    bots alone, as a hint: the deal becomes unrated; against people, after the deal)."""


class Undo(msgspec.Struct, tag_field="type", tag="undo", forbid_unknown_fields=True, frozen=True):
    """Take back your last move (only against bots alone)."""


NonceText = Annotated[str, Meta(pattern="^[0-9a-f]{16,64}$")]


class Nonce(msgspec.Struct, tag_field="type", tag="nonce", forbid_unknown_fields=True, frozen=True):
    """A seated player's random ``value`` (16-64 hex digits) for the next deal: mixed
    into its seed with the server's, which was committed (``fair.next_commit``) before."""

    value: NonceText


class Ready(msgspec.Struct, tag_field="type", tag="ready", forbid_unknown_fields=True, frozen=True):
    """Between deals of a match: this seat has read the end of the deal and wants the
    next one (it starts once every connected person is ready)."""


ClientMessage = Hello | Act | Ping | Claim | Chat | Vote | Hint | ReviewMine | Undo | Nonce | Ready
_DECODER: Final = msgspec.json.Decoder(ClientMessage)


class _Envelope(msgspec.Struct):
    type: str


def parse_client(text: str | bytes) -> ClientMessage:
    """Read and validate one client message, or raise ProtocolError."""
    if isinstance(text, bytes):
        raise ProtocolError("malformed", "messages are JSON text, not binary")
    if (
        len(text) > MAX_MESSAGE_BYTES
        or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES
    ):
        raise ProtocolError("malformed", f"message longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        msg: ClientMessage = _DECODER.decode(text)
    except msgspec.ValidationError as e:
        raise ProtocolError(_classify(text), str(e)) from None
    except (msgspec.DecodeError, RecursionError, UnicodeError) as e:
        raise ProtocolError("malformed", f"not JSON: {e}") from None
    if isinstance(msg, Hello) and msg.v != PROTOCOL_VERSION:
        raise ProtocolError("version", f"this server speaks version {PROTOCOL_VERSION}")
    return msg


def _classify(text: str) -> str:
    """``unknown_type`` for a message whose ``type`` names no message, else ``malformed``."""
    try:
        kind = msgspec.json.decode(text, type=_Envelope).type
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return "malformed"
    if kind not in _TAGS:
        raise ProtocolError("unknown_type", f"no message type {kind[:64]!r}")
    return "malformed"


_TAGS: Final = {"hello", "act", "ping", "claim", "chat", "vote", "hint", "review", "undo", "nonce"}


def json_schemas() -> dict[str, Any]:
    """The JSON Schema of every message, both ways (docs/protocol.schema.json):
    ``client`` what a client may send, ``server`` what the server sends."""
    from .messages import ServerMessage

    (client, server), components = msgspec.json.schema_components([ClientMessage, ServerMessage])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"durak web table protocol v{PROTOCOL_VERSION}",
        "properties": {"client": client, "server": server},
        "$defs": components,
    }


def decode_body(raw: bytes) -> Any:
    """An HTTP body as JSON values; ProtocolError("malformed") for anything else."""
    try:
        return msgspec.json.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeError) as e:
        raise ProtocolError("malformed", f"the body is not JSON: {e}") from None


def parse_action(text: str) -> Action:
    """An action from its notation, or ProtocolError("illegal")."""
    try:
        return Action.parse(text)
    except ValueError as e:
        raise ProtocolError("illegal", str(e)) from None


# -- server side: values to JSON ---------------------------------------------------------


def to_json(value: object) -> Any:
    """Engine values as JSON: cards and actions as text, sets of cards as lists."""
    if isinstance(value, CardSet):  # before int: a CardSet is an int
        return [str(c) for c in value]
    if isinstance(value, Kind | Phase):  # before int: by name, as the client reads them
        return str(value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Rules):
        return rules_text(value)
    if isinstance(value, Card | Action):
        return str(value)
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    raise ArgumentTypeError(f"no JSON form for {type(value).__name__}")


@functools.lru_cache(maxsize=256)
def rules_text(rules: Rules) -> str:
    """``str(rules)``, which searches the presets, remembered."""
    return str(rules)


def call_outcome(game: Game, seat: int, action: Action) -> dict[str, Any]:
    """What a call (шулерский, ``?6♣``) about to be applied by ``seat`` will find, for the
    log: ``caught`` (the card was a cheat) and ``against`` (the seat that laid it). Both
    are public: with ``cheating=open`` every card is face up and every seat sees who laid
    it; an empty dict for any other action."""
    if action.kind != Kind.CALL:
        return {}
    obs = game.observation(seat)
    card = int(action.cards)
    against = next((s for s, laid in enumerate(obs.laid) if int(laid) & card), None)
    return {"caught": bool(card & int(obs.cheated)), "against": against}


def turned_cards(game: Game) -> list[str]:
    """двухкозырный (``trump=per_player``): the card turned for each seat at the deal,
    face up before it for the whole deal (public); [] in any other game. The cards were
    turned from the top of the talon, the first for the dealer's left neighbour."""
    if game.rules.trump != "per_player":
        return []
    deck = game.deck
    n = game.rules.players
    k = n * game.hand_size
    if len(deck) < k + n:  # (a game rebuilt from a view has no deck)
        return []
    turned = deck[k : k + n]
    return [str(turned[(s - game.dealer - 1) % n]) for s in range(n)]


def observation_json(obs: Observation) -> dict[str, Any]:
    """Every field of the Observation, and nothing else."""
    return {f.name: to_json(getattr(obs, f.name)) for f in dataclasses.fields(obs)}


def public_json(game: Game) -> dict[str, Any]:
    """What a spectator may see: an Observation with no hand, no legal actions, and for
    every seat only the cards the whole table knows to be in it."""
    views = [game.observation(s) for s in range(min(2, game.rules.players))]
    data = observation_json(views[0])
    # known[s] of a seat's own view is its whole hand: take seat 0's public cards from
    # seat 1's view, the others from seat 0's view.
    known = list(views[0].known)
    known[0] = views[1].known[0]
    data["seat"] = None
    data["hand"] = []
    data["legal"] = []
    data["cheats"] = []  # (шулерский: seat 0's own moves, from its hand)
    data["calls"] = []
    data["known"] = to_json(tuple(known))
    return data


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def error(code: str, message: str, state: int | None = None) -> str:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if state is not None:
        out["state"] = state
    return dumps(out)


def clean_name(name: object, fallback: str) -> str:
    """A display name: printable, trimmed, at most MAX_NAME characters."""
    if not isinstance(name, str):
        return fallback
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME]
    return text or fallback
