"""What every bot is: the :class:`Bot` protocol, the :class:`BaseBot` with its no-op
``reset`` and ``observe``, and :func:`legal_of`, the one check that it is the seat's turn.

A bot has a ``name`` and three methods, called by the seat driver (:mod:`durak.seats`)
at fixed moments: ``reset()`` before each deal (and after an undo: it forgets what it
saw), ``observe(obs)`` with its own seat's view whenever another seat is to act, and
``choose(obs)`` when it is its own turn. A bot that keeps no memory of a deal inherits
the no-op ``reset`` and ``observe``:

>>> from durak import Game
>>> class Lowest(BaseBot):
...     name = "lowest"
...     def choose(self, obs):
...         return legal_of(obs)[0]
>>> g = Game(seed=1)
>>> isinstance(Lowest(), Bot), Lowest().choose(g.observation(g.to_act)) in g.legal_actions()
(True, True)
>>> Lowest().choose(g.observation(1 - g.to_act))
Traceback (most recent call last):
...
durak.errors.TurnError: not this seat's turn: no legal actions
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..errors import TurnError
from ..observation import Observation


@runtime_checkable
class Bot(Protocol):
    """A player that sees only its seat's :class:`~durak.Observation`."""

    name: str

    def choose(self, obs: Observation) -> Action:
        """One of ``obs.legal`` (or, in шулерский, of ``obs.cheats`` / ``obs.calls``)."""
        ...

    def reset(self) -> None:
        """Forget the deal: a new one starts (or play was taken back)."""
        ...

    def observe(self, obs: Observation) -> None:
        """See the position when another seat is to act (``obs`` is this seat's view)."""
        ...


class BaseBot(ABC):
    """A bot's no-op ``reset`` and ``observe``: the base of the package's bots, and of
    any bot that remembers nothing between its moves."""

    name: str = "bot"

    @abstractmethod
    def choose(self, obs: Observation) -> Action:
        """The move: one of ``obs.legal`` (:func:`legal_of` checks it is the seat's turn)."""

    def reset(self) -> None:
        """Nothing to forget."""
        return

    def observe(self, obs: Observation) -> None:
        """Nothing to remember."""
        return


def legal_of(obs: Observation) -> tuple[Action, ...]:
    """``obs.legal``, or :class:`~durak.errors.TurnError` when it is empty (not this
    seat's turn, or the deal is over): the one error every bot raises for it."""
    if not obs.legal:
        raise TurnError("not this seat's turn: no legal actions")
    return obs.legal
