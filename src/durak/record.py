"""Game records: text a person can read, like PGN, that replays a deal exactly.

Headers in brackets, then the actions bout by bout, each as ``seat:action``::

    [Rules "podkidnoy()"]
    [Seed "7"]
    [Deck "6♠ 7♠ ..."]
    [Dealer "1"]
    [Leader "0"]
    [Seat0 "Anna"]
    [Result "durak 1"]

    1. 0:6♠ 1:6♠/Q♠ 0:pass
    2. 1:7♥ 0:take

This module sits below :mod:`durak.game` and never imports it: it reads and writes
any :class:`Deal` (what a Game offers publicly), and :func:`read_record` is handed the
class that makes one (``Game.from_record`` passes ``Game``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar

from .actions import Action
from .cards import Card
from .errors import ArgumentTypeError, IllegalActionError
from .errors import RecordError as RecordError  # re-exported
from .rules import Rules


class _Seat(Protocol):
    @property
    def pagon(self) -> tuple[int, ...]: ...


class Deal(Protocol):
    """What a record reads of a deal: the public face of a :class:`durak.Game`."""

    @property
    def rules(self) -> Rules: ...
    @property
    def seed(self) -> int: ...
    @property
    def deck(self) -> tuple[Card, ...]: ...
    @property
    def dealer(self) -> int: ...
    @property
    def leader(self) -> int: ...
    @property
    def bout(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def history(self) -> Sequence[Action]: ...
    @property
    def outcome(self) -> object: ...
    def fresh(self) -> Deal: ...
    def apply(self, action: Action) -> None: ...
    def observation(self, seat: int) -> _Seat: ...


D = TypeVar("D", bound=Deal)

_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


def _quote(v: str) -> str:
    """A header value: backslash and quote escaped, and every character that is not
    printable (a line break in a player's name...) as ``\\uXXXX``, so that each header
    stays one line and reads back exactly."""
    out = v.replace("\\", "\\\\").replace('"', '\\"')
    if out.isprintable():
        return out
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in out)


def _escape(ch: str) -> str:
    n = ord(ch)
    return f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def _unescape(m: re.Match[str]) -> str:
    e = m.group(1)
    return chr(int(e[1:], 16)) if len(e) > 1 else e


def _unquote(v: str) -> str:
    """The inverse of :func:`_quote`."""
    return _ESCAPE.sub(_unescape, v)


_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")


def write_headers(headers: dict[str, str]) -> list[str]:
    return [f'[{k} "{_quote(str(v))}"]' for k, v in headers.items()]


def game_headers(game: Deal) -> dict[str, str]:
    return {
        "Rules": str(game.rules),
        "Seed": str(game.seed),
        "Deck": " ".join(str(c) for c in game.deck),
        "Dealer": str(game.dealer),
        "Leader": str(game.leader),
        **({"Pagon": ",".join(map(str, pagon))} if (pagon := game.observation(0).pagon) else {}),
    }


def moves_text(game: Deal) -> str:
    """The actions of a game, one line per bout."""
    g = game.fresh()
    lines: list[str] = []
    bout, cur = -1, list[str]()
    for a in game.history:
        if g.bout != bout:
            if cur:
                lines.append(f"{bout + 1}. " + " ".join(cur))
            bout, cur = g.bout, []
        cur.append(f"{g.to_act}:{a}")
        g.apply(a)
    if cur:
        lines.append(f"{bout + 1}. " + " ".join(cur))
    return "\n".join(lines)


def write_record(game: Deal, names: Iterable[str] | None, extra: dict[str, str]) -> str:
    headers = game_headers(game)
    for i, name in enumerate(names or ()):
        headers[f"Seat{i}"] = name
    headers.update(extra)
    headers["Result"] = str(game.outcome) if game.outcome else "*"
    return "\n".join(write_headers(headers)) + "\n\n" + moves_text(game) + "\n"


def parse_headers(text: str) -> tuple[dict[str, str], list[str]]:
    """Split a record into its headers and the lines after them."""
    headers: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        m = _HEADER.match(line.strip())
        if m and not body:
            headers[m.group(1)] = _unquote(m.group(2))
        elif line.strip():
            body.append(line)
    return headers, body


def replay_moves(game: Deal, body: Iterable[str]) -> None:
    for token in " ".join(body).split():
        if re.fullmatch(r"\d+\.", token):
            continue
        seat_text, colon, act = token.partition(":")
        if colon and seat_text.isdigit():
            if int(seat_text) != game.to_act:
                raise RecordError(
                    f"{token}: seat {seat_text} is not to act (seat {game.to_act} is)"
                )
        else:
            act = token
        try:
            game.apply(Action.parse(act))
        except IllegalActionError as e:
            raise RecordError(f"{token}: {e}") from None


def read_record(text: object, make: Callable[..., D]) -> D:
    """The deal a record describes, made by ``make`` (the Game class) and replayed."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"record: text, not {type(text).__name__}")
    headers, body = parse_headers(text)
    if "Seed" not in headers and "Deck" not in headers:
        # Without either the deal would be a fresh random one, not the recorded game.
        raise RecordError("not a record: it needs a [Seed] or [Deck] header")
    try:
        rules = Rules.parse(headers.get("Rules", "podkidnoy()"))
        game = make(
            rules,
            seed=int(headers["Seed"]) if "Seed" in headers else None,
            deck=headers.get("Deck"),
            dealer=int(headers["Dealer"]) if "Dealer" in headers else None,
            leader=int(headers["Leader"]) if "Leader" in headers else None,
            pagon=[int(x) for x in headers["Pagon"].split(",")] if "Pagon" in headers else None,
        )
    except (ValueError, KeyError) as e:
        raise RecordError(f"bad record headers: {e}") from None
    replay_moves(game, body)
    result = headers.get("Result", "*")
    if result != "*" and str(game.outcome) != result:
        raise RecordError(f"record says {result!r} but the moves give {game.outcome}")
    return game
