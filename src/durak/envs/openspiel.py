"""OpenSpiel game ``python_durak``: the engine as a ``pyspiel`` game with true chance nodes.

Importing this module registers the game; load it with flat parameters::

    pyspiel.load_game("python_durak(variant=perevodnoy,players=3)")

Parameters: ``variant`` (a preset of :mod:`durak.rules`), ``players``, ``deck``,
``hand_size``, ``bout_limit``, ``first_bout_limit``, ``action_limit`` (default 1000: the
game must have a finite length), ``dealer`` (the seat dealing), and every other rule
option as text (``transfer_by_showing=on``, ``throwers=neighbours``); an empty text keeps
the preset's value.

Chance nodes are the real uncertainty of the game, uniform over the cards not yet
placed: the deal (one card at a time, from the dealer's left, then the face-up trump, or
with a trump per seat one turned card each), every card drawn from the talon (the
face-up trump, seen by all, is drawn without a chance node), and the lot for the first
lead when nobody holds a trump (``no_trump_lead=lot``).
A chance outcome is a card's number in the deck, lowest card 0 (for the lot: the seat).
Player actions are the engine's fixed encoding (:mod:`durak.actions`).

Information-state strings hold what the player knows now (``durak.envs.bits.view_key``:
own hand, every card seen go into a hand, the table, the discard, sizes, roles) and the
public history (every move, and how many cards each player drew). Tensors are the shared
encoder's view (:mod:`durak.envs.encoding`). ``resample_from_infostate`` deals the hidden
cards again with :func:`durak.determinize.sample`, so OpenSpiel's Python ``ISMCTSBot``
searches the player's real information set.

>>> import pyspiel
>>> from durak.envs import openspiel
>>> game = pyspiel.load_game("python_durak(variant=perevodnoy,players=3)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 1608, 36)
>>> s = game.new_initial_state()
>>> s.is_chance_node(), len(s.chance_outcomes())
(True, 36)
"""

from __future__ import annotations

import random
from dataclasses import fields
from itertools import repeat
from typing import Any

import numpy as np
import pyspiel

from ..actions import Action, encoding
from ..cards import Card, deck_mask, iter_bits
from ..determinize import sample
from ..errors import ArgumentError, IllegalActionError, StateError
from ..game import Game, trump_suit_of
from ..rules import PRESETS, Rules
from .bits import (
    Actions,
    play_or_probe,
    sorted_legal,
    view_key,
)
from .encoding import Encoder
from .episode import DEFAULT_ACTION_LIMIT, refuse_unsupported, returns
from .history import History

_INT_PARAMS = ("players", "deck", "hand_size", "bout_limit", "first_bout_limit")
_TEXT_PARAMS = tuple(
    f.name for f in fields(Rules) if f.name not in _INT_PARAMS and f.name != "action_limit"
)
PARAMETERS: dict[str, Any] = {
    "variant": "podkidnoy",
    **{name: getattr(Rules(), name) for name in _INT_PARAMS},
    "action_limit": DEFAULT_ACTION_LIMIT,
    "dealer": 0,
    **{name: "" for name in _TEXT_PARAMS},
}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_durak",
    long_name="Durak (durak engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The Rules the game parameters stand for (defaults filled in)."""
    p = {**PARAMETERS, **params}
    if p["variant"] not in PRESETS:
        raise ArgumentError(f"variant: one of {', '.join(PRESETS)}, not {p['variant']!r}")
    opts = [f"{k}={p[k]}" for k in _INT_PARAMS if p[k] != PARAMETERS[k]]
    opts += [f"{k}={p[k]}" for k in _TEXT_PARAMS if p[k] != ""]
    rules = Rules.parse(f"{p['variant']}({','.join(opts)})")
    refuse_unsupported(rules)
    limit = int(p["action_limit"])
    if limit <= 0:
        raise ArgumentError("action_limit: OpenSpiel games need a finite length (1 or more)")
    return rules.replace(action_limit=limit)


def params_of(rules: Rules, dealer: int = 0) -> dict[str, Any]:
    """Game parameters for ``rules`` (``action_limit`` defaulted when off)."""
    variant = rules.preset_name()
    base = Rules.preset(variant, players=rules.players)
    out: dict[str, Any] = {
        "variant": variant,
        "dealer": dealer,
        "action_limit": rules.action_limit or DEFAULT_ACTION_LIMIT,
    }
    for k in _INT_PARAMS:
        out[k] = getattr(rules, k)
    for k in _TEXT_PARAMS:
        v = getattr(rules, k)
        if v != getattr(base, k):
            out[k] = ("on" if v else "off") if isinstance(v, bool) else str(v)
    return out


def load(rules: Rules | str | None = None, dealer: int = 0) -> pyspiel.Game:
    """``pyspiel.load_game`` of ``python_durak`` for a Rules (or its text form)."""
    if isinstance(rules, str):
        rules = Rules.parse(rules)
    return pyspiel.load_game("python_durak", params_of(rules or Rules(), dealer))


class DurakGame(pyspiel.Game):  # type: ignore[misc]
    """The game: rules from flat parameters (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        self.rules = rules = rules_from_params(params)
        self.dealer = int(params["dealer"])
        if not 0 <= self.dealer < rules.players:
            raise ArgumentError(f"dealer: a seat 0..{rules.players - 1}")
        super().__init__(
            _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=encoding(rules).size,
                max_chance_outcomes=rules.deck,
                num_players=rules.players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=rules.action_limit + rules.deck + 1,
            ),
            params,
        )
        self.encoder = Encoder(rules)
        k = rules.players * rules.hand_size
        self.consts = _Consts(
            rules,
            self.dealer,
            self.encoder,
            Actions(rules),
            # (trump=none: no card is turned, the deal is the hands only; двухкозырный:
            # one card turned for each seat)
            k + (rules.players if rules.trump == "per_player" else _turned(rules, k)),
        )

    def new_initial_state(self) -> DurakState:
        return DurakState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DurakObserver:
        params = dict(params or {})
        history = int(params.pop("history", 0))
        if params:
            raise ArgumentError(f"observation parameters not supported: {params} (only history)")
        if iig_obs_type is None:
            return DurakObserver(self, True, pyspiel.PrivateInfoType.SINGLE_PLAYER, True, history)
        return DurakObserver(
            self,
            bool(iig_obs_type.perfect_recall),
            iig_obs_type.private_info,
            bool(iig_obs_type.public_info),
            history,
        )


def _turned(rules: Rules, k: int) -> int:
    """How many cards are turned after ``k`` are dealt with one trump for the table."""
    return 1 if k < rules.deck and rules.trump != "none" else 0


def _needs_lot(rules: Rules, dealer: int, dealt: list[int]) -> bool:
    """Whether the first lead goes to the lot (``no_trump_lead=lot``) after the deal
    ``dealt`` (the hands, one card at a time from the dealer's left, then the turned
    cards): nobody holds a trump; with a trump per seat (двухкозырный, docs/rules.md 12)
    nobody or more than one seat holds the lowest rank of its own trump."""
    if rules.no_trump_lead != "lot":
        return False
    n = rules.players
    k = n * rules.hand_size
    if rules.trump != "per_player":
        # (the rules' trump suit: none with trump=none, a fixed suit whatever is turned)
        trump_suit = trump_suit_of(rules, dealt[-1] if rules.trump != "none" else -1)
        return not any(c & 3 == trump_suit for c in dealt[:k])
    turned = dealt[k:]
    lows = []
    for s in range(n):
        # seat s gets the (s - dealer - 1)-th card of each round and of the turned ones
        own = turned[(s - dealer - 1) % n] & 3
        hand = [dealt[i] for i in range(k) if (dealer + 1 + i) % n == s]
        lows.append(min((c // 4 for c in hand if c & 3 == own), default=99))
    best = min(lows)
    return best == 99 or lows.count(best) > 1


class _Consts:
    """What every state of one game shares; OpenSpiel clones a Python state by deep-copying
    its attributes, and these need no copy."""

    def __init__(
        self, rules: Rules, dealer: int, encoder: Encoder, actions: Actions, to_deal: int
    ) -> None:
        self.rules, self.dealer, self.encoder, self.actions = rules, dealer, encoder, actions
        self.lo = encoder.lo
        self.to_deal = to_deal  # chance outcomes of the deal: the hands, then the trump

    def __deepcopy__(self, memo: dict[int, Any]) -> _Consts:
        return self


class _Deal:
    """A state's mutable part, copied fast (OpenSpiel clones a Python state by deepcopy)."""

    __slots__ = (
        "dealt",
        "placed",
        "left",
        "game",
        "lot",
        "pending",
        "draws",
        "chosen",
        "pool",
        "public",
        "legal",
    )

    def __init__(self) -> None:
        self.dealt: list[int] = []  # cards dealt so far, in dealing order
        self.placed = 0  # the same as a mask
        self.left: list[int] | None = None  # the deal's outcomes still open, once asked
        self.game: Game | None = None
        self.lot = False  # the lot for the first lead is the next chance node
        self.pending: Action | None = None  # a move waiting for the cards it makes drawn
        self.draws = 0
        self.chosen: list[int] = []
        self.pool: list[int] = []  # outcomes (cards) of the draw, lowest first
        # the public history: text, (seat, action) for a move, how many cards each seat
        # drew (made text when asked)
        self.public: list[str | tuple[int, Action] | list[int]] = []
        self.legal: list[int] | None = None  # the player's legal action numbers, once asked

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        d = _Deal()
        d.dealt, d.placed, d.legal = self.dealt[:], self.placed, self.legal
        d.left = self.left[:] if self.left is not None else None
        d.game = self.game.clone() if self.game is not None else None
        d.lot, d.pending, d.draws = self.lot, self.pending, self.draws
        d.chosen, d.pool, d.public = self.chosen[:], self.pool[:], self.public[:]
        return d


# (called several times a step by OpenSpiel: not looked up each time)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _public_text(e: str | tuple[int, Action] | list[int]) -> str:
    if isinstance(e, str):
        return e
    if isinstance(e, tuple):
        return f"{e[0]}:{e[1]}"
    return "drew:" + ",".join(map(str, e))


class DurakState(pyspiel.State):  # type: ignore[misc]
    """A position: the deal in progress, a move, or a card being drawn."""

    def __init__(self, game: DurakGame) -> None:
        super().__init__(game)
        self.c = game.consts
        self.d = _Deal()

    # -- whose turn --------------------------------------------------------------------
    def current_player(self) -> int:
        d = self.d
        g = d.game
        if g is None or d.pending is not None:
            return _CHANCE
        to_act = g.to_act
        return _TERMINAL if to_act is None else to_act

    def is_terminal(self) -> bool:
        g = self.d.game
        return g is not None and g.to_act is None

    def is_chance_node(self) -> bool:
        # (pyspiel's own asks current_player() through pybind11; this is the same, in Python)
        return self.current_player() == _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """As pyspiel's (the outcomes at a chance node, none for a player not on move or
        at the end), without its three calls back into :meth:`current_player` through
        pybind11: Python callers (OpenSpiel's Python bots) ask this once a move."""
        cur = self.current_player()
        if cur == _TERMINAL:
            return []
        if cur == _CHANCE:
            return [o for o, _ in self.chance_outcomes()]
        if player is None or player == cur:
            return self._legal_actions(cur)
        if player < 0:
            raise ArgumentError(f"legal_actions: no such player {player}")
        return []

    def _legal_actions(self, player: int) -> list[int]:
        assert self.d.game is not None and player == self.d.game.to_act
        return self._legal()[:]  # (the caller's to keep; the state's copy is checked against)

    def _legal(self) -> list[int]:
        """The legal action numbers of the player on move, lowest first, kept per state."""
        d = self.d
        legal = d.legal
        if legal is None:
            assert d.game is not None
            legal = d.legal = sorted_legal(d.game)
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        d = self.d
        if d.lot:
            n = self.c.rules.players
            return [(s, 1.0 / n) for s in range(n)]
        if d.game is None:
            left = d.left
            if left is None:
                lo = self.c.lo
                left = d.left = [
                    c - lo for c in iter_bits(deck_mask(self.c.rules.deck) & ~d.placed)
                ]
        else:
            left = d.pool
        return list(zip(left, repeat(1.0 / len(left))))

    # -- moves -------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        d = self.d
        g = d.game
        if g is None:
            self._deal(int(action))
        elif d.pending is not None:
            self._draw(int(action))
        else:
            if action not in self._legal():
                raise IllegalActionError(f"action {action} is not legal now")
            a = self.c.actions.action(action)
            d.legal = None
            seat = g.to_act
            assert seat is not None
            d.public.append((seat, a))
            # a move that makes cards drawn waits for them: they are chance nodes first
            after, k = play_or_probe(g, a)
            if k:
                d.pending, d.draws, d.chosen = a, k, []
                lo = self.c.lo
                d.pool = sorted(c - lo for c in g.undrawn())
            else:
                d.game = after

    def _deal(self, outcome: int) -> None:
        d = self.d
        r = self.c.rules
        if d.lot:
            d.lot = False
            d.public.append(f"lot:{outcome}")
            self._start(leader=outcome)
            return
        card = outcome + self.c.lo
        if not 0 <= outcome < r.deck or d.placed >> card & 1:
            raise IllegalActionError(f"chance outcome {outcome}: not a card left to deal")
        d.dealt.append(card)
        d.placed |= 1 << card
        if d.left is not None:
            d.left.remove(outcome)
        if len(d.dealt) < self.c.to_deal:
            return
        if _needs_lot(r, self.c.dealer, d.dealt):
            d.lot = True
            return
        self._start(leader=None)

    def _start(self, leader: int | None) -> None:
        d = self.d
        r = self.c.rules
        rest = list(iter_bits(deck_mask(r.deck) & ~d.placed))  # the talon: not yet drawn
        d.game = Game(
            r,
            seed=0,
            deck=[Card.from_index(c) for c in d.dealt + rest],
            dealer=self.c.dealer,
            leader=leader,
        )
        d.public.append(f"trump:{d.game.trump}")
        if r.trump == "per_player":
            d.public.append(f"trumps:{d.game.observation(0).trumps}")

    def _draw(self, outcome: int) -> None:
        d = self.d
        g = d.game
        assert g is not None and d.pending is not None
        card = outcome + self.c.lo
        if outcome not in d.pool:
            raise IllegalActionError(f"chance outcome {outcome}: not a card in the talon")
        d.pool.remove(outcome)
        d.chosen.append(card)
        if len(d.chosen) < d.draws:
            return
        sizes = list(g.view(0).hand_sizes)
        lo = self.c.lo
        g.restack(d.chosen + [o + lo for o in d.pool])
        g.play(d.pending)
        d.pending, d.chosen, d.pool = None, [], []
        # who drew how many is public; which cards, only the one who drew them knows
        d.public.append([k - sizes[s] for s, k in enumerate(g.view(0).hand_sizes)])

    # -- results and views -----------------------------------------------------------
    def returns(self) -> list[float]:
        g = self.d.game
        if g is None or g.outcome is None:
            return [0.0] * self.c.rules.players
        return returns(self.c.rules, g.outcome)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.d.lot:
                return f"lot:{action}"
            return f"card:{Card.from_index(action + self.c.lo)}"
        return str(self.c.actions.action(action))

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        return self._view(player) + "|" + " ".join(map(_public_text, self.d.public))

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        return self._view(player)

    def public_string(self, history: bool = True) -> str:
        """What every player sees, the same for all: the table, the trump, the sizes, the
        discard (``history``: and the public moves)."""
        d = self.d
        g = d.game
        if g is None:
            return f"deal {len(d.dealt)}"
        table = " ".join(f"{a}/{b}" if b else str(a) for a, b in g.table)
        sizes = [len(g.hand(s)) for s in range(self.c.rules.players)]
        # (which cards are known in which hand follows from the public moves: the
        # history says it; the tensor's known planes hold it too)
        text = (
            f"trump {g.trump} talon {g.talon_size} to_act {g.to_act} sizes {sizes} "
            f"table [{table}] discard {g.discard}"
        )
        if history:
            text += "|" + " ".join(map(_public_text, d.public))
        return text

    def _view(self, player: int) -> str:
        d = self.d
        if d.game is None:
            r = self.c.rules
            mine = [
                c
                for i, c in enumerate(d.dealt[: r.players * r.hand_size])
                if (self.c.dealer + 1 + i) % r.players == player
            ]
            return f"{player}|deal {len(d.dealt)}|{sorted(mine)}"
        key = view_key(d.game, player)
        if d.pending is not None:
            key += f"|drawing {len(d.chosen)}/{d.draws}"
        return key

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DurakState:
        """A state ``player_id`` cannot tell from this one: hidden cards dealt again,
        uniformly among those consistent with what the player has seen."""
        d = self.d
        g = d.game
        if g is None or d.pending is not None:
            raise StateError("resample_from_infostate: only at a player's move")
        rng = random.Random(int(probability_sampler() * 2**53))
        s = DurakState(self.get_game())
        sg = sample(g.observation(player_id), rng, before=g.history)
        s.d.game = sg
        s.d.dealt, s.d.placed = d.dealt[:], d.placed
        s.d.public = d.public[:]
        return s

    def __str__(self) -> str:
        d = self.d
        if d.game is None:
            return "dealing: " + " ".join(str(Card.from_index(c)) for c in d.dealt)
        g = d.game
        hands = " | ".join(str(h) for h in g.hands)
        table = " ".join(f"{a}/{b}" if b else str(a) for a, b in g.table)
        return (
            f"trump {g.trump} talon {g.talon_size} to_act {g.to_act} hands {hands} "
            f"table {table}" + (f" drawing for {d.pending}" if d.pending else "")
        )


class DurakObserver:
    """OpenSpiel's observer protocol, honouring the observation type asked for.

    ``private_info``: ``SINGLE_PLAYER`` (the default) gives the player's own hand,
    ``NONE`` leaves it out (the public observation: the table, the discard, the sizes,
    the cards known to be in each hand from public events), ``ALL_PLAYERS`` adds every
    other hand (the perfect-information tensor of the privileged encoder).
    The public tensor is a function of public facts only: its ``hand`` plane holds the
    player's cards that everyone knows (taken from the table, shown, the turned trump
    drawn), and its ``unseen`` plane every card no one can place in public, the rest of
    the player's own hand included (the player's own ``unseen`` plane leaves its hand
    out, which would give the hand away).
    ``public_info=False`` keeps only the private part (the hand planes).
    ``perfect_recall`` strings hold the public move history too.
    ``params={"history": K}`` adds the last K moves after the vector: ``2 K`` entries,
    (seat counted from the player, action number) a move, oldest first, ``-1`` before
    the first (:mod:`durak.envs.history`), also ``dict["history"]`` as ``(K, 2)``; all
    public (kept with ``public_info``).

    >>> import pyspiel
    >>> from durak.envs import openspiel
    >>> game = pyspiel.load_game("python_durak")
    >>> s = game.new_initial_state()
    >>> while s.is_chance_node():
    ...     s.apply_action(s.chance_outcomes()[0][0])
    >>> public = pyspiel.IIGObservationType(
    ...     perfect_recall=False, public_info=True,
    ...     private_info=pyspiel.PrivateInfoType.NONE)
    >>> own, pub = game.make_py_observer(), game.make_py_observer(public)
    >>> own.set_from(s, 0); pub.set_from(s, 0)
    >>> int(own.tensor[:36].sum()), int(pub.tensor[:36].sum())  # the hand plane
    (6, 0)
    >>> "6" in own.string_from(s, 0), pub.string_from(s, 0) == pub.string_from(s, 1)
    (True, True)
    """

    def __init__(
        self,
        game: DurakGame,
        perfect_recall: bool,
        private_info: Any,
        public_info: bool,
        history: int = 0,
    ) -> None:
        everyone = private_info == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.encoder = Encoder(game.consts.rules, privileged=True) if everyone else game.encoder
        self.perfect_recall = perfect_recall
        self.own = private_info != pyspiel.PrivateInfoType.NONE
        self.public = public_info
        cards = self.encoder.cards
        names = self.encoder.plane_names
        # the private planes: the own hand, and with ALL_PLAYERS every other hand
        self.private = [
            i for i, n in enumerate(names) if n == "hand" or (everyone and n.startswith("hand_"))
        ]
        self.hand = slice(0, cards)  # "hand" is the first plane
        u = names.index("unseen")
        self.unseen = slice(u * cards, (u + 1) * cards)
        self.lo = self.encoder.lo
        self.keep = np.zeros(self.encoder.size, bool)
        for i in self.private:
            self.keep[i * cards : (i + 1) * cards] = True
        size = self.encoder.size
        self.history = History(game.consts.rules, history) if history else None
        self.tensor = np.zeros(size + 2 * history, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if history:
            self.dict["history"] = self.tensor[size:].reshape(history, 2)
        self.size = size

    def set_from(self, state: DurakState, player: int) -> None:
        g = state.d.game
        if g is None:
            self.tensor.fill(0.0)
            if self.history is not None:
                self.dict["history"][:] = -1
            return
        t = self.tensor[: self.size]
        self.encoder.encode(g, player, t)
        if self.history is not None:
            moves = [e for e in state.d.public if isinstance(e, tuple)]
            rows = self.history.rows_of(moves, player) if self.public else -1
            self.dict["history"][:] = rows
        if not self.own:
            # the public view: the hand's cards not known to all go back to unseen, so
            # that no plane is a function of the player's private cards
            known = g.state()[1][player] >> self.lo
            public = np.array([known >> i & 1 for i in range(self.encoder.cards)], np.float32)
            t[self.unseen] += t[self.hand] - public
            t[self.hand] = public
        if not self.public:
            t[~self.keep] = 0.0
        if not self.own and not self.public:
            t[self.hand] = 0.0

    def string_from(self, state: DurakState, player: int) -> str:
        if not self.own:
            return state.public_string(self.perfect_recall)
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


pyspiel.register_game(_GAME_TYPE, DurakGame)
