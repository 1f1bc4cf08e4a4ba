"""The engine's named values: the kinds of action and the phases of a bout.

Both are ``IntEnum``: a member *is* its small int, so the compiled engine compares
and indexes with it as fast as with a plain int, and the fixed action encoding
(:mod:`durak.actions`) and the environments use the same numbers. ``str()`` and
f-strings give the lowercase name, the word records, the wire protocol and the
translations use (``str(Kind.TAKE) == "take"``); ``Kind.parse("take")`` and
``Phase.parse("pile_on")`` read it back.

A member never equals its name: compare ``a.kind == Kind.TAKE``, not ``== "take"``
(mypy's strict equality flags the string form).

>>> Kind.DEFEND, int(Kind.DEFEND), str(Kind.DEFEND), f"{Phase.PILE_ON}"
(<Kind.DEFEND: 1>, 1, 'defend', 'pile_on')
>>> Kind.parse("pass") is Kind.PASS, [str(p) for p in Phase]
(True, ['attack', 'defend', 'throw_in', 'pile_on', 'over'])
"""

from __future__ import annotations

from enum import IntEnum
from typing import Self

from .errors import ArgumentError


class _Named(IntEnum):
    """An IntEnum whose text is its lowercase name."""

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        return format(self.name.lower(), spec)

    @classmethod
    def parse(cls, text: str) -> Self:
        """The member named ``text`` (its ``str()``), case-insensitive."""
        try:
            return cls[text.strip().upper()]
        except (KeyError, AttributeError):
            names = ", ".join(str(m) for m in cls)
            raise ArgumentError(f"{cls.__name__.lower()}: no {text!r}; one of {names}") from None


class Kind(_Named):
    """What an action does (see :mod:`durak.actions`)."""

    ATTACK = 0  # an opening or a throw-in: one or more cards of one rank
    DEFEND = 1  # one card laid on one attacking card (the target)
    TRANSFER = 2  # cards of the attacked rank laid to pass the attack on (переводной)
    SHOW = 3  # the trump of the attacked rank shown to transfer (проездной)
    TAKE = 4  # беру
    PASS = 5  # nothing (more) to throw in; бито when every thrower has passed
    EXCHANGE = 6  # the lowest trump swapped for the face-up trump
    CHEAT = 7  # шулерский: a card that breaks the rule (a false beat, or a false throw-in)
    CALL = 8  # шулерский: a table card named as a cheat («не бьёт!»)


class Phase(_Named):
    """Where a deal stands: who acts and what they may do."""

    ATTACK = 0  # the attacker opens a bout
    DEFEND = 1  # cards are unbeaten: only the defender acts
    THROW_IN = 2  # every card is beaten: the throwers may add cards in turn
    PILE_ON = 3  # the defender said «беру»: the throwers may add cards вдогонку
    OVER = 4  # the deal has ended
