"""The learned player's search: its best few moves looked ahead in sampled worlds.

At a decision of a 2-player deal with cards still hidden, the self-play network's
``width`` best actions are each played in the same worlds (the hidden hands dealt by
the level-5 belief, :class:`~durak.bots.ismcts.BeliefWorlds`), then every world goes on
for ``depth`` moves with the network's best action on both seats and is valued by the
network: the best ``Q`` of the seat to act, from ``seat``'s side (a deal that ends
sooner, by its outcome). The action played is the one with the best mean value plus
its prior, the network's own ``Q`` of it at the root (level 6: weight 1): 64 worlds
leave the mean noisy enough to pick a move the network rates low, and the sum of the
two opinions errs less than either (issue 35, fourth attempt); a tie goes to the
network's order. The look-ahead is a fair game for both seats: each seat's network
sees only its own view of the world (:mod:`durak.bots.viewnet`), never the other hand.
All the worlds' positions are scored in one forward pass a move
(:meth:`durak.bots.learned.QNet.batch_scores`).

What it adds to the network alone, and what measured no better (playing out to the end,
uniform worlds), is in benchmarks/bots/results.txt (issue 35, third and fourth attempts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..actions import Action, encoding
from ..game import Game
from ..observation import Observation
from .solver import outcome_value

if TYPE_CHECKING:
    from .viewnet import ViewFeatures

try:
    import numpy as np
except ImportError:  # pragma: no cover - the learned player needs numpy (its extras)
    np = None  # type: ignore[assignment]


class Network(Protocol):
    """What the look-ahead needs of a network (:class:`durak.bots.learned.QNet`, which
    imports this module): its features and many positions scored in one pass."""

    features: ViewFeatures | None

    def batch_scores(self, states: Any, actions: Any, row: Any) -> Any: ...


def look_ahead(net: Network, games: Sequence[Game], seat: int, depth: int) -> Any:
    """Every game of ``games`` played on for ``depth`` moves with ``net``'s best action on
    every seat (the games are changed), then valued by the network: the best ``Q`` of the
    seat to act, negated for the other side. A game that ends sooner is valued by its
    outcome: +1 the other side is durak, 0 a draw, -1 ``seat``'s side. A forced move (one
    legal action) is played without counting."""
    f = net.features
    if f is None or depth < 1:
        raise ValueError("look_ahead: a self-play network and depth >= 1")
    numbers = encoding(f.rules)
    team = f.rules.team_of
    value = np.zeros(len(games))
    live = [i for i, g in enumerate(games) if not g.is_over]
    for ply in range(depth + 1):
        last = ply == depth
        asked: list[int] = []
        legal: list[list[Action]] = []
        for i in live:
            moves = games[i].moves()
            if len(moves) == 1 and not last:
                games[i].play(moves[0])
            else:
                asked.append(i)
                legal.append(moves)
        if asked:
            movers = [games[i].to_act for i in asked]
            views = np.stack([f.view(games[i], m or 0) for i, m in zip(asked, movers, strict=True)])
            s, trump = f.state(views)
            row_of = np.repeat(np.arange(len(asked)), [len(m) for m in legal])
            numbers_of = [numbers.index_of(a) for m in legal for a in m]
            q = net.batch_scores(s, f.actions[trump[row_of], numbers_of], row_of)
            lo = 0
            for i, mover, moves in zip(asked, movers, legal, strict=True):
                hi = lo + len(moves)
                best = lo + int(np.argmax(q[lo:hi]))
                if last:
                    value[i] = q[best] if team(mover or 0) == team(seat) else -q[best]
                else:
                    games[i].play(moves[best - lo])
                lo = hi
        if last:
            break
        live = [i for i in live if not games[i].is_over]
    for i, g in enumerate(games):
        if g.is_over:
            value[i] = outcome_value(g, seat)
    return value


def mean_values(
    net: Network, seat: int, ranked: Sequence[Action], deals: Sequence[Game], depth: int
) -> Any:
    """Each action of ``ranked`` played in every world of ``deals`` (copies: the worlds
    stay as they are), then valued by :func:`look_ahead`: the mean over the worlds, one
    number an action."""
    games = []
    for a in ranked:
        for w in deals:
            g = w.clone()
            g.play(a)
            games.append(g)
    value = look_ahead(net, games, seat, depth)
    return value.reshape(len(ranked), len(deals)).mean(axis=1)


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
