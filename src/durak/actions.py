"""Actions: small immutable values, their text notation and a fixed integer encoding.

Kinds (:class:`~durak.enums.Kind`): ``attack`` (an opening or a throw-in: one
or more cards of one rank), ``defend`` (one card laid on one attacking card, the
``target``), ``transfer`` (cards of the attacked rank laid to pass the attack on),
``show`` (проездной: the trump of the attacked rank shown, not laid), ``take``
(беру), ``pass`` (nothing more to throw in: бито when everyone has passed) and
``exchange`` (the lowest trump swapped for the face-up trump). With ``cheating``
(шулерский, docs/rules.md 11) two more: ``cheat`` (one card laid against the rule: on
a ``target`` it does not beat, or thrown in with a rank not on the table) and ``call``
(a table card named as a cheat).

Notation, one token each, so a record is a list of tokens::

    6♠  6♠+6♥      attack with one card, or with several of one rank
    6♠/10♠         defend: 6♠ (on the table) beaten by 10♠
    >6♥  >6♥+6♣    transfer
    !6♦            show the trump six to transfer (проездной)
    take  pass     беру; пас / бито
    x6♦            exchange the 6♦ for the face-up trump
    ~9♠/6♣  ~Q♦    cheat: 6♣ laid on 9♠ as if it beat it; Q♦ thrown in off the table's ranks
    ?6♣            call: 6♣ on the table is named as a cheat

``Action.parse`` also reads letters (``6S+6H``, ``6S/10S``) and the Russian
words «беру», «бито», «пас».

>>> a = Action.parse("6S/10S")
>>> str(a.kind), str(a.target), [str(c) for c in a.cards], str(a)
('defend', '6♠', ['10♠'], '6♠/10♠')
>>> Action.parse(str(Action.parse(">6H+6C"))) == Action.parse(">6♥+6♣")
True

The integer encoding, for a deck of ``N`` cards and ``R`` ranks whose lowest
card has index ``lo`` (card ``c`` has local index ``i = c.index - lo``, rank
local index ``r = c.rank - lowest rank``; a set of suits is a 4-bit mask
``m`` with ♠=1 ♥=2 ♦=4 ♣=8)::

    0                               take
    1                               pass
    2 + s                           exchange the lowest card of suit s (♠0 ♥1 ♦2 ♣3)
    6 + 15*r + (m-1)                attack with the cards of rank r in suits m
    6 + 15*R + 15*r + (m-1)         transfer with them
    6 + 30*R + i                    show card i
    6 + 30*R + N + N*i + j          defend: card i beats card j

so ``num_actions = 6 + 30*R + N + N*N``: 1608 for 36 cards, 786 for 24, 3152
for 52. Not every index is legal in every position; ``Game.legal_action_mask``
marks the legal ones.

With ``cheating`` (and only then: every other rule set keeps the numbers above) cheats
and calls follow, ``D = 6 + 30*R + N + N*N`` being the size without them::

    D + N*i + j                     cheat: card i laid on card j as if it beat it
    D + N*N + i                     cheat: card i thrown in off the table's ranks
    D + N*N + N + i                 call: card i on the table named as a cheat

so ``num_actions = D + N*N + 2*N``: 2976 for 36 cards, 1410 for 24, 5960 for 52.
They are never in ``legal_actions()`` (``Game.cheats()`` and ``Game.calls()`` list
them; the environments' masks add them for the seat to act).

>>> from durak.rules import Rules
>>> r = Rules()
>>> r.num_actions
1608
>>> Action.from_index(Action.parse("6S/10S").index(r), r) == Action.parse("6S/10S")
True
>>> s = Rules.preset("shulerskiy")
>>> s.num_actions, Action.parse("6S/10S").index(s) == Action.parse("6S/10S").index(r)
(2976, True)
>>> [str(Action.from_index(Action.parse(t).index(s), s)) for t in ("~9S/6C", "~QD", "?6C")]
['~9♠/6♣', '~Q♦', '?6♣']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Protocol

from .cards import Card, CardSet, cards_of, lowest_rank
from .enums import Kind
from .errors import ArgumentTypeError, FrozenError
from .errors import IllegalActionError as IllegalActionError  # re-exported


class Rules(Protocol):
    """What the encoding reads of a :class:`durak.rules.Rules`: its deck size and
    ``cheating`` (cheats and calls get numbers only with it). (A protocol, so that this
    module, below rules.py, does not import it.)"""

    @property
    def deck(self) -> int: ...

    @property
    def cheating(self) -> str: ...


# The kinds as compile-time constants for the compiled engine: equal to the Kind members
# (``ATTACK == Kind.ATTACK``), read as plain ints without a lookup.
ATTACK: Final = 0
DEFEND: Final = 1
TRANSFER: Final = 2
SHOW: Final = 3
TAKE: Final = 4
PASS: Final = 5
EXCHANGE: Final = 6
CHEAT: Final = 7
CALL: Final = 8
KINDS: Final = tuple(Kind)


class Action:
    """One action. Equal actions are the same object (they are interned).

    Three fields, one per concept: ``kind`` (a :class:`~durak.enums.Kind`), ``cards``
    (a :class:`~durak.cards.CardSet`: the cards laid or shown, an int bitmask that
    iterates as Cards, lowest first; empty for take and pass) and ``target`` (the
    attacking card a defence beats, else None).

    >>> Action("attack", (Card.parse("6S"), Card.parse("6H"))) is Action.parse("6♠+6♥")
    True
    >>> a = Action.parse("6S/10S")
    >>> a.kind == Kind.DEFEND, a.cards == Card.parse("10S").bit, a.target
    (True, True, Card('6♠'))
    """

    __slots__ = (
        "kind",
        "cards",
        "target",
        "_text",
        "__weakref__",
    )
    kind: Kind
    cards: CardSet
    target: Card | None
    _text: str

    def __new__(
        cls,
        kind: Kind | str | object,
        cards: Iterable[Card] = (),
        target: Card | None | object = None,
    ) -> Action:
        # (``object``: the compiled engine would refuse a wrong type before this check
        # could name the argument)
        if isinstance(kind, Kind):
            k = int(kind)
        elif isinstance(kind, str) and kind.upper() in Kind.__members__:
            k = int(Kind[kind.upper()])
        else:
            raise IllegalActionError(f"no such kind of action: {kind!r}")
        mask = 0
        items: Iterable[object] = cards  # (each checked here, not by the compiled engine)
        for c in items:
            if not isinstance(c, Card):
                raise ArgumentTypeError(f"cards: Cards (Card.parse reads text), not {c!r}")
            mask |= c.bit
        if target is not None and not isinstance(target, Card):
            raise ArgumentTypeError(f"target: a Card or None, not {target!r}")
        t = target.index if target is not None else -1
        key = _key(k, mask, t)
        a = _INTERN.get(key)
        if a is not None:
            return a
        laid = cards_of(mask)
        if k in (ATTACK, TRANSFER) and (not laid or len({c.rank for c in laid}) != 1):
            raise IllegalActionError(f"{KINDS[k]} needs cards of one rank")
        if k in (DEFEND, SHOW, EXCHANGE, CHEAT, CALL) and len(laid) != 1:
            raise IllegalActionError(f"{KINDS[k]} needs exactly one card")
        if k != CHEAT and (k == DEFEND) != (t >= 0):
            raise IllegalActionError("only a defence (or a cheat) has a target")
        group = "+".join(str(c) for c in laid)
        text = {
            ATTACK: group,
            DEFEND: f"{target}/{group}",
            TRANSFER: ">" + group,
            SHOW: "!" + group,
            TAKE: "take",
            PASS: "pass",
            EXCHANGE: "x" + group,
            CHEAT: f"~{target}/{group}" if target is not None else "~" + group,
            CALL: "?" + group,
        }[k]
        a = object.__new__(cls)
        object.__setattr__(a, "kind", KINDS[k])
        object.__setattr__(a, "cards", CardSet(mask))
        object.__setattr__(a, "target", target)
        object.__setattr__(a, "_text", text)
        _INTERN[key] = a
        return a

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenError("Action is immutable")

    def __reduce__(self) -> tuple[object, tuple[int, int, int]]:
        t = self.target
        return (make, (int(self.kind), int(self.cards), t.index if t is not None else -1))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r})"

    @property
    def rank(self) -> int | None:
        """The rank of the cards laid or shown, if any."""
        m: int = self.cards
        return ((m & -m).bit_length() - 1) // 4 + 2 if m else None

    @staticmethod
    def parse(text: object) -> Action:
        """Read an action from its notation (see the module docstring).

        >>> Action.parse("6S+6S")
        Traceback (most recent call last):
        ...
        durak.errors.IllegalActionError: not an action: '6S+6S' (6♠ is given twice)
        """
        if not isinstance(text, str):
            raise IllegalActionError(f"not an action: {text!r} (an action is text such as 'take')")
        t = text.strip()
        low = t.lower()
        if low in ("take", "беру", "t"):
            return make(TAKE, 0, -1)
        if low in ("pass", "бито", "пас", "p", "done"):
            return make(PASS, 0, -1)
        try:
            if t.startswith("?"):
                return make(CALL, Card.parse(t[1:]).bit, -1)
            if t.startswith("~"):
                target, slash, card = t[1:].partition("/")
                if slash:
                    return make(CHEAT, Card.parse(card).bit, Card.parse(target).index)
                return make(CHEAT, Card.parse(target).bit, -1)
            if low.startswith("exchange"):
                return make(EXCHANGE, Card.parse(t[8:].strip(" :=")).bit, -1)
            if low.startswith("x"):
                return make(EXCHANGE, Card.parse(t[1:]).bit, -1)
            if t.startswith("!"):
                return make(SHOW, Card.parse(t[1:]).bit, -1)
            if t.startswith(">"):
                return make(TRANSFER, _parse_group(t[1:]), -1)
            if "/" in t:
                target, _, card = t.partition("/")
                return make(DEFEND, Card.parse(card).bit, Card.parse(target).index)
            return make(ATTACK, _parse_group(t), -1)
        except ValueError as e:
            raise IllegalActionError(f"not an action: {text!r} ({e})") from None

    def index(self, rules: Rules) -> int:
        """This action's number in the fixed encoding for ``rules``."""
        enc = encoding(rules)
        return enc.index_of(self)

    @staticmethod
    def from_index(index: int | object, rules: Rules) -> Action:
        """The action with this number in the encoding for ``rules``."""
        # (``object``: the compiled engine would refuse a wrong type before this check
        # could name the argument)
        if not isinstance(index, int) or isinstance(index, bool):
            raise ArgumentTypeError(f"index: a whole number, not {type(index).__name__}")
        return encoding(rules).action(index)


def _parse_group(text: str) -> int:
    parts = [p for p in text.replace(",", "+").split("+") if p.strip()]
    if not parts:
        raise IllegalActionError("no cards")
    cards = [Card.parse(p) for p in parts]
    if len({c.rank for c in cards}) != 1:
        raise IllegalActionError("cards laid at once must be of one rank")
    mask = 0
    for c in cards:
        if mask & c.bit:
            raise IllegalActionError(f"{c} is given twice")
        mask |= c.bit
    return mask


_INTERN: Final[dict[int, Action]] = {}


def _key(k: int, mask: int, t: int) -> int:
    return (mask << 10) | ((t + 1) << 4) | k


def make(k: int, mask: int, t: int) -> Action:
    """The interned action of kind ``k`` with these cards and target index (-1: none)."""
    a = _INTERN.get(_key(k, mask, t))
    if a is not None:
        return a
    if not 0 <= k < len(KINDS) or not -1 <= t < 52:
        raise IllegalActionError(f"no such action: kind {k}, target {t}")
    return Action(KINDS[k], cards_of(mask), Card.from_index(t) if t >= 0 else None)


TAKE_ACTION: Final = make(TAKE, 0, -1)
PASS_ACTION: Final = make(PASS, 0, -1)


class Encoding:
    """The fixed integer encoding for one deck size, with cheats and calls numbered
    after the rest if ``cheating``."""

    def __init__(self, deck: int, cheating: bool = False) -> None:
        self.n = deck
        self.cheating = cheating
        self.low_rank = lowest_rank(deck)
        self.r = 15 - self.low_rank
        self.lo = (self.low_rank - 2) * 4
        self.attack0 = 6
        self.transfer0 = 6 + 15 * self.r
        self.show0 = 6 + 30 * self.r
        self.defend0 = self.show0 + self.n
        self.honest = self.defend0 + self.n * self.n
        # (шулерский: cheats on a card, cheats off the table's ranks, calls)
        self.cheat0 = self.honest
        self.throw0 = self.cheat0 + self.n * self.n
        self.call0 = self.throw0 + self.n
        self.size = self.call0 + self.n if cheating else self.honest

    def __reduce__(self) -> tuple[object, tuple[int, bool]]:
        # (the compiled class cannot be rebuilt without its constructor's arguments)
        return Encoding, (self.n, self.cheating)

    def index_of(self, a: Action) -> int:
        k: int = a.kind
        mask: int = a.cards
        if k == TAKE:
            return 0
        if k == PASS:
            return 1
        if k >= CHEAT and not self.cheating:
            raise IllegalActionError(
                f"{a}: cheats and calls have a number only with cheating (not cheating=off)"
            )
        first = (mask & -mask).bit_length() - 1
        if first < self.lo:
            raise IllegalActionError(f"{a} is not in a {self.n}-card deck")
        if k == CALL:
            return self.call0 + first - self.lo
        if k == CHEAT and a.target is None:
            return self.throw0 + first - self.lo
        if k == EXCHANGE:
            if first >= self.lo + 4:
                raise IllegalActionError(f"{a}: only the lowest trump can be exchanged")
            return 2 + (first & 3)
        if k in (ATTACK, TRANSFER):
            r = first // 4 - self.lo // 4
            m = mask >> (first & ~3)
            base = self.attack0 if k == ATTACK else self.transfer0
            return base + 15 * r + (m - 1)
        if k == SHOW:
            return self.show0 + first - self.lo
        target = a.target
        assert target is not None
        t = target.index
        if t < self.lo:
            raise IllegalActionError(f"{a} is not in a {self.n}-card deck")
        base = self.cheat0 if k == CHEAT else self.defend0
        return base + self.n * (first - self.lo) + (t - self.lo)

    def action(self, index: int) -> Action:
        if not 0 <= index < self.size:
            raise IllegalActionError(f"action index {index} out of range 0..{self.size - 1}")
        if index < 2:
            return make((TAKE, PASS)[index], 0, -1)
        if index < 6:
            return make(EXCHANGE, 1 << (self.lo + index - 2), -1)
        if index < self.show0:
            k = ATTACK if index < self.transfer0 else TRANSFER
            rel = index - (self.attack0 if k == ATTACK else self.transfer0)
            r, m = divmod(rel, 15)
            return make(k, (m + 1) << (self.lo + 4 * r), -1)
        if index < self.defend0:
            return make(SHOW, 1 << (index - self.show0 + self.lo), -1)
        if index < self.cheat0:
            i, j = divmod(index - self.defend0, self.n)
            return make(DEFEND, 1 << (i + self.lo), j + self.lo)
        if index < self.throw0:
            i, j = divmod(index - self.cheat0, self.n)
            return make(CHEAT, 1 << (i + self.lo), j + self.lo)
        if index < self.call0:
            return make(CHEAT, 1 << (index - self.throw0 + self.lo), -1)
        return make(CALL, 1 << (index - self.call0 + self.lo), -1)


# by deck size, twice (cheating: the size plus one)
_ENCODINGS: Final[dict[int, Encoding]] = {}


def encoding(rules: Rules) -> Encoding:
    """The encoding for ``rules``' deck size and ``cheating``."""
    try:
        deck = rules.deck
        cheating = rules.cheating != "off"
    except AttributeError:
        raise ArgumentTypeError(f"rules: a durak.Rules, not {type(rules).__name__}") from None
    key = deck + 1 if cheating else deck
    enc = _ENCODINGS.get(key)
    if enc is None:
        enc = _ENCODINGS[key] = Encoding(deck, cheating)
    return enc


def num_actions(rules: Rules) -> int:
    return encoding(rules).size


def throw_ins(legal: Sequence[Action]) -> tuple[list[Action], Action | None]:
    """The attacks among ``legal`` (throw-ins, in their order) and the pass, if there is
    one: what a player choosing its cheapest throw-in weighs (the bots' shared first step).

    >>> from durak import Game, Rules
    >>> g = Game(Rules(), seed=3)
    >>> attacks, passing = throw_ins(g.legal_actions())
    >>> len(attacks) == len(g.legal_actions()), passing is None  # an opening: no pass
    (True, True)
    """
    attacks: list[Action] = []
    passing: Action | None = None
    for a in legal:
        k: int = a.kind
        if k == PASS:
            passing = a
        elif k == ATTACK:
            attacks.append(a)
    return attacks, passing
