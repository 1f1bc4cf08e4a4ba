"""Self-play: a trained policy as a bot, and a pool of the learner's past copies.

A *policy* is what the environments' learners are: a callable ``(observation, action_mask)
-> action number`` on the encoder's vector (:mod:`durak.envs.encoding`) and the int8 mask.

- :class:`PolicyBot` plays a policy wherever bots play (the arena, ``SelfPlay`` workers on
  Ray, ``durak play``): from the seat's :class:`~durak.Observation` alone, it builds a game
  that seat cannot tell from the real one (:func:`durak.determinize.sample`) and encodes
  it; the encoder shows a seat nothing hidden, so the vector is the one the environments
  give.
- :class:`OpponentPool` keeps frozen past copies of a learner and hands one to the
  vectorised env as its opponent (:meth:`OpponentPool.refresh`), e.g. every few updates.

>>> import numpy as np
>>> from durak import Game, Rules
>>> lowest = lambda obs, mask: int(np.flatnonzero(mask)[0])
>>> bot = PolicyBot(Rules(), lowest, name="lowest")
>>> g = Game(Rules(), seed=2)
>>> bot.choose(g.observation(g.to_act)) in g.legal_actions()
True
>>> pool = OpponentPool(size=2, seed=1)
>>> for k in range(3):
...     _ = pool.add(lowest, f"copy{k}")
>>> pool.names(), pool.added
(['copy1', 'copy2'], 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from ..actions import Action, encoding
from ..determinize import sample
from ..errors import ArgumentError, IllegalActionError, StateError
from ..observation import Observation
from ..rules import Rules
from .bits import legal_indices, legal_moves
from .encoding import Encoder, mask_of

Policy = Callable[[np.ndarray, np.ndarray], Any]


class PolicyBot:
    """A policy ``(observation, action_mask) -> action number`` as a bot of ``rules``
    (see the module docstring). Picklable when the policy is (Ray's workers get it so)."""

    def __init__(self, rules: Rules, policy: Policy, name: str = "policy", seed: int = 0) -> None:
        self.rules = rules
        self.policy = policy
        self.name = name
        self.seed = seed
        self._setup()

    def _setup(self) -> None:
        self._encoder = Encoder(self.rules)
        self._size = encoding(self.rules).size
        self._rng = random.Random(self.seed)

    def __getstate__(self) -> dict[str, Any]:
        # (the encoder is compiled code: made again on the other side)
        return {"rules": self.rules, "policy": self.policy, "name": self.name, "seed": self.seed}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._setup()

    def choose(self, obs: Observation) -> Action:
        # a world the seat cannot tell from the real one: its vector is the real one's
        g = sample(obs, self._rng)
        legal = legal_indices(g)
        index = int(self.policy(self._encoder.encode(g, obs.seat), mask_of(legal, self._size)))
        for i, a in zip(legal, legal_moves(g), strict=True):
            if i == index:
                return a
        raise IllegalActionError(f"policy {self.name}: action {index} is not legal here")


class OpponentPool:
    """The last ``size`` frozen copies of a learner (policies), one of which plays the
    learner's opponents; ``latest`` (the default 0.5) is the chance that a refresh picks
    the newest copy rather than one drawn uniformly from the pool."""

    def __init__(self, size: int = 8, latest: float = 0.5, seed: int = 0) -> None:
        if size < 1:
            raise ArgumentError(f"size: at least one copy, not {size}")
        if not 0.0 <= latest <= 1.0:
            raise ArgumentError(f"latest: a probability, not {latest}")
        self.size = size
        self.latest = latest
        self.added = 0  # copies ever added
        self.current: str | None = None  # the name of the copy playing now
        self._copies: list[tuple[str, Policy]] = []
        self._rng = random.Random(seed)

    def add(self, policy: Policy, name: str | None = None) -> str:
        """Keep ``policy`` (frozen: the caller must not train it further) as the newest
        copy, dropping the oldest beyond ``size``; returns its name."""
        name = name or f"copy{self.added}"
        self._copies.append((name, policy))
        del self._copies[: -self.size]
        self.added += 1
        return name

    def names(self) -> list[str]:
        """The copies kept, oldest first."""
        return [n for n, _ in self._copies]

    def pick(self) -> tuple[str, Policy]:
        """A copy: the newest with probability ``latest``, else any, uniformly."""
        if not self._copies:
            raise StateError("the pool is empty: add() a copy of the learner first")
        if self._rng.random() < self.latest:
            return self._copies[-1]
        return self._copies[int(self._rng.random() * len(self._copies))]

    def refresh(self, venv: Any) -> str:
        """Make a picked copy the opponent of every seat of ``venv`` (a
        :class:`~durak.envs.vector.DurakVectorEnv`, through its ``set_opponents``);
        returns its name."""
        name, policy = self.pick()
        venv.set_opponents([policy])
        self.current = name
        return name
