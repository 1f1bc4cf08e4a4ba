"""Hypothesis drives random rule options and random, also illegal, action choices
(issue 2): an illegal action raises IllegalActionError with a reason and changes
nothing; every legal one keeps the cards conserved; games end."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from durak import Action, Game, IllegalActionError, Rules, RulesError
from durak.actions import encoding
from durak.game import pagon_ladder
from durak.rules import CHOICES

from .helpers import assert_cards_conserved, snapshot


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    kw: dict[str, object] = {}
    for f in dataclasses.fields(Rules):
        if f.name in CHOICES:
            kw[f.name] = draw(st.sampled_from(CHOICES[f.name]))
        elif isinstance(f.default, bool):
            kw[f.name] = draw(st.booleans())
        elif f.name == "players":
            kw[f.name] = draw(st.integers(2, 6))
        elif f.name == "deck":
            kw[f.name] = draw(st.sampled_from([24, 36, 52]))
        elif f.name == "hand_size":
            kw[f.name] = draw(st.integers(1, 8))
        else:
            kw[f.name] = draw(st.integers(1, 7))
    if not kw["transfer"]:
        kw["transfer_by_showing"] = False
    if kw.get("trump") == "none":  # nothing to show or exchange without a trump suit
        kw["transfer_by_showing"] = False
        kw["trump_exchange"] = False
    if kw.get("trump") == "per_player":  # двухкозырный: 2 to 4 players, each for himself
        kw["players"] = min(int(str(kw["players"])), 4)
        kw["teams"] = "none"
        kw["transfer_by_showing"] = kw["trump_exchange"] = False
        if kw["scoring"] == "pagony":
            kw["scoring"] = "standard"
    if kw.get("cheating") == "off":  # a wrong call's cost only where calls exist
        kw["false_call"] = "takes_table"
    try:
        return Rules(**kw)  # type: ignore[arg-type]
    except RulesError:
        kw["teams"] = "none"
        kw["hand_size"] = 6
        kw["deck"] = 52
        return Rules(**kw)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rule_sets(),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10**6), min_size=400, max_size=400),
)
def test_random_rules_and_actions(rules: Rules, seed: int, choices: list[int]) -> None:
    pagon = None
    if rules.scoring == "pagony":  # each side somewhere on its ladder of pagon ranks
        steps = len(pagon_ladder(rules.deck))
        pagon = [(seed >> (4 * side)) % steps for side in range(rules.sides)]
    g = Game(rules, seed=seed, pagon=pagon)
    enc = encoding(rules)
    steps = 0
    for c in choices * 20:
        if g.is_over:
            break
        legal = g.legal_actions()
        # a third of the time any action at all, legal or not, from the encoding
        a = Action.from_index(c % enc.size, rules) if c % 3 == 0 else legal[c % len(legal)]
        # (with cheating the encoding numbers cheats and calls too: those offered are played)
        if a in legal or a in g.cheats() or a in g.calls():
            g.apply(a)
            steps += 1
        else:
            before = snapshot(g)
            try:
                g.apply(a)
            except IllegalActionError as e:
                assert str(e)
            else:
                raise AssertionError(f"{a} was accepted but not listed as legal")
            assert snapshot(g) == before
        assert_cards_conserved(g)
    while not g.is_over:  # finish it
        g.apply(g.legal_actions()[0])
        steps += 1
        assert steps < 5000
    assert Game.from_record(g.record()).outcome == g.outcome
    o = g.outcome
    assert o is not None
    if o.hung is not None:
        assert o.durak is not None and o.hung != rules.team_of(o.durak)


@settings(max_examples=80, deadline=None)
@given(text=st.text(max_size=12))
def test_any_text_is_an_action_or_a_clear_error(text: str) -> None:
    g = Game(Rules(), seed=1)
    before = snapshot(g)
    try:
        g.apply(text)
    except IllegalActionError as e:
        assert str(e)
        assert snapshot(g) == before
