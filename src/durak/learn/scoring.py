"""A player's score in one game: what the evaluator (:mod:`durak.learn.evaluate`), the
leaderboard (:mod:`durak.learn.leaderboard`) and the 2-player trainer's learning curve
(:mod:`durak.learn.dmc2`) all measure, in a module of its own so that none of them
imports another for it.

A *player* is a function ``(game, seat) -> action``; :func:`bot_player` makes one of a
bot. The score of a seat is 1 when it is not the durak (in team play: when its side does
not lose), 0 when it is, ½ for a draw.

>>> from durak import Game
>>> from durak.bots import make
>>> greedy = make("greedy")
>>> score = game_score(Game(seed=3), 0, bot_player(greedy), greedy)
>>> score in (0.0, 0.5, 1.0)
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ..actions import Action
from ..bots import Bot
from ..game import Game, Outcome
from ..rules import Rules

__all__ = ["Player", "bot_player", "game_score", "seat_score", "sides"]

Player = Callable[[Game, int], Action]  # (game, seat) -> the move of that seat


def bot_player(bot: Bot) -> Player:
    """A bot as a player: it chooses from the seat's observation."""
    return lambda g, seat: bot.choose(g.observation(seat))


def seat_score(rules: Rules, outcome: Outcome | None, seat: int) -> float:
    """``seat``'s score in a finished deal: 1 not the durak (its side does not lose), 0 the
    durak (its side loses), ½ a draw or a deal cut off by the action limit.

    >>> seat_score(Rules(players=3), Outcome(durak=1, draw=False, out_order=(0, 2)), 2)
    1.0
    """
    if outcome is None or outcome.durak is None:
        return 0.5
    if rules.teams != "none":
        return 0.0 if rules.team_of(outcome.durak) == rules.team_of(seat) else 1.0
    return 0.0 if outcome.durak == seat else 1.0


def sides(rules: Rules) -> list[tuple[int, ...]]:
    """The seats one entry plays in a game: each seat alone, or in team play each side's
    seats together (a team is one player's hands, as partners).

    >>> sides(Rules(players=3))
    [(0,), (1,), (2,)]
    >>> sides(Rules(players=4, teams="2x2"))
    [(0, 2), (1, 3)]
    """
    if rules.teams == "none":
        return [(s,) for s in range(rules.players)]
    teams: dict[int, list[int]] = {}
    for s in range(rules.players):
        teams.setdefault(rules.team_of(s), []).append(s)
    return [tuple(v) for _, v in sorted(teams.items())]


def game_score(g: Game, seat: int | Collection[int], me: Player, other: Bot | Player) -> float:
    """``g`` played to its end, ``me`` in ``seat`` (one seat, or several: a side) and
    ``other`` (a bot, or a player) in every other seat: the score of ``me``'s first seat."""
    mine = {seat} if isinstance(seat, int) else set(seat)
    them: Player = bot_player(other) if isinstance(other, Bot) else other
    while not g.is_over:
        to_act = g.to_act
        assert to_act is not None
        g.apply(me(g, to_act) if to_act in mine else them(g, to_act))
    return seat_score(g.rules, g.outcome, min(mine))
