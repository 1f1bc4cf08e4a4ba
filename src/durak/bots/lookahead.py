"""The learned player's search: its best few moves looked ahead in sampled worlds.

At a decision of a deal with cards still hidden, the network's ``width`` best actions
are each played in the same worlds (the hidden hands dealt by the level-5 belief,
:class:`~durak.bots.belief.BeliefWorlds`, or uniformly where it does not read the table),
then every world goes on for ``depth`` moves with the network's best action on every
seat and is valued by the network: the best ``Q`` of the seat to act, from ``seat``'s
side (with more than two sides, the seat's own best ``Q`` once it is to act again; a deal
that ends sooner, by its outcome). The action played is the one with the best mean value
plus its prior, the network's own ``Q`` of it at the root (level 6: weight 1): 64 worlds
leave the mean noisy enough to pick a move the network rates low, and the sum of the two
opinions errs less than either (issue 35, fourth attempt); a tie goes to the network's
order. The look-ahead is a fair game for every seat: each seat's network sees only its
own view of the world (:mod:`durak.bots.viewnet`, :mod:`durak.bots.tablenet`), never
another hand. All the worlds' positions are scored in one forward pass a move
(``Network.q_of``).

What it adds to the network alone, and what measured no better (playing out to the end,
uniform worlds), is in benchmarks/bots/results.txt (issue 35, third and fourth attempts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..actions import Action
from ..errors import ArgumentError
from ..game import Game
from ..observation import Observation
from ..playout import outcome_value

try:
    import numpy as np
except ImportError:  # pragma: no cover - the learned player needs numpy (its extras)
    np = None  # type: ignore[assignment]

# In a game of more than two sides the line goes on past ``depth`` until the seat itself
# is to act (its own Q values it), at most this many moves more.
BEYOND = 60


class Network(Protocol):
    """What the look-ahead needs of a network (:class:`durak.bots.learned.QNet` and
    :class:`durak.bots.tablenet.TableNet`): the ``Q`` of every legal move of the seat to
    act in many positions, in one pass."""

    def q_of(self, games: Sequence[Game], legal: Sequence[Sequence[Action]]) -> Any:
        """``Q`` of ``legal[i]`` (game ``i``'s moves, in order) for the seat to act in
        ``games[i]``, from that seat's view alone: one flat array."""
        ...


def look_ahead(net: Network, games: Sequence[Game], seat: int, depth: int) -> Any:
    """Every game of ``games`` played on for ``depth`` moves with ``net``'s best action on
    every seat (the games are changed), then valued by the network: the best ``Q`` of the
    seat to act, negated for the other side. With more than two sides (3-6 players, no
    teams) another seat's ``Q`` says nothing of ``seat``'s chances: the line goes on (at
    most :data:`BEYOND` moves) until ``seat`` is to act, and a seat that went out cannot
    lose any more (+1). A game that ends sooner is valued by its outcome: +1 another side
    is durak, 0 a draw, -1 ``seat``'s side. A forced move (one legal action) is played
    without counting."""
    if depth < 1:
        raise ArgumentError("depth: look_ahead needs depth >= 1")
    value = np.zeros(len(games))
    if not games:
        return value
    rules = games[0].rules
    team = rules.team_of
    two_sides = rules.players == 2 or rules.teams != "none"
    done = [False] * len(games)
    live = [i for i, g in enumerate(games) if not g.is_over]
    for ply in range(depth + 1 + (0 if two_sides else BEYOND)):
        last = ply >= depth
        asked: list[int] = []
        legal: list[list[Action]] = []
        for i in live:
            g = games[i]
            if not two_sides and g.view(seat).out >> seat & 1:
                value[i], done[i] = 1.0, True  # (out of the deal: not the durak)
                continue
            moves = g.moves()
            if len(moves) == 1 and not last:
                g.play(moves[0])
            else:
                asked.append(i)
                legal.append(list(moves))
        if asked:
            q = net.q_of([games[i] for i in asked], legal)
            lo = 0
            for i, moves in zip(asked, legal, strict=True):
                hi = lo + len(moves)
                best = lo + int(np.argmax(q[lo:hi]))
                mover = games[i].to_act
                assert mover is not None
                if last and (two_sides or mover == seat):
                    value[i] = q[best] if team(mover) == team(seat) else -q[best]
                    done[i] = True
                else:
                    games[i].play(moves[best - lo])
                lo = hi
        live = [i for i in live if not done[i] and not games[i].is_over]
        if not live:
            break
    for i, g in enumerate(games):
        if g.is_over:
            value[i] = outcome_value(g, seat)
    return value


def world_values(
    net: Network, seat: int, ranked: Sequence[Action], deals: Sequence[Game], depth: int
) -> Any:
    """Each action of ``ranked`` played in every world of ``deals`` (copies: the worlds
    stay as they are), then valued by :func:`look_ahead`: a row an action, a column a
    world."""
    games = []
    for a in ranked:
        for w in deals:
            g = w.clone()
            g.play(a)
            games.append(g)
    return look_ahead(net, games, seat, depth).reshape(len(ranked), len(deals))


def mean_values(
    net: Network, seat: int, ranked: Sequence[Action], deals: Sequence[Game], depth: int
) -> Any:
    """:func:`world_values`' mean over the worlds, one number an action."""
    return world_values(net, seat, ranked, deals, depth).mean(axis=1)


def best_looked_ahead(
    net: Network,
    obs: Observation,
    ranked: Sequence[Action],
    deals: Sequence[Game],
    depth: int,
    prior: Sequence[float],
) -> Action:
    """The action of ``ranked`` (the network's order, best first) with the best value:
    its :func:`mean_values` over the worlds ``deals`` plus its ``prior`` (level 6: the
    network's own ``Q`` of it at the root; zeros: the look-ahead alone)."""
    value = mean_values(net, obs.seat, ranked, deals, depth) + np.asarray(prior)
    return ranked[int(np.argmax(value))]  # (the first of the best: the network's order)
