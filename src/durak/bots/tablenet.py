"""What the every-table network sees: one seat's view of any table as one fixed vector.

The 2-player network (:mod:`durak.bots.viewnet`) reads the environments' vector, whose
layout changes with the players, the deck and the trump rules. This one reads every
table a game can be dealt with (2-6 players, teams, 24/36/52 cards, a turned, fixed,
per-player or no trump, transfers and проездной, standard, погонный and пагоны scoring)
in one layout, so that one set of weights serves them all:

- **card planes** of 52 slots (a card keeps its slot whatever the deck: rank-major, as
  :mod:`durak.cards` numbers it), with the suits turned so that the deciding seat's trump
  suit is slot 0 (no trump: the suits as they are): the hand, the unbeaten and the beaten
  attacks, the beating cards, the discard, the turned trump card, the unseen cards, and
  the cards known in each other seat's hand, seat by seat from the decider's left;
- **seats** (:data:`SEATS` slots, relative to the decider, empty past the table's size):
  present, out, attacker, defender, to act, first attacker, partner (teams), showed a
  trump this bout, hand size / 36, its score this match (погонный / пагоны) / 12, and its
  trump suit turned (двухкозырный);
- **the bout**: the trump card under the talon, the phase, the first bout, a forced take,
  the talon / 36, the cap, the attacks laid and the room left / 6, the spades' slot
  («пики пиками»);
- **the rules**: players, deck, trump kind, transfers, проездной, opening, throw-in,
  throwers, teams, scoring... as one-hots and flags (:func:`rules_row`).

An action is its kind, the card plane of the card(s) it lays, the plane of the table card
it beats and the number of cards / 4 (:data:`ACTION_WIDTH` floats), its suits turned as
the state's. Everything comes from a :class:`~durak.observation.SeatView` (plus the
seats' trumps in двухкозырный): nothing a seat cannot see. The cheating game (шулерский)
is not read: its cheats and calls have no features here.

>>> from durak import Game, Rules
>>> f = TableFeatures()
>>> g = Game(Rules.preset("perevodnoy", players=4, teams="2x2"), seed=3)
>>> s = f.states([f.fields(g.view(g.to_act), g.rules)])
>>> s.shape == (1, STATE_SIZE), int(s[0, :52].sum())
(True, 6)
>>> a = f.actions(g.legal_actions(), g.view(g.to_act).trump_suit)
>>> a.shape == (len(g.legal_actions()), ACTION_WIDTH)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import Action
from ..enums import Kind, Phase
from ..errors import DurakError
from ..game import Game
from ..observation import SeatView
from ..rules import CHOICES, Rules
from .pairnet import PairNet

try:
    import numpy as np
except ImportError:  # pragma: no cover - the learned player's extras bring numpy
    np = None  # type: ignore[assignment]

SEATS = 6
PLANES: tuple[str, ...] = (
    "hand",
    "unbeaten",
    "beaten",
    "beating",
    "discard",
    "trump_card",
    "unseen",
) + tuple(f"known_{k}" for k in range(1, SEATS))
SEAT_FLAGS: tuple[str, ...] = ("present", "out", "attacker", "defender", "to_act")
SEAT_FLAGS += ("first_attacker", "partner", "shown")
SEAT_VALUES = ("hand_size", "score")
SEAT_WIDTH = len(SEAT_FLAGS) + len(SEAT_VALUES) + 4  # + its trump suit (двухкозырный)
PHASES = tuple(p.name.lower() for p in Phase)
BOUT: tuple[str, ...] = (
    "trump_under_talon",
    *(f"phase_{p}" for p in PHASES),
    "first_bout",
    "forced_take",
)
BOUT += ("talon", "cap", "attacks", "room", *(f"spades_slot_{k}" for k in range(4)))
KINDS = tuple(k.name.lower() for k in Kind if k not in (Kind.CHEAT, Kind.CALL))
ACTION_WIDTH = len(KINDS) + 52 + 52 + 1


def _rules_names() -> tuple[str, ...]:
    names = [f"players_{n}" for n in range(2, SEATS + 1)] + [f"deck_{d}" for d in (24, 36, 52)]
    names += ["trump_turned", "trump_none", "trump_fixed", "trump_per_player"]
    names += ["spades_by_spades", "transfer", "transfer_first_bout", "transfer_by_showing"]
    names += ["trump_exchange", "pile_on", "draws", "bout_limit", "first_bout_limit"]
    for option in ("opening", "throw_in", "throwers", "teams", "scoring"):
        names += [f"{option}_{v}" for v in CHOICES[option]]
    return tuple(names)


RULES = _rules_names()
STATE_SIZE = len(PLANES) * 52 + SEATS * SEAT_WIDTH + len(BOUT) + len(RULES)
# the rank-major slots of one suit: bit 4k of a mask, k = 0..12
_SUIT0 = sum(1 << (4 * k) for k in range(13))


def turn_mask(m: int, t: int) -> int:
    """Card mask ``m`` with the suits turned so that suit ``t`` is slot 0 (``t`` 4, no
    trump: as it is).

    >>> turn_mask(0b0100, 2), turn_mask(0b0100, 4)
    (1, 4)
    """
    if t >= 4 or t == 0:
        return m
    out = 0
    for s in range(4):
        out |= ((m >> s) & _SUIT0) << ((s - t) % 4)
    return out


def rules_row(rules: Rules) -> list[float]:
    """The rules' part of the state (:data:`RULES`'s names, in order)."""
    on = {f"players_{rules.players}", f"deck_{rules.deck}"}
    trump = rules.trump if rules.trump in ("turned", "none", "per_player") else "fixed"
    on.add(f"trump_{trump}")
    for flag in ("spades_by_spades", "transfer", "transfer_first_bout", "transfer_by_showing"):
        if getattr(rules, flag):
            on.add(flag)
    for flag in ("trump_exchange", "pile_on", "draws"):
        if getattr(rules, flag):
            on.add(flag)
    for option in ("opening", "throw_in", "throwers", "teams", "scoring"):
        on.add(f"{option}_{getattr(rules, option)}")
    row = [1.0 if name in on else 0.0 for name in RULES]
    row[RULES.index("bout_limit")] = rules.bout_limit / 6
    row[RULES.index("first_bout_limit")] = rules.first_bout_limit / 6
    return row


def reads(rules: Rules) -> str:
    """Why the every-table network cannot read ``rules`` ("" if it can)."""
    if rules.cheating != "off":
        return "the cheating game (шулерский) has cheats and calls it has no features for"
    if rules.players > SEATS or rules.deck not in (24, 36, 52):
        return f"{rules.players} players and a {rules.deck}-card deck"
    return ""


def trumps_of(g: Game) -> tuple[int, ...]:
    """Each seat's trump in двухкозырный (public: every seat's turned card), else ()."""
    return g.observation(0).trumps if g.rules.trump == "per_player" else ()


Fields = tuple[list[int], list[float]]  # a position's card masks (turned) and its floats


class TableFeatures:
    """The encoder of the module docstring: :meth:`fields` of one seat's view (cheap,
    plain Python), :meth:`states` of many at once (numpy), and :meth:`actions`' rows."""

    def __init__(self) -> None:
        self._rules: dict[Rules, list[float]] = {}
        self._actions: dict[tuple[Action, int], Any] = {}

    def fields(self, v: SeatView, rules: Rules, trumps: Sequence[int] = ()) -> Fields:
        """Seat ``v.seat``'s position as its turned card masks and its other floats.
        ``trumps``: each seat's trump suit in двухкозырный (the observation's ``trumps``:
        public), else empty."""
        t = v.trump_suit
        n = len(v.hand_sizes)
        seat = v.seat
        att = 0
        for c in v.attacks:
            att |= 1 << c
        trump_bit = 1 << v.trump_card if v.trump_card >= 0 else 0
        order = [(seat + k) % n for k in range(n)]
        masks = [
            v.hand,
            v.unbeaten,
            att & ~v.unbeaten,
            v.table & ~att,
            v.discard,
            trump_bit,
            v.unseen,
        ]
        masks += [v.known[s] for s in order[1:]] + [0] * (SEATS - n)
        masks = [turn_mask(m, t) for m in masks]
        floats: list[float] = []
        for s in order:
            floats += self._seat(v, rules, s, trumps)
        floats += [0.0] * (SEAT_WIDTH * (SEATS - n))
        floats += self._bout(v, rules)
        rules_part = self._rules.get(rules)
        if rules_part is None:
            rules_part = self._rules[rules] = rules_row(rules)
        floats += rules_part
        return masks, floats

    def _seat(self, v: SeatView, rules: Rules, s: int, trumps: Sequence[int]) -> list[float]:
        team = rules.team_of
        partner = rules.teams != "none" and s != v.seat and team(s) == team(v.seat)
        row = [
            1.0,
            float(v.out >> s & 1),
            float(v.attacker == s),
            float(v.defender == s),
            float(v.to_act == s),
            float(v.first_attacker == s),
            float(partner),
            float(v.shown >> s & 1),
            v.hand_sizes[s] / 36,
            min(v.tally[s], 12) / 12 if v.tally else 0.0,
            0.0,
            0.0,
            0.0,
            0.0,
        ]
        if trumps:
            row[10 + (trumps[s] - v.trump_suit) % 4] = 1.0
        return row

    def _bout(self, v: SeatView, rules: Rules) -> list[float]:
        row = [0.0] * len(BOUT)
        row[0] = float(v.trump_under_talon)
        row[1 + v.phase] = 1.0
        k = 1 + len(PHASES)
        row[k] = float(v.bout == 0)
        row[k + 1] = float(v.forced_take)
        row[k + 2] = v.talon_size / 36
        row[k + 3] = v.cap / 6
        row[k + 4] = len(v.attacks) / 6
        row[k + 5] = max(v.cap - len(v.attacks), 0) / 6
        if rules.spades_by_spades:
            row[k + 6 + (3 - v.trump_suit) % 4] = 1.0
        return row

    def states(self, fields: Sequence[Fields]) -> Any:
        """The ``(len(fields), STATE_SIZE)`` float32 states of many positions at once."""
        n = len(fields)
        masks = np.array([f[0] for f in fields], np.uint64).reshape(n, len(PLANES))
        bits = np.unpackbits(masks.view(np.uint8).reshape(n, len(PLANES), 8), axis=2,
                             bitorder="little")[:, :, :52]  # fmt: skip
        out = np.empty((n, STATE_SIZE), np.float32)
        out[:, : len(PLANES) * 52] = bits.reshape(n, -1)
        out[:, len(PLANES) * 52 :] = np.array([f[1] for f in fields], np.float32)
        return out

    def action(self, a: Action, t: int) -> Any:
        """Action ``a``'s row when suit ``t`` is the deciding seat's trump."""
        key = (a, t)
        row = self._actions.get(key)
        if row is None:
            if a.kind in (Kind.CHEAT, Kind.CALL):
                raise DurakError(f"the every-table network has no features for {a}")
            row = np.zeros(ACTION_WIDTH, np.float32)
            row[KINDS.index(a.kind.name.lower())] = 1.0
            k = len(KINDS)
            for c in a.cards:
                row[k + turn_mask(1 << c.index, t).bit_length() - 1] = 1.0
            if a.target is not None:
                row[k + 52 + turn_mask(1 << a.target.index, t).bit_length() - 1] = 1.0
            row[-1] = len(a.cards) / 4
            self._actions[key] = row
        return row

    def actions(self, legal: Sequence[Action], t: int) -> Any:
        """The rows of ``legal`` under trump slot ``t``, one an action."""
        return np.stack([self.action(a, t) for a in legal])


class TableNet(PairNet):
    """The every-table ``Q(s, a)`` in numpy: state → ``h`` plus action → ``h``, ReLU, then
    the rest of the layers (the weights ``w1`` — the state's rows, then the action's —
    ``b1``, ``w2``, ``b2``...). ``Q`` estimates the deal's outcome for the deciding seat:
    +1 not the durak (its side does not lose), -1 the durak, 0 a draw; so the chance of
    ending as the durak is about ``(1 - Q) / 2``."""

    def __init__(self, weights: dict[str, Any]) -> None:
        super().__init__(weights, STATE_SIZE, ACTION_WIDTH)
        self.features = TableFeatures()

    @classmethod
    def load(cls, path: str) -> TableNet:
        """The network saved at ``path`` (``.npz`` of ``w1, b1, w2, ...``)."""
        with np.load(path) as f:
            return cls({k: f[k].astype(np.float32) for k in f.files if k.startswith(("w", "b"))})

    def q_of(self, games: Sequence[Game], legal: Sequence[Sequence[Action]]) -> Any:
        """``Q`` of ``legal[i]`` for the seat to act in ``games[i]``, from its own view
        alone (the look-ahead's :class:`~durak.bots.lookahead.Network`)."""
        f = self.features
        fields: list[Fields] = []
        rows: list[Any] = []
        for g, moves in zip(games, legal, strict=True):
            v = g.view(g.to_act or 0)
            fields.append(f.fields(v, g.rules, trumps_of(g)))
            rows.append(f.actions(moves, v.trump_suit))
        row_of = np.repeat(np.arange(len(games)), [len(m) for m in legal])
        return self.batch_scores(f.states(fields), np.concatenate(rows), row_of)

    def scores(self, v: SeatView, rules: Rules, legal: Sequence[Action],
               trumps: Sequence[int] = ()) -> Any:  # fmt: skip
        """``Q`` of each of ``legal`` in seat ``v.seat``'s position."""
        f = self.features
        s = f.states([f.fields(v, rules, trumps)])
        return self.batch_scores(s, f.actions(legal, v.trump_suit), np.zeros(len(legal), np.intp))
