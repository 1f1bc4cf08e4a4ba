"""The engine's public surface (issue 2, point 4): construction, clone, undo, records,
observations and errors."""

from __future__ import annotations

import random

import pytest

from durak import Action, Game, IllegalActionError, Observation, RecordError, Rules, RulesError
from durak.cards import Card
from durak.enums import Kind, Phase
from durak.errors import TurnError

from .helpers import snapshot

DECK = "6S 7S 8S 9S 10S JS 6H 7H 8H 9H 10H JH QS"


def test_explicit_deck_deals_from_the_dealers_left() -> None:
    """RULES.md 1: one card at a time, clockwise from the dealer's left; the next card is
    the trump, under the talon, drawn last."""
    g = Game(Rules(), deck=DECK, dealer=1)
    assert str(g.hand(0)) == "6♠ 6♥ 8♠ 8♥ 10♠ 10♥"
    assert str(g.hand(1)) == "7♠ 7♥ 9♠ 9♥ J♠ J♥"
    assert str(g.trump) == "Q♠" and g.talon_size == 24
    assert g.to_act == 0 and g.attacker == 0 and g.defender == 1


def test_bad_construction_is_refused() -> None:
    with pytest.raises(ValueError, match="deck"):
        Game(Rules(), deck="6S 6S")
    with pytest.raises(ValueError, match="deck"):
        Game(Rules(deck=24), deck="6S")
    with pytest.raises(ValueError, match="dealer"):
        Game(Rules(), seed=1, dealer=5)


def test_seed_fixes_the_deal() -> None:
    a, b = Game(Rules(players=4), seed=99), Game(Rules(players=4), seed=99)
    assert a.deck == b.deck and a.dealer == b.dealer and a.hands == b.hands


def test_illegal_actions_say_why_and_change_nothing() -> None:
    g = Game(Rules(), deck=DECK, dealer=1)
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="does not hold"):
        g.apply("7S")
    with pytest.raises(IllegalActionError, match="not possible now"):
        g.apply("take")
    with pytest.raises(IllegalActionError, match="not an action"):
        g.apply("7 of spades")
    assert snapshot(g) == before
    g.apply("6S")
    with pytest.raises(IllegalActionError, match="does not beat"):
        g.apply("6S/7H")
    assert isinstance(IllegalActionError("x"), ValueError)


def test_clone_is_independent() -> None:
    g = Game(Rules.preset("perevodnoy", players=3), seed=5)
    c = g.clone()
    rng = random.Random(1)
    for _ in range(30):
        if c.is_over:
            break
        c.apply(rng.choice(c.legal_actions()))
    assert snapshot(g) == snapshot(Game(Rules.preset("perevodnoy", players=3), seed=5))


def test_undo_restores_every_step() -> None:
    g = Game(Rules.preset("perevodnoy", players=4, teams="2x2"), seed=8)
    rng = random.Random(2)
    states = []
    while not g.is_over:
        states.append(snapshot(g))
        g.apply(rng.choice(g.legal_actions()))
    for st in reversed(states[-15:]):
        g.undo()
        assert snapshot(g) == st
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        Game(Rules(), seed=1).undo()


def test_record_is_readable_and_replays() -> None:
    g = Game(Rules.preset("podkidnoy", players=3), seed=21)
    rng = random.Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    text = g.record(names=["Аня", "Bob", "bot"])
    assert '[Rules "podkidnoy(players=3)"]' in text
    assert '[Seat0 "Аня"]' in text and "1. " in text
    again = Game.from_record(text)
    assert again.outcome == g.outcome and [str(a) for a in again.history] == [
        str(a) for a in g.history
    ]
    # A record whose moves were tampered with is refused, naming the move.
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[i] = lines[i].replace(":", ":K♣", 1) if "K♣" not in lines[i] else lines[i] + " 0:7♠"
    with pytest.raises(RecordError):
        Game.from_record("\n".join(lines))


def test_record_of_unfinished_game_continues() -> None:
    g = Game(Rules(), seed=2)
    for _ in range(10):
        g.apply(g.legal_actions()[0])
    again = Game.from_record(g.record())
    assert snapshot(again)[4:] == snapshot(g)[4:] or again.hands == g.hands
    assert again.to_act == g.to_act and again.legal_actions() == g.legal_actions()


def test_observation_holds_what_the_seat_may_know() -> None:
    g = Game(Rules(players=3), seed=4)
    o = g.observation(1)
    assert isinstance(o, Observation)
    assert o.hand == g.hand(1) and o.trump == g.trump and o.talon_size == g.talon_size
    assert o.hand_sizes == (6, 6, 6)
    assert not o.known[0] and not o.known[2]
    assert (o.legal != ()) == (g.to_act == 1)
    with pytest.raises(AttributeError):
        o.hand = 0  # type: ignore[misc]


def test_six_players_on_36_cards_trump_is_the_last_card_dealt() -> None:
    """RULES.md 1: the deal used every card: the last card dealt names the trump and stays
    in the dealer's hand (seen by everyone)."""
    g = Game(Rules(players=6), seed=3, dealer=2)
    last = g.deck[-1]
    assert g.trump == last and g.talon_size == 0
    assert last in g.hand(2)
    assert last in g.observation(4).known[2]


def test_public_state_of_the_contract() -> None:
    """DESIGN.md's contract: hands[seat] iterates Cards, table pairs, trump, talon_size,
    attacker, defender, discard."""
    g = Game(Rules(), deck=DECK, dealer=1)
    assert [str(c) for c in g.hands[0]] == ["6♠", "6♥", "8♠", "8♥", "10♠", "10♥"]
    assert all(isinstance(c, Card) for c in g.hands[1])
    g.apply("6S")
    assert [(str(a), b) for a, b in g.table] == [("6♠", None)]
    g.apply("6S/7S")
    assert [(str(a), str(b)) for a, b in g.table] == [("6♠", "7♠")]
    assert [str(x) for x in g.legal_actions()] == ["6♥", "pass"]
    g.apply("pass")  # бито: the defender attacks next
    assert (g.attacker, g.defender, g.to_act) == (1, 0, 1)
    assert str(g.discard) == "6♠ 7♠" and g.table == []
    assert g.talon_size == 22 and len(g.hands[0]) == len(g.hands[1]) == 6


# -- issue 13: an API that refuses nonsense with a clear message and changes nothing --


def test_a_deck_may_be_a_list_of_card_texts() -> None:
    text = Game(Rules(), deck=DECK, dealer=1)
    listed = Game(Rules(), deck=DECK.split(), dealer=1)
    mixed = Game(
        Rules(), deck=[Card.parse(t) if i % 2 else t for i, t in enumerate(DECK.split())], dealer=1
    )
    commas = Game(Rules(), deck=DECK.replace(" ", ","), dealer=1)  # «6S,7S,…» reads too
    spaced = Game(Rules(), deck=DECK.replace(" ", ", "), dealer=1)
    assert text.deck == listed.deck == mixed.deck == commas.deck == spaced.deck
    assert text.hands == listed.hands == mixed.hands == commas.hands == spaced.hands


@pytest.mark.parametrize(
    ("kwargs", "error", "names"),
    [
        ({"rules": "perevodnoy"}, TypeError, "rules"),
        ({"deck": b"6S"}, TypeError, "deck"),
        ({"deck": 5}, TypeError, "deck"),
        ({"deck": [6]}, TypeError, "deck"),
        ({"deck": ["6S", "XX"]}, ValueError, "deck"),
        ({"dealer": "1"}, TypeError, "dealer"),
        ({"dealer": True}, TypeError, "dealer"),
        ({"dealer": -1}, ValueError, "dealer"),
        ({"leader": 1.5}, TypeError, "leader"),
        ({"leader": 2}, ValueError, "leader"),
        ({"seed": "abc"}, TypeError, "seed"),
        ({"seed": 1.0}, TypeError, "seed"),
    ],
)
def test_wrong_arguments_name_themselves(
    kwargs: dict[str, object], error: type, names: str
) -> None:
    args: dict[str, object] = {"rules": Rules(), **kwargs}
    rules = args.pop("rules")
    with pytest.raises(error, match=f"^{names}:"):
        Game(rules, **args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("reader", "error", "names"),
    [
        ("durak:Rules.parse", TypeError, "rules"),
        ("durak:Card.parse", TypeError, "card"),
        ("durak:CardSet.parse", TypeError, "cards"),
        ("durak:Game.from_record", TypeError, "record"),
        ("durak:Match.from_record", TypeError, "record"),
        ("durak:Action.parse", IllegalActionError, "not an action"),
    ],
)
def test_text_readers_refuse_what_is_not_text(reader: str, error: type, names: str) -> None:
    import durak

    cls, method = reader.split(":")[1].split(".")
    with pytest.raises(error, match=names):
        getattr(getattr(durak, cls), method)(None)


@pytest.mark.parametrize("junk", [None, 123, b"take", 1.5, ["take"]])
def test_apply_refuses_what_is_not_an_action_and_changes_nothing(junk: object) -> None:
    g = Game(Rules(), deck=DECK, dealer=1)
    g.apply("6S")
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="not an action"):
        g.apply(junk)  # type: ignore[arg-type]
    assert snapshot(g) == before
    g.apply("take")  # the game still plays on


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("podkidnoy(", "missing '\\)'"),
        ("podkidnoy(players=3", "missing '\\)'"),
        ("podkidnoy(players=3))", "unexpected '\\)'"),
        ("podkidnoy(players=3,players=4)", "players: given twice"),
        ("podkidnoy(pile_on=on,pile_on=off)", "pile_on: given twice"),
    ],
)
def test_malformed_rules_text_is_refused(text: str, why: str) -> None:
    with pytest.raises(RulesError, match=why):
        Rules.parse(text)


def test_an_action_naming_a_card_twice_is_refused() -> None:
    from durak.actions import Action

    for text in ("6S+6S", ">6H+6H", "6S+6♠"):
        with pytest.raises(IllegalActionError, match="twice"):
            Action.parse(text)


@pytest.mark.parametrize("text", ["", "   \n", "1. 0:6S 1:take", '[Rules "podkidnoy"]\n'])
def test_a_record_without_its_deal_is_refused(text: str) -> None:
    """Without a [Seed] or [Deck] header the game would be a fresh random deal."""
    with pytest.raises(RecordError, match="Seed"):
        Game.from_record(text)


def test_a_record_with_only_a_seed_or_only_a_deck_replays() -> None:
    g = Game(Rules(), seed=3)
    g.apply(g.legal_actions()[0])
    only_seed = f'[Seed "3"]\n\n{g.history[0]}\n'
    assert Game.from_record(only_seed).history == g.history
    deck = " ".join(c.ascii for c in g.deck)
    only_deck = f'[Deck "{deck}"]\n[Dealer "{g.dealer}"]\n\n{g.history[0]}\n'
    assert Game.from_record(only_deck).hands == g.hands


@pytest.mark.parametrize("seat", [-1, 2, 7, "0", None, 0.0])
def test_observation_and_hand_refuse_a_seat_out_of_range(seat: object) -> None:
    g = Game(Rules(), seed=1)
    before = snapshot(g)
    with pytest.raises((TypeError, ValueError), match="^seat:"):
        g.observation(seat)  # type: ignore[arg-type]
    with pytest.raises((TypeError, ValueError), match="^seat:"):
        g.hand(seat)  # type: ignore[arg-type]
    assert snapshot(g) == before


def test_match_is_exported_like_game() -> None:
    import durak
    from durak.match import Match

    assert durak.Match is Match and "Match" in durak.__all__


def test_public_values_are_of_one_kind() -> None:
    """Cards known in each hand are CardSets like the hands; phases are named the same in
    Game and Observation; the Observation has no -1 placeholders."""
    from durak import CardSet
    from durak.observation import LastAttack

    g = Game(Rules.preset("pagony", players=4), seed=5)
    while not g.is_over:
        obs = g.observation(g.to_act or 0)
        assert g.phase == obs.phase
        assert all(isinstance(k, CardSet) for k in g.known)
        assert all(isinstance(c, Card) for c in g.deck)
        assert isinstance(g.discard, CardSet)
        assert obs.last_attack is None or (
            isinstance(obs.last_attack, LastAttack)
            and obs.last_attack.seat >= 0
            and isinstance(obs.last_attack.cards, CardSet)
        )
        g.apply(g.legal_actions()[0])
    assert g.phase == Phase.OVER
    assert Game(Rules(), seed=5).observation(0).pagon == ()  # no pagony: no steps, not None
    for name in ("trump_card", "discard_mask", "phase_name"):
        assert not hasattr(g, name), f"{name}: one name per thing"


@pytest.mark.parametrize(
    ("rules", "moves", "bad", "why"),
    [
        (Rules(), [], "7S", "7♠: seat 0 does not hold 7♠"),
        (Rules(), [], "take", "take: take is not possible now; seat 0 must make an opening attack"),
        (
            Rules(opening="single"),
            [],
            "6S+6H",
            "6♠+6♥: the opening may not lay these cards (single, limit 5)",
        ),
        (Rules(), ["6S"], "6S/7H", "6♠/7♥: 7♥ does not beat 6♠ (trump ♠)"),
        (Rules(), ["6S"], "6H/7H", "6♥/7♥: 6♥ is not an unbeaten card on the table"),
        (
            Rules(),
            ["6S"],
            "pass",
            "pass: pass is not possible now; seat 1 must make a defence or take",
        ),
        (
            Rules(),
            ["6S", "6S/7S"],
            "8S",
            "8♠: only ranks on the table may be thrown in, at most 4 more",
        ),
        (
            Rules(),
            ["6S", "6S/7S"],
            "take",
            "take: take is not possible now; seat 0 must make a throw-in or pass",
        ),
        (
            Rules(),
            ["6S", "take"],
            "take",
            "take: take is not possible now; seat 0 must make a throw-in after «беру» or pass",
        ),
    ],
)
def test_a_refusal_says_exactly_why(rules: Rules, moves: list[str], bad: str, why: str) -> None:
    g = Game(rules, deck=DECK, dealer=1)
    for m in moves:
        g.apply(m)
    with pytest.raises(IllegalActionError) as err:
        g.apply(bad)
    assert str(err.value) == why


def test_nothing_is_legal_once_the_deal_is_over() -> None:
    g = Game(Rules(), seed=2)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert not g.is_legal(Action.parse("take"))
    with pytest.raises(IllegalActionError) as err:
        g.apply("take")
    assert str(err.value) == "the deal is over"
    assert isinstance(err.value, TurnError)  # no move for anyone: the one error for that
    with pytest.raises(IllegalActionError, match="^nothing to undo$"):
        Game(Rules(), seed=2).undo()


def test_observation_fields_say_what_the_game_says() -> None:
    """The observation is the only view bots, browsers and the determinizer get: each
    public field must follow the game (pagony with transfers: last_attack and passes)."""
    from durak import CardSet
    from durak.cards import deck_mask
    from durak.observation import LastAttack

    pagony = Rules.preset("pagony", players=4, transfer=True, transfer_first_bout=True)
    showing = Rules.preset("perevodnoy-proezdnoy", players=4, deck=52, transfer_first_bout=True)
    forced = pagony.replace(pagony_attack=False)  # forced takes of pagon cards
    setups = [(pagony, 0), (pagony, 1), (forced, 2), (forced, 3)] + [(showing, s) for s in range(4)]
    for rules, seed in setups:
        rng = random.Random(seed)
        deck = None
        if rules is showing:  # the trump 2♠ is card 0 of the deck: the lowest index
            cards = [Card.from_index(c) for c in range(52) if deck_mask(52) >> c & 1]
            rng.shuffle(cards)
            cards.remove(Card.parse("2S"))
            deck = cards[:24] + [Card.parse("2S")] + cards[24:]
        g = Game(rules, seed=seed, deck=deck)
        shows = 0
        while True:
            over = g.is_over
            for seat in range(4):
                o = g.observation(seat)
                assert (o.seat, o.rules, o.hand) == (seat, g.rules, g.hand(seat))
                assert o.table == tuple(g.table) and o.trump == g.trump
                assert (o.trump_suit, o.talon_size, o.discard) == (
                    g.trump_suit,
                    g.talon_size,
                    g.discard,
                )
                assert o.hand_sizes == tuple(len(h) for h in g.hands)
                assert o.known == tuple(g.hand(s) if s == seat else g.known[s] for s in range(4))
                assert (o.out, o.pogony, o.out_order) == (
                    tuple(g.out),
                    tuple(g.tally),
                    tuple(g.out_order),
                )
                assert (o.to_act, o.phase, o.bout, o.dealer) == (
                    g.to_act,
                    g.phase,
                    g.bout,
                    g.dealer,
                )
                who = (None, None, None) if over else (g.attacker, g.defender, g.first_attacker)
                assert (o.attacker, o.defender, o.first_attacker) == who
                assert o.legal == (tuple(g.legal_actions()) if seat == g.to_act else ())
                assert o.trump_under_talon == (g._bottom >= 0)
                assert (o.throwers, o.thrower_pos, o.cap) == (g._throwers, g._tpos, g.cap)
                assert o.shown_seats == tuple(s for s in range(4) if g._shown >> s & 1)
                assert o.last_laid == tuple(CardSet(m) for m in g._last_lay)
                assert (o.pagon, o.forced_take, o.passed) == (g._pagon, g._forced_take, g.passed)
                assert type(o.forced_take) is bool
                by, cards, onto = g._last_att
                assert o.last_attack == (LastAttack(by, CardSet(cards), onto) if by >= 0 else None)
            if over:
                break
            legal = g.legal_actions()
            a = next((x for x in legal if x.kind == Kind.SHOW), rng.choice(legal))
            shows += a.kind == Kind.SHOW
            g.apply(a)
        assert rules is not showing or shows > 0


# Fields a game rebuilt from a view cannot have: how the deal began (seed, deck, leader,
# history, the random lead), the talon's position in the dealt deck, caches.
_NOT_IN_A_VIEW = {
    "_origin",  # where a rebuilt game starts again (fresh, undo)
    "seed",
    "_order",
    "leader",
    "history",
    "_rng_lead",
    "_talon",
    "_tp",
    "_legal",
    "_known",
}


def _view_state(g: Game) -> dict[str, object]:
    """Every field of ``g`` a rebuilt game must share, the talon as its remaining cards
    and what every seat's hand is known to hold (the viewing seat's too: what the others
    have seen of it)."""
    from durak.game import FIELDS

    state: dict[str, object] = {
        f: v
        for f, v in zip([f for f in FIELDS if f != "_legal"], snapshot(g), strict=True)
        if f not in _NOT_IN_A_VIEW
    }
    state["talon"] = tuple(g._talon[g._tp :])
    state["known"] = tuple(g._known)
    return state


def test_a_game_rebuilt_from_a_view_with_the_true_cards_is_the_game() -> None:
    """determinize.sample's rebuild (Game.from_view): given the real hidden cards, the
    game it makes from a seat's view holds every field the real game holds, and plays
    on to the same end (throw-in ranks, pagony steps and passes, shows, teams, forced
    takes). It has no deal of its own: seed 0, no deck, no history, the bout's first
    attacker as its leader. What the other seats know of the viewing seat's hand (cards
    they saw it take) is kept: every seat's observation of it is the real one."""
    from durak import CardSet

    pagony = Rules.preset("pagony", players=4, teams="2x2", transfer=True, transfer_first_bout=True)
    configs = [  # rules, seed (also of the moves), pagon steps; seed 6 passes pagony
        (pagony, 6, [3, 5]),
        (Rules.preset("pagony", players=3, pagony_attack=False), 1, [2, 0, 4]),
        (
            Rules.preset("perevodnoy-proezdnoy", players=3, deck=52, transfer_first_bout=True),
            2,
            None,
        ),
        (
            Rules.preset("podkidnoy", players=4, throw_in="opening_rank", throwers="neighbours"),
            3,
            None,
        ),
        (Rules.preset("prostoy", players=3), 4, None),
        (Rules.preset("pogonny", players=5, trump_exchange=True), 5, None),
        (Rules(players=2, action_limit=300), 6, None),
    ]
    passes = shows = known_own = 0
    for rules, seed, pagon in configs:
        rng = random.Random(seed)
        g = Game(rules, seed=seed, pagon=pagon)
        step = 0
        while not g.is_over:
            seat = step % rules.players
            hands = [int(CardSet(h)) for h in g.hands]
            d = Game.from_view(g.observation(seat), hands, g.undrawn())
            assert _view_state(d) == _view_state(g)
            assert d.legal_actions() == g.legal_actions()
            assert (d.seed, d.deck, d.history) == (0, (), [])
            assert d.leader == g.first_attacker and d.known == g.known
            assert [d.observation(s) for s in range(rules.players)] == [
                g.observation(s) for s in range(rules.players)
            ]
            known_own += bool(g.observation(seat).known_own)
            passes += bool(g.passed)
            shows += bool(g._shown >> 1)
            if step % 5 == 0:
                moves = random.Random(step)
                a, b = g.clone(), d
                # (with an action limit the rebuilt game counts its actions afresh)
                while not a.is_over and not b.is_over:
                    move = moves.choice(a.legal_actions())
                    a.apply(move)
                    b.apply(move)
                assert b.outcome == a.outcome and _view_state(b) == _view_state(a)
            legal = g.legal_actions()
            g.apply(next((x for x in legal if x.kind == Kind.SHOW), rng.choice(legal)))
            step += 1
    assert passes and shows and known_own


def test_a_truncated_deal_ends_as_a_draw_with_its_losers() -> None:
    """RULES.md 5: when ``action_limit`` actions have been made the deal ends there, a
    draw with no durak, nobody to act, the seats still holding cards its losers."""
    from durak.game import Outcome

    g = Game(Rules(players=3, action_limit=4), deck=DECK + " 6D 7D 8D 9D 10D", dealer=2)
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    assert len(g.history) == 4 and g.to_act is None and g.phase == Phase.OVER
    assert g.outcome == Outcome(
        durak=None, draw=True, truncated=True, out_order=(), tally=(0, 0, 0), losers=(0, 1, 2)
    )
    assert type(g.outcome.out_order) is tuple and type(g.outcome.tally) is tuple
    assert type(g.outcome.losers) is tuple and str(g.outcome) == "truncated"


def test_an_outcome_pickles() -> None:
    """Outcomes cross process boundaries (the arena's workers): pickling keeps them."""
    import pickle

    g = Game(Rules(), seed=4)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert g.outcome is not None
    assert pickle.loads(pickle.dumps(g.outcome)) == g.outcome


def test_a_refused_transfer_says_what_a_transfer_needs() -> None:
    """RULES.md 4: a transfer the next defender could not face is refused, saying why."""
    g = Game(
        Rules.preset("perevodnoy", hand_size=3, transfer_first_bout=True),
        deck="6D 8H 8S 8C 10H 7S AD",
        dealer=1,
    )
    g.apply("8S")
    with pytest.raises(IllegalActionError) as e:
        g.apply(">8H+8C")
    assert str(e.value) == (
        ">8♥+8♣: a transfer needs cards of the attacked rank, and the next "
        "defender must hold at least as many cards as will be on the table"
    )


def test_undo_returns_the_action_taken_back() -> None:
    g = Game(Rules(), seed=3)
    made = []
    for _ in range(3):
        made.append(g.legal_actions()[-1])
        g.apply(made[-1])
    assert [g.undo(), g.undo()] == made[:0:-1] and g.history == made[:1]


def test_a_clone_of_a_finished_deal_keeps_its_outcome() -> None:
    g = Game(Rules(players=3), seed=8)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    c = g.clone()
    assert c.outcome == g.outcome and c.outcome is not None and c.is_over


def test_more_refusals_name_the_argument_exactly() -> None:
    """Bad input gets an error that names the argument and what it wanted."""
    from durak.match import Match

    cases = [
        (lambda: Game(Rules(), seed=1).observation("1"), "seat: a seat number, not str"),
        (lambda: Game(Rules(), seed=1, pagon=[1, 0]), "pagon: only for scoring=pagony"),
        (
            lambda: Game(Rules.preset("pagony"), seed=1, pagon=[9, 0]),
            "pagon: one step 0..8 per side (2 sides)",
        ),
        (
            lambda: Rules(players=4, teams="2X2"),  # type: ignore[arg-type]
            "teams: '2X2' is not one of none, 2x2, 3x3",
        ),
        (lambda: Match(Rules(), names=["a"]), "names: one per player (2)"),
        (lambda: Game(Rules(), deck=5), "deck: text or a list of cards, not int"),  # type: ignore[arg-type]
        (
            lambda: Game("perevodnoy"),
            "rules: a durak.Rules (Rules.parse(text) reads text), not str",
        ),
        (lambda: Game(Rules(), seed="abc"), "seed: a whole number, not str"),
        (lambda: Game(Rules(), seed=1, dealer=5), "dealer: a seat 0..1, not 5"),
        (lambda: Game(Rules(players=3), seed=1, leader=-1), "leader: a seat 0..2, not -1"),
        (
            lambda: Game(Rules(), deck=["6S", 6.0]),  # type: ignore[list-item]
            "deck: cards or card texts, not float",
        ),
    ]
    for make, message in cases:
        with pytest.raises((TypeError, ValueError)) as e:
            make()
        assert str(e.value) == message


def test_a_new_deal_has_no_last_attack_and_a_match_without_seed_draws_one() -> None:
    from durak import CardSet
    from durak.match import Match

    assert Game(Rules(players=3), seed=2).observation(1).last_attack is None
    assert Game(Rules(players=3), seed=2).observation(1).last_laid == (CardSet(),) * 3
    m = Match(Rules())
    assert isinstance(m.seed, int) and Match.from_record(m.record()).seed == m.seed


def test_a_repeated_card_in_the_deck_is_refused_as_a_repeat() -> None:
    """API: a deck naming a card twice is refused, and the message says so."""
    with pytest.raises(ValueError) as e:
        Game(Rules(), deck="6S 7S 6S")
    assert str(e.value) == "deck: cards must be of the 36-card deck, each once (a card repeats)"
    with pytest.raises(ValueError) as e:
        Game(Rules(deck=24), deck="6S 9S")
    assert str(e.value) == "deck: cards must be of the 24-card deck, each once (6♠ is not)"


def test_an_outcome_reads_as_text() -> None:
    """API: an outcome's text (records and the replay show it)."""
    from durak.game import Outcome

    assert str(Outcome(None, True, (0, 1), truncated=True)) == "truncated"
    assert str(Outcome(None, True, (0, 1))) == "draw"
    assert str(Outcome(1, False, (0,))) == "durak 1"
    assert str(Outcome(1, False, (0,), pogony=2)) == "durak 1 pogony 2"


def test_fresh_is_the_same_deal_at_its_start_and_undo_keeps_it() -> None:
    """API (fresh, undo): a deal given by an explicit deck and pagon steps starts again
    with that deck and those steps — not the seed's shuffle, not the bottom of the
    ladder — so undo, which replays from the start, gives back the position before."""
    rules = Rules.preset("pagony", players=2)
    g = Game(rules, seed=4, deck=DECK, dealer=1, leader=0, pagon=[2, 1])
    start = snapshot(g)
    before = []
    for _ in range(3):
        before.append(snapshot(g))
        g.apply(g.legal_actions()[0])
    f = g.fresh()
    assert snapshot(f) == start and f.observation(0).pagon == (2, 1)
    assert str(f.hand(0)) == "6♠ 6♥ 8♠ 8♥ 10♠ 10♥" and str(f.trump) == "Q♠"
    g.undo()
    assert snapshot(g) == before[-1]


def test_bouts_are_counted_one_by_one() -> None:
    """RULES.md 3: a deal is a series of bouts; the bout number (``bout``, 0 in the first
    bout) rises by one as each bout ends, and a record numbers its lines by it."""
    g = Game(Rules(), deck=DECK, dealer=1)
    seen = [g.bout]
    while not g.is_over:
        g.apply(g.legal_actions()[0])
        if g.bout != seen[-1]:
            seen.append(g.bout)
    assert len(seen) > 3 and seen == list(range(len(seen)))
    numbers = [line.split(".")[0] for line in g.record().splitlines() if line[:1].isdigit()]
    assert numbers == [str(b + 1) for b in seen[:-1]]  # (the deal ended with the last bout)


def test_each_bout_starts_with_the_first_thrower() -> None:
    """Observation: ``thrower_pos`` is a position in ``throwers`` (the order of the right
    to throw in); every bout starts at the first of them, the opening attacker."""
    g = Game(Rules(players=3), deck=DECK, dealer=2)
    starts = 0
    while not g.is_over:
        o = g.observation(0)
        assert isinstance(o.thrower_pos, int)
        if o.phase == Phase.ATTACK and not o.table:
            assert o.thrower_pos == 0 and o.throwers[0] == o.attacker
            starts += 1
        g.apply(g.legal_actions()[0])
    assert starts > 3


def test_a_game_without_rules_or_seed_is_a_new_podkidnoy_deal() -> None:
    """API: ``Game()`` deals podkidnoy (RULES.md 8, the default preset), and a game
    without a seed draws one: forty such games are forty different deals."""
    assert Game().rules == Rules() == Rules.preset("podkidnoy")
    assert len({Game().seed for _ in range(40)}) == 40


def test_a_kept_record_naming_only_its_seed_replays() -> None:
    """Records: the seed alone fixes the deal — the shuffle and the lot for the dealer —
    so a record kept with only its seed replays the same game."""
    kept = '[Rules "podkidnoy(players=6)"]\n[Seed "2026"]\n\n1. 4:6♣ 5:take 0:6♠\n'
    g = Game.from_record(kept)
    assert (g.dealer, g.leader, [str(a) for a in g.history]) == (0, 4, ["6♣", "take", "6♠"])
    assert " ".join(str(c) for c in g.deck[:4]) == "K♣ 8♦ 9♠ Q♦"
    kept = '[Rules "podkidnoy(players=6)"]\n[Seed "2021"]\n\n1. 5:6♠ 0:6♠/J♥ 5:6♥\n'
    g = Game.from_record(kept)
    assert (g.dealer, g.leader, len(g.history)) == (3, 5, 3)


def test_cards_from_outside_the_deck_are_all_named() -> None:
    with pytest.raises(ValueError) as e:
        Game(Rules(deck=24), deck="6S 7S 9S")
    assert str(e.value) == "deck: cards must be of the 24-card deck, each once (6♠ 7♠ is not)"


@pytest.mark.parametrize("preset", ["podkidnoy", "perevodnoy-proezdnoy", "pagony", "pogonny"])
def test_the_fast_path_agrees_with_the_checked_path(preset: str) -> None:
    """The declared fast path (moves, play, state, view, position_key) gives what the
    public, checked path gives: the same moves, the same games, the same state."""
    from durak.game import STATE_FIELDS

    rng = random.Random(preset)
    for seed in range(6):
        rules = Rules.preset(preset, players=2 + seed % 3)
        g, h = Game(rules, seed=seed), Game(rules, seed=seed)
        while not g.is_over:
            assert g.moves() == g.legal_actions() == h.legal_actions()
            assert g.position_key() == h.position_key() == g.clone().position_key()
            st = dict(zip(STATE_FIELDS, g.state(), strict=True))
            for seat in range(rules.players):
                v = g.view(seat)
                assert v.hand == int(g.hand(seat)) == st["hands"][seat]
                assert v.table == st["table"] and v.phase == st["phase"]
                assert v.talon_size == st["talon_size"] == g.talon_size
                assert v.unseen == int(g.observation(seat).unseen)
            a = rng.choice(g.moves())
            g.play(a)
            h.apply(a)
        assert g.outcome == h.outcome and g.history == h.history
