"""Issue 30, one voice: every error the package raises is a DurakError, and every bad
argument to Match, Game and Rules is refused by name, so that whatever is accepted
replays from its record. Each test names the bug it pins."""

from __future__ import annotations

from typing import Any

import pytest

import durak
from durak import (
    ArgumentError,
    ArgumentTypeError,
    DurakError,
    Game,
    IllegalActionError,
    Kind,
    Match,
    Phase,
    RecordError,
    Rules,
    RulesError,
)
from durak.bots import make as make_bot
from durak.match import record_deals


def play_out(g: Game) -> None:
    while not g.is_over:
        g.apply(g.legal_actions()[0])


def test_every_error_class_is_a_durak_error_and_keeps_its_builtin_base() -> None:
    for cls in (RulesError, IllegalActionError, RecordError, ArgumentError, durak.StateError):
        assert issubclass(cls, DurakError) and issubclass(cls, ValueError)
    assert issubclass(ArgumentTypeError, DurakError) and issubclass(ArgumentTypeError, TypeError)
    # the old homes still name the same classes
    from durak.actions import IllegalActionError as from_actions
    from durak.record import RecordError as from_record
    from durak.rules import RulesError as from_rules

    assert (from_actions, from_record, from_rules) == (IllegalActionError, RecordError, RulesError)


@pytest.mark.parametrize(
    "call",
    [
        lambda: Rules(players=9),
        lambda: Rules.parse(5),
        lambda: durak.Card.parse("11X"),
        lambda: durak.CardSet.parse("6S 6S"),
        lambda: durak.Action.parse("6S+7S"),
        lambda: Game().apply("take"),
        lambda: Game.from_record("[Seed 1]"),
        lambda: make_bot("no-such-bot"),
        lambda: make_bot(7),
        lambda: make_bot("ismcts:iterations"),
        lambda: Match(Rules()).next_deal(),
    ],
)
def test_the_package_raises_durak_errors(call: Any) -> None:
    with pytest.raises(DurakError):
        call()


def test_match_accepts_a_preset_name_or_rules_text() -> None:
    """Bug: Match("podkidnoy") failed with AttributeError."""
    assert Match("podkidnoy", seed=1).rules == Rules()
    m = Match("perevodnoy(players=3)", seed=2, deals=2)
    assert m.rules == Rules.preset("perevodnoy", players=3)
    with pytest.raises(RulesError, match="preset: no preset 'podkidnoi'"):
        Match("podkidnoi")
    with pytest.raises(ArgumentTypeError, match=r"^rules: .* not int"):
        Match(3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        # Bug: deals="3" / target="2" gave a comparison TypeError naming no argument.
        ({"deals": "3"}, ArgumentTypeError, "deals: a whole number, not str"),
        ({"target": "2"}, ArgumentTypeError, "target: a whole number, not str"),
        # Bug: deals=2.5 and names="ab" were accepted.
        ({"deals": 2.5}, ArgumentTypeError, "deals: a whole number, not float"),
        ({"deals": True}, ArgumentTypeError, "deals: a whole number, not bool"),
        ({"target": 0}, ArgumentError, "target: at least 1, not 0"),
        ({"names": "ab"}, ArgumentTypeError, "names: a list of 2 names, one per seat, not str"),
        ({"names": ["a", 2]}, ArgumentTypeError, "names[1]: text, not int"),
        ({"names": ["a"]}, ArgumentError, "names: one per player (2)"),
        # Bug: seed="abc" was accepted, and its record did not replay.
        ({"seed": "abc"}, ArgumentTypeError, "seed: a whole number, not str"),
        ({"seed": 1.0}, ArgumentTypeError, "seed: a whole number, not float"),
    ],
)
def test_match_refuses_bad_arguments_by_name(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as e:
        Match(Rules(), **kwargs)
    assert str(e.value).startswith(message)


def test_a_match_that_is_accepted_replays_from_its_record() -> None:
    m = Match(Rules(players=3), seed=12345, deals=2, names=("Ann", "Bob", "Cy"))
    while not m.is_over:
        play_out(m.game)
        m.next_deal()
    again = Match.from_record(m.record())
    assert again.tally == m.tally and again.names == ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize(
    ("pagon", "error", "message"),
    [
        # Bug: pagon=["0", "0"] failed without naming pagon.
        (["0", "0"], ArgumentTypeError, "pagon[0]: a whole number 0..8, not str"),
        # Bug: pagon=[True, 0] was accepted, then its record did not replay.
        ([True, 0], ArgumentTypeError, "pagon[0]: a whole number 0..8, not bool"),
        ([0, 1.5], ArgumentTypeError, "pagon[1]: a whole number 0..8, not float"),
        ("00", ArgumentTypeError, "pagon: a list of whole numbers, not str"),
        ([0], ArgumentError, "pagon: one step 0..8 per side (2 sides)"),
        ([0, 9], ArgumentError, "pagon: one step 0..8 per side (2 sides)"),
    ],
)
def test_game_refuses_bad_pagon_steps_by_name(
    pagon: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as e:
        Game(Rules.preset("pagony"), seed=1, pagon=pagon)
    assert str(e.value) == message


def test_game_pagon_steps_that_are_accepted_replay() -> None:
    g = Game(Rules.preset("pagony"), seed=5, pagon=(3, 1))
    play_out(g)
    again = Game.from_record(g.record())
    assert again.history == g.history and again.outcome == g.outcome


def test_game_refuses_bad_seats_and_seeds_by_name() -> None:
    with pytest.raises(ArgumentTypeError, match="^dealer: a seat number, not bool"):
        Game(Rules(), seed=1, dealer=True)
    with pytest.raises(ArgumentError, match="^leader: a seat 0..1, not 2"):
        Game(Rules(), seed=1, leader=2)
    with pytest.raises(ArgumentTypeError, match="^seed: a whole number, not str"):
        Game(Rules(), seed="7")


def test_a_name_with_a_line_break_is_escaped_in_a_game_record() -> None:
    """Bug: a player name with a line break made a record from_record could not read."""
    g = Game(Rules(), seed=3)
    play_out(g)
    names = ["Ann\nMarie", 'Bob "the\tbear" \\u0041']
    text = g.record(names=names)
    assert len(text.splitlines()[0:8]) == 8 and "Ann\nMarie" not in text
    deals, read = record_deals(text)
    assert read == names and deals[0].history == g.history


def test_a_match_refuses_a_name_with_a_line_break() -> None:
    """Bug: a player name with a line break made a record from_record could not read."""
    with pytest.raises(ArgumentError, match=r"^names\[0\]: 'a\\nb' holds '\\n'"):
        Match(Rules(), names=["a\nb", "c"])


def test_kind_and_phase_are_the_one_public_form() -> None:
    g = Game(Rules(), seed=4)
    assert g.phase is Phase.ATTACK and g.observation(g.to_act or 0).phase is Phase.ATTACK
    a = g.legal_actions()[0]
    assert a.kind is Kind.ATTACK and str(a.kind) == "attack" and a.kind == 0
    assert [str(c) for c in a.cards] == [str(a.cards[0])] and a.target is None
    g.apply(a)
    d = next(x for x in g.legal_actions() if x.kind == Kind.DEFEND)
    assert d.target is not None and str(d) == f"{d.target}/{d.cards[0]}"
    assert f"{g.phase}" == "defend" and Phase.parse("pile_on") is Phase.PILE_ON
    assert not hasattr(a, "k") and not hasattr(a, "mask") and not hasattr(a, "t")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Rules.preset(["x"]), "preset: a name such as 'podkidnoy', not list"),
        (lambda: Rules().replace(colour=1), "colour: no such option"),
        (lambda: durak.Card.from_index(52), "index: a card index 0..51, not 52"),
        (lambda: durak.Action("attack", ["6S"]), "cards: Cards (Card.parse reads text)"),
        (lambda: durak.Action.from_index("3", Rules()), "index: a whole number, not str"),
        (lambda: durak.Action.parse("6S").index("r"), "rules: a durak.Rules, not str"),
        (lambda: Game(seed=1).observation(5), "seat: a seat 0..1, not 5"),
        (lambda: Game(deck="6S 6S"), "deck: cards must be of the 36-card deck, each once"),
        (lambda: Game(deck=[1]), "deck: cards or card texts, not int"),
    ],
)
def test_public_calls_refuse_bad_arguments_with_a_durak_error_naming_them(
    call: Any, message: str
) -> None:
    with pytest.raises(DurakError) as e:
        call()
    assert str(e.value).startswith(message)
