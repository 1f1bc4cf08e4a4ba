"""Many deals stepped in one call: the vectorised environment's compiled core.

Compiled with the engine (mypyc, :data:`durak.build.ENGINE`), so it uses no numpy: it
writes every environment's observation and action mask into preallocated buffers (byte
buffers and ``array.array`` s) that :class:`durak.envs.vector.DurakVectorEnv` wraps once
as numpy arrays, and allocates no arrays a step.

Each of the ``n`` environments is one deal in which the learner holds one seat (drawn
anew each deal) and the other seats are opponents: ``None`` plays a uniformly random
legal move inside this loop, straight from the engine's legal list (no action numbers,
no observation); any other opponent is a callable ``(game, seat) -> move`` returning one
of the position's legal moves (the Python side wraps bots and policies so), played by
:class:`Opponents`, which the single environment uses too. :meth:`VecStepper.step` plays
the learner's action in every environment, then the opponents until the learner is to act again or
the deal ends; a finished deal is dealt again at once (autoreset in the same step: the
observation returned is the new deal's, the reward and the done flag are the old one's,
and the old deal's last observation is in :attr:`VecStepper.final`).

Only the learner's positions are encoded, each once, by the C helper's ``write``
(:func:`durak.envs.encoding.array_writer`) straight into its row of the shared buffer;
without it (the pure-Python engine) by :class:`~durak.planes.Planes`.

>>> from durak import Rules
>>> v = VecStepper(Rules(), 4, [None], seed=1)
>>> v.reset()
>>> len(v.obs) == 4 * v.obs_size * 4, len(v.masks) == 4 * v.num_actions
(True, True)
>>> v.step(v.sample_legal())
>>> len(v.rewards), set(v.dones) <= {0, 1}, v.moves >= 4
(4, True, True)
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Sequence
from typing import Any, Final

from ..actions import Action, encoding
from ..errors import ArgumentError, IllegalActionError, UsageError
from ..game import Game
from ..planes import Planes
from ..rules import Rules
from .bits import Actions, deck_slot, history_rows, legal_indices, legal_moves, returns

ILLEGAL_REWARD: Final = -1.0

# An opponent outside compiled code: (the game, its seat) -> its move, one of the
# position's legal moves (``bits.legal_moves``; moves, not numbers: nothing to look up).
Opponent = Callable[[Game, int], Action]
# durak.envs._arrays.Viewer(...).write_fields: (obs, masks or None, row, seat, legal,
# *Game.state())
Writer = Callable[..., Any]


def _below(r: float, n: int) -> int:
    """``int(r * n)``: a number below ``n`` from a draw ``r`` of ``random()``, as Python
    computes it (``n`` exactly a float), in native doubles: compiled, ``r * n`` with an
    int would box both and multiply objects."""
    return int(r * float(n))


class Opponents:
    """The seats around a learner, played until the learner is to act: ``ops[k]`` plays
    the seat ``k + 1`` places after the learner's (repeated round the table), ``None``
    at random from ``rng`` straight from the engine's legal list.

    ``log`` (given to :meth:`play`): a list that gets the seat of every move played, for
    the observations' history (``history=K``); ``played`` counts the moves.

    >>> import random
    >>> from durak import Rules
    >>> g = Game(Rules(), seed=1)
    >>> ops, log = Opponents(Rules(), [None], random.Random(0)), []
    >>> ops.play(g, (g.to_act + 1) % 2, log) in (-1, (g.to_act or 0))
    True
    >>> ops.played == len(log) == len(g.history)
    True
    """

    def __init__(self, rules: Rules, ops: Sequence[Opponent | None], rng: random.Random) -> None:
        self.players: int = rules.players
        self.cheating = rules.cheating != "off"
        self.ops: list[Opponent | None] = list(ops)
        self.rng = rng
        # (the bound method, typed: a call without looking ``random`` up on the object,
        # and a float mypyc multiplies natively)
        self.rand: Callable[[], float] = rng.random
        self.played = 0

    def play(self, g: Game, seat: int, log: list[int] | None = None) -> int:
        """Play until ``seat`` is to act (returned) or the deal is over (-1)."""
        players = self.players
        ops = self.ops
        n_ops = len(ops)
        rand = self.rand
        cheating = self.cheating
        to_act = g.to_act
        played = 0
        while to_act is not None and to_act != seat:
            who = ops[((to_act - seat) % players - 1) % n_ops]
            # (the engine's own list, built once a move; with cheating a random player
            # cheats and calls too)
            moves = legal_moves(g) if cheating else g.moves()
            if who is None:
                a = moves[_below(rand(), len(moves))]
            else:
                a = who(g, to_act)
                for m in moves:
                    if m is a:
                        break
                else:
                    raise IllegalActionError(f"opponent in seat {to_act}: {a} is not legal now")
            if log is not None:
                log.append(to_act)
            g.play(a)
            played += 1
            to_act = g.to_act
        self.played += played
        return -1 if to_act is None else to_act


class VecStepper:
    """``n`` deals of ``rules`` with the learner in one seat of each (see the module
    docstring). ``opponents[i]`` plays the i-th seat after the learner's (repeated round
    the table); ``None`` is a random player.

    After :meth:`reset` and each :meth:`step`: ``obs`` (rows of ``obs_size`` float32,
    every row written again each step), ``masks`` (rows of ``num_actions`` bytes, too),
    ``rewards`` (float32), ``dones`` and ``truncated`` (int8) and ``final`` (the ended
    deals' last observations, rows where ``dones`` is 1) hold every environment's row;
    ``history``: keep the last ``history`` moves for the observations
    (:meth:`history`; the ended deals' in ``final_history``).
    ``seats[i]`` is the learner's seat and ``deal_seeds[i]`` the seed of
    ``Game(rules, seed=...)`` now played in environment ``i``.
    """

    def __init__(
        self,
        rules: Rules,
        n: int,
        opponents: Sequence[Opponent | None],
        seed: int = 0,
        privileged: bool = False,
        write: Writer | None = None,
        history: int = 0,
    ) -> None:
        if n < 1:
            raise ArgumentError(f"n: at least one environment, not {n}")
        if not opponents:
            raise ArgumentError("opponents: at least one (None plays at random)")
        self.rules = rules
        self.n = n
        self.planes = Planes(rules, privileged)
        self.actions = Actions(rules)
        self.obs_size: int = self.planes.size
        self.num_actions: int = self.actions.size
        # (writable buffers of bytes: the owner may put others of the same size in their
        # place between steps, e.g. a free one of a pool of numpy arrays' memoryviews)
        self.obs: Any = bytearray(n * self.obs_size * 4)
        self.final: Any = bytearray(n * self.obs_size * 4)
        self.masks: Any = bytearray(n * self.num_actions)
        # (these too, one number a deal: float32, int8, int8 and int64 (or int32)
        # ``array`` s or memoryviews, e.g. a shard's rows of shared memory)
        self.rewards: Any = array("f", bytes(4 * n))
        self.dones: Any = array("b", bytes(n))
        # (which rows' dones is 1, read natively: an ``array`` or a memoryview is read
        # through a generic item lookup, every learner step)
        self._ended = [False] * n
        self.truncated: Any = array("b", bytes(n))
        self.seat_out: Any = array("q", bytes(8 * n))  # ``seats``, for numpy
        self.seats = [0] * n
        self.deal_seeds = [0] * n
        self.games: list[Game] = []
        # the learner's legal numbers, legal_moves' order (each row's list is refilled in
        # place by the C helper's write_moves: copy one to keep it)
        self.legal: list[list[int]] = [[] for _ in range(n)]
        # with history: each deal's seat of every move so far (its game's history's seats)
        self.logs: list[list[int]] | None = [[] for _ in range(n)] if history > 0 else None
        self.history_k = history
        # the ended deals' last history rows (rows where ``dones`` is 1)
        self.final_history: list[list[int]] = [[] for _ in range(n)]
        self.deals = 0  # deals finished, all environments together
        self.rng = random.Random(seed)
        self.ops = Opponents(rules, opponents, self.rng)
        self._rand = self.ops.rand
        self._learner_moves = 0
        self._players: int = rules.players
        self._cheating = rules.cheating != "off"
        self._slot = deck_slot(rules)
        self._encoding = encoding(rules)
        # (the numbers as the objects the dict holds, never unboxed: a legal list shares
        # them, so listing one allocates no int, and sampling copies references)
        self._numbers: dict[Action, Any] = {}
        self._write_fn = write
        self._write_moves: Writer | None = None
        # each row's discard pile as last passed to the C writer, and its int object: the
        # pile changes once a bout, and a mask above 256 is a new object when boxed
        self._discards = [-1] * n
        self._discard_objs: list[object] = [None] * n
        self._none: list[int] = []
        self._zeros = bytes(self.num_actions)

    @property
    def moves(self) -> int:
        """Engine actions played (learners' and opponents'), all environments together."""
        return self._learner_moves + self.ops.played

    def number_in(self, write_moves: Writer) -> None:
        """Write the learner's views with ``write_moves``, the C helper's writer that
        numbers the legal moves too (:func:`durak.envs.encoding.array_numbered_writer`;
        not in the cheating game, whose moves the engine's list does not hold)."""
        if not self._cheating:
            self._write_moves = write_moves

    def set_opponents(self, opponents: Sequence[Opponent | None]) -> None:
        """Play against ``opponents`` from the next move on (the deals go on)."""
        if not opponents:
            raise ArgumentError("opponents: at least one (None plays at random)")
        self.ops.ops = list(opponents)

    def reset(self) -> None:
        """A new deal in every environment."""
        self.games = []
        for i in range(self.n):
            self.games.append(self._deal(i))
            self._show(i)
            self.dones[i] = 0
            self._ended[i] = False
            self.truncated[i] = 0
            self.rewards[i] = 0.0

    def sample_legal(self, rng: random.Random | None = None) -> list[int]:
        """A uniformly random legal action number for each environment (random masked
        play without building the mask's index list on the Python side), drawn from
        ``rng`` (default: the deals' own generator)."""
        rand = self._rand if rng is None else rng.random
        out: list[Any] = []
        for legal in self._any_legal():
            out.append(legal[_below(rand(), len(legal))])
        return out

    def sample_into(self, out: Any, rng: random.Random | None = None) -> None:
        """:meth:`sample_legal` written into ``out`` (a list, or a buffer of ``n``
        integers: an ``array``, a numpy array's memoryview), drawn alike."""
        # (random() is C; randrange is Python and costs more than the engine's move)
        rand = self._rand if rng is None else rng.random
        legals = self._any_legal()
        for i in range(self.n):
            legal = legals[i]
            out[i] = legal[_below(rand(), len(legal))]

    def _any_legal(self) -> list[list[Any]]:
        """:attr:`legal` as lists of objects (read without unboxing)."""
        legals: list[list[Any]] = self.legal
        return legals

    def step(self, actions: list[int]) -> None:
        """Play ``actions[i]`` for the learner of environment ``i``, then its opponents;
        the learner's rewards go to :attr:`rewards` (an illegal action ends its deal at
        ILLEGAL_REWARD, nothing played)."""
        n = self.n
        if len(actions) != n:
            raise ArgumentError(f"actions: one for each of the {n} environments")
        if not self.games:
            raise UsageError("step() before reset()")
        games = self.games
        seats = self.seats
        legals = self.legal
        rewards = self.rewards
        dones = self.dones
        ended = self._ended
        truncated = self.truncated
        logs = self.logs
        ops = self.ops
        cheating = self._cheating
        played = 0
        for i in range(n):
            g = games[i]
            seat = seats[i]
            a: int = actions[i]
            legal = legals[i]
            k = -1
            for j in range(len(legal)):
                if legal[j] == a:
                    k = j
                    break
            if k < 0:
                self._end(i, ILLEGAL_REWARD, 0)
                continue
            log = None if logs is None else logs[i]
            if log is not None:
                log.append(seat)
            # legal[] was listed from this very position's legal moves, in their order
            g.play((legal_moves(g) if cheating else g.moves())[k])
            played += 1
            to_act = g.to_act
            if to_act is not None and to_act != seat:
                to_act = ops.play(g, seat, log)
            if to_act is None or to_act < 0:
                outcome = g.outcome
                assert outcome is not None
                self._end(i, returns(self.rules, outcome)[seat], 1 if outcome.truncated else 0)
                continue
            if ended[i]:
                ended[i] = False
                rewards[i] = 0.0
                dones[i] = 0
                truncated[i] = 0
            self._show(i)
        self._learner_moves += played

    def game(self, i: int) -> Game:
        """The deal environment ``i`` plays now (read it; playing on it breaks the env)."""
        return self.games[i]

    def history(self, k: int) -> list[int]:
        """The last ``k`` moves of every environment's deal, from its learner's seat
        (:func:`durak.envs.bits.history_rows`, ``n * k * 2`` numbers; with ``history``)."""
        logs = self.logs
        assert logs is not None, "made without history"
        out: list[int] = []
        for i in range(self.n):
            history_rows(self.games[i], logs[i], self.seats[i], k, out)
        return out

    # -- one environment ---------------------------------------------------------------
    def _end(self, i: int, reward: float, cut: int) -> None:
        """Environment ``i``'s deal is over: its last view to ``final``, a new deal."""
        self._write(i, self.final, None, self._none)
        logs = self.logs
        if logs is not None and self.history_k > 0:
            rows: list[int] = []
            history_rows(self.games[i], logs[i], self.seats[i], self.history_k, rows)
            self.final_history[i] = rows
        self.rewards[i] = reward
        self.dones[i] = 1
        self._ended[i] = True
        self.truncated[i] = cut
        self.deals += 1
        self.games[i] = self._deal(i)
        self._show(i)

    def _deal(self, i: int) -> Game:
        """Deal environment ``i`` again until the learner has a move."""
        players = self._players
        rng = self.rng
        rand = self._rand
        logs = self.logs
        while True:
            seat = _below(rand(), players)
            seed = rng.getrandbits(63)
            g = Game(self.rules, seed=seed)
            self.seats[i] = seat
            self.seat_out[i] = seat
            self.deal_seeds[i] = seed
            log = None
            if logs is not None:
                log = logs[i] = []
            to_act = g.to_act
            if to_act is not None and to_act != seat:
                to_act = self.ops.play(g, seat, log)
            if to_act is not None and to_act >= 0:
                return g

    def _show(self, i: int) -> None:
        """Environment ``i``'s observation and mask (the learner is to act) into the
        shared buffers."""
        g = self.games[i]
        legal: list[Any]
        write_moves = self._write_moves
        if write_moves is not None:
            # (the state's fields one by one: compiled, ``s`` is no tuple object, so none
            # is made and freed a view; the row's list of numbers refilled in place)
            s = g.state()
            discard: object = self._discard_objs[i]
            if s[6] != self._discards[i]:
                self._discards[i] = s[6]
                discard = self._discard_objs[i] = s[6]
            self.legal[i] = write_moves(self.obs, self.masks, i, self.seats[i], g.moves(),
                self.legal[i], s[0], s[1], s[2], s[3], s[4], s[5], discard, s[7], s[8], s[9],
                s[10], s[11], s[12], s[13], s[14], s[15], s[16], s[17], s[18], s[19])  # fmt: skip
            return
        if self._cheating:
            legal = legal_indices(g, self._slot)
        else:
            # (legal_indices inline: the engine's own list, numbers remembered by action)
            numbers = self._numbers
            moves = g.moves()
            m = len(moves)
            legal = [None] * m
            for j in range(m):
                a = moves[j]
                n = numbers.get(a)
                if n is None:
                    n = numbers[a] = self._encoding.index_of(a)
                legal[j] = n
        self.legal[i] = legal
        self._write(i, self.obs, self.masks, legal)

    def _write(self, i: int, obs: Any, masks: Any, legal: list[int]) -> None:
        g = self.games[i]
        seat = self.seats[i]
        write = self._write_fn
        if write is not None:
            s = g.state()  # (as in _show)
            write(obs, masks, i, seat, legal, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7],
                  s[8], s[9], s[10], s[11], s[12], s[13], s[14], s[15], s[16], s[17], s[18],
                  s[19])  # fmt: skip
            return
        size = self.obs_size * 4
        obs[i * size : (i + 1) * size] = self.planes.encode(g, seat)
        if masks is not None:
            base = i * self.num_actions
            masks[base : base + self.num_actions] = self._zeros
            for j in legal:
                masks[base + j] = 1
