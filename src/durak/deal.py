"""The deal: the deck's order (shuffled from a seed, or given), the hands dealt, the trump
turned and the first leader. Pure functions of the rules, the seed and the cards, used
by :class:`durak.game.Game` when a deal starts.

>>> from durak.rules import Rules
>>> order = deck_order(Rules(), 1, None)
>>> len(order), sorted(order) == sorted(_CARDS_OF[36])
(36, True)
>>> hands = deal_hands(order, 2, 6, dealer=1)
>>> [h.bit_count() for h in hands]
[6, 6]
"""

from __future__ import annotations

import _random  # random.Random's C base: seeded alike, without its interpreted frames
from collections.abc import Sequence
from typing import Final, TypeGuard

from .cards import NO_TRUMP, SUIT_MASK, Card, deck_mask
from .errors import ArgumentError, ArgumentTypeError
from .rules import Rules

# What turning the trump gives (turn_trump): the turned card (-1: none), the talon (top
# first), the face-up card under it (-1: none), each seat's own trump suit (двухкозырный,
# else empty), the cards turned out of play, and a card every seat saw dealt (-1: none).
Turned = tuple[int, tuple[int, ...], int, tuple[int, ...], int, int]


def deck_order(rules: Rules, seed: int, deck: object) -> tuple[int, ...]:
    """The whole deck in dealing order (card indices): shuffled from ``seed``, or
    ``deck`` (text, or a list of Cards or card texts) followed by the cards it leaves out,
    lowest first."""
    full = deck_mask(rules.deck)
    if deck is None:
        order = list(_CARDS_OF[rules.deck])
        _shuffle(order, _random.Random(seed))
        return tuple(order)
    cards = _deck_cards(deck)
    order = [c.index for c in cards]
    bad = [str(c) for c in cards if not full >> c.index & 1]
    if bad or len(set(order)) != len(order):
        raise ArgumentError(
            f"deck: cards must be of the {rules.deck}-card deck, each once"
            + (f" ({' '.join(bad)} is not)" if bad else " (a card repeats)")
        )
    # A shorter deck is the top of the deck; the rest follows lowest first.
    rest = full & ~sum(1 << c for c in order)
    order += [c for c in range(52) if rest >> c & 1]
    return tuple(order)


def lots(seed: int, n: int) -> tuple[int, int]:
    """The lots of a deal (the dealer, and the leader when no trump decides), drawn from
    their own generator, so that a given deck or dealer does not change them: the same
    seed always draws the same lots."""
    rng = _random.Random(seed * 2 + 1)
    dealer = _randbelow(rng, n)
    return dealer, _randbelow(rng, n)


def deal_hands(order: Sequence[int], n: int, hand_size: int, dealer: int) -> list[int]:
    """The hands: one card at a time, clockwise from the dealer's left."""
    hands = [0] * n
    for i in range(n * hand_size):
        s = (dealer + 1 + i) % n
        hands[s] = hands[s] | 1 << order[i]
    return hands


def turn_trump(rules: Rules, order: tuple[int, ...], dealer: int) -> Turned:
    """The trump turned after the deal (:data:`Turned`)."""
    n = rules.players
    k = n * rules.hand_size
    if rules.trump == "per_player":
        # двухкозырный (docs/rules.md 12): a card turned from the talon for each seat,
        # clockwise from the dealer's left; it lies face up before that seat, out of
        # play, and names its trump.
        turned = order[k : k + n]
        trumps = tuple(turned[(s - dealer - 1) % n] & 3 for s in range(n))
        return -1, order[k + n :], -1, trumps, sum(1 << c for c in turned), -1
    if rules.trump == "none":
        # бескозырный (docs/rules.md): no card is turned; the talon is all face down,
        # its last card an ordinary one.
        return -1, order[k:], -1, (), 0, -1
    if k < len(order):
        # face up under the talon, drawn last
        return order[k], order[k + 1 :], order[k], (), 0, -1
    # Every card dealt: the last one dealt names the trump and stays, seen by all, in
    # the dealer's hand.
    return order[k - 1], (), -1, (), 0, order[k - 1]


_FIXED_TRUMP: Final = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


def trump_suit_of(rules: Rules, turned: int) -> int:
    """The trump suit (0..3, or NO_TRUMP) of a deal under ``rules`` whose turned card is
    ``turned`` (-1: none): the turned card's (``trump=turned``), none (``trump=none``), or
    the fixed suit («пики пиками»: diamonds, whatever card is turned)."""
    mode = rules.trump
    if mode == "turned":
        return turned & 3
    if mode in ("none", "per_player"):  # (двухкозырный: each seat's own, Game.view)
        return NO_TRUMP
    return _FIXED_TRUMP[mode]


def first_leader(
    rules: Rules, hands: list[int], trump_suit: int, trumps: tuple[int, ...], lot: int
) -> int:
    """Who attacks first: the holder of the lowest trump; without one, ``no_trump_lead``
    (the lowest card, or the lot). двухкозырный (``trumps``: each seat's own suit): the
    holder of the lowest card of its own trump suit, by rank (docs/rules.md 12)."""
    lows = []
    for s, h in enumerate(hands):
        t = h & SUIT_MASK[trumps[s] if trumps else trump_suit]
        if t and trumps:
            lows.append(((t & -t).bit_length() - 1) // 4)  # (by rank: suits differ)
        elif t:
            lows.append((t & -t).bit_length())
        else:
            lows.append(99)
    best = min(lows)
    if best < 99 and lows.count(best) == 1:
        return lows.index(best)
    if rules.no_trump_lead == "lowest_card":
        return min(range(len(hands)), key=lambda s: (hands[s] & -hands[s]).bit_length())
    return lot


def _randbelow(rng: _random.Random, n: int) -> int:
    """``rng.randrange(n)`` for n >= 1, the same number from the same state (CPython's
    ``_randbelow_with_getrandbits``), without its interpreted frames."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _shuffle(x: list[int], rng: _random.Random) -> None:
    """``rng.shuffle(x)``, the same order from the same state (the deal follows from the
    seed, and records and tests rely on it), compiled: dealing costs a fifth of a short
    random deal through ``random.shuffle``."""
    getrandbits = rng.getrandbits  # (looked up once)
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:  # _randbelow, inline
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def check_seat(name: str, v: object, n: int) -> int:
    """``v``, if it is a seat 0..n-1; else ArgumentTypeError or ArgumentError naming the
    argument (as durak.checks.seat, compiled here: every new deal checks its dealer)."""
    if not is_int(v):
        raise ArgumentTypeError(f"{name}: a seat number, not {type(v).__name__}")
    if not 0 <= v < n:
        raise ArgumentError(f"{name}: a seat 0..{n - 1}, not {v}")
    return v


def _deck_cards(deck: object) -> list[Card]:
    """The cards of a ``deck`` argument: text, or a list of Cards or card texts."""
    if isinstance(deck, str):
        items: list[object] = list(deck.replace(",", " ").split())
    elif isinstance(deck, (list, tuple)):
        items = list(deck)
    else:
        raise ArgumentTypeError(f"deck: text or a list of cards, not {type(deck).__name__}")
    cards = []
    for item in items:
        if isinstance(item, Card):
            cards.append(item)
        elif isinstance(item, str):
            try:
                cards.append(Card.parse(item))
            except ValueError as e:
                raise ArgumentError(f"deck: {e}") from None
        else:
            raise ArgumentTypeError(f"deck: cards or card texts, not {type(item).__name__}")
    return cards


# The card numbers of each deck size, lowest first (the order a deck is shuffled from).
_CARDS_OF: Final = {
    size: tuple(c for c in range(52) if deck_mask(size) >> c & 1) for size in (24, 36, 52)
}
