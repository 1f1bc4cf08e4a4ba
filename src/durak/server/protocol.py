"""The WebSocket protocol (version 1): client messages read strictly, server messages built.

Every client message is one JSON object with a ``type``; unknown types, unknown or missing
fields and wrong types are refused with a ``ProtocolError`` whose ``code`` goes back to the
client in an ``error`` message. docs/protocol.md is the written form of this module.

Cards travel as text, ``"10♠"``; actions in the engine's notation, ``"6♠/10♠"``.

>>> parse_client('{"type": "act", "state": 3, "action": "6S"}')
Act(state=3, action='6S')
>>> parse_client('{"type": "act", "state": "3", "action": "6S"}')
Traceback (most recent call last):
...
durak.server.protocol.ProtocolError: malformed: act.state must be a whole number
"""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass
from typing import Any, Final

from ..actions import Action
from ..cards import Card, CardSet
from ..game import Game
from ..observation import Observation
from ..rules import Rules

PROTOCOL_VERSION: Final = 1
MAX_MESSAGE_BYTES: Final = 4096
MAX_NAME = 32


class ProtocolError(Exception):
    """A message refused: ``code`` is one of the error codes of docs/protocol.md."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Hello:
    """Join a table: with a seat's token as that seat, without one as a spectator."""

    table: str
    token: str | None = None
    seat: int | None = None
    v: int = PROTOCOL_VERSION


@dataclass(frozen=True)
class Act:
    """Play ``action`` (notation text) against state ``state``."""

    state: int
    action: str


@dataclass(frozen=True)
class Ping:
    id: int | str | None = None


@dataclass(frozen=True)
class Chat:
    """A player's chat message to the table."""

    text: str


@dataclass(frozen=True)
class Vote:
    """Vote to hand the idle person at ``seat`` over to a bot."""

    seat: int


@dataclass(frozen=True)
class Hint:
    """Ask for the searcher's move (only against bots alone)."""


@dataclass(frozen=True)
class Undo:
    """Take back your last move (only against bots alone)."""


ClientMessage = Hello | Act | Ping | Chat | Vote | Hint | Undo

# type -> (class, {field: (types, required)})
_SCHEMAS: Final[dict[str, tuple[type, dict[str, tuple[tuple[type, ...], bool]]]]] = {
    "hello": (Hello, {"v": ((int,), True), "table": ((str,), True),
                      "token": ((str, type(None)), False), "seat": ((int, type(None)), False)}),
    "act": (Act, {"state": ((int,), True), "action": ((str,), True)}),
    "ping": (Ping, {"id": ((int, str, type(None)), False)}),
    "chat": (Chat, {"text": ((str,), True)}),
    "vote": (Vote, {"seat": ((int,), True)}),
    "hint": (Hint, {}),
    "undo": (Undo, {}),
}
_TYPE_WORDS: Final = {int: "a whole number", str: "a string", type(None): "null"}


def parse_client(text: str | bytes) -> ClientMessage:
    """Read and validate one client message, or raise ProtocolError."""
    if isinstance(text, bytes):
        raise ProtocolError("malformed", "messages are JSON text, not binary")
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise ProtocolError("malformed", f"message longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except ValueError:
        raise ProtocolError("malformed", "not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("malformed", "missing \"type\"")
    schema = _SCHEMAS.get(kind)
    if schema is None:
        raise ProtocolError("unknown_type", f"no message type {kind!r}")
    cls, fields = schema
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "type":
            continue
        spec = fields.get(key)
        if spec is None:
            raise ProtocolError("malformed", f"{kind} has no field {key!r}")
        types, _ = spec
        # bool is an int in Python but not in the protocol.
        if isinstance(value, bool) or not isinstance(value, types):
            words = " or ".join(_TYPE_WORDS[t] for t in types)
            raise ProtocolError("malformed", f"{kind}.{key} must be {words}")
        values[key] = value
    for key, (_, required) in fields.items():
        if required and key not in values:
            raise ProtocolError("malformed", f"{kind} needs {key!r}")
    if isinstance(values.get("action"), str) and len(values["action"]) > 64:
        raise ProtocolError("malformed", "act.action is too long")
    if isinstance(values.get("text"), str) and len(values["text"]) > 200:
        raise ProtocolError("malformed", "chat.text is too long")
    msg: ClientMessage = cls(**values)
    if isinstance(msg, Hello) and msg.v != PROTOCOL_VERSION:
        raise ProtocolError("version", f"this server speaks version {PROTOCOL_VERSION}")
    return msg


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
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Rules):
        return rules_text(value)
    if isinstance(value, Card | Action):
        return str(value)
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    raise TypeError(f"no JSON form for {type(value).__name__}")


@functools.lru_cache(maxsize=256)
def rules_text(rules: Rules) -> str:
    """``str(rules)``, which searches the presets, remembered."""
    return str(rules)


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
