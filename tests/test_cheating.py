"""шулерский (``cheating=open``, docs/rules.md 11): the option's text, the moves'
notation, random play with cheats and calls (cards conserved, every deal ends, records
replay exactly, views leak nothing), the existing bots staying honest, and the cheater
and the catcher. The hand-built rule cases are in ``conformance/09_cheating.toml``."""

from __future__ import annotations

import random

import pytest

from durak import Action, Game, IllegalActionError, Rules, RulesError
from durak.bots import level, make
from durak.enums import Kind
from durak.seats import Seats

from .helpers import assert_cards_conserved, cheating_deals

SHULER = Rules.preset("shulerskiy")


def test_the_option_round_trips_and_refuses_nonsense() -> None:
    r = Rules.preset("shulerskiy", players=4, false_call="none")
    assert str(r) == "shulerskiy(players=4,false_call=none)"
    assert Rules.parse(str(r)) == r
    assert Rules.parse("perevodnoy(cheating=open)").cheating == "open"
    assert str(Rules.parse("podkidnoy(cheating=open)")) == "shulerskiy()"
    with pytest.raises(RulesError, match="false_call: only with cheating"):
        Rules.preset("podkidnoy", false_call="none")
    with pytest.raises(RulesError, match="cheating: 'hidden' is not one of off, open"):
        Rules.preset("podkidnoy", cheating="hidden")


def test_cheat_and_call_notation_round_trips() -> None:
    for text in ("~9♠/6♣", "~Q♦", "?6♣"):
        a = Action.parse(text)
        assert str(a) == text and Action.parse(str(a)) is a
    assert Action.parse("~9S/6C").kind == Kind.CHEAT and Action.parse("~9S/6C").target
    assert Action.parse("~QD").target is None and Action.parse("?6C").kind == Kind.CALL
    # cheats and calls are numbered only with cheating (after the honest actions,
    # whose numbers stay those of every rule set: docs/envs.md)
    assert Action.parse("?6C").index(SHULER) == 1608 + 36 * 36 + 36 + 3
    with pytest.raises(IllegalActionError, match="only with cheating"):
        Action.parse("?6C").index(Rules())
    with pytest.raises(IllegalActionError, match="not an action"):
        Action.parse("?6C+6D")


def test_a_cheat_without_the_option_is_refused_and_changes_nothing() -> None:
    g = Game(Rules(), seed=3)
    g.apply(g.legal_actions()[0])
    before = g.observation(g.to_act or 0)
    with pytest.raises(IllegalActionError, match="need cheating=open"):
        g.apply("?" + str(g.table[0][0]))
    assert g.observation(g.to_act or 0) == before
    assert g.cheats() == [] and g.calls() == []


def _random_move(g: Game, rng: random.Random) -> Action:
    """Honest moves mostly, a cheat or a call now and then: every path gets played."""
    x = rng.random()
    cheats, calls = g.cheats(), g.calls()
    if cheats and x < 0.2:
        return rng.choice(cheats)
    if calls and x > 0.85:
        return rng.choice(calls)
    return rng.choice(g.legal_actions())


CONFIGS = (
    [
        Rules.preset("shulerskiy", players=p, deck=d, false_call=f).with_action_limit()
        for p in range(2, 7)
        for d in (36, 52)
        for f in ("takes_table", "none")
    ]
    + [
        Rules.preset("perevodnoy", players=4, cheating="open").with_action_limit(),
        Rules.preset("prostoy", players=3, cheating="open").with_action_limit(),
        Rules.preset("podkidnoy", players=4, teams="2x2", cheating="open").with_action_limit(),
    ]
    + [
        # the option with every other rule that changes a bout or the score
        Rules.parse(text).with_action_limit()
        for text in (
            "pagony(players=3,cheating=open,pagony_attack=off)",
            "pogonny(players=3,cheating=open)",
            "podkidnoy(players=3,cheating=open,throw_in=opening_rank)",
            "podkidnoy(players=5,cheating=open,throwers=neighbours,pile_on=off)",
            "perevodnoy-proezdnoy(players=3,cheating=open,false_call=none)",
            "dvukhkozyrny(players=3,cheating=open)",
        )
    ]
)


@pytest.mark.parametrize("rules", CONFIGS, ids=str)
def test_random_play_with_cheats_and_calls_keeps_every_invariant(rules: Rules) -> None:
    rng = random.Random(str(rules))
    kinds: set[Kind] = set()
    for _ in range(6):
        g = Game(rules, seed=rng.randrange(2**32))
        while not g.is_over:
            seat = g.to_act
            assert seat is not None and not g.out[seat]
            if len(g.history) % 5 == 0:
                for s in range(rules.players):
                    o = g.observation(s)
                    # the moves are the seat's own; what stands against the rule is public
                    assert bool(o.cheats or o.calls) <= (s == seat)
                    assert o.cheated == g.observation(seat).cheated
                c = g.clone()
                assert c.observation(seat) == g.observation(seat)
                assert c.position_key() == g.position_key()
            a = _random_move(g, rng)
            kinds.add(a.kind)
            g.apply(a)
            assert_cards_conserved(g)
        assert g.outcome is not None
        replayed = Game.from_record(g.record())
        assert replayed.history == g.history and replayed.outcome == g.outcome
        assert replayed.hands == g.hands
    assert Kind.CALL in kinds and (Kind.CHEAT in kinds or rules.players > 4)


def test_a_rebuilt_view_plays_on_like_the_game() -> None:
    """Game.from_view keeps the cheats, calls and who laid what (searchers rebuild from it)."""
    rng = random.Random(1)
    rules = Rules.preset("shulerskiy", players=3, false_call="none").with_action_limit()
    checked = 0
    for _ in range(10):
        g = Game(rules, seed=rng.randrange(2**32))
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            obs = g.observation(seat)
            if obs.cheated or obs.called:
                d = Game.from_view(obs, [int(h) for h in g.hands], g.undrawn())
                assert d.observation(seat) == obs
                assert d.cheats() == g.cheats() and d.calls() == g.calls()
                checked += 1
            g.apply(_random_move(g, rng))
    assert checked > 20


@pytest.mark.parametrize("players", [2, 3])
def test_existing_bots_play_the_cheating_preset_honestly(players: int) -> None:
    """Levels 1..5, the expert and the learned player: honest legal moves only, never a
    cheat or a call, against cheaters."""
    rules = Rules.preset("shulerskiy", players=players).with_action_limit()
    specs = [level(n, seed=n) for n in (1, 2, 3, 4)]
    # level 5 with a small budget: its searcher, belief worlds and solver, quickly
    specs += [level(5, seed=5, iterations=20, heads_up=20, nodes=2000), make("expert")]
    specs += [make("learned")]
    for i, bot in enumerate(specs):
        others = [make("cheater", seed=i, rate=1.0) for _ in range(players - 1)]
        seats = Seats([bot, *others])
        g = Game(rules, seed=i)
        seats.reset(g)
        while not g.is_over:
            a = seats.choose(g)
            if g.to_act == 0:
                assert a in g.legal_actions(), f"{bot.name} played {a}, not an honest legal move"
            g.apply(a)
            seats.show(g)
        assert any(a.kind == Kind.CHEAT for a in g.history), "the cheaters cheated"


def test_the_cheater_beats_an_honest_player_who_never_calls() -> None:
    # measured (scratch/measure.py, 200 deals): cheater lost 29, heuristic 151
    lost, cheats, calls, _ = cheating_deals("cheater", "heuristic", 60)
    assert cheats > 100 and calls == 0
    assert lost[0] * 2 < lost[1]


def test_the_catcher_catches_the_cheater() -> None:
    # measured (200 deals): 1267 cheats, 1152 called, none wrongly; cheater lost 143, catcher 53
    lost, cheats, calls, wrong = cheating_deals("cheater", "catcher", 60)
    assert wrong == 0 and calls > 0.8 * cheats > 100
    assert lost[0] > lost[1]


def test_the_cheater_plays_honestly_without_the_option() -> None:
    g = Game(Rules(), seed=4)
    cheater, honest = make("cheater", seed=4, rate=1.0), make("heuristic", seed=4)
    while not g.is_over:
        s = g.to_act
        assert s is not None
        obs = g.observation(s)
        a = cheater.choose(obs)
        assert a == honest.choose(obs)
        g.apply(a)


def test_the_environments_play_cheating() -> None:
    """Issue 36: the environments play шулерский: their action spaces number the cheats
    and calls (docs/envs.md; tests/test_envs.py plays a call in one)."""
    from durak.envs.gymnasium import DurakEnv
    from durak.envs.openspiel import rules_from_params
    from durak.envs.pettingzoo import raw_env
    from durak.envs.vector import DurakVectorEnv

    assert DurakEnv("shulerskiy").observation_space["action_mask"].shape == (2976,)
    assert raw_env(Rules.preset("perevodnoy", cheating="open")).num_actions == 2976
    assert DurakVectorEnv(2, "shulerskiy(players=3)").single_action_space.n == 2976
    assert rules_from_params({"variant": "shulerskiy"}).cheating == "open"


def _owner(g: Game, card: int) -> int:
    """Who laid ``card`` on the table this bout (public in cheating=open)."""
    laid = g.observation(0).laid
    return next(s for s in range(g.n) if laid[s] >> card & 1)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_call_has_the_consequence_rules_md_gives(players: int) -> None:
    """Random play full of cheats and calls (rules.md 11): a false beat caught, the
    defender takes the table (and is in again if it was its last card); a false throw-in
    caught, the card is back with its thrower, who throws in no more this bout; a wrong
    call, the caller takes the table."""
    rng = random.Random(players)
    rules = Rules.preset("shulerskiy", players=players, deck=36).with_action_limit()
    seen = {"beat": 0, "throw": 0, "wrong": 0}
    for _ in range(40):
        g = Game(rules, seed=rng.randrange(2**32))
        while not g.is_over:
            cheats, calls = g.cheats(), g.calls()
            if calls and rng.random() < 0.5:
                call = rng.choice(calls)
                card = call.cards[0]
                seat, defender, bout = g.to_act, g.defender, g.bout
                assert seat is not None
                table = {c for pair in g.table for c in pair if c is not None}
                beaten = {b for _, b in g.table if b is not None}
                real = card in g.observation(seat).cheated
                owner = _owner(g, card.index)
                g.apply(call)
                if real and card in beaten:
                    seen["beat"] += 1
                    assert table <= set(g.hand(defender)) and not g.out[defender]
                    assert g.bout == bout + 1
                elif real:
                    seen["throw"] += 1
                    assert card in g.hand(owner) and not g.out[owner] and g.bout == bout
                    if not g.is_over and g.to_act == owner and g.bout == bout:
                        assert owner in g.observation(owner).barred
                        assert not [a for a in g.legal_actions() if a.kind == Kind.ATTACK]
                        assert not g.cheats()
                else:
                    seen["wrong"] += 1
                    taker = defender if seat == defender else seat
                    assert table <= set(g.hand(taker)) and g.bout == bout + 1
            elif cheats and rng.random() < 0.4:
                g.apply(rng.choice(cheats))
            else:
                g.apply(rng.choice(g.legal_actions()))
            assert_cards_conserved(g)
            for s in range(players):
                assert not (g.out[s] and g.hand(s)), f"seat {s} is out holding cards"
    assert min(seen.values()) > 5, seen
