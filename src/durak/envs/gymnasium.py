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

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..actions import Action
from ..bots import BaseBot, Bot, make
from ..errors import ArgumentError, ArgumentTypeError, IllegalActionError, UsageError
from ..game import Game
from ..rules import Rules
from ..seats import seated
from .bits import legal_indices, legal_moves
from .encoding import Encoder, array_view, mask_of
from .episode import learning_presets, learning_rules, returns
from .history import History
from .stepper import ILLEGAL, Stepper
from .vecstep import Opponent, Opponents

ILLEGAL_REWARD = -1.0

# A trained policy as an opponent: (observation vector, action mask) -> action number.
Policy = Callable[[np.ndarray, np.ndarray], Any]
# What ``opponents=`` may hold: a bot spec ("greedy", "level3"), a Bot, or a Policy.
OpponentSpec = str | Bot | Policy
_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)


def bot_opponent(bot: Bot) -> Opponent:
    """A bot as an opponent of the compiled loop (:class:`durak.envs.vecstep.Opponents`):
    its move, played as it is (actions are interned: the bot's pick from its observation
    is one of the legal moves)."""

    def choose(g: Game, seat: int) -> Action:
        return bot.choose(g.observation(seat))

    return choose


def policy_opponent(encoder: Encoder, size: int, policy: Policy) -> Opponent:
    """A policy ``(observation, action_mask) -> action number`` as an opponent, given
    what a learner in that seat would get; its number turned back into the move (the
    legal list is the engine's, built once a move)."""

    def play(g: Game, seat: int) -> Action:
        legal = legal_indices(g)
        index = int(policy(encoder.encode(g, seat), mask_of(legal, size)))
        for k in range(len(legal)):
            if legal[k] == index:
                return legal_moves(g)[k]
        raise IllegalActionError(f"opponent policy in seat {seat}: action {index} is not legal")

    return play


class DurakEnv(gym.Env[dict[str, Any], np.int64]):
    """One seat of ``rules`` against ``opponents`` (see the module docstring).

    ``history=K`` adds ``"history"``: the last K moves, ``(K, 2)`` int32 rows of (seat
    counted from the learner, action number), oldest first, ``-1`` before the deal's
    first move (:mod:`durak.envs.history`).

    A step is one compiled call for the learner's move (:class:`~durak.envs.stepper.Stepper`)
    and one for the opponents' (:class:`~durak.envs.vecstep.Opponents`: ``"random"``
    plays there without leaving compiled code; a bot or policy is called from it); what
    kind of player each seat has is settled once a deal, not at every move.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        rules: Rules | str | None = None,
        opponents: Sequence[OpponentSpec] = ("random",),
        seat: int | None = None,
        render_mode: str | None = None,
        privileged: bool = False,
        history: int = 0,
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
            elif not (callable(getattr(spec, "choose", None)) or callable(spec)):
                raise ArgumentTypeError(f"opponents: a bot spec, a Bot or a policy, not {spec!r}")
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.encoder = Encoder(self.rules, privileged)
        self._stepper = Stepper(self.rules, privileged)
        self._fill = array_view(self.rules, privileged)
        size = self._stepper.actions.size
        self._size = size
        self._history = History(self.rules, history) if history else None
        parts: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        }
        if self._history is not None:
            parts["history"] = self._history.space
        self.observation_space = spaces.Dict(parts)
        self.action_space = spaces.Discrete(size)
        self.game: Game | None = None
        self.seat = 0
        self.bots: list[Bot | Policy | None] = []
        self._ops = Opponents(self.rules, [None], random.Random(0))
        self._watchers: list[tuple[int, Any]] = []  # bots that observe every move
        self._seats: list[int] | None = [] if history else None

    @property
    def _legal(self) -> list[int]:
        return self._stepper.legal

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (sb3-contrib's masking protocol)."""
        return mask_of(self._stepper.legal, self._size).view(bool)

    def _obs(self) -> dict[str, Any]:
        g = self.game
        assert g is not None
        fill = self._fill
        if fill is not None:
            x, mask = self._stepper.arrays(self.seat, fill)
        else:
            raw, bits = self._stepper.view(self.seat)
            x = np.frombuffer(raw, _FLOAT32)
            mask = np.frombuffer(bits, _INT8)
        obs = {"observation": x, "action_mask": mask}
        if self._history is not None:
            assert self._seats is not None
            obs["history"] = self._history.rows(g, self._seats, self.seat)
        return obs

    def _info(self) -> dict[str, Any]:
        outcome = self.game.outcome if self.game is not None else None
        return {
            "seat": self.seat,
            "legal": list(self._stepper.legal),
            "outcome": None if outcome is None else str(outcome),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.rules.players
        while True:
            self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
            # what plays each seat, settled once a deal (not at every move): ops[k] the
            # seat k + 1 places after the learner's
            self.bots = [None] * n
            ops: list[Opponent | None] = []
            self._watchers = []
            for k in range(n - 1):
                s = (self.seat + 1 + k) % n
                spec = self.opponents[k % len(self.opponents)]
                seed = int(rng.integers(2**31))
                if isinstance(spec, str):
                    if spec == "random":
                        ops.append(None)  # (played in compiled code)
                        continue
                    spec = make(spec, seed=seed)
                if callable(getattr(spec, "choose", None)):
                    bot = seated(s, spec)  # (the one check that it is a bot)
                    assert bot is not None
                    self.bots[s] = bot
                    bot.reset()
                    if type(bot).observe is not BaseBot.observe:  # (it remembers: it watches)
                        self._watchers.append((s, bot.observe))
                    ops.append(bot_opponent(bot))
                else:
                    self.bots[s] = spec
                    # (no choose: a policy, as the constructor checked)
                    ops.append(policy_opponent(self.encoder, self._size, cast(Policy, spec)))
            self._ops = Opponents(self.rules, ops, random.Random(int(rng.integers(2**63))))
            g = self.game = Game(self.rules, seed=int(rng.integers(2**63)))
            if self._seats is not None:
                self._seats = []
            self._stepper.start(g)
            self._play_opponents()
            if not g.is_over:  # (a deal the learner never plays is dealt again)
                return self._obs(), self._info()

    def _play_opponents(self) -> int:
        """The opponents' moves until the learner is to act (its seat) or the end (-1)."""
        g = self.game
        assert g is not None
        seat = self.seat
        to_act: int | None = g.to_act
        if self._watchers:
            to_act = self._play_watched(g)
        elif to_act is not None and to_act != seat:
            to_act = self._ops.play(g, seat, self._seats)
        if to_act is None or to_act < 0:
            self._stepper.forfeit()
            return -1
        self._stepper.start(g)
        return int(to_act)

    def _play_watched(self, g: Game) -> int:
        """As :meth:`Opponents.play`, one move at a time, for bots that watch every move
        (``observe``: they see each position of the others' moves)."""
        seat, n = self.seat, self.rules.players
        while g.to_act is not None and g.to_act != seat:
            s = g.to_act
            for i, watch in self._watchers:
                if i != s:
                    watch(g.observation(i))
            # (one move of the compiled loop: it plays seat s and stops at the next seat)
            ops = self._ops.ops
            who = ops[((s - seat) % n - 1) % len(ops)]
            moves = legal_moves(g)
            a = moves[int(self._ops.rand() * len(moves))] if who is None else who(g, s)
            if a not in moves:
                raise IllegalActionError(f"opponent in seat {s}: {a} is not legal now")
            if self._seats is not None:
                self._seats.append(s)
            g.play(a)
        return -1 if g.to_act is None else g.to_act

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        g = self.game
        if g is None:
            raise UsageError("step() before reset()")
        try:
            index = int(action)
        except (TypeError, ValueError, OverflowError):
            index = -1
        stepper, seat, fill = self._stepper, self.seat, self._fill
        if fill is not None and self._history is None and not self._watchers:
            # the hot path, inline: the learner's move and the opponents' in one compiled
            # call, the view in one C call, no Python frame more
            played = stepper.advance(index, seat, self._ops, None)
            if played >= 0:
                x, mask = stepper.arrays(seat, fill)
                info = {"seat": seat, "legal": list(stepper.legal), "outcome": None}
                return {"observation": x, "action_mask": mask}, 0.0, False, False, info
        elif self._watchers:
            played = self._stepper.play(index)
            if played != ILLEGAL and self._seats is not None:
                self._seats.append(self.seat)  # (a move that ended the deal counts too)
            if played >= 0 and played != self.seat:
                self._play_opponents()
        else:
            played = stepper.advance(index, seat, self._ops, self._seats)
        if played == ILLEGAL:
            # as check_env and masked learners expect: an illegal action ends the episode
            self._stepper.forfeit()
            info = self._info()
            info["illegal"] = True
            return self._obs(), ILLEGAL_REWARD, True, False, info
        outcome = g.outcome
        if outcome is None:
            return self._obs(), 0.0, False, False, self._info()
        reward = returns(self.rules, outcome)[self.seat]
        cut = outcome.truncated
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
            # (Gymnasium's passive checker checks the first reset and step only, but stays
            # a wrapper layer on every step; the env passes check_env in the test suite.
            # gym.make(..., disable_env_checker=False) adds it back)
            disable_env_checker=True,
        )
