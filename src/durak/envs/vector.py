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
case (``metadata["autoreset_mode"]`` says so). The ended deals' last observations are in
``info["final_obs"]`` (rows where ``info["_final_obs"]``), Gymnasium's same-step keys.

The arrays returned belong to the caller (``copy=True``, Gymnasium's default): each step
writes into a pair of arrays that nobody else holds any more (see
:meth:`DurakVectorEnv._outputs`), never into ones handed out that anyone still sees;
``copy=False`` writes the same pair every step (read them before the next).

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
>>> kept = obs["observation"]
>>> before = kept.copy()
>>> for _ in range(5):
...     _ = envs.step(envs.sample_legal())
>>> bool((kept == before).all())  # what was handed out stays as it was
True
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..actions import encoding
from ..bots import Bot, make
from ..errors import ArgumentError, ArgumentTypeError
from ..game import Game
from ..rules import Rules
from .encoding import Encoder, array_numbered_writer, array_writer
from .episode import learning_rules
from .gymnasium import OpponentSpec, Policy, bot_opponent, policy_opponent
from .history import History
from .vecstep import Opponent, VecStepper

# output arrays kept for reuse (see DurakVectorEnv._outputs)
_POOL = 4


class DurakVectorEnv(VectorEnv[dict[str, Any], np.ndarray, np.ndarray]):
    """``num_envs`` deals of ``rules`` (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        rules: Rules | str | None = None,
        opponents: Sequence[OpponentSpec] = ("random",),
        privileged: bool = False,
        copy: bool = True,
        history: int = 0,
        **_: Any,  # gym.make_vec passes the single env's keywords (render_mode...)
    ) -> None:
        self.rules = learning_rules(rules)
        self.num_envs = num_envs
        self.encoder = Encoder(self.rules, privileged)
        self._num_actions = encoding(self.rules).size
        self._privileged = privileged
        self._specs = list(opponents)
        self._swaps = 0  # set_opponents calls: the bots' seeds differ each time
        if not self._specs:
            raise ArgumentError("opponents: name at least one")
        self._write = array_writer(self.rules, privileged)
        self._write_moves = array_numbered_writer(self.rules, privileged)
        self._copy = copy
        self._history = History(self.rules, history) if history else None
        self._k = history
        self._core = self._stepper(self._opponents(0), 0)
        size, n_act = self._core.obs_size, self._core.num_actions
        parts: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
        }
        if self._history is not None:
            parts["history"] = self._history.space
        self.single_observation_space = spaces.Dict(parts)
        self.single_action_space = spaces.Discrete(n_act)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._wrap()

    def _stepper(self, ops: list[Opponent | None], seed: int) -> VecStepper:
        core = VecStepper(
            self.rules, self.num_envs, ops, seed, self._privileged, self._write, self._k
        )
        if self._write_moves is not None:
            core.number_in(self._write_moves)
        return core

    def _opponents(self, seed: int) -> list[Opponent | None]:
        out: list[Opponent | None] = []
        for k, spec in enumerate(self._specs):
            if spec == "random":
                out.append(None)
            elif isinstance(spec, str):
                out.append(bot_opponent(make(spec, seed=seed * 7919 + k)))
            elif isinstance(spec, Bot):
                out.append(bot_opponent(spec))
            elif callable(spec):
                out.append(self._policy(spec))
            else:
                raise ArgumentTypeError(f"opponents: a bot spec, a Bot or a policy, not {spec!r}")
        return out

    def _policy(self, policy: Policy) -> Opponent:
        return policy_opponent(self.encoder, self._num_actions, policy)

    def _wrap(self) -> None:
        core, n = self._core, self.num_envs
        self._final = np.frombuffer(core.final, np.float32).reshape(n, core.obs_size)
        self._rewards = np.frombuffer(core.rewards, np.float32)
        self._dones = np.frombuffer(core.dones, np.int8).view(bool)
        self._cut = np.frombuffer(core.truncated, np.int8).view(bool)
        self._pool: list[tuple[np.ndarray, np.ndarray, memoryview, memoryview]] = []
        # the ended deals' last masks: no action, one read-only array for all of them
        self._no_actions = np.zeros(core.num_actions, np.int8)
        self._no_actions.flags.writeable = False
        self._obs, self._mask = self._outputs()

    def _outputs(self) -> tuple[np.ndarray, np.ndarray]:
        """The two arrays the next step writes, handed to the core: with ``copy`` (the
        default) a pair nobody outside holds any more (a pool of a few, as CPython
        reuses a result tuple nobody holds), else new ones; without, always the same.

        Every row of both is written again each step, so writing into the arrays
        returned two steps ago, when no one can see them, is the same as returning
        copies, without copying 0.7 MB a step (N=256) into new memory (page faults
        cost more than the step's own work)."""
        core, n = self._core, self.num_envs
        pool = self._pool
        # The newest first, counting the env's own reference to the pair it handed out
        # last: a caller that lets go of each step's arrays gets the same pair written
        # again, half the memory the step writes (it stays in the caches).
        last = id(getattr(self, "_obs", None))  # (an id: no reference held here)
        for entry in reversed(pool):
            own = 1 if id(entry[0]) == last else 0
            if not self._copy or (_unseen(entry, 0, own) and _unseen(entry, 1, own)):
                core.obs, core.masks = entry[2], entry[3]
                return entry[0], entry[1]
        obs = np.zeros((n, core.obs_size), np.float32)
        mask = np.zeros((n, core.num_actions), np.int8)
        entry = (obs, mask, obs.data.cast("B"), mask.data.cast("B"))
        pool.append(entry)
        if len(pool) > _POOL:
            del pool[0]  # (its arrays are a caller's now)
        core.obs, core.masks = entry[2], entry[3]
        return obs, mask

    def _observations(self) -> dict[str, Any]:
        out = {"observation": self._obs, "action_mask": self._mask}
        if self._k:
            out["history"] = self.history_rows()
        return out

    @property
    def stepper(self) -> VecStepper:
        """The compiled core (its buffers may be given others of the same size between
        steps: :class:`durak.envs.shards.ShardedVectorEnv`'s workers write into shared
        memory so)."""
        return self._core

    def history_rows(self) -> np.ndarray:
        """``(num_envs, K, 2)``: each deal's last K moves from its learner's seat."""
        return np.array(self._core.history(self._k), np.int32).reshape(self.num_envs, self._k, 2)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if isinstance(seed, Sequence):
            seed = int(seed[0]) if seed else None
        if seed is not None:
            ops = self._opponents(seed)
            self._core = self._stepper(ops, seed)
            self._wrap()
        self._obs, self._mask = self._outputs()
        self._core.reset()
        return self._observations(), {"seat": np.array(self._core.seat_out, np.int64)}

    def step(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        self._obs, self._mask = self._outputs()
        acts: list[int]
        if type(actions) is np.ndarray and actions.ndim == 1:
            acts = actions.tolist()  # (the usual case: an array of the actions)
        elif type(actions) is list and all(type(a) is int for a in actions):
            acts = actions
        else:
            acts = np.asarray(actions).reshape(-1).tolist()
        self._core.step(acts)
        done, cut = self._dones, self._cut
        info: dict[str, Any] = {"seat": np.array(self._core.seat_out, np.int64)}
        if done.any():
            history = None
            if self._k:
                k, rows = self._k, self._core.final_history
                ended = np.flatnonzero(done).tolist()
                history = {i: np.array(rows[i], np.int32).reshape(k, 2) for i in ended}
            final_observations(info, self._final, done, self._no_actions, history)
        return (self._observations(), self._rewards.copy(), done & ~cut, cut.copy(), info)

    def action_masks(self) -> np.ndarray:
        """The legal actions of every environment now, as booleans ``(num_envs, actions)``."""
        return self._mask.view(bool)

    def sample_legal(self) -> np.ndarray:
        """A uniformly random legal action for every environment (random masked play)."""
        return np.array(self._core.sample_legal(), np.int64)

    def set_opponents(self, opponents: Sequence[OpponentSpec]) -> None:
        """Play against ``opponents`` (as the constructor's) from the next move on: a
        self-play loop swaps in a newer past copy of the learner so, between steps; the
        deals under way go on."""
        specs = list(opponents)
        if not specs:
            raise ArgumentError("opponents: name at least one")
        old, self._specs = self._specs, specs
        try:
            self._core.set_opponents(self._opponents(self._swaps + 1))
        except Exception:
            self._specs = old
            raise
        self._swaps += 1

    def game(self, i: int) -> Game:
        """The deal environment ``i`` plays now, as an engine ``Game`` (to read: its
        ``history``, ``record()``; playing on it breaks the environment)."""
        return self._core.game(i)

    @property
    def deal_seeds(self) -> list[int]:
        """Each environment's deal now is ``Game(rules, seed=deal_seeds[i])``."""
        return list(self._core.deal_seeds)

    @property
    def seats(self) -> list[int]:
        """The learner's seat in each environment's deal now."""
        return list(self._core.seats)

    @property
    def moves(self) -> int:
        """Engine actions played since the environments were made (or last seeded): the
        learners' and the opponents'."""
        return self._core.moves

    @property
    def deals_done(self) -> int:
        """Deals finished since the environments were made (or last seeded)."""
        return self._core.deals


def final_observations(
    info: dict[str, Any],
    final: np.ndarray,
    done: np.ndarray,
    no_actions: np.ndarray,
    history: dict[int, np.ndarray] | None,
) -> None:
    """Gymnasium's same-step keys into ``info``: ``final_obs``, the ended deals' last
    observations (rows of ``final`` where ``done``, copied out at once, with
    ``no_actions`` as their mask and ``history[i]`` if given), and ``_final_obs``."""
    ended = np.flatnonzero(done)
    rows = final[ended]  # (one copy for all of them: the block is written again)
    out = np.empty(len(done), object)
    for k, i in enumerate(ended.tolist()):
        out[i] = {"observation": rows[k], "action_mask": no_actions}
        if history is not None:
            out[i]["history"] = history[i]
    info["final_obs"], info["_final_obs"] = out, done.copy()


def _unseen(
    entry: tuple[np.ndarray, np.ndarray, memoryview, memoryview], k: int, own: int = 0
) -> bool:
    """Whether nobody but the pool (and ``own`` references of the env's) holds array
    ``entry[k]``: its references are the pool's tuple, the memoryview's export and
    getrefcount's argument; a caller's variable, dict, view or tensor over it adds one,
    a weak reference is counted apart."""
    a = entry[k]
    # (a's own reference here: one more)
    return sys.getrefcount(a) == 4 + own and not weakref.getweakrefcount(a)
