"""Deals played to their end in loops compiled with the engine.

A searcher or a benchmark that plays thousands of actions from Python pays Python's
call overhead on every one; these loops run inside the compiled engine (when it is
compiled, see :mod:`durak.build`) and call back into Python only for a rollout policy.
They use the engine's declared fast path (``Game.moves``/``Game.play``): every action they play is
taken from the legal list, so no check is needed.

>>> import random
>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=3)
>>> n = random_playout(g, random.Random(1))
>>> g.is_over, n == len(g.history)
(True, True)
>>> h = Game(Rules(), seed=3)
>>> for a in g.history:
...     h.apply(a)
>>> h.outcome == g.outcome
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .actions import Action
from .game import Game
from .rules import Rules


def outcome_value(g: Game, seat: int) -> int:
    """+1 / 0 / -1: the finished deal ``g`` from ``seat``'s side (the exact endgame's
    values, :mod:`durak.bots.solver`, and the lookahead's leaves).

    >>> g = Game(Rules(), seed=3)
    >>> _ = random_playout(g, random.Random(1))
    >>> outcome_value(g, 0) in (-1, 0, 1)
    True
    """
    o = g.outcome
    assert o is not None
    if o.durak is None:
        return 0
    return -1 if g.rules.team_of(o.durak) == g.rules.team_of(seat) else 1


def random_playout(g: Game, rng: random.Random) -> int:
    """Play ``g`` to its end choosing uniformly among the legal actions (the same choice
    as ``durak bench``'s public path: ``legal[int(rng.random() * len(legal))]``).
    Returns the number of actions played."""
    played = 0
    while not g.is_over:
        legal = g.moves()
        g.play(legal[int(rng.random() * len(legal))])
        played += 1
    return played


def random_games(rules: Rules, games: int, seed: int = 0) -> int:
    """Play ``games`` random deals (dealt as ``durak bench`` deals them); the actions played.

    >>> random_games(Rules(), 3, seed=1) > 0
    True
    """
    rng = random.Random(seed)
    played = 0
    for i in range(games):
        played += random_playout(Game(rules, seed=seed * 1_000_003 + i), rng)
    return played


def rollout(
    g: Game,
    policy: Callable[[Game], Action],
    rng: random.Random,
    max_moves: int = 400,
) -> int:
    """Play ``g`` to its end with ``policy(g)`` choosing every action; returns the actions
    played. ``policy`` must return one of ``g``'s legal actions.

    A policy can go round in circles (a card nobody beats taken round the table), so
    after ``max_moves`` moves the deal is finished with random moves, which always end
    it.

    >>> g = Game(Rules(), seed=3)
    >>> rollout(g, lambda g: g.legal_actions()[0], random.Random(0)) > 0, g.is_over
    (True, True)
    """
    played = 0
    while not g.is_over and played < max_moves:
        g.play(policy(g))
        played += 1
    while not g.is_over:
        g.play(rng.choice(g.moves()))
        played += 1
    return played
