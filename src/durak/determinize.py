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

from .cards import RANK_MASK, deck_mask, iter_bits
from .game import PHASES, Game
from .observation import Observation


def sample(
    obs: Observation,
    rng: random.Random,
    exclude: list[int] | None = None,
) -> Game:
    """A game whose observation for ``obs.seat`` equals ``obs``.

    Hidden cards (other hands beyond their known cards, and the talon) are dealt
    uniformly from the unseen cards. ``exclude[s]``, if given, is a mask of cards
    seat ``s`` is believed not to hold (for example suits it could not beat); it
    is honoured when possible and dropped for a seat when not.
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
    g = object.__new__(Game)
    g.rules = r
    g.seed = 0
    g.n = n
    g.hand_size = r.hand_size
    g.teams = r.teams != "none"
    g.dealer = obs.dealer
    g.leader = obs.first_attacker if obs.first_attacker is not None else 0
    g.deck = ()
    g._hands = hands
    g._known = [int(k) for k in obs.known]
    g._known[seat] = 0
    g._talon = tuple(talon)
    g._tp = 0
    g._bottom = obs.trump.index if obs.trump_under_talon else -1
    g._trump_card = obs.trump.index
    g.trump_suit = obs.trump_suit
    g._forced_take = obs.forced_take
    g._derive()
    g._set_pagon(obs.pagon if obs.pagon else None)
    la = obs.last_attack
    g._last_att = (la.seat, int(la.cards), la.defender) if la else (-1, 0, -1)
    g._passed = [(p.seat, p.to, int(p.cards)) for p in obs.passed]
    g._outm = sum(1 << s for s in range(n) if obs.out[s])
    g.out = list(obs.out)
    g.out_order = list(obs.out_order)
    g._discard = int(obs.discard)
    g.tally = list(obs.pogony)
    g._last_lay = [int(m) for m in obs.last_laid] or [0] * n
    g.history = []
    g.outcome = None
    g.bout = obs.bout
    g._rng_lead = 0
    g._att = [a.index for a, _ in obs.table]
    g._beat = [b.index if b is not None else -1 for _, b in obs.table]
    g._unbeaten = 0
    g._allowed = 0
    g._n_beaten = 0
    g._tmask = 0
    g._legal = None
    for a, b in obs.table:
        g._tmask |= a.bit | (b.bit if b else 0)
        if b is None:
            g._unbeaten |= a.bit
        else:
            g._n_beaten += 1
    if r.throw_in == "table_ranks":
        for a, b in obs.table:
            g._allowed |= RANK_MASK[a.rank] | (RANK_MASK[b.rank] if b else 0)
    elif r.throw_in == "opening_rank" and obs.table:
        g._allowed = RANK_MASK[obs.table[0][0].rank]
    g.cap = obs.cap
    g._phase = PHASES.index(obs.phase)
    g.to_act = obs.to_act
    g.attacker = obs.attacker if obs.attacker is not None else 0
    g.first_attacker = obs.first_attacker if obs.first_attacker is not None else 0
    g.defender = obs.defender if obs.defender is not None else 0
    g._throwers = obs.throwers
    g._tpos = obs.thrower_pos
    g._shown = sum(1 << s for s in obs.shown_seats)
    assert deck_mask(r.deck) == _all_cards(g)
    return g


def _all_cards(g: Game) -> int:
    m = g._discard
    for h in g._hands:
        m |= h
    for c in g._att + g._beat:
        if c >= 0:
            m |= 1 << c
    for c in g._talon:
        m |= 1 << c
    if g._bottom >= 0:
        m |= 1 << g._bottom
    return m
