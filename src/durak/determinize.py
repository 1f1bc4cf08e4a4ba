"""Rebuild full games from one seat's view: hidden cards dealt at random, consistent
with everything the seat knows (OpenSpiel's ``resample_from_infostate``).

Searchers use this to play from what their seat may know: they never see the real
game, only games that could be it.

>>> import random
>>> from durak import Game, Rules
>>> g = Game(Rules(players=3), seed=5)
>>> obs = g.observation(0)
>>> d = sample(obs, random.Random(1))
>>> d.observation(0) == obs
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import Action
from .cards import iter_bits
from .game import Game
from .observation import Observation


def sample(
    obs: Observation,
    rng: random.Random,
    exclude: list[int] | None = None,
    before: Sequence[Action] | None = None,
) -> Game:
    """A game whose observation for ``obs.seat`` equals ``obs``.

    Hidden cards (other hands beyond their known cards, and the talon) are dealt
    uniformly from the unseen cards. ``exclude[s]``, if given, is a mask of cards
    seat ``s`` is believed not to hold (for example suits it could not beat); it
    is honoured when possible and dropped for a seat when not. ``before``: the public
    actions that led to ``obs``, kept as the game's history.

    The game keeps the whole :class:`~durak.game.Game` API: ``fresh()`` gives the
    sampled position again and ``undo()`` goes back to it, not past it; ``record()``
    refuses (a record replays a deal from its shuffle).
    """
    r = obs.rules
    n = r.players
    seat = obs.seat
    unseen = list(iter_bits(int(obs.unseen)))
    rng.shuffle(unseen)
    hands = [int(k) for k in obs.known]
    hands[seat] = int(obs.hand)
    need = [obs.hand_sizes[s] - hands[s].bit_count() for s in range(n)]
    pool = unseen
    # Deal seats with the most constraints first, from cards they may hold.
    for s in sorted(range(n), key=lambda s: -(exclude[s].bit_count() if exclude else 0)):
        if s == seat or need[s] <= 0:
            continue
        ban = exclude[s] if exclude else 0
        ok = [c for c in pool if not ban >> c & 1]
        if len(ok) < need[s]:
            ok = pool
        take = ok[: need[s]]
        for c in take:
            hands[s] |= 1 << c
        taken = set(take)
        pool = [c for c in pool if c not in taken]
    talon = pool  # what is left is the talon (top first), the trump under it
    return Game.from_view(obs, hands, talon, before)
