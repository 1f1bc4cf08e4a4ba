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
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .actions import Action
from .errors import ArgumentTypeError, IllegalActionError
from .errors import RecordError as RecordError  # re-exported
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

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


def game_headers(game: Game) -> dict[str, str]:
    return {
        "Rules": str(game.rules),
        "Seed": str(game.seed),
        "Deck": " ".join(str(c) for c in game.deck),
        "Dealer": str(game.dealer),
        "Leader": str(game.leader),
        **({"Pagon": ",".join(map(str, game._pagon))} if game._pagon else {}),
    }


def moves_text(game: Game) -> str:
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
        g._apply(a)
    if cur:
        lines.append(f"{bout + 1}. " + " ".join(cur))
    return "\n".join(lines)


def write_record(game: Game, names: Iterable[str] | None, extra: dict[str, str]) -> str:
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


def replay_moves(game: Game, body: Iterable[str]) -> None:
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


def read_record(text: object) -> Game:
    from .game import Game

    if not isinstance(text, str):
        raise ArgumentTypeError(f"record: text, not {type(text).__name__}")
    headers, body = parse_headers(text)
    if "Seed" not in headers and "Deck" not in headers:
        # Without either the deal would be a fresh random one, not the recorded game.
        raise RecordError("not a record: it needs a [Seed] or [Deck] header")
    try:
        rules = Rules.parse(headers.get("Rules", "podkidnoy()"))
        game = Game(
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
