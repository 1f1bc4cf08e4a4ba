"""A learned player: a network that scores each legal action, run with numpy alone.

The network scores each legal action from one seat's :class:`~durak.observation.Observation`
(nothing else: it sees what a person in that seat sees) and plays the best. The shipped
weights (``bots/data/learned.npz``) were fitted by ``benchmarks/rl/train.py`` (torch, CPU)
to the moves of the pool's ``expert`` (supervised imitation, cross-entropy over the legal
actions); ``make("policy:PATH")`` plays any other weights of this shape. Training needs
torch, playing only numpy. (The self-play learner of ``benchmarks/rl/dmc.py`` plays
stronger but reads other features: see benchmarks/rl/README.md.)

Features (:func:`state_features`, :func:`action_features`) are written in card planes of 52
slots, with the suits turned so that the trump suit is always slot 0: the same position
with another trump suit looks the same to the network.

>>> from durak import Game, Rules
>>> from durak.bots import make
>>> bot = make("learned")
>>> g = Game(Rules(), seed=5)
>>> bot.choose(g.observation(g.to_act)) in g.legal_actions()
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..actions import Action
from ..errors import DurakError
from ..observation import Observation

try:
    import numpy as np
except ImportError:  # pragma: no cover - the [rl], [arena] and [web] extras bring numpy
    np = None  # type: ignore[assignment]

DEFAULT_WEIGHTS = os.path.join(os.path.dirname(__file__), "data", "learned.npz")

KIND_NAMES = ("attack", "defend", "transfer", "show", "take", "pass", "exchange")
PHASE_NAMES = ("attack", "defend", "throw_in", "pile_on", "over")
PLANES = 8  # hand, unbeaten, beaten, defences, discard, known in others, known next, unseen
SCALARS = 13 + 13
STATE_SIZE = PLANES * 52 + SCALARS
ACTION_SIZE = len(KIND_NAMES) + 52 + 52 + 1


def _need_numpy() -> None:
    if np is None:
        raise DurakError("the learned player needs numpy: pip install 'durak[rl]'")


def _turn_table() -> Any:
    """``TURN[t][i]``: card ``i``'s slot when ``t`` is the trump suit (trumps in slot 0);
    ``t`` 4 (no trump, trump=none): the suits as they are."""
    return np.array(
        [[(i // 4) * 4 + ((i % 4 - t) % 4) for i in range(52)] for t in range(5)], np.int64
    )


_TURN: Any = _turn_table() if np is not None else None


def _plane(mask: int, trump: int) -> Any:
    """A card set as 52 floats, suits turned for ``trump``."""
    bits = np.unpackbits(
        np.frombuffer(int(mask).to_bytes(7, "little"), np.uint8), bitorder="little"
    )
    out = np.zeros(52, np.float32)
    out[_TURN[trump]] = bits[:52]
    return out


def state_features(obs: Observation) -> Any:
    """The seat's view as ``STATE_SIZE`` floats (see the module docstring)."""
    _need_numpy()
    t = obs.trump_suit
    unbeaten = beaten = defences = 0
    for a, b in obs.table:
        if b is None:
            unbeaten |= a.bit
        else:
            beaten |= a.bit
            defences |= b.bit
    n = len(obs.hand_sizes)
    others = [s for s in range(n) if s != obs.seat]
    known_others = 0
    for s in others:
        known_others |= int(obs.known[s])
    nxt = next((s % n for s in range(obs.seat + 1, obs.seat + n) if not obs.out[s % n]), obs.seat)
    planes = [
        _plane(int(obs.hand), t),
        _plane(unbeaten, t),
        _plane(beaten, t),
        _plane(defences, t),
        _plane(int(obs.discard), t),
        _plane(known_others, t),
        _plane(int(obs.known[nxt]) if nxt != obs.seat else 0, t),
        _plane(int(obs.unseen), t),
    ]
    sizes = [obs.hand_sizes[s] for s in others if not obs.out[s]] or [0]
    phase = str(obs.phase)
    scalars = np.zeros(SCALARS, np.float32)
    scalars[0] = obs.talon_size / 36
    scalars[1] = obs.hand_sizes[obs.seat] / 36
    scalars[2] = obs.hand_sizes[nxt] / 36
    scalars[3] = min(sizes) / 36
    scalars[4] = max(sizes) / 36
    scalars[5] = n / 6
    scalars[6] = float(obs.attacker == obs.seat)
    scalars[7] = float(obs.defender == obs.seat)
    scalars[8 + PHASE_NAMES.index(phase)] = 1.0
    # the face-up trump's rank (it stays known to all until drawn)
    # (none turned, trump=none: nothing set)
    if obs.trump is not None:
        scalars[13 + obs.trump.index // 4] = float(obs.trump_under_talon)
    return np.concatenate([*planes, scalars])


def action_features(obs: Observation, actions: Sequence[Action]) -> Any:
    """One row of ``ACTION_SIZE`` floats an action: its kind, its cards, its target."""
    _need_numpy()
    t = obs.trump_suit
    turn = _TURN[t]
    out = np.zeros((len(actions), ACTION_SIZE), np.float32)
    k = len(KIND_NAMES)
    for row, a in enumerate(actions):
        out[row, KIND_NAMES.index(str(a.kind))] = 1.0
        count = 0
        for c in a.cards:
            out[row, k + turn[c.index]] = 1.0
            count += 1
        if a.target is not None:
            out[row, k + 52 + turn[a.target.index]] = 1.0
        out[row, k + 104] = count / 4
    return out


class QNet:
    """The trained multilayer perceptron, in numpy: ``scores(state, actions)``.

    The first layer's weights are split into a state part and an action part, so that the
    state is multiplied once a decision, not once a legal action."""

    def __init__(self, weights: dict[str, Any]) -> None:
        w1 = weights["w1"]
        if w1.shape[0] != STATE_SIZE + ACTION_SIZE:
            raise DurakError(
                f"weights: first layer takes {w1.shape[0]} features, "
                f"this version makes {STATE_SIZE + ACTION_SIZE}"
            )
        self.w1s, self.w1a = w1[:STATE_SIZE], w1[STATE_SIZE:]
        self.b1 = weights["b1"]
        self.rest = [
            (weights[f"w{i}"], weights[f"b{i}"]) for i in range(2, 10) if f"w{i}" in weights
        ]

    @classmethod
    def load(cls, path: str) -> QNet:
        _need_numpy()
        if not os.path.exists(path):
            raise DurakError(f"policy: no weights file {path!r}")
        with np.load(path) as f:
            return cls({k: f[k].astype(np.float32) for k in f.files})

    def scores(self, state: Any, actions: Any) -> Any:
        h = np.maximum(actions @ self.w1a + (state @ self.w1s + self.b1), 0.0)
        last = len(self.rest) - 1
        for i, (w, b) in enumerate(self.rest):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h[:, 0]


_CACHE: dict[str, QNet] = {}


class LearnedBot:
    """Plays the legal action the network scores best; ``path`` names a weights file
    (default: the shipped one). Deterministic: the seed changes nothing."""

    def __init__(self, path: str | None = None, seed: int | None = None) -> None:
        path = path or DEFAULT_WEIGHTS
        net = _CACHE.get(path)
        if net is None:
            net = _CACHE[path] = QNet.load(path)
        self.net = net
        self.name = "learned" if path == DEFAULT_WEIGHTS else f"policy:{path}"

    @classmethod
    def of(cls, net: QNet, name: str = "learned") -> LearnedBot:
        """A bot playing ``net`` as it is (a network being trained, say)."""
        bot = cls.__new__(cls)
        bot.net, bot.name = net, name
        return bot

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal
        if not legal:
            raise DurakError("not this seat's turn: no legal actions")
        if len(legal) == 1:
            return legal[0]
        q = self.net.scores(state_features(obs), action_features(obs, legal))
        return legal[int(np.argmax(q))]
