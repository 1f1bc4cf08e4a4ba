"""Rules, presets and their text form (issue 2, point 3)."""

import dataclasses

import pytest

from durak import PRESETS, Rules, RulesError


def test_defaults_are_the_podkidnoy_preset() -> None:
    r = Rules()
    assert r == Rules.preset("podkidnoy")
    assert (r.opening, r.throw_in, r.throwers) == ("same_rank", "table_ranks", "all")
    assert r.pile_on
    assert (r.bout_limit, r.first_bout_limit, r.transfer, r.draws) == (6, 5, False, True)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_round_trips(name: str) -> None:
    for players in range(2, 7):
        if name == "dvukhkozyrny" and players > 4:  # (one trump card a seat: 2 to 4)
            with pytest.raises(RulesError, match="trump=per_player is for 2 to 4"):
                Rules.preset(name, players=players)
            continue
        r = Rules.preset(name, players=players)
        assert Rules.parse(str(r)) == r


def test_presets_set_what_section_8_says() -> None:
    assert Rules.preset("perevodnoy").transfer
    p = Rules.preset("perevodnoy-proezdnoy")
    assert p.transfer and p.transfer_by_showing
    s = Rules.preset("prostoy")
    assert (s.opening, s.throw_in) == ("one_or_two", "none")
    assert Rules.preset("pogonny").scoring == "pogonny"
    assert Rules.preset("pagony", players=4).teams == "2x2"
    # RULES.md 8: «any preset takes overrides», teams too: four players each for himself
    assert Rules.preset("pagony", players=4, teams="none").teams == "none"
    assert Rules.parse("pagony(players=4,teams=none)").teams == "none"
    # issue 36 (docs/rules.md 10)
    assert Rules.preset("beskozyrny") == Rules(trump="none")
    assert Rules.preset("piki-pikami") == Rules(trump="diamonds", spades_by_spades=True)


def test_the_variant_options_read_and_write_their_text() -> None:
    r = Rules.parse("perevodnoy(players=3,trump=none)")
    assert (r.transfer, r.trump, str(r)) == (True, "none", "perevodnoy(players=3,trump=none)")
    r = Rules.parse("podkidnoy(spades_by_spades=on,trump=clubs)")
    assert str(r) == "piki-pikami(trump=clubs)"  # (the nearest preset)
    assert Rules.parse(str(r)) == r
    assert str(Rules.preset("beskozyrny", players=4)) == "beskozyrny(players=4)"
    assert str(Rules.preset("piki-pikami", deck=52)) == "piki-pikami(deck=52)"
    # the default text form is unchanged: records written before issue 36 still read
    assert str(Rules()) == "podkidnoy()"
    with pytest.raises(RulesError, match="^trump_exchange"):
        Rules.parse("beskozyrny(trump_exchange=on)")
    with pytest.raises(RulesError, match="^transfer_by_showing"):
        Rules.parse("perevodnoy-proezdnoy(trump=none)")


def test_text_form_with_overrides() -> None:
    r = Rules.preset("perevodnoy", players=4, deck=52, teams="2x2")
    assert str(r) == "perevodnoy(players=4,deck=52,teams=2x2)"
    r2 = Rules.parse("podkidnoy(players=3,pile_on=off,bout_limit=5,throwers=neighbours)")
    assert (r2.players, r2.pile_on, r2.bout_limit, r2.throwers) == (3, False, 5, "neighbours")
    assert Rules.parse(str(r2)) == r2


def test_random_option_mixes_round_trip() -> None:
    import random

    rng = random.Random(5)
    fields = dataclasses.fields(Rules)
    made = 0
    while made < 300:
        kw = {}
        for f in fields:
            if rng.random() < 0.3:
                from durak.rules import CHOICES

                if f.name in CHOICES:
                    kw[f.name] = rng.choice(CHOICES[f.name])
                elif isinstance(f.default, bool):
                    kw[f.name] = rng.random() < 0.5
                elif f.name == "players":
                    kw[f.name] = rng.randint(2, 6)
                elif f.name == "deck":
                    kw[f.name] = rng.choice([24, 36, 52])
                else:
                    kw[f.name] = rng.randint(1, 7)
        try:
            r = Rules(**kw)
        except RulesError:
            continue
        made += 1
        assert Rules.parse(str(r)) == r, str(r)


@pytest.mark.parametrize(
    ("kwargs", "option"),
    [
        ({"teams": "3x3", "players": 4}, "teams"),
        ({"teams": "2x2", "players": 3}, "teams"),
        ({"players": 6, "deck": 24}, "hand_size"),
        ({"players": 7}, "players"),
        ({"deck": 32}, "deck"),
        ({"opening": "any"}, "opening"),
        ({"bout_limit": 0}, "bout_limit"),
        ({"transfer_by_showing": True}, "transfer_by_showing"),
        ({"colour": "red"}, "colour"),
        ({"pile_on": "maybe"}, "pile_on"),
        # issue 36, docs/rules.md 10 (research NT-5): these need a trump
        ({"trump": "none", "trump_exchange": True}, "trump_exchange"),
        ({"trump": "none", "transfer": True, "transfer_by_showing": True}, "transfer_by_showing"),
        ({"trump": "hearts-ish"}, "trump"),
        ({"spades_by_spades": "maybe"}, "spades_by_spades"),
    ],
)
def test_impossible_combinations_name_the_option(kwargs: dict[str, object], option: str) -> None:
    with pytest.raises(RulesError, match=f"^{option}"):
        Rules.preset("podkidnoy", **kwargs)


def test_parse_errors_are_clear() -> None:
    with pytest.raises(RulesError) as e:
        Rules.parse("chess()")
    assert str(e.value) == (
        "preset: no preset 'chess'; one of podkidnoy, perevodnoy, "
        "perevodnoy-proezdnoy, prostoy, pogonny, pagony, beskozyrny, piki-pikami, shulerskiy, "
        "dvukhkozyrny"
    )
    with pytest.raises(RulesError, match="players"):
        Rules.parse("podkidnoy(players=many)")
    with pytest.raises(RulesError, match="speed"):
        Rules.parse("podkidnoy(speed=3)")
    with pytest.raises(RulesError, match="option=value"):
        Rules.parse("podkidnoy(players)")
    # the option is the name before the first '=': the rest is its (bad) value
    with pytest.raises(RulesError) as e:
        Rules.parse("podkidnoy(players=3=4)")
    assert str(e.value) == "players: expected a whole number, got '3=4'"


def test_five_players_times_five_cards_do_not_fit_24_cards() -> None:
    """RULES.md 1: everyone gets hand_size cards; 5 x 5 = 25 cards are more than a
    24-card deck has, while 4 x 6 = 24 fit exactly (every card dealt)."""
    with pytest.raises(RulesError, match="hand_size"):
        Rules.parse("podkidnoy(players=5,deck=24,hand_size=5)")
    with pytest.raises(RulesError, match="hand_size"):
        Rules(players=5, deck=24, hand_size=5)
    assert Rules(players=4, deck=24, hand_size=6).players == 4
    assert Rules(players=6, deck=24, hand_size=4).hand_size == 4


@pytest.mark.parametrize("option", ["first_bout_limit", "bout_limit", "hand_size"])
def test_a_limit_of_zero_is_refused(option: str) -> None:
    """RULES.md 3: a limit on the cards of a bout must let at least one card be laid;
    first_bout_limit=0 would leave the first attacker no legal move."""
    with pytest.raises(RulesError, match=f"{option}: at least 1"):
        Rules.parse(f"podkidnoy({option}=0)")
    assert getattr(Rules.parse(f"podkidnoy({option}=1)"), option) == 1


def test_rules_replace_changes_only_what_it_names() -> None:
    r = Rules.preset("perevodnoy", players=3)
    assert r.replace(players=4) == Rules.preset("perevodnoy", players=4)
    assert r.replace() == r


def test_with_action_limit_turns_the_limit_on_only_when_off() -> None:
    """RULES.md 5: deals only programs play get an action limit (BOT_ACTION_LIMIT unless
    given); a limit already set is kept, and so are the other options."""
    from durak.rules import BOT_ACTION_LIMIT

    base = Rules.preset("perevodnoy", players=3)
    assert base.with_action_limit() == base.replace(action_limit=BOT_ACTION_LIMIT)
    assert base.with_action_limit(50) == base.replace(action_limit=50)
    limited = base.replace(action_limit=7)
    assert limited.with_action_limit(50) is limited and limited.with_action_limit() is limited
    with pytest.raises(RulesError) as e:
        base.replace(action_limit=-1)
    assert str(e.value) == "action_limit: 0 (off) or more, not -1"


def test_the_text_form_lists_players_deck_teams_first_and_flags_as_on_off() -> None:
    """RULES.md named options: the text form is the preset, then players, deck and teams,
    then the other options in their order, with on/off for flags."""
    rules = Rules(players=4, teams="2x2", hand_size=5, pile_on=False, transfer=True)
    assert str(rules) == "perevodnoy(players=4,teams=2x2,hand_size=5,pile_on=off)"
    assert str(Rules(trump_exchange=True)) == "podkidnoy(trump_exchange=on)"
    assert Rules.parse(str(rules)) == rules


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("on", True),
        ("TRUE", True),
        ("Yes", True),
        ("1", True),
        ("off", False),
        ("false", False),
        ("NO", False),
        ("0", False),
    ],
)
def test_flags_read_every_spelling_of_on_and_off(word: str, value: bool) -> None:
    """RULES.md named options: a flag reads on/true/yes/1 and off/false/no/0, any case."""
    assert Rules.parse(f"podkidnoy(pile_on={word})").pile_on is value


def test_a_flag_that_is_neither_on_nor_off_is_named() -> None:
    with pytest.raises(RulesError) as e:
        Rules.parse("podkidnoy(pile_on=maybe)")
    assert str(e.value) == "pile_on: expected on or off, got 'maybe'"


def test_the_default_preset_and_the_side_of_a_seat() -> None:
    """RULES.md presets: podkidnoy is the default; RULES.md 6: without teams every seat is
    its own side, with teams the sides are the even and the odd seats."""
    assert Rules.preset() == Rules()
    assert [Rules(players=3).team_of(s) for s in range(3)] == [0, 1, 2]
    assert [Rules(players=4, teams="2x2").team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_rules_text_without_a_name_is_podkidnoy_and_wrong_types_are_named() -> None:
    """Notation: «(players=3)» names no game: podkidnoy; a non-text is refused by type."""
    assert Rules.parse("(players=3)") == Rules.preset("podkidnoy", players=3)
    assert Rules.parse("  ") == Rules.preset("podkidnoy")
    with pytest.raises(TypeError) as e:
        Rules.parse(5)
    assert str(e.value) == "rules: text such as 'podkidnoy(players=3)', not int"


@pytest.mark.parametrize("value", [True, "3", 2.0])
def test_a_count_that_is_not_a_whole_number_is_refused_by_name(value: object) -> None:
    """API: a count option (players, deck, hand size, limits) takes a whole number only:
    not a flag, not text, not a float."""
    with pytest.raises(RulesError) as e:
        Rules(players=value)  # type: ignore[arg-type]
    assert str(e.value) == f"players: expected a whole number, got {value!r}"


# -- issue 30: engine bugs found through the public API --------------------------------


def test_is_legal_takes_what_apply_takes() -> None:
    """Bug: is_legal("take") refused text that apply accepts."""
    from durak import Game

    g = Game(Rules(), seed=4)
    g.apply(g.legal_actions()[0])
    assert g.is_legal("take") and g.is_legal("беру") and g.is_legal(g.legal_actions()[0])
    assert not g.is_legal("pass") and not g.is_legal("no such move") and not g.is_legal(7)
    g.apply("take")  # what is_legal accepted, apply plays


def test_pogonny_with_teams_names_one_losing_side() -> None:
    """Bug: погонный with teams: outcome.losers and outcome.losing_team named different
    sides in about a quarter of random deals."""
    import random

    from durak import Game

    for players, teams in ((4, "2x2"), (6, "3x3")):
        rules = Rules.preset("pogonny", players=players, teams=teams)
        for seed in range(40):
            g, rng = Game(rules, seed=seed), random.Random(seed)
            while not g.is_over:
                g.apply(rng.choice(g.legal_actions()))
            o = g.outcome
            assert o is not None and o.durak is not None and o.losing_team == o.durak % 2
            assert o.durak in o.losers
            assert {rules.team_of(s) for s in o.losers} == {o.losing_team}
            # the durak scored the fewest pogony
            assert o.tally[o.durak] == min(o.tally)


def test_a_transfer_refused_for_a_small_hand_says_why() -> None:
    """Bug: a transfer refused because the next hand is too small said only "transfer is
    not possible now"."""
    from durak import Game, IllegalActionError

    g = Game(Rules.preset("perevodnoy", transfer_first_bout=True), seed=26)
    history = "A♣ A♣/K♠ pass 8♦ take 8♣ 6♦ take 6♠ Q♥+Q♦ take J♦ J♦/7♠ pass 8♥+8♣ take"
    history += " 8♦ 6♠ 6♠/J♠ 6♦ 6♦/8♦ 8♥ take pass 7♦+7♣ 7♦/Q♦ 7♣/K♣ K♥ take 10♠+10♦+10♣"
    for a in history.split():
        g.apply(a)
    before = g.record()
    with pytest.raises(IllegalActionError) as e:
        g.apply(">10♥")
    assert str(e.value) == (
        ">10♥: seat 1 would defend next and holds 3 cards, "
        "fewer than the 4 attacking cards the table would then hold"
    )
    assert g.record() == before  # refused, nothing lost


def test_a_transfer_refused_for_other_reasons_says_which() -> None:
    from durak import Game, IllegalActionError

    DECK = "6S 6H 7S 7H 8S 8H 9S 9H 10S 10H JS JH QS"  # seat 0: spades, seat 1: hearts

    g = Game(Rules(), deck=DECK, dealer=1)
    g.apply("6♠")
    with pytest.raises(IllegalActionError, match="transfers are off in these rules"):
        g.apply(">6♥")
    g = Game(Rules.preset("perevodnoy"), deck=DECK, dealer=1)
    g.apply("6♠")
    with pytest.raises(IllegalActionError, match="no transfer in the first bout"):
        g.apply(">6♥")


def test_the_seed_readings_docs_rules_md_chose() -> None:
    """docs/rules.md, "Where the seed reads two ways": line 35 (a thrower other than the
    attacker may lay several cards at once) and line 59 (a trump beats at any time, even
    beside a higher card of the suit), checked over random 3-player deals."""
    import random

    from durak import Game, Kind, Phase

    several = trump_anyway = False
    for seed in range(200):
        g, rng = Game(Rules(players=3), seed=seed), random.Random(seed)
        while not g.is_over and not (several and trump_anyway):
            legal = g.legal_actions()
            seat = g.to_act
            assert seat is not None
            if g.phase == Phase.THROW_IN and seat != g.attacker:
                several |= any(a.kind == Kind.ATTACK and len(a.cards) > 1 for a in legal)
            hand = g.hand(seat)
            for a in legal:
                t = a.target
                if a.kind == Kind.DEFEND and t is not None and t.suit != g.trump.suit:
                    higher = any(c.suit == t.suit and c.rank > t.rank for c in hand)
                    trump_anyway |= higher and a.cards[0].suit == g.trump.suit
            g.apply(rng.choice(legal))
    assert several and trump_anyway
