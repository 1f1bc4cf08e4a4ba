"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random

from ..actions import Action
from ..observation import Observation


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        if not obs.legal:
            raise ValueError("not this seat's turn: no legal actions")
        return self.rng.choice(obs.legal)
