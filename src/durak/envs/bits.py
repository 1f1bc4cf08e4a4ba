"""Action numbers and information-state keys for the environments, from the engine's
public fast path (``Game.state``, ``Game.moves``, ``Game.play``): no private field of a
``Game`` is read here.

Compiled with the engine (mypyc), so it uses no numpy. A card is bit ``c`` of a mask,
``c = 4 * (rank - 2) + suit`` (suits ♠ ♥ ♦ ♣), as in :mod:`durak.cards`.

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=1)
>>> len(legal_indices(g)) == len(g.legal_actions())
True
"""

from __future__ import annotations

from typing import Any, Final

from ..actions import ATTACK, EXCHANGE, SHOW, TRANSFER, Action, encoding
from ..game import PHASES, PILE, Game
from ..outcome import Outcome
from ..rules import Rules


def view_key(g: Game, seat: int) -> str:
    """A string of everything ``seat`` may know of the position now, and nothing else:
    equal for two games that differ only in cards hidden from ``seat``."""
    r = g.state()
    known = list(r[1])
    known[seat] = r[0][seat]
    sizes = [h.bit_count() for h in r[0]]
    key = (
        f"{seat}|{known}|{r[2]}{r[3]}|{r[6]:x}|{r[7]}{r[8]:d}{r[9]}|{sizes}"
        f"|{[int(o) for o in r[10]]}|{r[11:17]}|{r[17]}|{r[18]}{r[19]:d}"
    )
    if g.rules.cheating != "off":
        # шулерский: the public cheat facts (which table cards are cheats, who laid
        # what, the calls, who was caught) are part of what every seat knows
        o = g.observation(seat)
        laid = [int(m) for m in o.laid]
        key += f"|{int(o.cheated):x}|{int(o.called):x}|{laid}|{o.barred}"
    if g.rules.trump == "per_player":
        key += f"|{g.observation(seat).trumps}"  # (двухкозырный: whose trump is which)
    return key


# Action numbers remembered per deck size (by deck_slot), keyed by the action itself:
# actions are interned and compare by identity, so the lookup hashes no field.
_NUMBERS: Final[tuple[dict[Action, Any], ...]] = ({}, {}, {})


def deck_slot(rules: Rules) -> int:
    """Which table of remembered numbers ``rules``' deck uses (for :func:`legal_indices`:
    a caller playing one rule set looks it up once)."""
    deck = rules.deck
    return 0 if deck == 24 else 1 if deck == 36 else 2


def legal_moves(g: Game) -> list[Action]:
    """What the seat to act may play, as the environments offer it: ``g.all_moves()``,
    ``g.moves()`` (the engine's own list: read only), and with ``cheating`` (шулерский) a
    new list of those, ``g.cheats()`` and ``g.calls()``. (The calls are every card another
    seat laid this bout, cheat or not: the mask tells nothing the seat could not see.)

    >>> from durak import Rules
    >>> deck = "9S 6C 8S 7C 7S 8D QS 9H KS 10H 10D JH 6H"
    >>> g = Game(Rules.preset("shulerskiy"), deck=deck, dealer=1, leader=0)
    >>> g.apply("9♠"); g.apply("~9♠/6♣"); [str(a) for a in legal_moves(g)]
    ['pass', '~7♠', '~8♠', '~10♦', '~Q♠', '~K♠', '?6♣']
    """
    return g.all_moves()


def legal_indices(g: Game, slot: int = -1) -> list[int]:
    """The action numbers (:mod:`durak.actions` encoding) of :func:`legal_moves`, in its
    order; ``slot``: :func:`deck_slot` of ``g.rules``, if known."""
    if slot < 0:
        slot = deck_slot(g.rules)
    # (a cheat's or call's number is the same in every cheating encoding of a deck size,
    # and the honest actions' numbers are the same with and without: one table serves)
    numbers = _NUMBERS[slot]
    out: list[Any] = []
    for a in legal_moves(g):
        # (the number is appended as the object it is, not unboxed and boxed again)
        i = numbers.get(a)
        if i is None:
            i = numbers[a] = encoding(g.rules).index_of(a)
        out.append(i)
    return out


def history_rows(g: Game, seats: list[int], seat: int, k: int, out: list[int]) -> None:
    """Append to ``out`` the last ``k`` moves of ``g`` as seen from ``seat``, oldest
    first, two numbers a move: the seat that played it counted from ``seat`` and the
    action's number; ``-1, -1`` for each row before the deal's first move. ``seats[i]``
    is the seat that played ``g.history[i]`` (:mod:`durak.envs.history`).

    >>> from durak import Rules
    >>> g = Game(Rules(), seed=1)
    >>> first = g.to_act
    >>> g.play(g.moves()[0])
    >>> out = []; history_rows(g, [first], first, 2, out); out[:2], out[2], out[3] >= 0
    ([-1, -1], 0, True)
    """
    moves = g.history
    players: int = g.rules.players
    start = len(moves) - k
    for _ in range(start, 0):
        out.append(-1)
        out.append(-1)
    if start < 0:
        start = 0
    numbers = _NUMBERS[deck_slot(g.rules)]
    for i in range(start, len(moves)):
        a = moves[i]
        n = numbers.get(a)
        if n is None:
            n = numbers[a] = encoding(g.rules).index_of(a)
        out.append((seats[i] - seat) % players)
        out.append(n)


def sorted_legal(g: Game) -> list[int]:
    """:func:`legal_indices`, lowest first (OpenSpiel's order)."""
    out = legal_indices(g)
    out.sort()
    return out


def mask_bytes(indices: list[int], size: int) -> bytearray:
    """``size`` bytes, 1 at ``indices`` and 0 elsewhere: an action mask for numpy to wrap
    (several times faster than numpy's fancy indexing for a handful of indices).

    >>> list(mask_bytes([0, 3], 5))
    [1, 0, 0, 1, 0]
    """
    buf = bytearray(size)
    for i in indices:
        buf[i] = 1
    return buf


class Actions:
    """Action numbers to actions for one rule set, remembered as they are met.

    >>> from durak import Rules
    >>> str(Actions(Rules()).action(0))
    'take'
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._enc = encoding(rules)
        self.size = self._enc.size
        self._table: list[Action | None] = [None] * self.size

    def __reduce__(self) -> tuple[object, tuple[Rules]]:
        # (compiled, the class cannot be rebuilt without its constructor's argument)
        return Actions, (self.rules,)

    def action(self, index: int) -> Action:
        a = self._table[index]
        if a is None:
            a = self._table[index] = self._enc.action(index)
        return a


# -- the talon, for chance nodes (durak.envs.openspiel) ------------------------------------
def play_or_probe(g: Game, a: Action) -> tuple[Game, int]:
    """Play ``a`` (checked legal by the caller) unless it makes cards drawn from the
    talon: ``(the game after the move, 0)``, or ``(g unchanged, k)`` when it would make
    ``k`` cards drawn (found by playing it on a copy), for the caller to deal as chance
    outcomes first. The game returned may be a new object."""
    k: int = a.kind
    if (
        g.undrawn()
        and k != TRANSFER
        and k != SHOW
        and k != EXCHANGE
        and (k != ATTACK or g.phase == PHASES[PILE])
    ):
        # only a move that can end the bout makes anyone draw
        probe = g.clone()
        probe.play(a)
        drawn = probe.drawn - g.drawn
        if drawn:
            return g, drawn
        return probe, 0
    g.play(a)
    return g, 0


def returns(rules: Rules, outcome: Outcome | None) -> list[float]:
    """Each seat's reward for a finished deal, summing to zero: the durak -1 and the others
    share +1; in team play every member of the losing side -1, of the winning side +1; a
    draw or a cut-off deal 0."""
    n = rules.players
    if outcome is None or outcome.durak is None:
        return [0.0] * n
    if rules.teams != "none":
        lose = rules.team_of(outcome.durak)
        return [-1.0 if rules.team_of(s) == lose else 1.0 for s in range(n)]
    win = 1.0 / (n - 1)
    return [-1.0 if s == outcome.durak else win for s in range(n)]
