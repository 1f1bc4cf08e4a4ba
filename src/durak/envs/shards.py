"""The vector environment sharded over processes: ``num_envs`` deals in ``shards`` worker
processes, each a :class:`~durak.envs.vector.DurakVectorEnv` of its share, all writing
into shared memory.

One process steps its deals one after another on one core; beyond a few dozen deals it
gains nothing more. :class:`ShardedVectorEnv` splits the deals into ``shards``, the
first played in the calling process (``local=True``, the default: it would only wait
otherwise) and the others in worker processes: a step sends each worker its actions (a
list of ints, down a pipe), plays the local shard, and reads the workers' answers. Every
shard's compiled core writes its rows of the observations, masks, rewards, flags, seats
and the ended deals' last observations straight into shared memory; an answer is the
moves and deals played (and the history rows). Nothing large crosses a pipe and nothing
is copied: as in the
one-process env, the arrays a step returns are a pair of a small pool that nobody
outside holds any more (``copy=True``, the default), so what a caller keeps is never
written again.

The workers also answer with a random legal action for each of their deals, drawn after
the step: :meth:`ShardedVectorEnv.sample_legal` costs no round trip.

Observations, rewards, autoreset (same step) and ``info`` are the one-process env's;
``opponents`` are bot specs (``"random"``, ``"greedy"``, ...) or anything picklable.

>>> import numpy as np
>>> envs = ShardedVectorEnv(8, "podkidnoy", shards=2)
>>> obs, info = envs.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((8, 315), (8, 1608))
>>> for _ in range(100):
...     obs, rewards, terminated, truncated, info = envs.step(envs.sample_legal())
>>> bool(obs["action_mask"].any(axis=1).all()), envs.moves > 800
(True, True)
>>> envs.close()
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import random
import sys
import weakref
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.shared_memory import SharedMemory
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..errors import ArgumentError
from ..rules import Rules
from .episode import learning_rules
from .vector import final_observations

# output pairs in shared memory, reused when nobody outside holds them (as the one-process
# env's pool)
_POOL = 4


class _Shm(SharedMemory):
    """Shared memory that a caller's arrays may outlive: the env hands out arrays over it
    (it never copies), so at close or collection the mapping stays while anyone holds
    one, instead of raising BufferError (the name is unlinked all the same)."""

    def __del__(self) -> None:
        with contextlib.suppress(BufferError):
            super().__del__()


class ShardedVectorEnv(VectorEnv[dict[str, Any], np.ndarray, np.ndarray]):
    """``num_envs`` deals of ``rules`` in ``shards`` shards, the first in this process
    unless ``local=False`` (see the module docstring); ``history=K`` as the one-process
    env's."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(  # noqa: PLR0913  (the one-process env's keywords, and shards)
        self,
        num_envs: int,
        rules: Rules | str | None = None,
        opponents: Sequence[Any] = ("random",),
        shards: int = 2,
        privileged: bool = False,
        copy: bool = True,
        history: int = 0,
        local: bool = True,
        context: str | None = None,
    ) -> None:
        if not 1 <= shards <= num_envs:
            raise ArgumentError(f"shards: 1..num_envs ({num_envs}), not {shards}")
        self.rules = learning_rules(rules)
        self.num_envs = num_envs
        self.shards = shards
        self._copy = copy
        # (a probe in this process for the sizes and spaces: no deal is played)
        from .vector import DurakVectorEnv

        probe = DurakVectorEnv(1, self.rules, opponents, privileged, history=history)
        self.single_observation_space = probe.single_observation_space
        self.single_action_space = probe.single_action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        size, n_act = probe.encoder.size, probe.stepper.num_actions
        self._size, self._n_act = size, n_act
        self._history = history
        bounds = [num_envs * k // shards for k in range(shards + 1)]
        self._bounds = bounds
        # the pool of output pairs, each in two shared blocks every worker maps
        self._blocks: list[tuple[SharedMemory, SharedMemory]] = []
        self._pool: list[tuple[np.ndarray, np.ndarray]] = []
        for _ in range(_POOL + 1):  # (the last: scratch, never handed out)
            a = _Shm(create=True, size=num_envs * size * 4)
            b = _Shm(create=True, size=num_envs * n_act)
            self._blocks.append((a, b))
            self._pool.append(
                (
                    np.ndarray((num_envs, size), np.float32, a.buf),
                    np.ndarray((num_envs, n_act), np.int8, b.buf),
                )
            )
        self._small = _Shm(create=True, size=14 * num_envs)
        self._last = _Shm(create=True, size=num_envs * size * 4)  # the ended deals' views
        self._final = np.ndarray((num_envs, size), np.float32, self._last.buf)
        ctx = mp.get_context(context or ("fork" if sys.platform == "linux" else "spawn"))
        self._pipes: list[Connection] = []
        self._procs: list[Any] = []
        names = [(a.name, b.name) for a, b in self._blocks] + [(self._small.name, self._last.name)]
        config = (self.rules, list(opponents), privileged, history, num_envs)
        # shard 0 is played here, between sending the others their actions and reading
        # their answers: this process would only wait otherwise
        self._local = _Shard(names, bounds[0], bounds[1], config) if local else None
        for k in range(1 if local else 0, shards):
            here, there = ctx.Pipe()
            p = ctx.Process(  # type: ignore[attr-defined]
                target=_worker, args=(there, names, bounds[k], bounds[k + 1], config), daemon=True
            )
            p.start()
            there.close()
            self._pipes.append(here)
            self._procs.append(p)
        # (rewards float32, seats int32, samples int32, dones int8, cut int8 per deal)
        small = self._small
        self._rewards = np.ndarray((num_envs,), np.float32, small.buf, 0)
        self._seats = np.ndarray((num_envs,), np.int32, small.buf, 4 * num_envs)
        self._samples = np.ndarray((num_envs,), np.int32, small.buf, 8 * num_envs)
        self._dones = np.ndarray((num_envs,), np.bool_, small.buf, 12 * num_envs)
        self._cut = np.ndarray((num_envs,), np.bool_, small.buf, 13 * num_envs)
        self._hist: np.ndarray | None = (
            np.zeros((num_envs, history, 2), np.int32) if history else None
        )
        self._no_actions = np.zeros(n_act, np.int8)  # (the ended deals' masks, read-only)
        self._no_actions.flags.writeable = False
        self.moves = 0
        self.deals_done = 0
        self._last_slot = _POOL  # (the pool slot of ``_out``; _POOL: none)
        self._closed = False

    def _free(self) -> int:
        """A pool slot whose arrays nobody outside holds (without copy: always slot 0;
        if every one is held: the scratch slot, copied out)."""
        if not self._copy:
            return 0
        # The last pair first, counting the env's own reference to it (``_out``): a
        # caller that lets go of each step's arrays gets the same pair written again
        # (half the memory a step writes, as the one-process env's pool).
        last = self._last_slot
        for k in [last, *range(_POOL)] if last < _POOL else range(_POOL):
            obs, mask = self._pool[k]
            own = 1 if k == last else 0
            # (the pool's tuple, ``obs`` here and getrefcount's argument: three references)
            if (
                sys.getrefcount(obs) == 3 + own
                and sys.getrefcount(mask) == 3 + own
                and not weakref.getweakrefcount(obs)
                and not weakref.getweakrefcount(mask)
            ):
                return k
        return _POOL

    def _call(self, what: str, payloads: list[Any]) -> list[Any]:
        slot = self._free()
        local = self._local
        for pipe, payload in zip(self._pipes, payloads[1 if local else 0 :], strict=True):
            pipe.send((what, slot, payload))
        answers = [] if local is None else [local.handle(what, slot, payloads[0])]
        answers += [pipe.recv() for pipe in self._pipes]
        for a in answers:
            if isinstance(a, BaseException):
                raise a
        obs, mask = self._pool[slot]
        if slot == _POOL:
            obs, mask = obs.copy(), mask.copy()
        self._out = (obs, mask)
        self._last_slot = slot
        return answers

    def _gather(self, answers: list[Any]) -> dict[str, Any]:
        info: dict[str, Any] = {}
        ended = 0
        last_history: dict[int, np.ndarray] = {}
        for k, (moves, deals, hist, final_hist) in enumerate(answers):
            lo, hi = self._bounds[k], self._bounds[k + 1]
            if self._hist is not None:
                self._hist[lo:hi] = hist
                for i, rows in final_hist.items():
                    last_history[lo + i] = rows
            self.moves += moves
            self.deals_done += deals
            ended += deals
        info["seat"] = self._seats.astype(np.int64)
        if ended:
            # the ended deals' last views, from the shared block the shards wrote them in
            history = last_history if self._hist is not None else None
            final_observations(info, self._final, self._dones, self._no_actions, history)
        return info

    def _observations(self) -> dict[str, Any]:
        obs, mask = self._out
        out = {"observation": obs, "action_mask": mask}
        if self._hist is not None:
            out["history"] = self._hist.copy()
        return out

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if isinstance(seed, Sequence):
            seed = int(seed[0]) if seed else None
        seeds = [None if seed is None else seed * self.shards + k for k in range(self.shards)]
        self.moves = self.deals_done = 0
        info = self._gather(self._call("reset", seeds))
        info.pop("final_obs", None)
        info.pop("_final_obs", None)
        return self._observations(), info

    def step(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        a = np.asarray(actions).reshape(-1).tolist()
        b = self._bounds
        info = self._gather(self._call("step", [a[b[k] : b[k + 1]] for k in range(self.shards)]))
        done, cut = self._dones, self._cut
        return self._observations(), self._rewards.copy(), done & ~cut, cut.copy(), info

    def set_opponents(self, opponents: Sequence[Any]) -> None:
        """Play against ``opponents`` from the next move on, in every shard (as
        :meth:`DurakVectorEnv.set_opponents`; they must pickle, for the workers)."""
        specs = list(opponents)
        local = self._local
        for pipe in self._pipes:
            pipe.send(("opponents", 0, specs))
        answers = [] if local is None else [local.set_opponents(specs)]
        answers += [pipe.recv() for pipe in self._pipes]
        for a in answers:
            if isinstance(a, BaseException):
                raise a

    def sample_legal(self) -> np.ndarray:
        """A uniformly random legal action for every deal, drawn by the workers after
        the last step (no round trip)."""
        return self._samples.astype(np.int64)

    def action_masks(self) -> np.ndarray:
        """The legal actions of every deal now, as booleans ``(num_envs, actions)``."""
        return self._out[1].view(bool)

    def close(self, **kwargs: Any) -> None:
        if self._closed:
            return
        self._closed = True
        for pipe in self._pipes:
            with contextlib.suppress(OSError):  # (a worker gone already)
                pipe.send(("close", 0, None))
        for p in self._procs:
            p.join(timeout=5)
        if self._local is not None:
            self._local.close()
            self._local = None
        self._pool.clear()
        self._out = (np.zeros(0), np.zeros(0))
        del self._rewards, self._seats, self._samples, self._dones, self._cut, self._final
        for m in [m for pair in self._blocks for m in pair] + [self._small, self._last]:
            with contextlib.suppress(BufferError):  # (an array a caller still holds)
                m.close()
            m.unlink()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # (at exit, the pipes may be gone already)
            self.close()


class _Shard:
    """Deals ``lo`` to ``hi`` of the env: a one-process env of their own, whose compiled
    core writes into their rows of the shared blocks (``names``: the output pairs, then
    the small block and the last views' block); ``config``: the rules, opponents,
    privileged, history and num_envs of the env."""

    def __init__(
        self,
        names: list[tuple[str, str]],
        lo: int,
        hi: int,
        config: tuple[Rules, list[Any], bool, int, int],
    ) -> None:
        from .vector import DurakVectorEnv

        rules, opponents, privileged, history, n = config
        self.lo, self.hi, self.history = lo, hi, history
        small_name, last_name = names[-1]
        self.shm = [_Shm(small_name), _Shm(last_name)]
        self.shm += [_Shm(x) for pair in names[:-1] for x in pair]
        small, last = self.shm[0].buf, self.shm[1].buf
        assert small is not None and last is not None
        # (its own generator: the deals and opponents draw from the env's, as in one
        # process)
        self.sampler = random.Random(lo)
        self.env = DurakVectorEnv(
            hi - lo, rules, opponents, privileged, copy=False, history=history
        )
        core = self.env.stepper
        size, n_act = core.obs_size, core.num_actions
        # this shard's rows of the small block (as the core's own buffers' types) and of
        # the last views' block: the core writes them itself
        self.outs = (
            small[4 * lo : 4 * hi].cast("f"),
            small[12 * n + lo : 12 * n + hi].cast("b"),
            small[13 * n + lo : 13 * n + hi].cast("b"),
            small[4 * n + 4 * lo : 4 * n + 4 * hi].cast("i"),
            last[lo * size * 4 : hi * size * 4],
        )
        self.samples = small[8 * n + 4 * lo : 8 * n + 4 * hi].cast("i")
        # each pool slot's rows of this shard, as the byte buffers the core writes into
        self.rows: list[tuple[memoryview, memoryview]] = []
        for k in range(len(names) - 1):
            a, b = self.shm[2 + 2 * k].buf, self.shm[3 + 2 * k].buf
            assert a is not None and b is not None
            self.rows.append((a[lo * size * 4 : hi * size * 4], b[lo * n_act : hi * n_act]))
        self._attach()

    def _attach(self) -> None:
        """The core writes its flags, rewards, seats and last views into shared memory
        (a new core after a seeded reset: its numbers so far copied there)."""
        core = self.env.stepper
        rewards, dones, cut, seats, final = self.outs
        if core.rewards is rewards:
            return
        for out, mine in ((rewards, core.rewards), (dones, core.dones), (cut, core.truncated)):
            out[:] = mine
        for i, seat in enumerate(core.seats):
            seats[i] = seat
        core.rewards, core.dones, core.truncated, core.seat_out = rewards, dones, cut, seats
        core.final = final

    def handle(self, what: str, slot: int, payload: Any) -> Any:
        """Reset (``payload``: the seed) or step (the actions) into pool slot ``slot``:
        (moves played, deals ended, history rows, the ended deals' last history rows)."""
        env = self.env
        core = env.stepper
        if what == "reset":
            # (rare: the env's own reset, its rows copied into the shared ones)
            obs, _ = env.reset(seed=payload)
            core = env.stepper
            before_moves = before_deals = 0
            x, m = self.rows[slot]
            np.frombuffer(x, np.float32)[:] = obs["observation"].reshape(-1)
            np.frombuffer(m, np.int8)[:] = obs["action_mask"].reshape(-1)
            del obs, x, m
            self._attach()
        else:
            before_moves, before_deals = core.moves, core.deals
            core.obs, core.masks = self.rows[slot]
            core.step(payload)
        core.sample_into(self.samples, self.sampler)
        deals = core.deals - before_deals
        history: Any = None
        final: Any = None
        if self.history:
            history = env.history_rows()
            final = {}
            if deals:
                k = self.history
                dones = self.outs[1]
                for i in range(self.hi - self.lo):
                    if dones[i]:
                        final[i] = np.array(core.final_history[i], np.int32).reshape(k, 2)
        return core.moves - before_moves, deals, history, final

    def set_opponents(self, specs: list[Any]) -> BaseException | None:
        """The env's new opponents, or the error to raise in the caller."""
        try:
            self.env.set_opponents(specs)
        except Exception as e:  # (raised in the caller)
            return e
        return None

    def close(self) -> None:
        # (the views first: a mapping with a view over it cannot be closed)
        self.rows.clear()
        core = self.env.stepper
        core.rewards = core.dones = core.truncated = core.seat_out = core.final = None
        for view in self.outs:
            view.release()
        self.samples.release()
        del self.env
        for m in self.shm:
            with contextlib.suppress(BufferError):
                m.close()


def _worker(
    pipe: Connection,
    names: list[tuple[str, str]],
    lo: int,
    hi: int,
    config: tuple[Rules, list[Any], bool, int, int],
) -> None:
    """A worker process: one :class:`_Shard`, stepped at each message."""
    shard = _Shard(names, lo, hi, config)
    while True:
        what, slot, payload = pipe.recv()
        if what == "close":
            break
        if what == "opponents":
            pipe.send(shard.set_opponents(payload))
            continue
        try:
            pipe.send(shard.handle(what, slot, payload))
        except Exception as e:  # the caller raises it
            pipe.send(e)
    shard.close()
