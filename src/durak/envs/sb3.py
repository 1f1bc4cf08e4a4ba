"""Stable-Baselines3 ``VecEnv`` over the vectorised environment: MaskablePPO unchanged.

:class:`DurakSB3VecEnv` steps a :class:`~durak.envs.vector.DurakVectorEnv` (all its deals in
one compiled call) and speaks SB3's vector protocol: observations are the encoder's
vectors ``(num_envs, size)`` float32 (a ``Box``, for ``"MlpPolicy"``); ``dones`` are
``terminated | truncated``; a finished deal's ``infos[i]`` has ``"terminal_observation"``
and ``"TimeLimit.truncated"``, and the observation returned is already the next deal's
(SB3's own autoreset convention, which is the vector env's same-step one). sb3-contrib's
MaskablePPO finds the masks through ``env_method("action_masks")``, as it does with its
own vectorised wrappers.

>>> from durak.envs.sb3 import DurakSB3VecEnv
>>> venv = DurakSB3VecEnv(num_envs=4, rules="podkidnoy", opponents=["random"])
>>> venv.seed(7)
[7, 8, 9, 10]
>>> obs = venv.reset()
>>> obs.shape, len(venv.env_method("action_masks")), venv.has_attr("action_masks")
((4, 315), 4, True)
>>> import numpy as np
>>> masks = np.stack(venv.env_method("action_masks"))
>>> obs, rewards, dones, infos = venv.step(np.array([np.flatnonzero(m)[0] for m in masks]))
>>> rewards.shape, dones.dtype, len(infos)
((4,), dtype('bool'), 4)

Needs stable-baselines3 (the ``rl`` extra): ``VecEnv`` is its class.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.policies import BasePolicy
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
)

from ..errors import ArgumentError, UsageError
from ..rules import Rules
from .gymnasium import OpponentSpec
from .selfplay import OpponentPool
from .vector import DurakVectorEnv

__all__ = ["DurakSB3VecEnv", "FrozenPolicy", "SelfPlayCallback", "snapshot"]


class DurakSB3VecEnv(VecEnv):
    """SB3 ``VecEnv`` of ``num_envs`` deals (see the module docstring). ``venv``: an
    existing :class:`DurakVectorEnv` to wrap instead of making one from ``num_envs``,
    ``rules`` and ``opponents`` (bot specs, ``Bot`` objects or policies)."""

    def __init__(
        self,
        num_envs: int = 8,
        rules: Rules | str | None = None,
        opponents: Sequence[OpponentSpec] = ("random",),
        venv: DurakVectorEnv | None = None,
    ) -> None:
        self.venv = venv if venv is not None else DurakVectorEnv(num_envs, rules, opponents)
        single = self.venv.single_observation_space
        assert isinstance(single, spaces.Dict)
        space = single["observation"]
        super().__init__(self.venv.num_envs, space, self.venv.single_action_space)
        self._actions: np.ndarray | None = None
        self._seed: int | None = None

    # -- SB3's protocol ------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        # SB3 hands seeds out per environment (seed() or _seeds); the vector env takes
        # one seed for all its deals: the first
        seed = self._seed if self._seed is not None else self._seeds[0]
        self._seed = None
        self._reset_seeds()
        obs, _ = self.venv.reset(seed=seed)
        return np.array(obs["observation"])

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The deals from the next :meth:`reset` on follow ``seed`` (SB3's answer: one
        seed an environment, ``seed + i``)."""
        self._seed = seed
        if seed is None:
            return [None] * self.num_envs
        return [seed + i for i in range(self.num_envs)]

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """SB3's ``step``: :meth:`step_async` then :meth:`step_wait`, typed as what this
        env returns (the encoder's vectors, not a dict or a tuple)."""
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise UsageError("step_wait() without step_async()")
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = info["final_obs"]
            for i in np.flatnonzero(dones).tolist():
                infos[i]["terminal_observation"] = final[i]["observation"]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i])
        return np.array(obs["observation"]), rewards, dones, infos

    def close(self) -> None:
        self.venv.close()

    def action_masks(self) -> np.ndarray:
        """The legal actions of every deal now, booleans ``(num_envs, actions)``."""
        return self.venv.action_masks()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The vector env's attribute ``attr_name``, once for each index (the deals share
        one object)."""
        value = getattr(self._target(attr_name), attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(
            f"set_attr({attr_name!r}): the deals share one vector env; "
            "change it through DurakSB3VecEnv.venv"
        )

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """``action_masks``: each chosen deal's mask row (what MaskablePPO stacks); any
        other method of the vector env is called once and its answer given for each
        index."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in rows]
        answer = getattr(self._target(method_name), method_name)(*method_args, **method_kwargs)
        return [answer for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]

    # -- helpers ------------------------------------------------------------------------
    def _target(self, name: str) -> object:
        if name == "action_masks" or not hasattr(self.venv, name):
            if name == "action_masks":
                return self
            raise AttributeError(f"the Durak vector env has no attribute {name!r}")
        return self.venv

    def _get_indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices


# -- self-play ------------------------------------------------------------------------------
class FrozenPolicy:
    """An SB3 policy, frozen, as a policy ``(observation, action_mask) -> action number``
    (an opponent of the environments, :class:`durak.envs.selfplay.PolicyBot`): masked
    actions sampled (``deterministic=False``, the default) or the most likely one.
    Picklable (a torch module), so Ray's self-play workers can be sent it."""

    def __init__(self, policy: BasePolicy, name: str = "policy", deterministic: bool = False):
        self.policy = policy
        self.name = name
        self.deterministic = deterministic

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action, _ = self.policy.predict(
            observation,
            deterministic=self.deterministic,
            action_masks=np.asarray(action_mask, bool),  # type: ignore[call-arg]
        )
        return int(action)


def snapshot(model: BaseAlgorithm, name: str = "policy") -> FrozenPolicy:
    """A frozen copy of ``model``'s policy now (MaskablePPO's: it takes the masks): later
    training does not change it."""
    # (saved and loaded, not deep-copied: during training the policy holds tensors of
    # the autograd graph, which torch refuses to deepcopy)
    buf = io.BytesIO()
    model.policy.save(buf)  # type: ignore[arg-type]
    buf.seek(0)
    policy = type(model.policy).load(buf, device="cpu")  # type: ignore[arg-type]
    policy.set_training_mode(False)
    return FrozenPolicy(policy, name)


class SelfPlayCallback(BaseCallback):
    """Self-play for an SB3 learner on :class:`DurakSB3VecEnv`: at the start and after
    every ``every`` updates, a frozen copy of the learner joins ``pool`` and the pool
    picks the opponent of every deal from then on (:meth:`OpponentPool.refresh`).

    >>> from sb3_contrib import MaskablePPO
    >>> venv = DurakSB3VecEnv(num_envs=4)
    >>> pool = OpponentPool(size=3, seed=0)
    >>> model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    >>> _ = model.learn(256, callback=SelfPlayCallback(venv, pool, every=1))  # 4 rollouts
    >>> pool.added, pool.names()
    (4, ['copy1', 'copy2', 'copy3'])
    """

    def __init__(self, venv: DurakSB3VecEnv, pool: OpponentPool, every: int = 1) -> None:
        super().__init__()
        if every < 1:
            raise ArgumentError(f"every: at least one update, not {every}")
        self.venv = venv
        self.pool = pool
        self.every = every
        self.updates = 0  # updates done so far (rollouts before this one)
        self._rollouts = 0

    def _on_rollout_start(self) -> None:
        self.updates = self._rollouts
        self._rollouts += 1
        if self.updates % self.every == 0:
            name = f"copy{self.pool.added}"
            self.pool.add(snapshot(self.model, name), name)
            self.pool.refresh(self.venv.venv)

    def _on_step(self) -> bool:
        return True
