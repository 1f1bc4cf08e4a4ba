"""The thin argument layer: public constructors check their arguments here, in plain
Python, before the compiled engine sees them.

Every bad argument is refused with a :class:`~durak.errors.DurakError` whose message
starts with the argument's name: :class:`~durak.errors.ArgumentTypeError` for a wrong
type, :class:`~durak.errors.ArgumentError` for a wrong value. What passes is exactly
what a record can write and read back (whole numbers, not ``True`` or ``"3"``; names
on one line).

>>> whole("deals", 3), whole("deals", "3")
Traceback (most recent call last):
...
durak.errors.ArgumentTypeError: deals: a whole number, not str
>>> seat("dealer", 2, players=2)
Traceback (most recent call last):
...
durak.errors.ArgumentError: dealer: a seat 0..1, not 2
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import ArgumentError, ArgumentTypeError
from .rules import Rules, pagon_ladder


def is_whole(v: object) -> bool:
    """An int that is not a bool."""
    return isinstance(v, int) and not isinstance(v, bool)


def whole(name: str, v: object, low: int | None = None) -> int:
    """``v`` if it is a whole number (an int, not a bool) of at least ``low``."""
    if not is_whole(v):
        raise ArgumentTypeError(f"{name}: a whole number, not {type(v).__name__}")
    assert isinstance(v, int)
    if low is not None and v < low:
        raise ArgumentError(f"{name}: at least {low}, not {v}")
    return v


def seat(name: str, v: object, players: int) -> int:
    """``v`` if it is a seat number 0..players-1."""
    if not is_whole(v):
        raise ArgumentTypeError(f"{name}: a seat number, not {type(v).__name__}")
    assert isinstance(v, int)
    if not 0 <= v < players:
        raise ArgumentError(f"{name}: a seat 0..{players - 1}, not {v}")
    return v


def rules_arg(v: object, text: bool = False) -> Rules:
    """A Rules; with ``text``, also a preset name or a rules text such as
    ``"perevodnoy(players=4)"`` (read by :meth:`Rules.parse`)."""
    if v is None:
        return Rules()
    if isinstance(v, Rules):
        return v
    if text and isinstance(v, str):
        return Rules.parse(v)
    what = "a durak.Rules or a preset name" if text else "a durak.Rules"
    raise ArgumentTypeError(f"rules: {what} (Rules.parse(text) reads text), not {type(v).__name__}")


def one_line(name: str, v: object) -> str:
    """``v`` if it is text on one line, printable (it goes into a record's header)."""
    if not isinstance(v, str):
        raise ArgumentTypeError(f"{name}: text, not {type(v).__name__} ({v!r})")
    bad = [ch for ch in v if not ch.isprintable()]
    if bad:
        raise ArgumentError(f"{name}: {v!r} holds {bad[0]!r}; a name is one printable line")
    return v


def names(v: object, players: int) -> list[str] | None:
    """Seat names: None, or a list or tuple of one printable line per player."""
    if v is None:
        return None
    if not isinstance(v, list | tuple):
        raise ArgumentTypeError(
            f"names: a list of {players} names, one per seat, not {type(v).__name__} ({v!r})"
        )
    if len(v) != players:
        raise ArgumentError(f"names: one per player ({players})")
    return [one_line(f"names[{i}]", x) for i, x in enumerate(v)]


def pagon(v: object, rules: Rules) -> tuple[int, ...] | None:
    """Pagony steps (RULES.md 7): None, or one step on the ladder per side, and only
    with ``scoring=pagony``."""
    if v is None:
        return None
    if rules.scoring != "pagony":
        raise ArgumentError("pagon: only for scoring=pagony")
    if isinstance(v, str | bytes) or not isinstance(v, Sequence):
        raise ArgumentTypeError(f"pagon: a list of whole numbers, not {type(v).__name__}")
    top = len(pagon_ladder(rules.deck)) - 1
    for i, x in enumerate(v):
        if not is_whole(x):
            raise ArgumentTypeError(f"pagon[{i}]: a whole number 0..{top}, not {type(x).__name__}")
    if len(v) != rules.sides or not all(0 <= x <= top for x in v):
        raise ArgumentError(f"pagon: one step 0..{top} per side ({rules.sides} sides)")
    return tuple(v)


def game_args(
    rules: object, seed: object, dealer: object, leader: object, pagon_steps: object
) -> Rules:
    """The checks of ``Game(rules, seed, deck, dealer, leader, pagon)``; returns the
    rules. (The deck is checked by the Game, which parses it.) Every new deal passes
    here, searchers' and arenas' too: the usual arguments take one cheap test each."""
    r = rules if type(rules) is Rules else rules_arg(rules)
    if seed is not None and type(seed) is not int:
        whole("seed", seed)
    n = r.players
    if dealer is not None and (type(dealer) is not int or not 0 <= dealer < n):
        seat("dealer", dealer, n)
    if leader is not None and (type(leader) is not int or not 0 <= leader < n):
        seat("leader", leader, n)
    if pagon_steps is not None:
        pagon(pagon_steps, r)
    return r
