"""The seat driver: the one loop that seats bots and feeds them what they see.

Each seat of a table is played by a bot or from outside (a person at the terminal or in
a browser, a learner in an environment: ``None``). :class:`Seats` calls every bot at the
moments the protocol names (:mod:`durak.bots.base`), the same at every table:

- :meth:`Seats.reset`: every bot's ``reset()``, then :meth:`~Seats.show` (a new deal,
  or moves taken back: the bots forget what they saw);
- :meth:`Seats.show`: ``observe(obs)``, with its own seat's view, for every bot but the
  one to act (after each move, whoever made it; nothing once the deal is over);
- :meth:`Seats.choose`: ``choose(obs)`` of the bot to act, with its own seat's view;
- :meth:`Seats.play`: bots move, shown every move, until the deal ends or a seat played
  from outside is to act.

The arena, the web table, the terminal game and the tests drive bots through it. A
player is checked to be a :class:`~durak.bots.Bot` once, when it is seated
(:func:`seated`), never per move.

>>> from durak import Game, Rules
>>> from durak.bots import make
>>> seats = Seats([make("greedy"), make("heuristic", seed=1)])
>>> g = Game(Rules(), seed=3)
>>> seats.reset(g)
>>> seats.play(g).is_over
True
>>> Seats([make("greedy"), "greedy"])  # (durak.bots.make makes a spec a bot) # doctest: +ELLIPSIS
Traceback (most recent call last):
...
durak.errors.ArgumentTypeError: seat 1: a bot (name, choose, reset, observe; ...), not str
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from typing import Any

from .actions import Action
from .bots.base import BaseBot, Bot
from .errors import ArgumentTypeError, TurnError, UsageError
from .game import Game
from .observation import Observation

MAX_MOVES = 20_000  # bots that never end a deal are a bug to report, not a hang

Clock = Sequence[MutableSequence[float]]  # per seat, see Seats.play


def seated(seat: int, player: object) -> Bot | None:
    """``player`` as the bot of ``seat`` (None: played from outside); the one check that
    it is a :class:`~durak.bots.Bot`, made when it sits down. An object with a ``name``
    and a ``choose`` but neither ``reset`` nor ``observe`` (a bot written when those were
    optional, a policy's bot) remembers nothing: it sits as a :class:`Chooser`.

    >>> class Lowest:
    ...     name = "lowest"
    ...     def choose(self, obs):
    ...         return obs.legal[0]
    >>> bot = seated(0, Lowest())
    >>> type(bot).__name__, bot.name, isinstance(bot, Bot)
    ('Chooser', 'lowest', True)
    """
    if player is None or isinstance(player, Bot):
        return player
    if (
        isinstance(getattr(player, "name", None), str)
        and callable(getattr(player, "choose", None))
        and not hasattr(player, "reset")
        and not hasattr(player, "observe")
    ):
        return Chooser(player)
    raise ArgumentTypeError(
        f"seat {seat}: a bot (name, choose, reset, observe; durak.bots.BaseBot gives the "
        f"last two), not {type(player).__name__}"
    )


class Chooser(BaseBot):
    """A player that only chooses, as a bot (the no-op ``reset`` and ``observe``)."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.name = player.name

    def choose(self, obs: Observation) -> Action:
        action: Action = self.player.choose(obs)
        return action


class Seats:
    """Who plays each seat: ``players[i]``, a bot or None (played from outside). See the
    module docstring."""

    def __init__(self, players: Iterable[object]) -> None:
        self._bots: list[Bot | None] = [seated(i, p) for i, p in enumerate(players)]

    def __len__(self) -> int:
        return len(self._bots)

    def __getitem__(self, seat: int) -> Bot | None:
        """The bot of ``seat``, or None when it is played from outside."""
        return self._bots[seat]

    def seat(self, seat: int, player: object) -> Bot | None:
        """Put ``player`` (a bot, or None) in ``seat``, in place of whoever played it.

        >>> from durak.bots import make
        >>> s = Seats([None, None])
        >>> s.seat(1, make("greedy")).name, s[1].name, s[0]
        ('greedy', 'greedy', None)
        """
        bot = self._bots[seat] = seated(seat, player)
        return bot

    def bots(self) -> Iterator[tuple[int, Bot]]:
        """``(seat, bot)`` of every seat a bot plays, in seat order."""
        for i, b in enumerate(self._bots):
            if b is not None:
                yield i, b

    def reset(self, game: Game) -> None:
        """Every bot forgets (a new deal, or moves taken back), then sees ``game``."""
        for _, b in self.bots():
            b.reset()
        self.show(game)

    def show(self, game: Game) -> None:
        """Every bot but the one to act observes ``game`` from its seat: call it after
        each move, whoever made it (nothing happens once the deal is over)."""
        to_act = game.to_act
        if to_act is None:
            return
        for i, b in self.bots():
            if i != to_act:
                b.observe(game.observation(i))

    def choose(self, game: Game) -> Action:
        """The move of the bot to act, from its own seat's view (not applied).
        :class:`~durak.errors.TurnError` when nobody is to act or that seat has no bot.

        >>> from durak import Game
        >>> Seats([None, None]).choose(Game(seed=1))
        Traceback (most recent call last):
        ...
        durak.errors.TurnError: seat 0 is to act and no bot plays it
        """
        seat = game.to_act
        if seat is None:
            raise TurnError("the deal is over: nobody is to act")
        bot = self._bots[seat]
        if bot is None:
            raise TurnError(f"seat {seat} is to act and no bot plays it")
        return bot.choose(game.observation(seat))

    def play(self, game: Game, clock: Clock | None = None, limit: int = MAX_MOVES) -> Game:
        """Bots move in ``game`` (each move applied, checked, and shown to the others)
        until the deal is over or a seat played from outside is to act; ``game``.
        ``clock``, if given, gets per seat ``[moves, seconds, longest, CPU seconds,
        longest]``: the time its bot took choosing, by the wall clock and in this
        process's CPU time. :class:`~durak.errors.UsageError` past ``limit`` moves in
        the deal (bots that never end it)."""
        while (seat := game.to_act) is not None and self._bots[seat] is not None:
            if len(game.history) >= limit:
                raise UsageError(f"deal {game.seed}: no end after {limit} moves")
            t0, c0 = time.perf_counter(), time.process_time()
            action = self.choose(game)
            if clock is not None:
                _count(clock[seat], time.perf_counter() - t0, time.process_time() - c0)
            game.apply(action)
            self.show(game)
        return game


def _count(row: MutableSequence[float], wall: float, cpu: float) -> None:
    row[0] += 1
    row[1] += wall
    row[2] = max(row[2], wall)
    row[3] += cpu
    row[4] = max(row[4], cpu)
