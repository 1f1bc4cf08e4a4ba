"""A deal played by action numbers, one call a step: the environments' hot path.

Compiled with the engine (mypyc, :data:`durak.build.ENGINE`), so it uses no numpy. A step
checks the number against the legal ones, plays it, and lists the next legal numbers; a
view is the seat's encoded vector (:class:`~durak.planes.Planes`) and its action
mask, new bytes each, for numpy to wrap as two arrays.

>>> from durak import Game, Rules
>>> st = Stepper(Rules())
>>> st.start(Game(Rules(), seed=1))
>>> st.play(10**6), st.play(st.legal[0]) >= -1
(-2, True)
>>> x, mask = st.view(0)
>>> len(x) == 4 * st.planes.size, len(mask) == st.actions.size
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..game import Game
from ..planes import Planes
from ..rules import Rules
from .bits import Actions, deck_slot, legal_indices, mask_bytes
from .vecstep import Opponents

ILLEGAL: Final = -2
OVER: Final = -1

# durak.envs._arrays.Viewer(...).view: (seat, the game's fields..., legal) -> the two arrays
ArrayView = Callable[..., tuple[Any, Any]]


class Stepper:
    """The game of one environment, its legal action numbers and their mask."""

    def __init__(self, rules: Rules, privileged: bool = False) -> None:
        self.rules = rules
        self.planes = Planes(rules, privileged)
        self.actions = Actions(rules)
        self.game: Game | None = None
        self.legal: list[int] = []
        self._size = self.actions.size
        self._slot = deck_slot(rules)
        self._none: list[int] = []
        # with history (``keep_log``): the seat of every move of the deal, in order
        self.log: list[int] | None = None

    def __reduce__(self) -> tuple[object, tuple[Rules, bool, Game | None, list[int]]]:
        # Compiled, the class cannot be rebuilt without its constructor's arguments; a
        # copy (deepcopy of an env mid-deal, pickling) keeps the deal and its legal numbers.
        return _rebuilt, (self.rules, self.planes.privileged, self.game, self.legal)

    def start(self, g: Game) -> None:
        """Play ``g`` from now on."""
        self.game = g
        self.legal = legal_indices(g, self._slot)
        if self.log is not None:
            self.log = []

    def keep_log(self) -> None:
        """Keep the seat of every move :meth:`play` plays (for ``history=K``), from the
        next :meth:`start` on."""
        self.log = []

    def play(self, index: int) -> int:
        """Play action number ``index`` for the seat to act: the seat to act next,
        :data:`OVER` if the deal is over, or :data:`ILLEGAL` (nothing played) if it is
        not legal now."""
        g = self._take(index, self.log)
        if g is None:
            return ILLEGAL
        return self._listed(g, g.to_act)

    def advance(self, index: int, seat: int, ops: Opponents, log: list[int] | None) -> int:
        """The single environment's step: play action number ``index`` for ``seat`` (the
        learner, to act), then ``ops`` until ``seat`` is to act again; ``seat`` (its legal
        numbers listed), :data:`OVER`, or :data:`ILLEGAL` (nothing played). ``log`` gets
        the seat of every move played (the history's)."""
        g = self._take(index, log)
        if g is None:
            return ILLEGAL
        to_act = g.to_act
        if to_act is not None and to_act != seat:
            after = ops.play(g, seat, log)
            to_act = None if after < 0 else after
        return self._listed(g, to_act)

    def _take(self, index: int, log: list[int] | None) -> Game | None:
        """Play action number ``index`` for the seat to act (its seat to ``log``): the
        game, or None (nothing played) if it is not legal now."""
        g = self.game
        if g is None:
            return None
        # (a typed loop: ``in`` would box the number and compare objects)
        for i in self.legal:
            if i == index:
                break
        else:
            return None
        if log is not None:
            seat = g.to_act
            assert seat is not None
            log.append(seat)
        g.play(self.actions.action(index))
        return g

    def _listed(self, g: Game, to_act: int | None) -> int:
        """``to_act``'s legal numbers listed (it is to act in ``g``): ``to_act``, or
        :data:`OVER` (none) if the deal is over."""
        if to_act is None:
            self.legal = []
            return OVER
        self.legal = legal_indices(g, self._slot)
        return to_act

    def forfeit(self) -> None:
        """No legal actions any more (the deal was ended from outside)."""
        self.legal = []

    def view(self, seat: int) -> tuple[bytearray, bytearray]:
        """``seat``'s vector (float32 bytes) and its action mask (one byte an action:
        all 0 for a seat not on move), both new: nothing writes to them later."""
        g = self.game
        assert g is not None
        mask = mask_bytes(self.legal if g.to_act == seat else [], self._size)
        return self.planes.encode(g, seat), mask

    def arrays(self, seat: int, fill: ArrayView) -> tuple[Any, Any]:
        """As :meth:`view`, but as two new numpy arrays made by ``fill``
        (:func:`durak.envs.encoding.array_view`) in one call, from the engine's state
        (``Game.state``: what :meth:`~durak.planes.Planes.fields` makes of it,
        ``fill`` makes in C)."""
        g = self.game
        assert g is not None
        (hands, known, att, _, unbeaten, table, discard, trump_card, under, talon, out,
         to_act, attacker, defender, phase, cap, bout, tally, _, forced) = g.state()  # fmt: skip
        return fill(
            seat,
            hands,
            known,
            att,
            unbeaten,
            table,
            discard,
            trump_card,
            0 if under else -1,
            talon - under,
            cap,
            out,
            attacker,
            defender,
            None if to_act < 0 else to_act,
            phase,
            bout,
            forced,
            tally,
            self.legal if to_act == seat else self._none,
        )


def _rebuilt(rules: Rules, privileged: bool, game: Game | None, legal: list[int]) -> Stepper:
    st = Stepper(rules, privileged)
    st.game = game
    st.legal = list(legal)
    return st
