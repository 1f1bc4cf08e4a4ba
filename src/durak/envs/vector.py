"""Gymnasium vector environment: ``num_envs`` deals stepped in one compiled call.

Every registered ``durak/...`` id has it as its ``vector_entry_point``::

    gym.make_vec("durak/Podkidnoy-v0", num_envs=256, vectorization_mode="vector_entry_point")

Observations are a dict of two arrays, ``"observation"`` ``(num_envs, size)`` float32 (the
shared encoder's vector, :mod:`durak.envs.encoding`) and ``"action_mask"``
``(num_envs, num_actions)`` int8; :meth:`DurakVectorEnv.action_masks` gives the mask as
booleans (sb3-contrib's masking protocol). Rewards and the opponents are
:class:`durak.envs.gymnasium.DurakEnv`'s: -1 for the durak, +1/(n-1) otherwise (team play:
+1/-1 a side), 0 a draw; an illegal action ends the deal at -1.

**Autoreset: same step.** When a deal ends, ``step`` returns its reward and
``terminated`` (or ``truncated``, for a deal cut off by ``action_limit``) and, in the same
call, the first observation of the next deal: the mask is never all zeros, so the usual
loop ``actions = sample(obs["action_mask"]); env.step(actions)`` runs on without a special
case (``metadata["autoreset_mode"]`` says so).

Opponents (``opponents=``, repeated round the table): a bot spec (``"greedy"``), a
:class:`~durak.bots.Bot` object, or a callable ``(observation, action_mask) -> action
number`` (a trained policy); ``"random"`` is played inside the compiled loop.

>>> import gymnasium as gym
>>> import numpy as np
>>> import durak.envs.gymnasium
>>> envs = gym.make_vec("durak/Podkidnoy-v0", num_envs=8,
...                     vectorization_mode="vector_entry_point")
>>> obs, info = envs.reset(seed=1)
>>> obs["observation"].shape, envs.action_masks().shape
((8, 315), (8, 1608))
>>> for _ in range(200):
...     obs, rewards, terminated, truncated, info = envs.step(envs.sample_legal())
>>> bool(obs["action_mask"].any(axis=1).all()), envs.deals_done > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..actions import encoding
from ..bots import Bot, make
from ..game import Game
from ..rules import Rules
from .bits import legal_indices, mask_bytes
from .encoding import Encoder, array_view
from .episode import learning_rules
from .gymnasium import OpponentSpec, Policy
from .vecstep import Opponent, VecStepper, bot_opponent


class DurakVectorEnv(VectorEnv[dict[str, Any], np.ndarray, np.ndarray]):
    """``num_envs`` deals of ``rules`` (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        rules: Rules | str | None = None,
        opponents: Sequence[OpponentSpec] = ("random",),
        privileged: bool = False,
        **_: Any,  # gym.make_vec passes the single env's keywords (render_mode...)
    ) -> None:
        self.rules = learning_rules(rules)
        self.num_envs = num_envs
        self.encoder = Encoder(self.rules, privileged)
        self._num_actions = encoding(self.rules).size
        self._privileged = privileged
        self._specs = list(opponents)
        if not self._specs:
            raise ValueError("opponents: name at least one")
        self._fill = array_view(self.rules, privileged)
        self._core = VecStepper(self.rules, num_envs, self._opponents(0), 0, privileged, self._fill)
        size, n_act = self._core.obs_size, self._core.num_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(n_act)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._wrap()

    def _opponents(self, seed: int) -> list[Opponent | None]:
        out: list[Opponent | None] = []
        for k, spec in enumerate(self._specs):
            if spec == "random":
                out.append(None)
            elif isinstance(spec, str):
                bot = make(spec, seed=seed * 7919 + k)
                out.append(bot_opponent(self.rules, _bot_choice(bot)))
            elif isinstance(spec, Bot):
                out.append(bot_opponent(self.rules, _bot_choice(spec)))
            elif callable(spec):
                out.append(self._policy(spec))
            else:
                raise TypeError(f"opponents: a bot spec, a Bot or a policy, not {spec!r}")
        return out

    def _policy(self, policy: Policy) -> Opponent:
        encoder, size = self.encoder, self._num_actions

        def play(g: Game, seat: int) -> int:
            mask = np.frombuffer(mask_bytes(legal_indices(g), size), np.int8)
            return int(policy(encoder.encode(g, seat), mask))

        return play

    def _wrap(self) -> None:
        core = self._core
        self._obs = np.frombuffer(core.obs, np.float32).reshape(self.num_envs, core.obs_size)
        self._mask = np.frombuffer(core.masks, np.int8).reshape(self.num_envs, core.num_actions)

    def _observations(self) -> dict[str, Any]:
        # copies: the buffers change at the next step, what was returned must not
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if isinstance(seed, Sequence):
            seed = int(seed[0]) if seed else None
        if seed is not None:
            self._core = VecStepper(
                self.rules, self.num_envs, self._opponents(seed), seed, self._privileged, self._fill
            )
            self._wrap()
        self._core.reset()
        return self._observations(), {"seat": np.array(self._core.seats)}

    def step(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        rewards = self._core.step([int(a) for a in np.asarray(actions).reshape(-1)])
        done = np.array(self._core.dones, bool)
        cut = np.array(self._core.truncated, bool)
        return (
            self._observations(),
            np.array(rewards, np.float32),
            done & ~cut,
            cut,
            {"seat": np.array(self._core.seats)},
        )

    def action_masks(self) -> np.ndarray:
        """The legal actions of every environment now, as booleans ``(num_envs, actions)``."""
        return self._mask.astype(bool)

    def sample_legal(self) -> np.ndarray:
        """A uniformly random legal action for every environment (random masked play)."""
        return np.array(self._core.sample_legal(), np.int64)

    @property
    def moves(self) -> int:
        """Engine actions played since the environments were made (or last seeded): the
        learners' and the opponents'."""
        return self._core.moves

    @property
    def deals_done(self) -> int:
        """Deals finished since the environments were made (or last seeded)."""
        return self._core.deals


def _bot_choice(bot: Bot) -> Callable[[Game, int], object]:
    def choose(g: Game, seat: int) -> object:
        return bot.choose(g.observation(seat))

    return choose
