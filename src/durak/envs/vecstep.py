"""Many deals stepped in one call: the vectorised environment's compiled core.

Compiled with the engine (mypyc, :data:`durak.build.ENGINE`), so it uses no numpy: it
writes every environment's observation and action mask into two preallocated byte
buffers that :class:`durak.envs.vector.DurakVectorEnv` wraps once as numpy arrays.

Each of the ``n`` environments is one deal in which the learner holds one seat (drawn
anew each deal) and the other seats are opponents: ``None`` plays a uniformly random
legal move inside this loop, without leaving compiled code; any other opponent is a
callable ``(game, seat) -> action number`` (the Python side wraps bots and policies so).
:meth:`VecStepper.step` plays the learner's action in every environment, then the
opponents until the learner is to act again or the deal ends; a finished deal is dealt
again at once (autoreset in the same step: the observation returned is the new deal's,
the reward and the done flag are the old one's).

>>> from durak import Rules
>>> v = VecStepper(Rules(), 4, [None], seed=1)
>>> v.reset()
>>> len(v.obs) == 4 * v.obs_size * 4, len(v.masks) == 4 * v.num_actions
(True, True)
>>> rewards = v.step(v.sample_legal())
>>> len(rewards), set(v.dones) <= {0, 1}
(4, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from ..game import Game
from ..rules import Rules
from .bits import deck_slot, legal_indices
from .episode import returns
from .stepper import ILLEGAL, OVER, ArrayView, Stepper

ILLEGAL_REWARD: Final = -1.0

# An opponent outside compiled code: (the game, its seat) -> an action number.
Opponent = Callable[[Game, int], int]


class VecStepper:
    """``n`` deals of ``rules`` with the learner in one seat of each (see the module
    docstring). ``opponents[i]`` plays the i-th seat after the learner's (repeated round
    the table); ``None`` is a random player."""

    def __init__(
        self,
        rules: Rules,
        n: int,
        opponents: Sequence[Opponent | None],
        seed: int = 0,
        privileged: bool = False,
        fill: ArrayView | None = None,
    ) -> None:
        if n < 1:
            raise ValueError(f"n: at least one environment, not {n}")
        if not opponents:
            raise ValueError("opponents: at least one (None plays at random)")
        self.rules = rules
        self.n = n
        self.opponents: list[Opponent | None] = list(opponents)
        self.steppers = [Stepper(rules, privileged) for _ in range(n)]
        self.obs_size: int = self.steppers[0].planes.size
        self.num_actions: int = self.steppers[0].actions.size
        self.obs = bytearray(n * self.obs_size * 4)
        self.masks = bytearray(n * self.num_actions)
        self.seats = [0] * n
        self.dones = [0] * n
        self.truncated = [0] * n
        self.deals = 0  # deals finished, all environments together
        self.moves = 0  # engine actions played (learners' and opponents'), all together
        self.rng = random.Random(seed)
        self._slot = deck_slot(rules)
        self._shown: list[list[int]] = [[] for _ in range(n)]  # the mask's 1s now
        # the C helper that makes a view's two arrays (durak.envs.encoding.array_view),
        # several times faster than Planes.encode; None: Planes' bytes (the pure engine)
        self._fill = fill

    def reset(self) -> None:
        """A new deal in every environment."""
        for i in range(self.n):
            self._deal(i)
            self._write(i)

    def sample_legal(self) -> list[int]:
        """A uniformly random legal action number for each environment (random masked
        play without building the mask's index list on the Python side)."""
        rng = self.rng
        out = [0] * self.n
        for i in range(self.n):
            legal = self.steppers[i].legal
            # (random() is C; randrange is Python and costs more than the engine's move)
            out[i] = legal[int(rng.random() * len(legal))]
        return out

    def step(self, actions: Sequence[int]) -> list[float]:
        """Play ``actions[i]`` for the learner of environment ``i``, then its opponents;
        the learner's rewards (an illegal action ends its deal at ILLEGAL_REWARD)."""
        if len(actions) != self.n:
            raise ValueError(f"actions: one for each of the {self.n} environments")
        rewards = [0.0] * self.n
        for i in range(self.n):
            st = self.steppers[i]
            seat = self.seats[i]
            to_act = st.play(int(actions[i]))
            self.moves += 1
            self.dones[i] = 0
            self.truncated[i] = 0
            if to_act == ILLEGAL:
                rewards[i] = ILLEGAL_REWARD
                self.dones[i] = 1
            else:
                if to_act != OVER and to_act != seat:
                    to_act = self._opponents(i)
                if to_act == OVER:
                    g = st.game
                    assert g is not None and g.outcome is not None
                    rewards[i] = returns(self.rules, g.outcome)[seat]
                    self.dones[i] = 1
                    self.truncated[i] = 1 if g.outcome.truncated else 0
            if self.dones[i]:
                self.deals += 1
                self._deal(i)
            self._write(i)
        return rewards

    # -- one environment ---------------------------------------------------------------
    def _deal(self, i: int) -> None:
        """Deal environment ``i`` again until the learner has a move."""
        st = self.steppers[i]
        players = self.rules.players
        while True:
            self.seats[i] = self.rng.randrange(players)
            st.start(Game(self.rules, seed=self.rng.getrandbits(63)))
            g = st.game
            assert g is not None
            to_act = g.to_act
            if to_act is not None and to_act != self.seats[i]:
                to_act = self._opponents(i)
            if to_act is not None and to_act >= 0:
                return

    def _opponents(self, i: int) -> int:
        """Play the opponents of environment ``i`` until the learner is to act (its seat)
        or the deal is over (OVER)."""
        st = self.steppers[i]
        g = st.game
        assert g is not None
        seat = self.seats[i]
        players = self.rules.players
        ops = self.opponents
        rng = self.rng
        to_act = g.to_act
        while to_act is not None and to_act != seat:
            who = ops[((to_act - seat) % players - 1) % len(ops)]
            legal = st.legal
            index = legal[int(rng.random() * len(legal))] if who is None else who(g, to_act)
            played = st.play(index)
            self.moves += 1
            if played == ILLEGAL:
                raise ValueError(f"an opponent played an illegal action number {index}")
            to_act = g.to_act
        return OVER if to_act is None else to_act

    def _write(self, i: int) -> None:
        """Environment ``i``'s observation and mask into the shared buffers."""
        st = self.steppers[i]
        g = st.game
        assert g is not None
        size = self.obs_size * 4
        fill = self._fill
        if fill is not None:
            vec, mask = st.arrays(self.seats[i], fill)
            # (copies through the buffer protocol, as bytes: a bytearray takes no floats)
            self.obs[i * size : (i + 1) * size] = memoryview(vec).cast("B")
            self.masks[i * self.num_actions : (i + 1) * self.num_actions] = memoryview(mask).cast(
                "B"
            )
            return
        self.obs[i * size : (i + 1) * size] = st.planes.encode(g, self.seats[i])
        base = i * self.num_actions
        masks = self.masks
        for j in self._shown[i]:
            masks[base + j] = 0
        shown = st.legal if g.to_act == self.seats[i] else []
        for j in shown:
            masks[base + j] = 1
        self._shown[i] = list(shown)


def bot_opponent(rules: Rules, choose: Callable[[Game, int], object]) -> Opponent:
    """An :data:`Opponent` from a function of (game, seat) that returns an ``Action``."""
    slot = deck_slot(rules)

    def play(g: Game, seat: int) -> int:
        action = choose(g, seat)
        for index, a in zip(legal_indices(g, slot), g.moves(), strict=True):
            if a is action:
                return index
        raise ValueError(f"opponent in seat {seat}: {action} is not legal now")

    return play
