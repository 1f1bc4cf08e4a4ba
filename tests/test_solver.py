"""The endgame solver against brute-force minimax, and on endgames of known value."""

from __future__ import annotations

import random

import pytest

from durak import Game, Rules
from durak.bots.ismcts import ISMCTSBot
from durak.bots.solver import Solver, Unsolved, brute_force, solvable
from durak.enums import Phase


def endgame(rules: Rules, seed: int, max_cards: int) -> Game | None:
    """Play random moves until the talon is empty with two players left holding at most
    ``max_cards`` cards between them; None if the deal ends first."""
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    while not g.is_over:
        if solvable(g) and sum(g.hands[s].bit_count() for s in range(g.n)) <= max_cards:
            return g
        g._apply(rng.choice(g.legal_actions()))
    return None


def small_tree(g: Game) -> bool:
    try:
        brute_force(g, g.to_act or 0, max_nodes=3000)
    except Unsolved:
        return False
    return True


def endgames(rules: Rules, count: int, max_cards: int, small: bool = True) -> list[Game]:
    """``count`` endgames; with ``small``, only those brute force finishes quickly."""
    out: list[Game] = []
    seed = 0
    while len(out) < count and seed < 2000:
        g = endgame(rules, seed, max_cards)
        if g is not None and len(g.legal_actions()) > 1 and (not small or small_tree(g)):
            out.append(g)
        seed += 1
    assert len(out) == count
    return out


RULESETS = [
    Rules.preset("podkidnoy", deck=24, hand_size=3),
    Rules.preset("perevodnoy", deck=24, hand_size=3),
    Rules.preset("perevodnoy-proezdnoy", deck=24, hand_size=3),
    Rules.preset("prostoy", deck=24, hand_size=3),
    Rules.preset("podkidnoy", deck=24, hand_size=3, draws=False, pile_on=False),
    Rules.preset("podkidnoy", players=3, deck=24, hand_size=3, throw_in="opening_rank"),
    Rules.preset("podkidnoy", players=4, deck=24, hand_size=3, teams="2x2"),
]


@pytest.mark.parametrize("rules", RULESETS, ids=str)
def test_solver_matches_brute_force(rules: Rules) -> None:
    for g in endgames(rules, 6, 8):
        seat = g.to_act
        assert seat is not None
        exact = brute_force(g, seat)
        solver = Solver(seat, max_nodes=None)
        assert solver.value(g) == exact
        # From the other side too: the solver's table must not mix up the sides.
        other = next(s for s in range(g.n) if not g.out[s] and s != seat)
        assert Solver(other, max_nodes=None).value(g) == brute_force(g, other)
        # Every action's value, and the best of them is the position's value.
        values = solver.action_values(g)
        assert values[0][1] == exact
        for a, v in values:
            child = g.clone()
            child._apply(a)
            assert brute_force(child, seat) == v


def test_values_seen_are_win_draw_and_loss() -> None:
    seen = set()
    for g in endgames(RULESETS[0], 40, 7):
        seen.add(Solver(g.to_act or 0, max_nodes=None).value(g))
    assert seen == {-1, 0, 1}


def test_last_card_attack_wins() -> None:
    """A known value: an attacker holding one card, against a defender with two or more,
    goes out with it and leaves the defender the durak."""
    found = 0
    for seed in range(300):
        rng = random.Random(seed)
        g = Game(RULESETS[0], seed=seed)
        while not g.is_over:
            a = g.to_act
            assert a is not None
            if (
                solvable(g)
                and g.phase == Phase.ATTACK
                and g.hands[a].bit_count() == 1
                and g.hands[g.defender].bit_count() >= 2
            ):
                assert Solver(a, max_nodes=None).value(g) == 1
                assert Solver(g.defender, max_nodes=None).value(g) == -1
                found += 1
                break
            g._apply(rng.choice(g.legal_actions()))
    assert found >= 5


def test_node_budget_raises() -> None:
    g = endgames(Rules.preset("podkidnoy", deck=36), 1, 14, small=False)[0]
    with pytest.raises(Unsolved):
        Solver(g.to_act or 0, max_nodes=3).value(g)


def test_ismcts_plays_solved_endgames_exactly() -> None:
    for g in endgames(RULESETS[1], 5, 8):
        seat = g.to_act
        assert seat is not None
        bot = ISMCTSBot(iterations=200, seed=1)
        ranked = bot.evaluate(g.observation(seat))
        assert bot.last_stats["solver"]
        best = brute_force(g, seat)
        assert ranked[0][1] == (best + 1) / 2


def test_best_action_finds_a_best_action() -> None:
    """The null-window best_action returns an action of the position's exact value."""
    for rules in RULESETS[:2]:
        for g in endgames(rules, 4, 7):
            seat = g.to_act
            assert seat is not None
            exact = brute_force(g, seat)
            a, v = Solver(seat, max_nodes=None).best_action(g)
            assert v == exact
            child = g.clone()
            child._apply(a)
            assert brute_force(child, seat) == exact


def test_solver_with_a_talon_matches_brute_force() -> None:
    """In a world whose talon order is fixed (a sampled world), the solver plays the
    draws as they come: its values equal plain minimax's with cards still to draw."""
    rules = Rules.preset("podkidnoy", deck=24, hand_size=2)
    found = 0
    for seed in range(300):
        rng = random.Random(seed)
        g = Game(rules, seed=seed)
        while not g.is_over and not (
            0 < g.talon_size <= 3
            and sum(h.bit_count() for h in g._hands) <= 5
            and len(g.legal_actions()) > 1
        ):
            g._apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        seat = g.to_act
        assert seat is not None
        try:
            exact = brute_force(g, seat, max_nodes=5000)
        except Unsolved:
            continue
        assert Solver(seat, max_nodes=None).value(g) == exact
        assert Solver(1 - seat, max_nodes=None).value(g) == brute_force(g, 1 - seat)
        found += 1
        if found == 8:
            break
    assert found == 8
