"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random

from ..actions import Action
from ..observation import Observation
from .base import BaseBot, legal_of


class RandomBot(BaseBot):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        return self.rng.choice(legal_of(obs))
