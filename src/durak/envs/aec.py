"""The PettingZoo env's state and its hot path: ``last``, ``step``, ``observe`` and
``agent_iter``, compiled with the engine (mypyc, :data:`durak.build.ENGINE`).

:class:`durak.envs.pettingzoo.raw_env` is a Python class on this one and on PettingZoo's
``AECEnv``: PettingZoo's own methods (``_was_dead_step``, ``_accumulate_rewards``, ...) and
the rare paths (a deal's end, an illegal or malformed action, an agent already done) stay
in Python; a legal move in a live deal and the observation after it run here, where the
interpreter's attribute and dictionary lookups cost most of a step
(``benchmarks/envs/README.md``). No numpy here: the arrays come from ``fill``
(:func:`durak.envs.encoding.array_view`) or, without it, ``wrap`` turns the encoder's bytes
into arrays.

>>> from durak import Rules
>>> core = AECCore(Rules(action_limit=1000))
>>> core.possible_agents, core.agents
(['player_0', 'player_1'], [])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from mypy_extensions import mypyc_attr

from ..errors import UsageError
from ..game import Game
from ..rules import Rules
from .stepper import ArrayView, Stepper

# agent_iter's bounds from here up are never reached (4.6e18 steps)
_UNBOUNDED: Final = 2**62

# the encoder's bytes (vector, mask) -> the two arrays, where there is no ``fill``
Wrap = Callable[[bytearray, bytearray], tuple[Any, Any]]


@mypyc_attr(allow_interpreted_subclasses=True)
class AECCore:
    """The AEC bookkeeping of one deal (PettingZoo's attribute names and meanings)."""

    def __init__(self, rules: Rules, privileged: bool = False) -> None:
        self.rules = rules
        self.stepper = Stepper(rules, privileged)
        self.fill: ArrayView | None = None
        self.wrap: Wrap | None = None
        self.possible_agents: list[str] = [f"player_{i}" for i in range(rules.players)]
        self.agent_name_mapping: dict[str, int] = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        self.agent_selection = ""
        self.rewards: dict[str, float] = {}
        # (values of Any: last() hands them on as the objects they are, not unboxed from
        # the dict and boxed again into its tuple)
        self._cumulative_rewards: dict[str, Any] = {}
        self.terminations: dict[str, Any] = {}
        self.truncations: dict[str, Any] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        # the arrays of the present state last made, and whose they are ("": none yet):
        # last(), a logger and a wrapper asking again for that agent get the same arrays
        # (in a new dict). One slot, not a dict by agent: a step empties it by a store,
        # and a learner asks for the agent on move (one dict lookup, one store and one
        # clear less a step)
        self.seen_agent = ""
        self.seen: tuple[Any, Any] = (None, None)
        self.game: Game | None = None
        # with history=K: a durak.envs.history.History, whose rows go in each observation
        self.history: Any = None
        # True from the deal's end (or before the first reset): step() takes the slow path
        self._over = True
        self._human = False

    def _start(self, g: Game) -> None:
        """A new deal: every agent live, nothing seen yet."""
        self.game = g
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.stepper.start(g)
        self.seen_agent = ""
        to_act = g.to_act
        assert to_act is not None
        self.agent_selection = self.agents[to_act]
        self._over = False

    def observe(self, agent: str) -> dict[str, Any]:
        seen = self.seen if agent == self.seen_agent else _observed(self, agent)
        obs = {"observation": seen[0], "action_mask": seen[1]}
        if self.history is not None:
            _add_history(self, agent, obs)
        return obs

    def last(self, observe: bool = True) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        agent = self.agent_selection
        obs: Any = None
        if observe:
            seen = self.seen if agent == self.seen_agent else _observed(self, agent)
            obs = {"observation": seen[0], "action_mask": seen[1]}
            if self.history is not None:
                _add_history(self, agent, obs)
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act next, until every agent is done (as AECEnv's)."""
        if max_iter >= _UNBOUNDED:
            # (AECEnv's default, 2**63, is past a machine int: counting it down would be
            # big-int arithmetic every step, for a bound no run can reach)
            while self.agents:
                yield self.agent_selection
            return
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def step(self, action: Any) -> None:
        # A legal action number in a live deal is the whole hot path; every other case
        # (the deal ending, an agent already done, an illegal or malformed action) is
        # _slow_step's, in Python.
        if not self._over and type(action) is int:
            to_act = self.stepper.play(action)
            if to_act >= 0:
                self.seen_agent = ""
                self.agent_selection = self.possible_agents[to_act]
                if self._human:
                    self._render_human()
                return
            self._slow_step(action, to_act)
            return
        self._slow_step(action, None)

    def _slow_step(self, action: Any, played: int | None) -> None:
        """Every case of step() but a legal move that leaves the deal live; ``played`` is
        what the stepper answered to ``action`` (None: not tried)."""
        raise NotImplementedError

    def _render_human(self) -> None:
        raise NotImplementedError


def _add_history(core: AECCore, agent: str, obs: dict[str, Any]) -> None:
    """``agent``'s last K moves into ``obs`` (``history=K``)."""
    g = core.game
    log = core.stepper.log
    if g is None or log is None:
        raise UsageError("observe() before reset()")
    obs["history"] = core.history.rows(g, log, core.agent_name_mapping[agent])


def _observed(core: AECCore, agent: str) -> tuple[Any, Any]:
    """``agent``'s arrays of the present state, made now and kept (a function, not a
    method: compiled code calls a method of a class open to interpreted subclasses
    through Python)."""
    if core.game is None:
        raise UsageError("observe() before reset()")
    # new arrays (never written again: an observation handed out does not change)
    g = core.game
    to_act = g.to_act
    # (the agent on move, as step() named it: its seat without a dict lookup)
    seat = (
        to_act
        if to_act is not None and agent is core.possible_agents[to_act]
        else core.agent_name_mapping[agent]
    )
    fill = core.fill
    if fill is not None:
        seen = core.stepper.arrays(seat, fill)
    else:
        wrap = core.wrap
        assert wrap is not None
        x, mask = core.stepper.view(seat)
        seen = wrap(x, mask)
    core.seen_agent = agent
    core.seen = seen
    return seen
