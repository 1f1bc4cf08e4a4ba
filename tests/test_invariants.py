"""Random games over every preset x 2..6 players x every deck, with teams where they fit
(issue 2, "How it is shown to work"): every game ends, every card is always in exactly one
place, only ``to_act`` has legal actions, records replay to the same outcome, and a seat's
observation never changes when only cards hidden from it change."""

from __future__ import annotations

import random

import pytest

from durak import Game, Rules
from durak.cards import SUIT_MASK
from durak.enums import Kind, Phase

from .helpers import all_configs, assert_cards_conserved

CONFIGS = list(all_configs())
GAMES_PER_CONFIG = 25  # x 90 configs: 2,250 deals
# Issue 36's presets (docs/rules.md 10): the same invariants, 2..6 players, every deck,
# teams where they fit; «пики пиками» over a turned trump; шулерский played honestly
# (its cheats and calls: tests/test_cheating.py); двухкозырный at 2..4 players.
VARIANT_CONFIGS = (
    list(all_configs(("beskozyrny", "piki-pikami", "shulerskiy")))
    + [Rules.preset("perevodnoy", players=p, trump="none") for p in (2, 4, 6)]
    + [Rules.preset("podkidnoy", players=p, spades_by_spades=True) for p in (3, 5)]
    + list(all_configs(("dvukhkozyrny",)))
    + [Rules.preset("perevodnoy", players=p, trump="per_player") for p in (3, 4)]
)


def test_there_are_many_configs() -> None:
    assert len(CONFIGS) == 108  # 6 presets x 18 player/deck/team mixes


@pytest.mark.parametrize("rules", CONFIGS + VARIANT_CONFIGS, ids=str)
def test_random_games_keep_every_invariant(rules: Rules) -> None:
    rng = random.Random(str(rules))
    for i in range(GAMES_PER_CONFIG):
        g = Game(rules, seed=rng.randrange(2**32))
        steps = 0
        while not g.is_over:
            legal = g.legal_actions()
            assert legal, "the seat to act always has a choice"
            seat = g.to_act
            assert seat is not None and not g.out[seat]
            if steps % 7 == 0:
                for s in range(rules.players):
                    assert bool(g.observation(s).legal) == (s == seat)
            g.apply(rng.choice(legal))
            steps += 1
            assert_cards_conserved(g)
            assert steps < 3000, "a deal must end"
        o = g.outcome
        assert o is not None and g.to_act is None and g.legal_actions() == []
        assert o.draw == (o.durak is None)
        if not o.draw and rules.scoring != "pogonny":
            assert o.durak in o.losers
        assert len(set(o.out_order)) == len(o.out_order)
        if rules.scoring != "pogonny":  # there the losers are the durak's side (issue 30)
            assert set(o.out_order) | set(o.losers) == set(range(rules.players))
        if o.hung is not None:
            # pagony are hung onto the losing side, one to four cards (the queen alone)
            assert rules.scoring == "pagony" and o.durak is not None
            assert o.hung != rules.team_of(o.durak) and 1 <= o.hung_cards <= 4
        if i % 4 == 0:
            replayed = Game.from_record(g.record())
            assert replayed.outcome == o
            assert replayed.hands == g.hands


def _swap_hidden(g: Game, seat: int, rng: random.Random) -> Game | None:
    """A copy of ``g`` in which the cards ``seat`` cannot place are dealt anew among the
    other hands (sizes kept), or None if there is nothing to swap."""
    others = [s for s in range(g.n) if s != seat]
    pool = []
    for s in others:
        pool += [c for c in range(52) if (g.hands[s] & ~g.known[s]) >> c & 1]
    if len(pool) < 2:
        return None
    rng.shuffle(pool)
    h = g.clone()
    for s in others:
        n = (g.hands[s] & ~g.known[s]).bit_count()
        h._hands[s] = g.known[s] | sum(1 << c for c in pool[:n])
        pool = pool[n:]
    h._legal = None
    return h


@pytest.mark.parametrize("rules", [r for r in CONFIGS + VARIANT_CONFIGS if r.deck == 36], ids=str)
def test_observation_ignores_hidden_cards_of_others(rules: Rules) -> None:
    rng = random.Random(str(rules) + "obs")
    for _ in range(3):
        g = Game(rules, seed=rng.randrange(2**32))
        while not g.is_over:
            seat = rng.randrange(rules.players)
            h = _swap_hidden(g, seat, rng)
            if h is not None:
                assert h.observation(seat) == g.observation(seat)
                # Play on the same actions while they are legal in both games.
                for _ in range(6):
                    if g.is_over or h.is_over:
                        break
                    a = rng.choice(g.legal_actions())
                    # A thrower with nothing to add is passed over, which shows the
                    # table that they had nothing: the games part there, legitimately.
                    if g.to_act != h.to_act or a not in h.legal_actions():
                        break
                    g.apply(a)
                    h.apply(a)
                    if (g.to_act, g.phase, g.bout) != (h.to_act, h.phase, h.bout):
                        break  # a pass-over differed, as above
                    assert h.observation(seat) == g.observation(seat)
            if not g.is_over:
                g.apply(rng.choice(g.legal_actions()))


def test_talon_order_is_hidden() -> None:
    """Two deals that differ only in the order of the talon look the same to everyone."""
    rules = Rules(players=3)
    a = Game(rules, seed=1)
    top = a.deck[:19]  # 18 dealt + the trump
    rest = list(a.deck[19:])
    random.Random(2).shuffle(rest)

    b = Game(rules, deck=list(top) + rest, dealer=a.dealer, leader=a.leader)
    for s in range(3):
        assert a.observation(s) == b.observation(s)


def test_known_cards_follow_the_take() -> None:
    """Cards a seat picked up from the table are known to the others until played."""
    g = Game(Rules(), seed=4)
    rng = random.Random(0)
    while not g.is_over:
        before = g.table
        defender = g.defender
        legal = g.legal_actions()
        a = next((x for x in legal if x.kind == Kind.TAKE), rng.choice(legal))
        g.apply(a)
        if a.kind == Kind.TAKE and g.phase != Phase.PILE_ON and before:
            obs = g.observation((defender + 1) % 2)
            for att, _ in before:
                assert att in obs.known[defender]
            break
    assert obs is not None


def test_lowest_trump_leads_the_first_deal() -> None:
    """RULES.md 2: the holder of the lowest trump attacks first."""
    rng = random.Random(9)
    for _ in range(200):
        rules = Rules(players=rng.randint(2, 6))
        g = Game(rules, seed=rng.randrange(2**32))
        tm = SUIT_MASK[g.trump_suit]
        lows = [(h & tm & -(h & tm)).bit_length() if h & tm else 99 for h in g.hands]
        if min(lows) < 99:
            assert g.to_act == lows.index(min(lows))


def test_beating_follows_the_variant() -> None:
    """Issue 36 (docs/rules.md 10), over random play: every defence offered beats by the
    variant's rule. бескозырный: a higher card of the attacked suit only; «пики пиками»:
    a spade only by a higher spade, diamonds beat the other suits; no card turned in
    бескозырный, and every observation says so."""
    rng = random.Random(36)
    for name in ("beskozyrny", "piki-pikami"):
        for players in range(2, 7):
            g = Game(Rules.preset(name, players=players), seed=rng.randrange(2**32))
            if name == "beskozyrny":
                assert g.trump is None and g.trump_suit == 4
                assert all(g.observation(s).trump is None for s in range(players))
            else:
                assert g.trump_suit == 2
            while not g.is_over:
                for a in g.legal_actions():
                    if a.kind != Kind.DEFEND:
                        continue
                    c, t = a.cards[0], a.target
                    assert t is not None
                    same = c.suit == t.suit and c.rank > t.rank
                    if name == "beskozyrny" or t.suit == 0:
                        assert same, f"{c} on {t}"
                    else:
                        assert same or (c.suit == 2 and t.suit != 2), f"{c} on {t}"
                g.apply(rng.choice(g.legal_actions()))
                assert_cards_conserved(g)
