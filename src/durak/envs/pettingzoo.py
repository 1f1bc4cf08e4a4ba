"""PettingZoo AEC environment: every seat an agent, ``player_0`` .. ``player_{n-1}``.

Built like PettingZoo's classic card games: ``Discrete(rules.num_actions)`` actions in the
engine's fixed encoding (:mod:`durak.actions`), a dict observation with ``"observation"``
(:mod:`durak.envs.encoding`) and an int8 ``"action_mask"`` (all zeros for an agent not on
move). The checks of PettingZoo's classic wrappers are built in, because its wrapper
chain costs more per step than the whole game (see ``benchmarks/envs``): an illegal
action ends the deal with a -1 penalty for the offender (0 for the others), an action
out of bounds and a call before ``reset()`` raise. ``env(wrappers=True)`` adds
PettingZoo's own wrappers around it as well. Rewards at the end: the durak -1, the others share +1
(team play: -1 / +1 per side), a draw 0. A deal cut off by ``action_limit`` is reported in
``truncations``, not ``terminations``.

>>> from durak.envs.pettingzoo import env
>>> e = env(rules="perevodnoy(players=3)")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     legal = obs["action_mask"].nonzero()[0]
...     e.step(None if terminated or truncated else int(legal[0]))
>>> sorted(e.rewards) == [], e.metadata["name"]
(True, 'durak_v0')
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers as _wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..actions import encoding
from ..errors import ArgumentError, IllegalActionError, UsageError
from ..game import Game
from ..rules import Rules
from .aec import AECCore
from .encoding import Encoder, array_view
from .episode import learning_rules, returns
from .history import History
from .stepper import ILLEGAL as _ILLEGAL
from .stepper import OVER

ILLEGAL_REWARD = -1.0
_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)
_ARRAY = np.ndarray  # (an array on a buffer: a little cheaper than np.frombuffer)


def _wrap(
    obs_shape: tuple[int], mask_shape: tuple[int], x: bytearray, mask: bytearray
) -> tuple[np.ndarray, np.ndarray]:
    """The encoder's new bytes as the two arrays, without copying (where the C helper of
    :func:`durak.envs.encoding.array_view` is not built)."""
    return _ARRAY(obs_shape, _FLOAT32, x), _ARRAY(mask_shape, _INT8, mask)


def env(wrappers: bool = False, **kwargs: Any) -> AECEnv:
    """The environment: ``env(rules="podkidnoy(players=3)", render_mode="ansi")``.

    ``wrappers=True``: inside PettingZoo's TerminateIllegal, AssertOutOfBounds and
    OrderEnforcing wrappers too (the same behaviour). Their checks are the env's own, so
    the outermost wrapper sends a legal move in a live deal, ``last()``, ``observe()``
    and ``agent_iter()`` straight to the env, and everything else (before ``reset``, a
    done agent, an illegal or malformed action) through PettingZoo's three wrappers as
    they are (:class:`OrderEnforcing`).

    >>> e = env(wrappers=True)
    >>> e.reset(seed=0)
    >>> for agent in e.agent_iter():
    ...     obs, _, term, trunc, _ = e.last()
    ...     e.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    >>> type(e).__name__, e.unwrapped.game.is_over
    ('OrderEnforcing', True)
    """
    e: AECEnv = raw_env(**kwargs)
    if wrappers:
        e = _wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
        e = _wrappers.AssertOutOfBoundsWrapper(e)
        e = OrderEnforcing(e)
    return e


class OrderEnforcing(_wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` over its TerminateIllegal and
    AssertOutOfBounds wrappers over :class:`raw_env`, with the per-step Python work they
    need not do skipped: after ``reset``, a legal action number in a live deal (which
    neither inner wrapper acts on) goes straight to the env, as do ``last``, ``observe``
    and the agent loop; every other call takes PettingZoo's own path. The behaviour is
    PettingZoo's: ``agent_iter`` still insists on a ``step`` a turn."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        raw = env.unwrapped
        assert isinstance(raw, raw_env)
        self.__dict__["_raw"] = raw
        # the TerminateIllegal wrapper: a deal it ended is not live for the env
        inner = env
        while not isinstance(inner, _wrappers.TerminateIllegalWrapper):
            inner = inner.env
        self.__dict__["_terminate"] = inner

    def step(self, action: Any) -> None:
        raw = self._raw
        if isinstance(action, np.integer):
            action = int(action)  # (a learner's numpy number: the same action)
        if (
            type(action) is int
            and not raw._over  # noqa: SLF001  (the env's own flag: the deal is live)
            and self._has_reset
            and action in raw.stepper.legal
            and not self._terminate._terminated  # noqa: SLF001  (PettingZoo's: a deal it ended)
        ):
            self._has_updated = True
            # (the mask TerminateIllegal kept is stale after this move, as its step clears it)
            self._terminate._prev_obs = None  # noqa: SLF001
            raw.step(action)
            return
        super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        if self._has_reset:
            return self._raw.last(observe)  # type: ignore[no-any-return]
        return super().last(observe)  # type: ignore[no-any-return]

    def observe(self, agent: str) -> Any:
        if self._has_reset:
            return self._raw.observe(agent)
        return super().observe(agent)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return self._agents(max_iter)

    def _agents(self, max_iter: int) -> Any:
        raw = self._raw
        while raw.agents and max_iter > 0:
            max_iter -= 1
            if not self._has_updated:
                raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
            self._has_updated = False
            yield raw.agent_selection


class raw_env(AECCore, AECEnv):  # type: ignore[misc]  # noqa: N801 (PettingZoo's name)
    """The environment without PettingZoo's checking wrappers (see :func:`env`).

    ``rules``: a Rules or its text form (default podkidnoy), with ``action_limit`` turned
    on unless given; ``privileged=True`` adds every hand to each observation (for
    centralised critics); ``history=K`` adds ``"history"`` to each observation, the last
    K moves as ``(K, 2)`` int32 rows (seat counted from the observer, action number),
    oldest first, ``-1`` before the first (:mod:`durak.envs.history`). ``last``,
    ``step``, ``observe`` and ``agent_iter`` are
    :class:`durak.envs.aec.AECCore`'s (compiled with the engine).
    """

    metadata: dict[str, Any] = {
        "name": "durak_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str | None = None,
        render_mode: str | None = None,
        privileged: bool = False,
        history: int = 0,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(f"render_mode: one of {self.metadata['render_modes']}")
        AECCore.__init__(self, learning_rules(rules), privileged)
        if history:
            self.history = History(self.rules, history)
            self.stepper.keep_log()
        self.render_mode = render_mode
        self._human = render_mode == "human"
        self.encoder = Encoder(self.rules, privileged)
        self.num_actions = encoding(self.rules).size
        parts: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        }
        if self.history is not None:
            parts["history"] = self.history.space
        obs_space = spaces.Dict(parts)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self.fill = array_view(self.rules, privileged)
        self.wrap = partial(_wrap, (self.encoder.size,), (self.num_actions,))
        # The global state for centralised critics (state()): every hand, seen from seat 0.
        self._state_encoder = Encoder(self.rules, privileged=True)
        self.state_space = spaces.Box(0.0, 1.0, (self._state_encoder.size,), np.float32)

    def state(self) -> np.ndarray:
        """The whole deal as one array (every hand, the talon's size, the table...), the
        same whichever agent is to act: the privileged encoding from seat 0's side. For
        centralised critics only; a policy fed it sees hidden cards."""
        if self.game is None:
            raise UsageError("state() before reset()")
        return self._state_encoder.encode(self.game, 0)

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self._start(Game(self.rules, seed=int(self._np_random.integers(2**63))))

    def _slow_step(self, action: Any, played: int | None) -> None:
        agent = self.agent_selection
        if self.game is None:
            raise UsageError("step() before reset()")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        to_act = played
        if to_act is None or to_act == _ILLEGAL:
            if action is None or not 0 <= action < self.num_actions:
                raise IllegalActionError(
                    f"{agent}: action {action!r} out of bounds 0..{self.num_actions - 1}"
                )
            to_act = self.stepper.play(int(action))  # (a numpy integer, say)
        self._cumulative_rewards[agent] = 0.0
        self.seen_agent = ""
        if to_act >= 0:
            self.agent_selection = self.possible_agents[to_act]
        elif to_act == OVER:
            g = self.game
            ends = returns(self.rules, g.outcome)
            cut = g.outcome is not None and g.outcome.truncated
            for i, a in enumerate(self.agents):
                self.rewards[a] = ends[i]
                if cut:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
            self._over = True
            self._accumulate_rewards()
        else:
            # as PettingZoo's TerminateIllegalWrapper: the offender is penalised, all end
            EnvLogger.warn_on_illegal_move()
            self.stepper.forfeit()
            for a in self.agents:
                self.rewards[a] = ILLEGAL_REWARD if a == agent else 0.0
                self.terminations[a] = True
            self._over = True
            self._accumulate_rewards()
            self._deads_step_first()
            return
        if self._human:
            self._render_human()

    def _render_human(self) -> None:
        print(self._text())

    def render(self) -> str | None:
        """``ansi``: the deal as text; ``human``: printed, returning None (PettingZoo's
        render contract); no render mode: None."""
        if self.render_mode is None:
            return None
        if self._human:
            self._render_human()
            return None
        return self._text()

    def _text(self) -> str:
        g = self.game
        if g is None:
            return ""
        lines = [f"{self.rules}  trump {g.trump}  talon {g.talon_size}  bout {g.bout}"]
        for s, h in enumerate(g.hands):
            mark = "*" if s == g.to_act else " "
            lines.append(f"{mark} player_{s}: {h}")
        lines.append("table: " + " ".join(f"{a}/{b}" if b else str(a) for a, b in g.table))
        if g.outcome is not None:
            lines.append(f"result: {g.outcome}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


try:  # PettingZoo 1.27+ keeps a registry; older ones are used by import only
    from pettingzoo import register as _register
except ImportError:  # pragma: no cover
    pass
else:
    _register("aec", "durak/durak_v0", "durak.envs.pettingzoo:env")
