"""The learned player: networks that score each legal action, run with numpy alone.

A network scores each legal action from one seat's :class:`~durak.observation.Observation`
(nothing else: it sees what a person in that seat sees) and the bot plays the best.
``make("learned")`` carries two (``bots/data``, loaded without a download):

- **the self-play network** (``learned.npz``), DouZero's Deep Monte-Carlo ``Q(s, a)``
  trained by :mod:`durak.learn.dmc2` (torch, CPU) in 2-player podkidnoy, every seat the
  learner, on the environments' own vector (:mod:`durak.bots.viewnet`). It plays the
  2-player tables whose vector and action numbers are those it was trained on
  (:meth:`QNet.reads`); it is the stronger (benchmarks/rl/README.md has the ladder).
- **the imitation network** (``imitation.npz``), fitted by ``benchmarks/rl/train.py`` to
  the moves of the pool's ``expert`` (cross-entropy over the legal actions), on features
  any table has (:func:`state_features`, :func:`action_features`): it plays every other
  table (3-6 players, 24 or 52 cards, transfers, no trump...).

``make("policy:PATH")`` plays any one saved network of either kind. Training needs torch,
playing only numpy.

The imitation features are card planes of 52 slots, with the suits turned so that the
trump suit is always slot 0: the same position with another trump suit looks the same to
the network (the self-play network's features turn them too).

>>> from durak import Game, Rules
>>> from durak.bots import make
>>> bot = make("learned")
>>> g = Game(Rules(), seed=5)
>>> bot.choose(g.observation(g.to_act)) in g.legal_actions()
True
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..actions import Action, encoding
from ..errors import ArgumentError, DurakError
from ..game import Game
from ..observation import Observation
from ..rules import Rules
from .base import BaseBot, legal_of
from .belief import BeliefWorlds
from .lookahead import Network, best_looked_ahead
from .pairnet import PairNet
from .solver import Endgame, perfect_information
from .tablenet import ACTION_WIDTH, STATE_SIZE
from .tablenet import reads as tablenet_reads

TABLE_INPUT = STATE_SIZE + ACTION_WIDTH

if TYPE_CHECKING:
    from . import Bot
    from .tablenet import TableNet
    from .viewnet import ViewFeatures

try:
    import numpy as np
except ImportError:  # pragma: no cover - the [rl], [arena] and [web] extras bring numpy
    np = None  # type: ignore[assignment]

DEFAULT_WEIGHTS = os.path.join(os.path.dirname(__file__), "data", "learned.npz")
IMITATION_WEIGHTS = os.path.join(os.path.dirname(__file__), "data", "imitation.npz")
TABLE_WEIGHTS = os.path.join(os.path.dirname(__file__), "data", "table.npz")

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


class QNet(PairNet):
    """A trained multilayer perceptron in numpy (:class:`~durak.bots.pairnet.PairNet`):
    ``scores(state, actions)``. ``rules`` is the rule
    set a self-play network was trained on (its features are :mod:`durak.bots.viewnet`'s),
    None for the imitation network (its features are this module's)."""

    def __init__(self, weights: dict[str, Any], rules: Rules | None = None) -> None:
        self.rules = rules
        self.features = None if rules is None else view_features(rules)
        state = STATE_SIZE if self.features is None else self.features.size
        width = ACTION_SIZE if self.features is None else self.features.width
        super().__init__(weights, state, width)

    @classmethod
    def load(cls, path: str) -> QNet:
        """The network saved at ``path`` (``.npz``: ``w1, b1, w2, ...``, and ``rules``, the
        rule set's text, for a self-play network)."""
        _need_numpy()
        if not os.path.exists(path):
            raise DurakError(f"policy: no weights file {path!r}")
        with np.load(path) as f:
            rules = Rules.parse(str(f["rules"])) if "rules" in f.files else None
            weights = {k: f[k].astype(np.float32) for k in f.files if k != "rules"}
        return cls(weights, rules)

    def reads(self, rules: Rules) -> bool:
        """Whether this network can play ``rules``: any for the imitation network; for a
        self-play one, a table with the vector's layout, the action numbers, the deck and
        the scoring it was trained on. (Trained on podkidnoy, the shipped one also plays
        переводной and простой, better than the imitation network there:
        benchmarks/rl/README.md.)"""
        r = self.rules
        if r is None:
            return True
        if rules.trump in ("none", "per_player") or rules.cheating != "off":
            return False  # (no such table has the vector it reads)
        return (
            rules.players == r.players
            and rules.deck == r.deck
            and rules.scoring == r.scoring  # (what a deal is played for)
            and view_features(rules).size == view_features(r).size
            and encoding(rules).size == encoding(r).size
        )

    def q_of(self, games: Sequence[Game], legal: Sequence[Sequence[Action]]) -> Any:
        """``Q`` of ``legal[i]`` for the seat to act in ``games[i]``, from its own view (the
        look-ahead's :class:`~durak.bots.lookahead.Network`; a self-play network)."""
        f = self.features
        if f is None:
            raise DurakError("q_of: the imitation network has no vector of a game")
        numbers = encoding(f.rules)
        views = np.stack([f.view(g, g.to_act or 0) for g in games])
        s, trump = f.state(views)
        row_of = np.repeat(np.arange(len(games)), [len(m) for m in legal])
        numbers_of = [numbers.index_of(a) for m in legal for a in m]
        return self.batch_scores(s, f.actions[trump[row_of], numbers_of], row_of)

    def scores(self, state: Any, actions: Any) -> Any:
        """Scores of ``actions`` (one row each) in one ``state``."""
        return self.batch_scores(state[None, :], actions, np.zeros(len(actions), np.intp))


_CACHE: dict[str, QNet] = {}
_VIEWS: dict[Rules, ViewFeatures] = {}


def view_features(rules: Rules) -> ViewFeatures:
    """:class:`~durak.bots.viewnet.ViewFeatures` of ``rules``, made once a process."""
    f = _VIEWS.get(rules)
    if f is None:
        from .viewnet import ViewFeatures  # (numpy: imported once it is known to be there)

        f = _VIEWS[rules] = ViewFeatures(rules)
    return f


def load_net(path: str) -> QNet:
    """The network saved at ``path``, loaded once a process."""
    net = _CACHE.get(path)
    if net is None:
        net = _CACHE[path] = QNet.load(path)
    return net


# The exact endgame (``endgame=True``): level 5's node budget, and a CPU stop well inside
# the searchers' 0.5 s cap (an unfinished solve plays the network's move).
ENDGAME_NODES = 60_000
ENDGAME_CPU = 0.3


class LearnedBot(BaseBot):
    """Plays the legal action a network scores best; ``path`` names one weights file
    (default: the shipped pair, see the module docstring). ``endgame``: once two players
    are left and nothing is hidden, play the exact solver's move when it finishes within
    :data:`ENDGAME_NODES` nodes and :data:`ENDGAME_CPU` s (``make("learned:endgame=on")``,
    benchmarks/bots/README.md has what it adds). Deterministic for a seed: it deals the
    hidden cards of the worlds (the one the network's vector is made from does not show
    them). ``worlds``: while cards are hidden, look the network's
    ``width`` best moves ahead ``depth`` moves in that many worlds dealt by level 5's belief
    and play the best: the best mean value there plus ``prior`` times the network's own
    ``Q`` of the move (:mod:`durak.bots.lookahead`; worlds 0: the network's move; prior 0:
    the look-ahead alone). ``fallback``: a
    bot spec that plays the tables the self-play network does not read, instead of the
    imitation network. ``table``: the every-table network (:mod:`durak.bots.tablenet`)
    plays the tables the 2-player network does not read, when its weights are shipped;
    off, the fallback (or the imitation network) plays them (level 6 is
    ``learned:endgame=on,worlds=64,fallback=level5,table=off`` until the every-table
    network measures better than level 5 there: benchmarks/bots/README.md).
    """

    # PLR0913: the spec's options, one keyword each as bots.make passes them
    def __init__(  # noqa: PLR0913
        self,
        path: str | None = None,
        seed: int | None = None,
        endgame: bool = False,
        fallback: str | None = None,
        worlds: int = 0,
        width: int = 3,
        depth: int = 6,
        prior: float = 1.0,
        table: bool = True,
    ) -> None:
        if path is not None:
            self.nets = [] if _is_table(path) else [load_net(path)]
        elif fallback is not None:
            self.nets = [load_net(DEFAULT_WEIGHTS)]
        else:
            self.nets = [load_net(DEFAULT_WEIGHTS), load_net(IMITATION_WEIGHTS)]
        # the every-table network (durak.bots.tablenet): the tables the 2-player network
        # does not read, when its weights are shipped
        self.table: TableNet | None = None
        if path is None and table and os.path.exists(TABLE_WEIGHTS):
            self.table = load_table(TABLE_WEIGHTS)
        elif path is not None and _is_table(path):
            self.nets, self.table = [], load_table(path)
        self.name = "learned" if path is None else f"policy:{path}"
        self._rng = random.Random(seed)
        self.endgame = Endgame() if endgame else None
        if worlds < 0 or width < 1 or depth < 1 or prior < 0:
            raise ArgumentError("learned: worlds >= 0, width >= 1, depth >= 1 and prior >= 0")
        self.worlds, self.width, self.depth, self.prior = worlds, width, depth, prior
        self.sampler = BeliefWorlds(seed=seed) if worlds else None
        self.fallback: Bot | None = None
        if fallback is not None:
            from . import make  # (the registry, which names this module)

            self.fallback = make(fallback, seed=seed)

    @classmethod
    def of(cls, net: QNet, name: str = "learned") -> LearnedBot:
        """A bot playing ``net`` as it is (a network being trained, say)."""
        bot = cls()
        bot.nets, bot.name = [net], name
        return bot

    def reset(self) -> None:
        if self.endgame is not None:
            self.endgame.reset()
        if self.sampler is not None:
            self.sampler.reset()
        if self.fallback is not None:
            self.fallback.reset()

    def observe(self, obs: Observation) -> None:
        if self.sampler is not None:
            self.sampler.observe(obs)
        if self.fallback is not None:
            self.fallback.observe(obs)

    def choose(self, obs: Observation) -> Action:
        legal = legal_of(obs)
        # the 2-player network where it reads the table, then the every-table one, then
        # the imitation network (the cheating game, which the every-table one does not read)
        net = next((n for n in self.nets if n.features is not None and n.reads(obs.rules)), None)
        table = net is None and self.table is not None and tablenet_reads(obs.rules) == ""
        if net is None and not table:
            net = next((n for n in self.nets if n.reads(obs.rules)), None)
        if net is None and not table and self.fallback is not None:
            return self.fallback.choose(obs)  # (all its moves: it follows the deal)
        if len(legal) == 1:
            return legal[0]
        solved = self._solved(obs)
        if solved is not None:
            return solved
        if table:
            assert self.table is not None
            q = self.table.scores(obs.view(), obs.rules, legal, obs.trumps)
            return self._pick(self.table, obs, legal, q)
        if net is None:
            raise DurakError(
                f"{self.name}: a network of {net_rules(self.nets)} cannot play {obs.rules}"
            )
        if net.features is None:
            q = net.scores(state_features(obs), action_features(obs, legal))
            return legal[int(np.argmax(q))]  # (the imitation network: no look-ahead)
        f, numbers = net.features, encoding(obs.rules)
        # The vector of the seat's own view: it shows only what the seat sees.
        s, trump = f.state(f.view_of(obs.view())[None, :])
        rows = f.actions[int(trump[0]), [numbers.index_of(a) for a in legal]]
        return self._pick(net, obs, legal, net.scores(s[0], rows))

    def _solved(self, obs: Observation) -> Action | None:
        """The exact solver's move (``endgame``) once nothing is hidden, if it finishes in
        its budget."""
        if self.endgame is None or not perfect_information(obs):
            return None
        return self.endgame.best(obs, self._rng, ENDGAME_NODES, ENDGAME_CPU)

    def _pick(self, net: Network, obs: Observation, legal: Sequence[Action], q: Any) -> Action:
        """The move by ``q`` (the network's value of each of ``legal``): while cards are
        hidden and there are ``worlds``, the best look-ahead of the ``width`` best."""
        if self.sampler is not None and self.width > 1 and not perfect_information(obs):
            top = np.argsort(-q, kind="stable")[: self.width]
            deal, _ = self.sampler.prepare(obs)
            deals = [deal(self._rng) for _ in range(self.worlds)]
            ranked = [legal[i] for i in top]
            return best_looked_ahead(net, obs, ranked, deals, self.depth, self.prior * q[top])
        return legal[int(np.argmax(q))]


def _is_table(path: str) -> bool:
    """Whether the weights at ``path`` are an every-table network's (by their width)."""
    _need_numpy()
    if not os.path.exists(path):
        raise DurakError(f"policy: no weights file {path!r}")
    with np.load(path) as f:
        return bool(f["w1"].shape[0] == TABLE_INPUT)


_TABLES: dict[str, TableNet] = {}


def load_table(path: str) -> TableNet:
    """The every-table network saved at ``path``, loaded once a process."""
    from .tablenet import TableNet  # (numpy: imported once it is known to be there)

    net = _TABLES.get(path)
    if net is None:
        net = _TABLES[path] = TableNet.load(path)
    return net


def net_rules(nets: Sequence[QNet]) -> str:
    """The rule sets ``nets`` were trained on, for an error message."""
    return ", ".join(str(n.rules) for n in nets if n.rules is not None) or "any rules"
