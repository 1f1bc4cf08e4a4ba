"""Every error the package raises on purpose is a :class:`DurakError`.

Each also derives from the built-in error it stands for (``ValueError``,
``TypeError`` or ``RuntimeError``), so ``except ValueError`` keeps working:

- :class:`RulesError`: an unknown option, a bad value, options that cannot go together;
- :class:`IllegalActionError`: an action not legal now, or text that is no action
  (the game is left as it was);
- :class:`RecordError`: a record that cannot be read or does not replay;
- :class:`StateError`: a call not possible now (the next deal before this one ended);
  :class:`TurnError`, one of them: a seat asked to move when it is not its turn;
- :class:`UsageError` (a ``RuntimeError``): a call that cannot be served here or now
  (a step before a reset, an extra not installed);
- :class:`ArgumentError` / :class:`ArgumentTypeError`: a bad argument to a public
  function or constructor (a bot spec, a ``Match``'s ``deals``...); the message
  starts with the argument's name.

>>> import durak
>>> from durak.errors import DurakError
>>> try:
...     durak.Game().apply("10S+JS")
... except DurakError as e:
...     print(type(e).__name__, "-", e)
IllegalActionError - not an action: '10S+JS' (cards laid at once must be of one rank)
"""

from __future__ import annotations


class DurakError(Exception):
    """The base of every error the durak package raises on purpose."""


class RulesError(DurakError, ValueError):
    """An unknown option, a bad value, or options that cannot go together."""


class IllegalActionError(DurakError, ValueError):
    """An action that is not legal now, or text that is no action. The game is unchanged."""


class RecordError(DurakError, ValueError):
    """A record that cannot be read or does not replay."""


class StateError(DurakError, ValueError):
    """A call that is not possible in this state (``Match.next_deal`` before the deal
    in play is over)."""


class ArgumentError(DurakError, ValueError):
    """A bad value for an argument; the message starts with the argument's name."""


class ArgumentTypeError(DurakError, TypeError):
    """An argument of the wrong type; the message starts with the argument's name."""


class TurnError(StateError):
    """A seat asked to move when it is not its turn: it has no legal action (a bot's
    ``choose`` on another seat's observation, or on a finished deal). Every bot and the
    seat driver (:mod:`durak.seats`) raise this one."""


class UsageError(DurakError, RuntimeError):
    """A call that cannot be served here or now: ``step()`` before ``reset()``, an extra
    that is not installed, the engine loaded already, bots that never end a deal."""
