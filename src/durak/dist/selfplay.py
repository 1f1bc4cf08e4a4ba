"""Self-play on Ray actors: N workers play games and stream them, encoded, to a learner.

The learner is the process that iterates :meth:`SelfPlay.games`; it gets each game as soon
as the batch holding it is done, and can hand the workers new players at any time
(:meth:`SelfPlay.set_players`, e.g. a policy with fresh weights). Players are bot specs
(``"heuristic"``, ``"ismcts:iterations=200"``), picklable bots (:class:`durak.bots.Bot`;
an object with only ``name`` and ``choose`` plays as one that remembers nothing,
:func:`durak.seats.seated`), or picklable policies
as the learning environments have them, ``(observation, action_mask) -> action number``
(a frozen copy of a learner: :func:`durak.envs.sb3.snapshot`), which play as
:class:`durak.envs.selfplay.PolicyBot` s named by their ``name`` attribute. Self-play
against past copies: each round, the learner takes games, learns, and hands the workers
its new copy and one drawn from a pool of its old ones
(:class:`durak.envs.selfplay.OpponentPool`)::

    sp.set_players([snapshot(model, "v7"), pool.pick()[1]])

>>> from durak import Rules
>>> with SelfPlay(Rules(deck=24), ["heuristic", "random"], backend="local", seed=3) as sp:
...     ts = list(sp.games(4))
>>> [(t.number, t.seats) for t in ts[:2]]
[(0, ['heuristic', 'random']), (1, ['random', 'heuristic'])]
>>> Game.from_record(ts[0].data["record"]).outcome.durak == ts[0].data["durak"]
True

Game ``n`` of a run is dealt from ``(seed, n)`` alone and its spec bots are seeded from the
deal, so the same games come out whichever worker plays them and however many there are
(in the order they finish; sort by ``number`` for a fixed order). Objects passed as
players keep their own state: a policy that samples must seed itself for that to hold.

Encoders turn a finished game into what is sent: ``"record"`` (the default: the game's
record text, which replays exactly, and its result), ``"actions"`` (the integer action of
every move and the seat that made it, to be replayed by a learner that has the engine),
``"envs"`` (every move as the learning environments encode it: observation vectors,
legal actions, actions, returns; needs :mod:`durak.envs`), or any picklable
``callable(game, seats) -> data``; :func:`register_encoder` adds a name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from ..arena import make_bot, play_game
from ..errors import ArgumentError, ArgumentTypeError, UsageError
from ..game import Game
from ..rules import Rules
from .executors import ray_session

Encoder = Callable[[Game, list[str]], Any]


def encode_record(game: Game, seats: list[str]) -> dict[str, Any]:
    """The game's record (``Game.from_record`` replays it) and its result."""
    o = game.outcome
    assert o is not None
    return {"record": game.record(seats), "durak": o.durak, "draw": o.draw}


def encode_actions(game: Game, seats: list[str]) -> dict[str, Any]:
    """Each move as ``(seat, action index)`` (the fixed encoding of :mod:`durak.actions`),
    with the deal's seed: ``Game(rules, seed)`` and these moves rebuild every position.

    >>> g = Game(Rules(), seed=1)
    >>> g.apply(g.legal_actions()[0])
    >>> encode_actions(g, ["a", "b"])["moves"]
    [[0, 39]]
    """
    replay = Game(game.rules, seed=game.seed)
    moves = []
    for a in game.history:
        seat = replay.to_act
        moves.append([seat, a.index(game.rules)])
        replay.apply(a)
    o = game.outcome
    return {
        "seed": game.seed,
        "moves": moves,
        "durak": o.durak if o else None,
        "draw": o.draw if o else False,
    }


def encode_envs(game: Game, seats: list[str]) -> dict[str, Any]:
    """Each move as the learning environments see it (:mod:`durak.envs`, the ``rl``
    extra): ``obs[t]`` the acting seat's observation vector (their encoder), ``seat[t]``,
    ``action[t]`` the action's index, ``legal[t]`` the legal indices (the action mask);
    and ``returns``, each seat's reward for the deal."""
    np, encoding, episode = _envs_modules()
    rules = game.rules
    enc = encoding.Encoder(rules)
    n = len(game.history)
    obs = np.empty((n, enc.size), np.float32)
    seat = np.empty(n, np.int8)
    action = np.empty(n, np.int32)
    legal = []
    replay = Game(rules, seed=game.seed)
    for t, a in enumerate(game.history):
        s = replay.to_act
        assert s is not None
        enc.encode(replay, s, obs[t])
        seat[t] = s
        action[t] = a.index(rules)
        # (шулерский: the seat's cheats and calls too, as the environments' mask has them)
        offered = replay.legal_actions() + replay.cheats() + replay.calls()
        legal.append([x.index(rules) for x in offered])
        replay.apply(a)
    return {
        "obs": obs,
        "seat": seat,
        "action": action,
        "legal": legal,
        "returns": episode.returns(rules, game.outcome),
    }


def _envs_modules() -> tuple[Any, Any, Any]:
    try:
        return (
            importlib.import_module("numpy"),
            importlib.import_module("durak.envs.encoding"),
            importlib.import_module("durak.envs.episode"),
        )
    except ImportError as e:
        raise UsageError(
            f"the envs encoder needs durak.envs and the rl extra (pip install 'durak[rl]'): {e}"
        ) from e


ENCODERS: dict[str, Encoder] = {
    "record": encode_record,
    "actions": encode_actions,
    "envs": encode_envs,
}


def register_encoder(name: str, encoder: Encoder) -> None:
    """Make ``encoder`` (a module-level function, so that workers can import it) available
    by ``name``."""
    ENCODERS[name] = encoder


def as_players(rules: Rules, players: Sequence[Any]) -> list[Any]:
    """``players`` with each policy (a callable that is not a bot) made a
    :class:`~durak.envs.selfplay.PolicyBot` of ``rules``; specs and bots as they are."""
    out: list[Any] = []
    for p in players:
        if isinstance(p, str) or hasattr(p, "choose"):
            out.append(p)
        elif callable(p):
            policy_bot = importlib.import_module("durak.envs.selfplay").PolicyBot
            out.append(policy_bot(rules, p, name=str(getattr(p, "name", "policy"))))
        else:
            raise ArgumentTypeError(
                f"a self-play player is a bot spec, a bot or a policy, not {p!r}"
            )
    return out


@dataclass(frozen=True)
class Trajectory:
    """One self-play game as the learner gets it: its number in the run, its deal's seed,
    who sat where (specs, or the objects' ``name``), the ``version`` of the players (0, then
    one more at each :meth:`SelfPlay.set_players`) and the encoded game."""

    number: int
    deal_seed: int
    seats: list[str]
    version: int
    data: Any


def deal_seed(seed: int, number: int) -> int:
    return (seed * 1_000_003 + number) % 2**63


class Worker:
    """Plays games on request; on Ray, one actor per worker."""

    def __init__(self, rules: Rules, players: Sequence[Any], encode: Encoder, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self.encode = encode
        self.set_players(players, 0)

    def set_players(self, players: Sequence[Any], version: int) -> None:
        self.players = list(players)
        self.version = version

    def play(self, numbers: Sequence[int]) -> list[Trajectory]:
        out = []
        n = self.rules.players
        base = [self.players[k % len(self.players)] for k in range(n)]
        for number in numbers:
            ds = deal_seed(self.seed, number)
            seats = [base[(s + number) % n] for s in range(n)]
            names = [p if isinstance(p, str) else str(getattr(p, "name", p)) for p in seats]
            g = play_game(self.rules, seats, ds, ds)
            out.append(Trajectory(number, ds, names, self.version, self.encode(g, names)))
        return out


class SelfPlay:
    """``workers`` Ray actors of one CPU each (``backend="ray"``, on the cluster at
    ``address`` or ``RAY_ADDRESS``, else on a local Ray with ``workers`` CPUs) or one
    in-process worker (``backend="local"``) playing ``players`` round the table, ``batch``
    games a request."""

    # (a configuration-heavy constructor: every argument a setting of the run)
    def __init__(  # noqa: PLR0913
        self,
        rules: Rules,
        players: Sequence[Any],
        workers: int = 2,
        seed: int = 1,
        encoder: str | Encoder = "record",
        batch: int = 4,
        backend: str = "ray",
        address: str | None = None,
    ) -> None:
        if not players:
            raise ArgumentError("self-play needs at least one player")
        if isinstance(encoder, str) and encoder not in ENCODERS:
            raise ArgumentError(f"no encoder {encoder!r}; one of {', '.join(ENCODERS)}")
        if encoder == "envs":
            _envs_modules()  # say now, not from a worker, that it is missing
        # workers get the function itself: a name registered here is unknown over there
        encode = ENCODERS[encoder] if isinstance(encoder, str) else encoder
        players = as_players(rules, players)
        for p in players:
            if isinstance(p, str):
                make_bot(p, 0)  # a bad spec fails here, not in every worker
        if backend not in ("ray", "local"):
            raise ArgumentError(f"no self-play backend {backend!r}; 'ray' or 'local'")
        if batch < 1 or workers < 1:
            raise ArgumentError("self-play needs batch >= 1 and workers >= 1")
        self.rules = rules
        self.batch = batch
        self.version = 0
        self.played = 0
        self._stack = ExitStack()
        self._ray: Any = None
        if backend == "local":
            self._local: Worker | None = Worker(rules, players, encode, seed)
            self._actors: list[Any] = []
            return
        self._local = None
        # a local Ray started here gets a CPU per worker; a cluster must have them
        self._ray = self._stack.enter_context(ray_session(address, cpus=workers))
        cpus = int(self._ray.cluster_resources().get("CPU", 0))
        if cpus < workers:
            self._stack.close()
            raise ArgumentError(
                f"{workers} self-play workers need {workers} CPUs; the Ray cluster has {cpus}"
            )
        actor = self._ray.remote(num_cpus=1)(Worker)
        ref = self._ray.put(list(players))
        self._actors = [actor.remote(rules, ref, encode, seed) for _ in range(workers)]

    def set_players(self, players: Sequence[Any]) -> None:
        """New players for the games not yet handed out (games already queued on a worker
        finish with the old ones); each is sent once to the cluster's object store."""
        players = as_players(self.rules, players)
        self.version += 1
        if self._local is not None:
            self._local.set_players(players, self.version)
            return
        ref = self._ray.put(list(players))
        for a in self._actors:
            a.set_players.remote(ref, self.version)

    def games(self, n: int | None = None) -> Iterator[Trajectory]:
        """The next ``n`` games of the run (without ``n``, games without end), each as soon
        as its batch is done. Games handed out but not taken when the caller stops are
        dropped; the next call goes on with new numbers."""
        batches = self._batches(n)
        if self._local is not None:
            for numbers in batches:
                yield from self._local.play(numbers)
            return
        ray = self._ray
        pending: dict[Any, Any] = {}
        # two requests queued per actor: it starts the next batch while one streams back
        for a in self._actors * 2:
            first = next(batches, None)
            if first is None:
                break
            pending[a.play.remote(first)] = a
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            a = pending.pop(done[0])
            more = next(batches, None)
            if more is not None:
                pending[a.play.remote(more)] = a
            yield from ray.get(done[0])

    def _batches(self, n: int | None) -> Iterator[list[int]]:
        while n is None or n > 0:
            k = self.batch if n is None else min(self.batch, n)
            yield list(range(self.played, self.played + k))
            self.played += k
            if n is not None:
                n -= k

    def close(self) -> None:
        """Stop the workers (and a Ray started for them)."""
        if self._ray is not None:
            for a in self._actors:
                self._ray.kill(a)
            self._actors = []
        self._stack.close()

    def __enter__(self) -> SelfPlay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
