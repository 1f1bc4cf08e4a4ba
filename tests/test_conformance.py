"""The data-driven rules conformance suite: every case in ``tests/conformance/*.toml``.

Each case sets up one deal from an explicit deck, plays a list of moves and checks
what RULES.md says must follow: the exact legal actions, who acts, hands, table,
talon, discard, the outcome, and moves that must be refused. The format is in
``docs/conformance.md``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from durak import Action, Card, CardSet, Game, IllegalActionError, Rules
from durak.match import Match

HERE = Path(__file__).parent / "conformance"

# Keys a case (or one of its ``then`` steps) may hold; anything else is a typo.
SETUP_KEYS = {
    "id",
    "rule",
    "rules",
    "deck",
    "deal",
    "trump",
    "talon",
    "dealer",
    "leader",
    "seed",
    "xfail",
    "then",
    "lot_leaders",
    "match",
}
CHECK_KEYS = {
    "moves",
    "legal",
    "legal_has",
    "legal_lacks",
    "illegal",
    "to_act",
    "phase",
    "attacker",
    "defender",
    "hand",
    "sizes",
    "talon_size",
    "table",
    "discard",
    "trump_card",
    "trump_suit",
    "out",
    "over",
    "durak",
    "draw",
    "out_order",
    "pogony",
    "tally",
    "losing_team",
    "known",
    "note",
    "hung",
    "hung_cards",
    "truncated",
    "passed",
    "losers",
    "throwers",
    "cheats_has",
    "cheats_lacks",
    "calls",
    "cheated",
}


def _cases() -> Iterator[Any]:
    seen: set[str] = set()
    for path in sorted(HERE.glob("*.toml")):
        with path.open("rb") as f:
            data = tomllib.load(f)
        for case in data.get("case", []):
            cid = case.get("id", "?")
            assert cid not in seen, f"{path.name}: duplicate case id {cid!r}"
            seen.add(cid)
            marks = []
            if "xfail" in case:
                marks.append(pytest.mark.xfail(reason=case["xfail"], strict=True))
            yield pytest.param(path.name, case, id=f"{path.stem}:{cid}", marks=marks)


CASES = list(_cases())


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 60


def build_deck(case: dict[str, Any], rules: Rules) -> str:
    """The deck in dealing order, from ``deck`` or from the ``deal`` shorthand.

    ``deal`` lists each seat's hand; the cards are dealt one at a time from the
    dealer's left (RULES.md 1), so seat ``(dealer + 1 + i) % n`` gets card ``i``.
    Then comes ``trump`` and the top of the ``talon``. When the deal uses every
    card, ``trump`` must be in the dealer's hand and is dealt to them last. Without
    ``trump`` (rules ``trump=none``: no card is turned) the talon follows the deal.
    """
    if "deck" in case:
        assert "deal" not in case, "give deck or deal, not both"
        return str(case["deck"])
    n, hs = rules.players, rules.hand_size
    hands = [CardSet.parse(h) for h in case["deal"]]
    assert len(hands) == n, f"deal: {n} hands needed"
    dealer = case.get("dealer", 0)
    trump = Card.parse(case["trump"]) if "trump" in case else None
    seqs = [list(h) for h in hands]
    for s, h in enumerate(seqs):
        assert len(h) == hs, f"deal: seat {s} has {len(h)} cards, not {hs}"
    all_dealt = n * hs == rules.deck
    if all_dealt and trump is not None:
        assert trump in hands[dealer], "every card dealt: the trump is the dealer's last card"
        seqs[dealer].remove(trump)
        seqs[dealer].append(trump)
    order: list[Card] = []
    for i in range(n * hs):
        order.append(seqs[(dealer + 1 + i) % n][i // n])
    if not all_dealt:
        if trump is not None:
            order.append(trump)
        order += [Card.parse(t) for t in str(case.get("talon", "")).split()]
    return " ".join(c.ascii for c in order)


def snapshot(g: Game) -> tuple[object, ...]:
    return (
        tuple(g.hands),
        tuple(g.table),
        g.to_act,
        g.phase,
        g.talon_size,
        int(g.discard),
        len(g.history),
        g.attacker,
        g.defender,
        tuple(g.out),
        g.trump,
        tuple(g.tally),
        g.bout,
        str(g.observation(g.to_act)) if g.to_act is not None else "",
    )


def _seat(v: Any) -> int | None:
    return None if v == "none" else int(v)


def _actions(texts: list[str]) -> set[str]:
    return {str(Action.parse(t)) for t in texts}


def play(g: Game, moves: list[str]) -> None:
    for i, m in enumerate(moves):
        seat, sep, text = m.partition(":")
        if sep:
            assert g.to_act == int(seat), f"move {i} {m!r}: seat {g.to_act} is to act"
        else:
            text = m
        try:
            g.apply(text)
        except IllegalActionError as e:
            raise AssertionError(f"move {i} {m!r} refused: {e}") from None


def check_cheating(g: Game, step: dict[str, Any]) -> None:
    """шулерский (docs/rules.md 11): the cheat moves and calls of the seat to act, and
    the cheats every seat sees on the table."""
    cheats = {str(a) for a in g.cheats()}
    if "cheats_has" in step:
        missing = _actions(step["cheats_has"]) - cheats
        assert not missing, f"{missing} not offered as cheats; cheats: {sorted(cheats)}"
    if "cheats_lacks" in step:
        wrong = _actions(step["cheats_lacks"]) & cheats
        assert not wrong, f"{wrong} must not be offered as cheats"
    if "calls" in step:
        calls = {str(a) for a in g.calls()}
        assert calls == _actions(step["calls"]), f"calls: {sorted(calls)}"
    if "cheated" in step:
        for s in range(g.n):
            got = g.observation(s).cheated
            assert got == CardSet.parse(step["cheated"]), f"seat {s} sees cheats {got}"


# C901: one assertion per field a conformance case may pin
def check(g: Game, step: dict[str, Any]) -> None:  # noqa: C901
    unknown = set(step) - CHECK_KEYS - SETUP_KEYS
    assert not unknown, f"unknown keys {unknown}"
    play(g, step.get("moves", []))
    legal = [str(a) for a in g.legal_actions()]
    assert len(set(legal)) == len(legal), f"legal actions repeat: {legal}"
    if "legal" in step:
        assert set(legal) == _actions(step["legal"]), f"legal actions: {sorted(legal)}"
    if "legal_has" in step:
        missing = _actions(step["legal_has"]) - set(legal)
        assert not missing, f"{missing} not legal; legal: {legal}"
    if "legal_lacks" in step:
        wrong = _actions(step["legal_lacks"]) & set(legal)
        assert not wrong, f"{wrong} must not be legal"
    check_cheating(g, step)
    if "to_act" in step:
        assert g.to_act == _seat(step["to_act"])
    if "phase" in step:
        assert str(g.phase) == step["phase"]
    if "attacker" in step:
        assert g.attacker == step["attacker"]
    if "defender" in step:
        assert g.defender == step["defender"]
    for seat, cards in step.get("hand", {}).items():
        got = g.hand(int(seat))
        assert got == CardSet.parse(cards), f"hand of seat {seat}: {got}"
    for seat, cards in step.get("known", {}).items():
        # what another seat knows of this hand (cards seen taken, shown or drawn face up)
        seen = g.observation((int(seat) + 1) % g.n).known[int(seat)]
        assert seen == CardSet.parse(cards), f"known of seat {seat}: {seen}"
    if "throwers" in step:  # who may throw in this bout, in the order of their right
        assert list(g.observation(0).throwers) == step["throwers"]
    if "passed" in step:  # team pagony passed openly: [from, to, cards] in order
        got = [(p.seat, p.to, p.cards) for p in g.passed]
        assert got == [(a, b, CardSet.parse(c)) for a, b, c in step["passed"]], f"passed: {got}"
    if "sizes" in step:
        assert [len(g.hand(s)) for s in range(g.n)] == step["sizes"]
    if "talon_size" in step:
        assert g.talon_size == step["talon_size"]
    if "trump_card" in step:  # the turned card; "none" when none is turned
        t = step["trump_card"]
        assert g.trump == (None if t == "none" else Card.parse(t)), f"trump card: {g.trump}"
    if "trump_suit" in step:  # the trump suit (♠ ♥ ♦ ♣ or S H D C), or "none"
        t = step["trump_suit"]
        want = 4 if t == "none" else Card.parse("A" + t).suit
        assert g.trump_suit == want, f"trump suit: {g.trump_suit}"
        for s in range(g.n):
            assert g.observation(s).trump_suit == want
            if t == "none":
                assert g.observation(s).trump is None
    if "table" in step:
        want = []
        for pair in step["table"]:
            a, _, b = pair.partition("/")
            want.append((Card.parse(a), Card.parse(b) if b else None))
        assert list(g.table) == want, f"table: {g.table}"
    if "discard" in step:
        d = step["discard"]
        if isinstance(d, int):
            assert len(g.discard) == d
        else:
            assert g.discard == CardSet.parse(d)
    if "out" in step:
        assert [s for s in range(g.n) if g.out[s]] == step["out"]
    if "tally" in step:
        assert list(g.tally) == step["tally"]
    if "over" in step:
        assert g.is_over == step["over"]
    outcome_keys = {
        "durak",
        "draw",
        "out_order",
        "pogony",
        "losing_team",
        "hung",
        "hung_cards",
        "truncated",
        "losers",
    } & set(step)
    if outcome_keys:
        assert g.is_over and g.outcome is not None, "the deal should be over"
        o = g.outcome
        if "durak" in step:
            assert o.durak == _seat(step["durak"]), f"outcome: {o}"
        if "draw" in step:
            assert o.draw == step["draw"]
        if "out_order" in step:
            assert list(o.out_order) == step["out_order"]
        if "losers" in step:  # the seats left holding cards
            assert list(o.losers) == step["losers"]
        if "pogony" in step:
            assert o.pogony == step["pogony"]
        if "losing_team" in step:
            assert o.losing_team == _seat(step["losing_team"])
        if "truncated" in step:
            assert o.truncated == step["truncated"]
        if "tally" in step:
            assert list(o.tally) == step["tally"]
        if "hung" in step:
            assert o.hung == _seat(step["hung"]), f"outcome: {o!r}"
        if "hung_cards" in step:
            assert o.hung_cards == step["hung_cards"]
    for m in step.get("illegal", []):
        before = snapshot(g)
        with pytest.raises(IllegalActionError) as err:
            g.apply(m)
        assert str(err.value), "an illegal action must say why"
        assert snapshot(g) == before, f"{m!r} was refused but changed the game"


def run_match(case: dict[str, Any], rules: Rules) -> None:
    """``match``: two deals; the first is played by always taking the first legal
    action, then the second deal's dealer and leader are checked against the rule."""
    spec = case["match"]
    m = Match(rules, seed=case.get("seed", 0), deals=2)
    g = m.game
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert g.outcome is not None
    durak = g.outcome.durak
    if durak is None:
        pytest.skip("the first deal was a draw; pick another seed")
    nxt = m.next_deal()
    assert nxt is not None
    n = rules.players
    assert nxt.dealer == durak, "the durak deals next (RULES.md 1)"
    lead = spec["leader"]
    if lead == "durak_left":
        want = (durak + 1) % n
    elif lead == "durak_right":
        want = (durak - 1) % n
    else:
        assert lead == "lowest_trump"
        ts = nxt.trump_suit
        holders = [
            (min(c.rank for c in nxt.hand(s) if c.suit == ts), s)
            for s in range(n)
            if any(c.suit == ts for c in nxt.hand(s))
        ]
        assert holders, "pick a seed whose second deal has a trump in some hand"
        want = min(holders)[1]
    assert nxt.to_act == want and nxt.attacker == want


@pytest.mark.parametrize(("source", "case"), CASES)
def test_case(source: str, case: dict[str, Any]) -> None:
    unknown = set(case) - SETUP_KEYS - CHECK_KEYS
    assert not unknown, f"unknown keys {unknown}"
    rule = case.get("rule", "")
    assert rule.startswith("§"), 'every case quotes the rule it pins: rule = "§N ..."'
    rules = Rules.parse(case["rules"])
    if "match" in case:
        run_match(case, rules)
        return
    deck = build_deck(case, rules)
    dealer = case.get("dealer", 0)
    if "lot_leaders" in case:
        # A lot: over many seeds, each listed seat (and no other) leads sometimes.
        leaders = {Game(rules, seed=s, deck=deck, dealer=dealer).to_act for s in range(60)}
        assert leaders == set(case["lot_leaders"])
    g = Game(rules, seed=case.get("seed", 0), deck=deck, dealer=dealer, leader=case.get("leader"))
    check(g, case)
    for step in case.get("then", []):
        check(g, step)
