"""Actions: notation and the fixed integer encoding (issue 2, point 4)."""

import pytest

from durak import Action, Game, IllegalActionError, Rules
from durak.actions import encoding


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
    assert a.kind == kind
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
