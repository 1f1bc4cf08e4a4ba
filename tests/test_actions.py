"""Actions: notation and the fixed integer encoding (issue 2, point 4)."""

import pytest

from durak import Action, Card, Game, IllegalActionError, Rules
from durak.actions import encoding
from durak.enums import Kind


@pytest.mark.parametrize("deck", [24, 36, 52])
def test_every_index_decodes_and_encodes_back(deck: int) -> None:
    r = Rules(deck=deck)
    assert r.num_actions == encoding(r).size
    for i in range(r.num_actions):
        a = Action.from_index(i, r)
        assert a.index(r) == i
        assert Action.parse(str(a)) is a


@pytest.mark.parametrize(
    ("text", "kind", "cards", "target"),
    [
        ("6S", "attack", ["6♠"], None),
        ("6S+6H", "attack", ["6♠", "6♥"], None),
        ("6♠/10♠", "defend", ["10♠"], "6♠"),
        (">6H+6C", "transfer", ["6♥", "6♣"], None),
        ("!6D", "show", ["6♦"], None),
        ("take", "take", [], None),
        ("беру", "take", [], None),
        ("pass", "pass", [], None),
        ("бито", "pass", [], None),
        ("x6D", "exchange", ["6♦"], None),
    ],
)
def test_notation(text: str, kind: str, cards: list[str], target: str | None) -> None:
    a = Action.parse(text)
    assert str(a.kind) == kind
    assert [str(c) for c in a.cards] == cards
    assert (str(a.target) if a.target else None) == target
    assert Action.parse(str(a)) is a


@pytest.mark.parametrize("bad", ["", "6S+7S", "hello", "6S/", ">", "!6S+6H", "12Z"])
def test_bad_notation_is_refused(bad: str) -> None:
    with pytest.raises(IllegalActionError):
        Action.parse(bad)


def test_mask_matches_legal_actions() -> None:
    g = Game(Rules.preset("perevodnoy", players=3), seed=11)
    enc = encoding(g.rules)
    for _ in range(40):
        if g.is_over:
            break
        mask = g.legal_action_mask()
        legal = g.legal_actions()
        assert sum(mask) == len(legal)
        assert all(mask[enc.index_of(a)] for a in legal)
        g.apply(legal[-1])


@pytest.mark.parametrize("deck", [24, 36, 52])
def test_only_the_lowest_trump_has_an_exchange_number(deck: int) -> None:
    """RULES.md 1: only the lowest trump of the deck may be exchanged, so the encoding
    has exactly four exchange numbers, one per suit's lowest card."""
    from durak.cards import lowest_rank

    rules = Rules(deck=deck)
    low = lowest_rank(deck)
    for suit in "SHDC":
        lowest = Action.parse(f"x{low}{suit}")
        assert Action.from_index(lowest.index(rules), rules) is lowest
        with pytest.raises(IllegalActionError, match="lowest trump"):
            Action.parse(f"x{low + 1}{suit}").index(rules)
    exchanges = [
        i for i in range(rules.num_actions) if Action.from_index(i, rules).kind == Kind.EXCHANGE
    ]
    assert len(exchanges) == 4


def test_a_show_is_of_exactly_one_card() -> None:
    """RULES.md 4 (проездной): a player transfers by showing the trump of the attacked
    rank: one card, never several."""
    six_s, six_h = Card.parse("6S"), Card.parse("6H")
    with pytest.raises(IllegalActionError, match="exactly one card"):
        Action("show", (six_s, six_h))
    with pytest.raises(IllegalActionError):
        Action.parse("!6S+6H")
    assert Action("show", (six_s,)) is Action.parse("!6S")


@pytest.mark.parametrize(("deck", "size"), [(24, 786), (36, 1608), (52, 3152)])
def test_the_encoding_has_a_block_per_kind(deck: int, size: int) -> None:
    """docs/envs.md: take, pass, 4 exchanges, 15 card sets per rank to attack and to
    transfer, a show per card, a defence per pair of cards: in that order."""
    r = Rules(deck=deck)
    n, ranks = deck, deck // 4
    assert r.num_actions == size == 6 + 30 * ranks + n + n * n
    kinds = [str(Action.from_index(i, r).kind) for i in range(size)]
    assert kinds == (
        ["take", "pass"]
        + ["exchange"] * 4
        + ["attack"] * 15 * ranks
        + ["transfer"] * 15 * ranks
        + ["show"] * n
        + ["defend"] * n * n
    )


def test_encoding_refuses_what_it_cannot_hold() -> None:
    """The encoding names the index or the card it cannot hold, exactly."""
    r = Rules(deck=36)
    with pytest.raises(IllegalActionError) as e:
        Action.from_index(1608, r)
    assert str(e.value) == "action index 1608 out of range 0..1607"
    with pytest.raises(IllegalActionError) as e:
        Action.from_index(-1, r)
    assert str(e.value) == "action index -1 out of range 0..1607"
    with pytest.raises(IllegalActionError) as e:
        Action.parse("2S").index(r)
    assert str(e.value) == "2♠ is not in a 36-card deck"
    with pytest.raises(IllegalActionError) as e:
        Action.parse("2S/6S").index(r)
    assert str(e.value) == "2♠/6♠ is not in a 36-card deck"  # beating 2♠, not in the deck


def test_exchange_reads_as_a_word_too_and_bad_actions_say_why() -> None:
    """RULES.md 1 trump_exchange: «exchange 6D» is the same action as «x6D»; an action
    that cannot exist is refused with the reason."""
    from durak.actions import make

    assert Action.parse("exchange 6D") is Action.parse("x6D")
    with pytest.raises(IllegalActionError) as e:
        Action.parse("6S+7S")
    assert str(e.value) == "not an action: '6S+7S' (cards laid at once must be of one rank)"
    for empty in (">", "+", " , "):
        with pytest.raises(IllegalActionError) as e:
            Action.parse(empty)
        assert str(e.value) == f"not an action: {empty!r} (no cards)"
    with pytest.raises(IllegalActionError) as e:
        make(9, 0, -1)
    assert str(e.value) == "no such action: kind 9, target -1"


@pytest.mark.parametrize(
    ("text", "same"),
    [("done", "pass"), ("p", "pass"), ("P", "pass"), ("t", "take"), ("6S,6H", "6S+6H")],
)
def test_short_spellings_of_actions(text: str, same: str) -> None:
    """The notation's short forms (docs/rules.md notation): p/done, t, a comma for +."""
    assert Action.parse(text) is Action.parse(same)


@pytest.mark.parametrize("text", ["pass", "P", "done", "бито", "Бито", "пас", "ПАС"])
def test_every_spelling_of_pass_reads_as_pass(text: str) -> None:
    """Notation: the English and Russian words for «бито» all read as the pass."""
    assert Action.parse(text) == Action.parse("pass")


@pytest.mark.parametrize("text", ["exchange 6S", "exchange=6S", "exchange: 6S", "exchange6S"])
def test_every_spelling_of_an_exchange_reads_as_one(text: str) -> None:
    """Notation: «exchange» followed by the card, with or without a separator."""
    assert Action.parse(text) == Action.parse("x6S")


def test_make_refuses_a_kind_or_target_that_does_not_exist() -> None:
    """API: ``actions.make`` (which rebuilds a pickled action) takes kinds 0..6 and
    targets -1 (none) .. 51; anything else is refused by number, not built or crashed."""
    from durak.actions import DEFEND, KINDS, make

    six = Card.parse("6S").bit
    for k, mask, t in [(len(KINDS), 0, -1), (0, six, -2), (DEFEND, six, 52)]:
        with pytest.raises(IllegalActionError) as e:
            make(k, mask, t)
        assert str(e.value) == f"no such action: kind {k}, target {t}"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        # only a space, ':' or '=' may stand between «exchange» and the card
        ("exchange X6S", "not a card: 'X6S'"),
        # a defence is «attacked card/beating card»: what follows the first '/' is the card
        ("6S/7S/8S", "not a card: '7S/8S'"),
    ],
)
def test_a_malformed_exchange_or_defence_names_the_bad_part(text: str, why: str) -> None:
    with pytest.raises(IllegalActionError) as e:
        Action.parse(text)
    assert str(e.value).startswith(f"not an action: {text!r} ({why} ")
