"""Cards, suits, ranks, decks and sets of cards as int bitmasks.

A card is a small immutable value; there are exactly 52 of them, made once.
Its index is rank-major, ``(rank - 2) * 4 + suit``, so that a set of cards is
an ``int`` whose bits sort by rank: the lowest bit of a set is its lowest
card, and the cards of one rank are four neighbouring bits.

>>> Card.parse("10S"), Card.parse("TS"), Card.parse("10♠"), Card.parse("10s")
(Card('10♠'), Card('A♠'), Card('10♠'), Card('10♠'))
>>> str(Card.parse("ДЧ")), str(Card.parse("Qh"))
('Q♥', 'Q♥')
>>> s = CardSet.parse("6S 7H 6D")
>>> len(s), [str(c) for c in s], Card.parse("7H") in s
(3, ['6♠', '6♦', '7♥'], True)
>>> str(CardSet(deck_mask(24)).lowest())
'9♠'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from mypy_extensions import mypyc_attr

from .errors import ArgumentError, ArgumentTypeError, FrozenError

SUITS: Final = ("♠", "♥", "♦", "♣")
SUIT_LETTERS: Final = ("S", "H", "D", "C")
RANK_NAMES: Final = {11: "J", 12: "Q", 13: "K", 14: "A"}
RUSSIAN_RANKS: Final = {11: "В", 12: "Д", 13: "К", 14: "Т"}

# Suit words accepted by the parser: symbols, English and Russian initials
# (пики, черви, бубны, трефы/крести).
_SUIT_ALIASES: Final = {
    "♠": 0,
    "S": 0,
    "♤": 0,
    "П": 0,
    "♥": 1,
    "H": 1,
    "♡": 1,
    "Ч": 1,
    "♦": 2,
    "D": 2,
    "♢": 2,
    "Б": 2,
    "♣": 3,
    "C": 3,
    "♧": 3,
    "Т": 3,
    "К": 3,
}
_RANK_ALIASES: Final = {
    **{str(r): r for r in range(2, 11)},
    "T": 14,
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": 14,
    "В": 11,
    "Д": 12,
    "Т": 14,
    "К": 13,
}

NUM_CARDS: Final = 52


class Card:
    """One playing card: a rank 2..14 (J=11, Q=12, K=13, A=14) and a suit 0..3.

    Cards are interned: ``Card.parse("6S") is Card.from_index(16)``.
    """

    __slots__ = ("index", "rank", "suit", "bit", "_text")
    index: int
    rank: int
    suit: int
    bit: int
    _text: str

    def __new__(cls, rank: int, suit: int) -> Card:
        if not (2 <= rank <= 14 and 0 <= suit <= 3):
            raise ArgumentError(f"no such card: rank {rank}, suit {suit}")
        index = (rank - 2) * 4 + suit
        if len(_CARDS) == NUM_CARDS:
            return _CARDS[index]
        # Making the 52 cards, once, at import.
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "bit", 1 << index)
        object.__setattr__(card, "_text", rank_name(rank) + SUITS[suit])
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenError("Card is immutable")

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this index (0..51)."""
        if not 0 <= index < NUM_CARDS:
            raise ArgumentError(f"index: a card index 0..51, not {index}")
        return _CARDS[index]

    @staticmethod
    def parse(text: object) -> Card:
        """Read a card: ``10S``, ``TS`` (T is the ace), ``10♠``, ``10s``, ``ДЧ``.

        >>> Card.parse("Jc"), Card.parse("ВК"), Card.parse("AS")
        (Card('J♣'), Card('J♣'), Card('A♠'))
        """
        # (``object``: the compiled engine would refuse a wrong type before this check
        # could name the argument)
        if not isinstance(text, str):
            raise ArgumentTypeError(f"a card as text such as '10S', not {type(text).__name__}")
        t = text.strip().upper()
        if len(t) < 2:
            raise ArgumentError(f"not a card: {text!r}")
        rank = _RANK_ALIASES.get(t[:-1])
        suit = _SUIT_ALIASES.get(t[-1])
        if rank is None or suit is None:
            raise ArgumentError(f"not a card: {text!r} (try 10S, 10♠, QH or ДЧ)")
        return _CARDS[(rank - 2) * 4 + suit]

    @property
    def ascii(self) -> str:
        """The card in letters only, as ``10S``."""
        return rank_name(self.rank) + SUIT_LETTERS[self.suit]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index


def rank_name(rank: int) -> str:
    """``"6"``, ``"10"``, ``"J"``..."""
    return RANK_NAMES.get(rank, str(rank))


_CARDS: Final[list[Card]] = []
_CARDS.extend([Card(i // 4 + 2, i % 4) for i in range(NUM_CARDS)])

RANK_MASK: Final = tuple(0xF << ((r - 2) * 4) if r >= 2 else 0 for r in range(15))
# SUIT_MASK[s] for the suits 0..3, and SUIT_MASK[NO_TRUMP] (4) empty: indexed by a trump
# suit, it gives no trump cards when the rules have none (trump=none).
SUIT_MASK: Final = tuple(sum(1 << (i * 4 + s) for i in range(13)) for s in range(4)) + (0,)
ALL_CARDS: Final = (1 << NUM_CARDS) - 1


def deck_mask(size: int) -> int:
    """The cards of a 24-, 36- or 52-card deck as a bitmask (9..A, 6..A, 2..A)."""
    low = {24: 9, 36: 6, 52: 2}.get(size)
    if low is None:
        raise ArgumentError(f"deck must be 24, 36 or 52 cards, not {size}")
    return ALL_CARDS & ~((1 << ((low - 2) * 4)) - 1)


def lowest_rank(size: int) -> int:
    """The lowest rank in a deck of this size."""
    return {24: 9, 36: 6, 52: 2}[size]


def iter_bits(mask: int) -> Iterator[int]:
    """Indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= c.bit
    return m


# The trump suit of a deal without trumps (rules ``trump=none``): beyond the suits 0..3.
NO_TRUMP: Final = 4


def beats_mask(index: int, trump: int, spades_by_spades: bool = False) -> int:
    """Every card that beats the card with this index, when ``trump`` is the trump suit
    (0..3, or NO_TRUMP), and with the rules' ``spades_by_spades``: THE beating rule,
    which the engine's tables (:data:`BEATS`) and the bots read.

    A higher card of the same suit beats it; a trump beats any non-trump, except a
    spade under ``spades_by_spades`` («пики пиками»: a spade is beaten only by a higher
    spade). Without a trump only a higher card of the same suit beats.

    >>> from durak.cards import Card, CardSet
    >>> nine = Card.parse("9S").index
    >>> str(CardSet(beats_mask(nine, 2) & deck_mask(24)))
    '9♦ 10♠ 10♦ J♠ J♦ Q♠ Q♦ K♠ K♦ A♠ A♦'
    >>> str(CardSet(beats_mask(nine, 2, True) & deck_mask(24)))
    '10♠ J♠ Q♠ K♠ A♠'
    >>> str(CardSet(beats_mask(nine, NO_TRUMP) & deck_mask(24)))
    '10♠ J♠ Q♠ K♠ A♠'
    """
    higher = ALL_CARDS & ~((2 << index) - 1)
    suit = index & 3
    if suit == trump or (spades_by_spades and suit == 0):
        return higher & SUIT_MASK[suit]
    return (higher & SUIT_MASK[suit]) | SUIT_MASK[trump]


def beat_key(trump: int, spades_by_spades: bool) -> int:
    """The index into :data:`BEATS` of a trump suit (0..3 or NO_TRUMP) and the rules'
    ``spades_by_spades``."""
    return trump + (5 if spades_by_spades else 0)


# BEATS[beat_key(trump, spades_by_spades)][card]: beats_mask, worked out once for every
# trump suit (and none) with and without «пики пиками».
BEATS: Final = tuple(
    tuple(beats_mask(i, k % 5, k >= 5) for i in range(NUM_CARDS)) for k in range(10)
)


# A plain Python class even in the compiled engine: compiled classes cannot extend int.
@mypyc_attr(native_class=False)
class CardSet(int):
    """A set of cards: an int bitmask that iterates as Cards, lowest first.

    >>> hand = CardSet.parse("AS 6H 10C")
    >>> str(hand), len(hand), int(hand) == hand
    ('6♥ 10♣ A♠', 3, True)
    """

    @staticmethod
    def parse(text: object) -> CardSet:
        """Cards separated by spaces or commas, each once.

        >>> CardSet.parse("6S 6S")
        Traceback (most recent call last):
        ...
        durak.errors.ArgumentError: 6♠ is given twice
        """
        if not isinstance(text, str):
            raise ArgumentTypeError(f"cards as text such as '6S 7H', not {type(text).__name__}")
        m = 0
        for t in text.replace(",", " ").split():
            c = Card.parse(t)
            if m & c.bit:
                raise ArgumentError(f"{c} is given twice")
            m |= c.bit
        return CardSet(m)

    @staticmethod
    def of(cards: Iterable[Card]) -> CardSet:
        return CardSet(mask_of(cards))

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self))

    def __len__(self) -> int:
        return self.bit_count()

    def __getitem__(self, i: int) -> Card:
        """The ``i``-th card, lowest first (``cards[0]`` is the lowest)."""
        return cards_of(self)[i]

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self & card.bit)

    def lowest(self) -> Card:
        if not self:
            raise ArgumentError("empty set of cards")
        return _CARDS[(self & -self).bit_length() - 1]

    def __str__(self) -> str:
        return " ".join(map(str, cards_of(self)))

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
