"""Shared helpers for the engine tests."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from durak import Game, Rules, RulesError
from durak.bots import make
from durak.cards import deck_mask
from durak.enums import Kind
from durak.game import FIELDS
from durak.seats import Seats

PRESET_NAMES = ["podkidnoy", "perevodnoy", "perevodnoy-proezdnoy", "prostoy", "pogonny", "pagony"]


def all_configs(names: Sequence[str] = PRESET_NAMES) -> Iterator[Rules]:
    """Every preset x 2..6 players x every deck that fits, with teams where they fit."""
    for name, players, deck, teams in itertools.product(
        names, range(2, 7), (24, 36, 52), ("none", "2x2", "3x3")
    ):
        try:
            yield Rules.preset(name, players=players, deck=deck, teams=teams)
        except RulesError:
            continue


def env_configs(presets: Sequence[str]) -> list[str]:
    """The learning environments' rule sets: each preset with 2 to 6 players, 2x2 and
    3x3 teams, where the preset allows them (двухкозырный: 2 to 4 players, no teams)."""
    out = set()
    for name in presets:
        texts = [f"{name}(players={p})" for p in range(2, 7)]
        for text in (*texts, f"{name}(players=4,teams=2x2)", f"{name}(players=6,teams=3x3)"):
            try:
                out.add(str(Rules.parse(text)))
            except RulesError:
                continue
    return sorted(out)


def snapshot(g: Game) -> tuple[object, ...]:
    """Everything a game holds, as plain values, to check it did not change."""
    out = []
    for name in FIELDS:
        if name == "_legal":
            continue
        v = getattr(g, name)
        out.append(tuple(v) if isinstance(v, list) else v)
    return tuple(out)


def card_places(g: Game) -> list[int]:
    """Masks of every place a card can be: discard, hands, table, talon."""
    places = [g.discard, *g.hands]
    places += [1 << c for c in g._att] + [1 << c for c in g._beat if c >= 0]
    places += [1 << c for c in g._talon[g._tp :]]
    if g._bottom >= 0:
        places.append(1 << g._bottom)
    return places


def assert_cards_conserved(g: Game) -> None:
    seen = 0
    for m in card_places(g):
        assert seen & m == 0, "a card is in two places"
        seen |= m
    assert seen == deck_mask(g.rules.deck), "a card is missing"
    assert g.talon_size == len(g._talon) - g._tp + (g._bottom >= 0)


def play(rules: Rules, bots: Sequence[Any], seed: int) -> Game:
    """One deal of ``rules`` with ``bots[i]`` in seat ``i`` (driven by the seat driver),
    asserting every move one of the honest legal ones."""
    g = Game(rules, seed=seed)
    seats = Seats(bots)
    seats.reset(g)
    while not g.is_over:
        a = seats.choose(g)
        assert a in g.legal_actions()
        g.apply(a)
        seats.show(g)
    return g


def cheating_deals(a: str, b: str, n: int, **opts: float) -> tuple[list[int], int, int, int]:
    """``n`` two-player шулерский deals (seeds 0..n-1, the bots' action limit) of bot
    ``a`` (seat 0, made with ``opts``) against ``b``: (deals lost per seat, cheats, calls,
    wrong calls). The tests and benchmarks/bots/cheating.py count with it."""
    rules = Rules.preset("shulerskiy").with_action_limit()
    lost, cheats, calls, wrong = [0, 0], 0, 0, 0
    for i in range(n):
        seats = Seats([make(a, seed=i, **opts), make(b, seed=i + 1000)])
        g = Game(rules, seed=i)
        seats.reset(g)
        while not g.is_over:
            cheated = g.observation(g.to_act or 0).cheated
            act = seats.choose(g)
            cheats += act.kind == Kind.CHEAT
            if act.kind == Kind.CALL:
                calls += 1
                wrong += not act.cards & cheated
            g.apply(act)
            seats.show(g)
        assert g.outcome is not None
        if g.outcome.durak is not None:
            lost[g.outcome.durak] += 1
    return lost, cheats, calls, wrong
