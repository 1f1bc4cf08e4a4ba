"""What the other seats hold, inferred from how they play: a particle filter.

A seat's hidden cards are not uniformly random once it has played: a careful player
who leads a nine holds no cheaper plain card it would rather lead, one who takes a
small card instead of trumping it most likely holds trumps it is saving, and what it
did not do before the last draw still tells about the cards it kept. :class:`Belief`
follows the deal with a few hundred *particles*, each a guess of every other seat's
hidden cards, weighted by how likely that seat's moves were under a model of a
careful player (the CAREFUL style of :mod:`durak.bots.policy`): a move the model
would have made in a particle's world keeps its weight, any other move multiplies it
by ``eps`` (players are not the model, so a guess is made less likely, never
impossible). Cards a seat plays from its hidden hand are placed into every particle
(the others kept, which is exactly conditioning a uniform guess on the card), cards
it draws are dealt at random from the particle's talon, and when the weights gather on
a few particles they are resampled.

The searcher deals its worlds from the particles (:meth:`Belief.world`): the
measurement behind it (benchmarks/bots/README.md, v11) is that a search that knows
the opponent's hand, but not the talon's order, scores 0.74 against the pool's expert
where the same search dealing hands uniformly scores 0.54-0.67.

The work is done in :meth:`Belief.sync`, which the bot calls when it is to move, so
that it counts in the move's time; :meth:`Belief.observe` only queues.

The searcher's *world samplers* live here too: :class:`Uniform` deals the hidden cards
at random (consistently with all the seat knows), :class:`BeliefWorlds` deals them
from a :class:`Belief` (level 5's sampler); :mod:`durak.bots.ismcts`, the lookahead
and the review take either.

>>> import random
>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=7)
>>> b = Belief(particles=32, rng=random.Random(1))
>>> while g.talon_size > 20:
...     b.observe(g.observation(0))
...     g.apply(g.legal_actions()[0])
>>> b.observe(g.observation(0))
>>> b.sync()
>>> w = b.world(g.observation(0), random.Random(2))
>>> w.observation(0) == g.observation(0)
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from ..actions import Action
from ..cards import iter_bits
from ..determinize import sample
from ..errors import ArgumentError
from ..game import Game
from ..observation import Observation
from .memory import Tracker
from .policy import CAREFUL, CLUB, PLAIN, rollout_action

# A move the model would not have made in a particle's world multiplies its weight by
# this (the CAREFUL style makes the pool's expert's choice at 87-100% of its moves).
EPS = 0.1


def _bits(m: int) -> list[int]:
    return list(iter_bits(m))


def _signature(obs: Observation) -> tuple[object, ...]:
    """What every seat sees of a position: equal for the true game and any world of
    it, whatever the talon's order (the cards this seat drew are left out)."""
    return (
        tuple((a.index, b.index if b is not None else -1) for a, b in obs.table),
        int(obs.discard),
        tuple(int(k) for s, k in enumerate(obs.known) if s != obs.seat),
        obs.hand_sizes,
        obs.phase,
        obs.to_act,
        obs.bout,
        obs.out,
    )


class Belief:
    """Weighted guesses of the other seats' hidden cards; see the module docstring."""

    def __init__(
        self,
        particles: int = 256,
        eps: float = EPS,
        style: int = CAREFUL,
        rng: random.Random | None = None,
        plain: float = 0.0,
    ) -> None:
        if particles < 1:
            raise ArgumentError(f"belief: particles must be >= 1, not {particles}")
        if not 0.0 < eps <= 1.0:
            raise ArgumentError(f"belief: eps must be in (0, 1], not {eps}")
        self.n = int(particles)
        self.eps = float(eps)
        self.style = style
        # The prior share of careless players: each seat is then either ``style`` or PLAIN,
        # and each guess keeps the likelihood of the seat's moves under both (0: ``style``).
        if not 0.0 <= plain < 1.0:
            raise ArgumentError(f"belief: plain must be in [0, 1), not {plain}")
        self.plain = float(plain)
        self.rng = rng or random.Random(0)
        # Deals begun, never reset: tells a reader of model_fit when a new one starts.
        self.deal = 0
        self.reset()

    def reset(self) -> None:
        """Forget the deal."""
        self._queue: list[Observation] = []
        self._prev: Observation | None = None
        self.hidden: list[list[int]] = []  # per particle, per seat: its hidden cards
        self.weights: list[float] = []
        # With ``plain``: per guess, per seat, the likelihood of its moves if careful and
        # if plain (a guess's weight is the product over seats of their mixtures).
        self.mix: list[list[list[float]]] = []
        self.moves_read = 0
        self._fit: dict[int, list[float]] = {}  # seat -> [moves read, sum of their odds]

    def observe(self, obs: Observation) -> None:
        """Queue an observation (every one this seat gets, in order)."""
        q = self._queue
        if q and _new_deal(q[-1], obs):
            q.clear()  # an earlier deal's moves tell nothing now
        q.append(obs)

    # -- the filter ------------------------------------------------------------------
    def sync(self) -> None:
        """Bring the particles up to the last queued observation."""
        for obs in self._queue:
            self._step(obs)
        self._queue.clear()

    def _step(self, obs: Observation) -> None:
        p = self._prev
        if p is None or _new_deal(p, obs):
            self._start(obs)
            return
        if obs == p:
            return
        self._prev = obs
        s = p.to_act
        revealed = int(p.unseen) & ~int(obs.unseen) & ~int(obs.hand)
        drawn = int(p.unseen) & int(obs.hand)
        if s is not None and s != obs.seat:
            saved = [list(h) for h in self.hidden]
            self._repair(p, s, revealed, drawn)
            moves = self._identify(p, obs, s)
            if not moves and drawn:
                # A card laid and taken by this seat in the same move (a throw-in that
                # ended the bout) looks like a card it drew: try such cards as laid.
                self.hidden = saved
                moves, revealed, drawn = self._laid_and_taken(p, obs, s, revealed, drawn)
                self._repair(p, s, revealed, drawn)
            self._weigh(p, s, moves)
        else:
            self._repair(p, -1, 0, drawn)
        self._advance(obs)
        self._resample_if_needed()

    def _start(self, obs: Observation) -> None:
        self._prev = obs
        self._fit = {}
        self.deal += 1
        self.hidden = []
        self.weights = [1.0] * self.n
        need = _need(obs)
        self.mix = [[[1.0, 1.0] for _ in need] for _ in range(self.n)] if self.plain else []
        unseen = _bits(int(obs.unseen))
        rng = self.rng
        for _ in range(self.n):
            rng.shuffle(unseen)
            hid = [0] * len(need)
            i = 0
            for t, k in enumerate(need):
                for c in unseen[i : i + k]:
                    hid[t] |= 1 << c
                i += k
            self.hidden.append(hid)

    def _repair(
        self,
        p: Observation,
        s: int,
        revealed: int,
        drawn: int,
        guesses: list[list[int]] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """Make every particle (or ``guesses``) hold what seat ``s`` just showed from its
        hidden hand, and no other seat hold what this seat drew (both came out of
        ``p.unseen``)."""
        if not revealed and not drawn:
            return
        unseen = int(p.unseen)
        rng = rng or self.rng
        for hid in self.hidden if guesses is None else guesses:
            held = 0
            for h in hid:
                held |= h
            for c in _bits(drawn & held):
                bit = 1 << c
                t = next(t for t, h in enumerate(hid) if h & bit)
                free = unseen & ~held & ~drawn & ~revealed
                if not free:
                    continue
                x = rng.choice(_bits(free))
                hid[t] ^= bit | (1 << x)
                held ^= bit | (1 << x)
            if s < 0:
                continue
            for c in _bits(revealed & ~hid[s]):
                bit = 1 << c
                # Out of the talon, or another seat's guess: swap it with one of s's guessed
                # cards that is not itself revealed (a uniform guess conditioned on c).
                own = hid[s] & ~revealed
                if not own:
                    continue
                x = rng.choice(_bits(own))
                xb = 1 << x
                other = next((t for t, h in enumerate(hid) if h & bit), -1)
                hid[s] ^= xb | bit
                if other >= 0:
                    hid[other] ^= bit | xb

    def _laid_and_taken(
        self, p: Observation, obs: Observation, s: int, revealed: int, drawn: int
    ) -> tuple[list[Action], int, int]:
        """The move, if some of the cards this seat got from the unseen ones were laid by
        seat ``s`` (of a rank on the table) rather than drawn; and the cards so read as
        revealed and as drawn. No move found: ``[]`` and the cards as given."""
        ranks = 0
        for a, b in p.table:
            ranks |= 1 << (a.index >> 2)
            if b is not None:
                ranks |= 1 << (b.index >> 2)
        maybe = [c for c in _bits(drawn) if ranks >> (c >> 2) & 1]
        for k in range(1, min(4, len(maybe)) + 1):
            for laid in itertools.combinations(maybe, k):
                extra = sum(1 << c for c in laid)
                guess = [list(self.hidden[0])]
                self._repair(p, s, revealed | extra, drawn & ~extra, guess, random.Random(0))
                moves = self._identify(p, obs, s, guess[0])
                if moves:
                    return moves, revealed | extra, drawn & ~extra
        return [], revealed, drawn

    def _weigh(self, p: Observation, s: int, moves: list[Action]) -> None:
        """Multiply each particle's weight by how likely seat ``s``'s move (one of
        ``moves``) was there."""
        if not moves:
            return  # not one move apart (an observation was missed): nothing to read
        self.moves_read += 1
        styles = [CLUB] * p.rules.players
        styles[s] = self.style
        plain_styles = list(styles)
        plain_styles[s] = PLAIN
        eps = self.eps
        q = self.plain
        total = hit = 0.0
        for i, hid in enumerate(self.hidden):
            w = self.weights[i]
            if w <= 0.0:
                continue
            g = _world(p, hid)
            legal = g.moves()
            if len(legal) <= 1:
                continue
            ok = rollout_action(g, styles) in moves
            total += w
            if ok:
                hit += w
            if not q:
                if not ok:
                    self.weights[i] *= eps
                continue
            pair = self.mix[i][s]
            before = (1.0 - q) * pair[0] + q * pair[1]
            if not ok:
                pair[0] *= eps
            if rollout_action(g, plain_styles) not in moves:
                pair[1] *= eps
            self.weights[i] *= ((1.0 - q) * pair[0] + q * pair[1]) / before
        if total > 0.0:
            f = self._fit.setdefault(s, [0, 0.0])
            f[0] += 1
            f[1] += hit / total

    def model_fit(self, seat: int) -> tuple[int, float]:
        """How well the model predicts ``seat`` this deal: its moves read with a choice,
        and the mean weight the guesses gave the move it made (1.0 when none read)."""
        n, total = self._fit.get(seat, (0, 0.0))
        return int(n), (total / n if n else 1.0)

    def _identify(
        self, p: Observation, obs: Observation, s: int, guess: list[int] | None = None
    ) -> list[Action]:
        """The moves of seat ``s`` that lead from ``p`` to what ``obs`` shows, found in the
        world of ``guess`` (default the first particle's; the moves are public, the same
        in every world)."""
        want = _signature(obs)
        g = _world(p, self.hidden[0] if guess is None else guess)
        found = []
        for a in g.moves():
            h = g.clone()
            h.play(a)
            if _signature(h.observation(obs.seat)) == want:
                found.append(a)
        return found

    def _advance(self, obs: Observation) -> None:
        """Fit every particle to ``obs``: played cards leave, drawn cards are dealt."""
        unseen = int(obs.unseen)
        need = _need(obs)
        rng = self.rng
        for hid in self.hidden:
            held = 0
            for t, k in enumerate(need):
                h = hid[t] & unseen
                extra = h.bit_count() - k
                if extra > 0:  # trim first, so the cards go back to the talon's pool
                    for c in rng.sample(_bits(h), extra):
                        h ^= 1 << c
                hid[t] = h
                held |= h
            for t, k in enumerate(need):
                short = k - hid[t].bit_count()
                if short > 0:
                    for c in rng.sample(_bits(unseen & ~held), short):
                        hid[t] |= 1 << c
                        held |= 1 << c

    def _resample_if_needed(self) -> None:
        w = self.weights
        total = sum(w)
        if total <= 0.0:
            self.weights = [1.0] * self.n
            return
        ess = total * total / sum(x * x for x in w)
        if ess >= self.n / 3:
            return
        # Systematic resampling: copies in proportion to weight, all weights equal again.
        step = total / self.n
        u = self.rng.random() * step
        out = []
        mix_out: list[list[list[float]]] = []
        acc = 0.0
        i = 0
        for k in range(self.n):
            target = u + k * step
            while acc + w[i] < target and i < self.n - 1:
                acc += w[i]
                i += 1
            out.append(list(self.hidden[i]))
            if self.plain:
                mix_out.append(self._normalized(i))
        self.hidden = out
        self.mix = mix_out
        self.weights = [1.0] * self.n

    def _normalized(self, i: int) -> list[list[float]]:
        """Guess ``i``'s per-seat likelihoods scaled so that each seat's mixture is 1: its
        weight is spent by resampling, the evidence between the two models is kept."""
        q = self.plain
        out = []
        for c, p in self.mix[i]:
            m = (1.0 - q) * c + q * p
            out.append([c / m, p / m])
        return out

    def plain_odds(self, seat: int) -> float:
        """How likely ``seat`` plays PLAIN rather than carefully, by its moves so far."""
        q = self.plain
        if not q:
            return 0.0
        num = den = 0.0
        for w, seats in zip(self.weights, self.mix, strict=True):
            c, p = seats[seat]
            m = (1.0 - q) * c + q * p
            num += w * q * p / m
            den += w
        return num / den if den else q

    # -- use -------------------------------------------------------------------------
    def world(self, obs: Observation, rng: random.Random) -> Game:
        """A full game for ``obs`` (the last observation synced): a particle drawn by
        weight for the hidden hands, the talon's order at random."""
        i = rng.choices(range(self.n), weights=self.weights)[0] if self.n > 1 else 0
        hid = self.hidden[i]
        g = _world(obs, hid, rng)
        return g

    def card_odds(self, seat: int) -> dict[int, float]:
        """Per card index, the weighted share of particles that place it in ``seat``'s
        hidden hand (for analysis and tests)."""
        total = sum(self.weights) or 1.0
        odds: dict[int, float] = {}
        for hid, w in zip(self.hidden, self.weights, strict=True):
            for c in _bits(hid[seat]):
                odds[c] = odds.get(c, 0.0) + w / total
        return odds


def _new_deal(p: Observation, obs: Observation) -> bool:
    return (
        obs.bout < p.bout
        or obs.talon_size > p.talon_size
        or obs.dealer != p.dealer
        or obs.trump != p.trump
        or obs.rules != p.rules
        or obs.seat != p.seat
    )


def _need(obs: Observation) -> list[int]:
    """Per seat, how many of its cards this seat cannot place (0 for itself)."""
    return [
        0 if s == obs.seat else max(0, obs.hand_sizes[s] - int(obs.known[s]).bit_count())
        for s in range(len(obs.hand_sizes))
    ]


def _world(obs: Observation, hid: Sequence[int], rng: random.Random | None = None) -> Game:
    """The game ``obs`` shows with ``hid`` placed in the other hands; the rest of the
    unseen cards make the talon (in random order with ``rng``, else lowest first)."""
    hands = [int(k) | h for k, h in zip(obs.known, hid, strict=True)]
    hands[obs.seat] = int(obs.hand)
    held = 0
    for h in hid:
        held |= h
    talon = _bits(int(obs.unseen) & ~held)
    if rng is not None:
        rng.shuffle(talon)
    return Game.from_view(obs, hands, talon)


# -- world samplers: how the searcher deals its worlds ---------------------------------
# BeliefWorlds: how many of an opponent's moves must be read before its fit is judged.
FIT_MOVES = 8

Deal = Callable[[random.Random], Game]


class Worlds(Protocol):
    """A world sampler: follows a deal from one seat's observations and deals the cards
    that seat cannot see. It holds the deal's state: one sampler a bot."""

    def reset(self) -> None: ...

    def observe(self, obs: Observation) -> None: ...

    def prepare(self, obs: Observation) -> tuple[Deal, bool]:
        """How this move's worlds are dealt (a function of the search's random
        generator), and whether they come from a belief."""
        ...


class Uniform:
    """Deal the hidden cards at random, consistently with all the seat knows: hand sizes,
    cards seen taken, the trump, suits a player could not beat
    (:class:`~durak.bots.memory.Tracker`). Level 4's sampler, and level 5's with three
    players or more.

    >>> from durak import Game, Rules
    >>> g = Game(Rules(), seed=1)
    >>> deal, from_belief = Uniform().prepare(g.observation(0))
    >>> deal(random.Random(2)).hand(0) == g.hand(0), from_belief
    (True, False)
    """

    def __init__(self) -> None:
        self.tracker = Tracker()

    def reset(self) -> None:
        self.tracker.reset()

    def observe(self, obs: Observation) -> None:
        self.tracker.update(obs)

    def prepare(self, obs: Observation) -> tuple[Deal, bool]:
        exclude = self.tracker.exclude(obs)

        def deal(rng: random.Random) -> Game:
            return sample(obs, rng, exclude)

        return deal, False


class BeliefWorlds(Uniform):
    """Deal the worlds from a particle filter of ``particles`` guesses of the hidden
    hands, weighted by how likely each opponent's moves were for a careful player
    (:class:`~durak.bots.belief.Belief`, a move off the model costing a guess ``eps`` of
    its weight), in games of at most ``players`` players (0: any); deal uniformly
    instead while the model predicts an opponent's moves this deal at less than ``fit``
    on average (after :data:`FIT_MOVES` of them: it misreads that player). The defaults
    are level 5's (v11-v12 in docs/bots.md).

    >>> BeliefWorlds(particles=16, seed=1).belief.n
    16
    """

    def __init__(
        self,
        particles: int = 256,
        eps: float = 0.1,
        players: int = 2,
        fit: float = 0.4,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        if players < 0:
            raise ArgumentError(f"belief worlds: players must be >= 0, not {players}")
        if not 0.0 <= fit <= 1.0:
            raise ArgumentError(f"belief worlds: fit must be in [0, 1], not {fit}")
        self.belief = Belief(particles, eps, rng=random.Random(seed))
        self.players = int(players)
        self.fit = float(fit)

    def reads(self, players: int) -> bool:
        """Whether the belief deals the worlds of a game of ``players``."""
        return not 0 < self.players < players

    def reset(self) -> None:
        super().reset()
        self.belief.reset()

    def observe(self, obs: Observation) -> None:
        super().observe(obs)
        if self.reads(obs.rules.players):
            self.belief.observe(obs)

    def prepare(self, obs: Observation) -> tuple[Deal, bool]:
        uniform = super().prepare(obs)
        if not self.reads(obs.rules.players):
            return uniform
        belief = self.belief
        # ``choose`` queued ``obs`` already (a repeat is skipped); ``evaluate`` called
        # alone (``durak hint``) has only this one.
        belief.observe(obs)
        belief.sync()
        if self.fit > 0 and self.misreads(obs):
            return uniform
        return (lambda rng: belief.world(obs, rng)), True

    def misreads(self, obs: Observation) -> bool:
        """Whether the belief's model misreads an opponent of ``obs.seat`` now."""
        team = obs.rules.team_of
        return any(
            team(s) != team(obs.seat) and _misread(self.belief.model_fit(s), self.fit)
            for s in range(obs.rules.players)
        )


def _misread(fit: tuple[int, float], least: float) -> bool:
    """Whether a seat's moves read so far (``Belief.model_fit``) say the model misreads it."""
    moves, odds = fit
    return moves >= FIT_MOVES and odds < least
