"""Gymnasium environment: one seat against this project's bots.

The learner plays ``seat`` (default: a seat drawn at random each deal) and the other
seats are played by ``opponents``, repeated round the table: bot specs (``durak.bots.make``
names: "random", "greedy", "level3", ...), ``Bot`` objects, or policies, callables
``(observation vector, action mask) -> action number`` given what a learner in that seat
would get (a trained policy, a past copy of the learner for self-play). Observations are
a dict with the encoder's ``"observation"`` and an int8 ``"action_mask"``;
``action_masks()`` returns the mask as booleans, so sb3-contrib's ``MaskablePPO`` works
as it is. Reward at the end of the
deal: -1 if the learner is the durak (team play: its side loses), +1/(n-1) otherwise
(team play: +1), 0 for a draw. An illegal action ends the episode with -1. A deal cut off
by ``action_limit`` ends with ``truncated=True``.

Registered ids: ``durak/Podkidnoy-v0``, ``durak/Perevodnoy-v0``, ... (one per preset).

>>> import gymnasium as gym
>>> import durak.envs.gymnasium
>>> env = gym.make("durak/Perevodnoy-v0", opponents=["greedy"])
>>> obs, info = env.reset(seed=3)
>>> obs["action_mask"].shape, int(obs["action_mask"].sum()) == len(info["legal"])
((1608,), True)
>>> done = False
>>> while not done:
...     legal = env.unwrapped.action_masks().nonzero()[0]
...     obs, reward, terminated, truncated, info = env.step(int(legal[0]))
...     done = terminated or truncated
>>> reward in (-1.0, 0.0, 1.0)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make
from ..errors import ArgumentError, ArgumentTypeError, IllegalActionError, UsageError
from ..game import Game
from ..rules import Rules
from .bits import Actions, legal_indices
from .encoding import Encoder, mask_of
from .episode import learning_presets, learning_rules, returns

ILLEGAL_REWARD = -1.0

# A trained policy as an opponent: (observation vector, action mask) -> action number.
Policy = Callable[[np.ndarray, np.ndarray], Any]
# What ``opponents=`` may hold: a bot spec ("greedy", "level3"), a Bot, or a Policy.
OpponentSpec = str | Bot | Policy


class DurakEnv(gym.Env[dict[str, Any], np.int64]):
    """One seat of ``rules`` against ``opponents`` (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        rules: Rules | str | None = None,
        opponents: Sequence[OpponentSpec] = ("random",),
        seat: int | None = None,
        render_mode: str | None = None,
        privileged: bool = False,
    ) -> None:
        self.rules = learning_rules(rules)
        n = self.rules.players
        if seat is not None and not 0 <= seat < n:
            raise ArgumentError(f"seat: 0..{n - 1}, not {seat}")
        if not opponents:
            raise ArgumentError("opponents: name at least one bot")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(f"render_mode: one of {self.metadata['render_modes']}")
        self.opponents = list(opponents)
        for spec in self.opponents:  # a bad one fails here, not at reset
            if isinstance(spec, str):
                make(spec)
            elif not (isinstance(spec, Bot) or callable(spec)):
                raise ArgumentTypeError(f"opponents: a bot spec, a Bot or a policy, not {spec!r}")
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.encoder = Encoder(self.rules, privileged)
        self._actions = Actions(self.rules)
        size = self._actions.size
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(size)
        self.game: Game | None = None
        self.seat = 0
        self.bots: list[Bot | Policy | None] = []
        self._legal: list[int] = []

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (sb3-contrib's masking protocol)."""
        return mask_of(self._legal, self._actions.size).view(bool)

    def _obs(self) -> dict[str, Any]:
        assert self.game is not None
        mask = mask_of(self._legal, self._actions.size)
        return {"observation": self.encoder.encode(self.game, self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        g = self.game
        assert g is not None
        return {
            "seat": self.seat,
            "legal": list(self._legal),
            "outcome": str(g.outcome) if g.outcome is not None else None,
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.rules.players
        while True:
            self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
            self.bots = [
                None
                if s == self.seat
                else self._opponent(
                    self.opponents[(s - self.seat - 1) % n % len(self.opponents)],
                    int(rng.integers(2**31)),
                )
                for s in range(n)
            ]
            for b in self.bots:
                reset = getattr(b, "reset", None)
                if reset is not None:
                    reset()
            self.game = Game(self.rules, seed=int(rng.integers(2**63)))
            self._play_bots()
            if not self.game.is_over:  # (a deal the learner never plays is dealt again)
                return self._obs(), self._info()

    def _opponent(self, spec: OpponentSpec, seed: int) -> Bot | Policy:
        """A seat's player: a bot (made from its spec) or a policy, played as it is."""
        return make(spec, seed=seed) if isinstance(spec, str) else spec

    def _play_bots(self) -> None:
        g = self.game
        assert g is not None
        while g.to_act is not None and g.to_act != self.seat:
            s = g.to_act
            for i, b in enumerate(self.bots):
                watch = getattr(b, "observe", None)
                if watch is not None and i != s:
                    watch(g.observation(i))
            player = self.bots[s]
            assert player is not None
            if isinstance(player, Bot):
                g.apply(player.choose(g.observation(s)))
                continue
            # a policy gets what a learner in that seat gets: the vector and the mask
            legal = legal_indices(g)
            index = int(player(self.encoder.encode(g, s), mask_of(legal, self._actions.size)))
            if index not in legal:
                raise IllegalActionError(
                    f"opponent policy in seat {s}: action {index} is not legal"
                )
            g.play(self._actions.action(index))
        self._legal = legal_indices(g) if g.to_act is not None else []

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        g = self.game
        if g is None:
            raise UsageError("step() before reset()")
        if action not in self._legal:
            # as check_env and masked learners expect: an illegal action ends the episode
            self._legal = []
            info = self._info()
            info["illegal"] = True
            return self._obs(), ILLEGAL_REWARD, True, False, info
        g.play(self._actions.action(int(action)))
        self._play_bots()
        if g.outcome is None:
            return self._obs(), 0.0, False, False, self._info()
        reward = returns(self.rules, g.outcome)[self.seat]
        cut = g.outcome.truncated
        return self._obs(), reward, not cut, cut, self._info()

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        g = self.game
        lines = [
            f"{self.rules}  trump {g.trump}  talon {g.talon_size}  you: seat {self.seat}",
            f"your hand: {g.hand(self.seat)}",
            "table: " + " ".join(f"{a}/{b}" if b else str(a) for a, b in g.table),
        ]
        if g.outcome is not None:
            lines.append(f"result: {g.outcome}")
        return "\n".join(lines)


def env_id(preset: str) -> str:
    """The registered id of a preset: ``durak/Perevodnoy-Proezdnoy-v0`` for
    ``perevodnoy-proezdnoy``."""
    return "durak/" + "-".join(p.capitalize() for p in preset.split("-")) + "-v0"


for _name in learning_presets():  # (every preset: шулерский and двухкозырный too)
    if env_id(_name) not in gym.registry:
        gym.register(
            env_id(_name),
            entry_point="durak.envs.gymnasium:DurakEnv",
            vector_entry_point="durak.envs.vector:DurakVectorEnv",
            kwargs={"rules": _name},
        )
