"""Cards and notation (issue 2, point 2)."""

import pytest

from durak.cards import Card, CardSet, beats_mask, deck_mask


@pytest.mark.parametrize("text", ["10S", "10♠", "10s", "10 ♠", "10П"])
def test_ten_of_spades_in_every_notation(text: str) -> None:
    assert str(Card.parse(text.replace(" ", ""))) == "10♠"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("TS", "A♠"),
        ("AS", "A♠"),
        ("ТП", "A♠"),
        ("ВЧ", "J♥"),
        ("ДБ", "Q♦"),
        ("КК", "K♣"),
        ("qh", "Q♥"),
        ("2C", "2♣"),
        ("JD", "J♦"),
    ],
)
def test_letters_and_russian_letters(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("bad", ["", "1S", "11S", "10X", "ZZ", "S10"])
def test_bad_card_text_is_refused_clearly(bad: str) -> None:
    with pytest.raises(ValueError, match="card"):
        Card.parse(bad)


def test_every_card_round_trips_through_both_notations() -> None:
    for i in range(52):
        c = Card.from_index(i)
        assert Card.parse(str(c)) is c
        assert Card.parse(c.ascii) is c


def test_decks_have_the_right_cards() -> None:
    assert bin(deck_mask(24)).count("1") == 24
    assert bin(deck_mask(36)).count("1") == 36
    assert bin(deck_mask(52)).count("1") == 52
    assert str(CardSet(deck_mask(36)).lowest()) == "6♠"
    assert Card.parse("8S") not in CardSet(deck_mask(24))
    with pytest.raises(ValueError, match="24, 36 or 52"):
        deck_mask(32)


def test_cardset_is_a_bitmask_that_iterates_cards() -> None:
    s = CardSet.parse("AS 6H 10C")
    assert len(s) == 3
    assert [str(c) for c in s] == ["6♥", "10♣", "A♠"]
    assert Card.parse("6H") in s and Card.parse("6S") not in s
    assert s & Card.parse("AS").bit


def test_beating_rules() -> None:
    """RULES.md 3: a higher card of the same suit; any trump beats a non-trump;
    a trump only by a higher trump."""
    spades, hearts = 0, 1
    b = CardSet(beats_mask(Card.parse("10H").index, spades))
    assert Card.parse("JH") in b and Card.parse("9H") not in b
    assert Card.parse("6S") in b  # any trump beats a non-trump
    assert Card.parse("AD") not in b  # another plain suit never beats
    t = CardSet(beats_mask(Card.parse("10H").index, hearts))
    assert Card.parse("JH") in t and Card.parse("AS") not in t and Card.parse("9H") not in t
