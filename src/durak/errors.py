"""Every error the package raises on purpose is a :class:`DurakError`.

Each also derives from the built-in error it stands for (``ValueError``, ``TypeError``,
``AttributeError`` or ``RuntimeError``), so ``except ValueError`` keeps working. Nothing
in the engine raises a bare built-in error (a test reads the sources for that):

- :class:`RulesError`: an unknown option, a bad value, options that cannot go together;
- :class:`IllegalActionError`: an action not legal now, or text that is no action
  (the game is left as it was); its :class:`TurnError`: no move for this seat now
  (not its turn, the deal over, no legal action);
- :class:`RecordError`: a record that cannot be read or does not replay;
- :class:`StateError`: a call not possible now (the next deal before this one ended);
- :class:`UsageError` (a ``RuntimeError``): a call that cannot be served here or now
  (a step before a reset, an extra not installed);
- :class:`ArgumentError` / :class:`ArgumentTypeError`: a bad argument to a public
  function or constructor (a bot spec, a ``Match``'s ``deals``...); the message
  starts with the argument's name;
- :class:`FrozenError`: an immutable value asked to change (also an AttributeError);
  :class:`EngineError`: the engine cannot be switched now (also a RuntimeError).

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


class TurnError(IllegalActionError):
    """No move for this seat now: it is not this seat's turn, or no seat may act (the
    deal is over), or a bot was asked for a move with none legal. The one error for
    both, so that whoever drives seats catches one thing."""


class FrozenError(DurakError, AttributeError):
    """An immutable value (a Card, an Action) asked to change."""


class EngineError(DurakError, RuntimeError):
    """The engine cannot be switched now (``build.force_pure`` after it was loaded)."""


class RecordError(DurakError, ValueError):
    """A record that cannot be read or does not replay."""


class StateError(DurakError, ValueError):
    """A call that is not possible in this state (``Match.next_deal`` before the deal
    in play is over)."""


class ArgumentError(DurakError, ValueError):
    """A bad value for an argument; the message starts with the argument's name."""


class ArgumentTypeError(DurakError, TypeError):
    """An argument of the wrong type; the message starts with the argument's name."""


class UsageError(DurakError, RuntimeError):
    """A call that cannot be served here or now: ``step()`` before ``reset()``, an extra
    that is not installed, the engine loaded already, bots that never end a deal."""
