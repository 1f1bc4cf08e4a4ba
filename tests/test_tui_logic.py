"""The terminal game's logic without a screen: strings, words, choosing moves, sessions."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

pytest.importorskip("textual")

from durak import (  # noqa: E402
    Action,
    Card,
    CardSet,
    Game,
    Rules,
    tui,  # noqa: E402
)
from durak import i18n as catalogue  # noqa: E402
from durak.match import Match  # noqa: E402
from durak.tui.i18n import card_text, plural, tr  # noqa: E402
from durak.tui.picker import Picker  # noqa: E402
from durak.tui.session import Session, Settings, make_bot, opponent_choices  # noqa: E402
from durak.tui.words import Entry, Seat, play, render  # noqa: E402

C = Card.parse


def test_every_key_the_terminal_uses_is_in_the_catalogue_in_russian() -> None:
    # Keys written literally in the terminal's code: tr(lang, "k"), self.t("k"), Entry("k")
    used = set()
    for path in Path(tui.__file__).parent.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'(?:\btr\(\w+(?:\.\w+)?, |self\.t\(|Entry\()"([\w.-]+)"', text))
        used |= set(re.findall(r'"(key_\w+)"', text))  # the keys' descriptions
    assert len(used) > 100
    assert [k for k in used if not catalogue.has(k)] == []
    # the terminal's own domain really is translated (a copy of the English would pass
    # the catalogue's own checks)
    untranslated = [
        k
        for k, v in catalogue.domain("tui").items()
        if v["en"] == v["ru"] and re.search("[a-z]{3}", v["en"])
    ]
    assert untranslated == ["bot_other"]


def test_russian_plurals_and_ranks() -> None:
    assert [plural("ru", n, "cards") for n in (1, 2, 5, 11, 21, 24)] == [
        "1 карта",
        "2 карты",
        "5 карт",
        "11 карт",
        "21 карта",
        "24 карты",
    ]
    assert card_text(C("AS"), "ru") == "Т♠" and card_text(C("JD"), "ru") == "В♦"
    assert tr("en", "mv_take", who="Anna") == "Anna takes"


def two_player(deck: str = "6S 7S 8S 9S 10S JS 6H 7H 8H 9H 10H JH QS", **rules: object) -> Game:
    return Game(Rules.preset(str(rules.pop("preset", "podkidnoy")), **rules), deck=deck, dealer=1)


def test_picker_lays_several_of_one_rank_and_explains_refusals() -> None:
    g = two_player()
    p = Picker(g.observation(0))
    assert p.toggle(C("6S")) is None and p.toggle(C("6H")) is None
    assert p.lay() is Action.parse("6♠+6♥")
    # another rank replaces the choice; a card it cannot lay is explained
    assert p.toggle(C("8S")) is None and p.selected == C("8S").bit
    assert p.toggle(C("7S")).key == "why_cannot_lead"  # type: ignore[union-attr]
    # the other seat is told it is not its turn
    other = Picker(g.observation(1)).toggle(C("7S"))
    assert isinstance(other, Entry) and other.key == "why_not_your_turn"
    assert render(other, "en", ["Ivan", "Anna"]) == "Not your turn: Ivan is to act."


def test_picker_needs_a_target_when_a_card_beats_several() -> None:
    g = two_player()
    g.apply("6♠+6♥")
    p = Picker(g.observation(1))
    # J♠ (trump suit is ♠: Q♠ turned) beats both 6♠ and 6♥
    assert p.toggle(C("JS")) is None
    assert set(p.targets()) == {C("6S"), C("6H")}
    result = p.lay()
    assert isinstance(result, Entry) and result.key == "why_choose_target"
    assert p.cycle_target(1) is None and p.target == C("6S")
    assert p.cycle_target(1) is None and p.target == C("6H")
    assert p.lay() is Action.parse("6♥/J♠")
    # a click on the table card plays at once
    assert p.choose_target(C("6S")) is Action.parse("6♠/J♠")
    # a card that beats only one target needs no choice
    p.clear()
    p.toggle(C("7H"))
    assert p.lay() is Action.parse("6♥/7♥")
    assert p.toggle(C("JH")) is None and p.lay() is Action.parse("6♥/J♥")
    assert p.take() is Action.parse("take")
    assert p.pass_().key == "why_no_pass"  # type: ignore[union-attr]


def test_picker_transfer_and_show() -> None:
    # 3 players, perevodnoy with проездной; trump ♣; seat 0 leads 6♠ against seat 1,
    # who holds 6♥ to transfer with and the trump 6♣ to show.
    hands = ["6S 7S 8S 9S 10S JS", "6H 6C 7H 8H 9H 10H", "7D 8D 9D 10D JD QD"]
    cols = [h.split() for h in hands]
    deck = " ".join(cols[s][i] for i in range(6) for s in range(3)) + " QC"
    g = Game(
        Rules.preset("perevodnoy-proezdnoy", players=3, transfer_first_bout=True),
        deck=deck,
        dealer=2,
        leader=0,
    )
    g.apply("6♠")
    p = Picker(g.observation(1))
    offers = {o.key: o.action for o in p.offers()}
    assert offers["s"] is Action.parse("!6♣") and offers["t"] is Action.parse("take")
    assert p.show() is Action.parse("!6♣")
    # r with nothing marked: two transfers are possible (6♥, 6♣), so it asks which
    asked = p.transfer()
    assert isinstance(asked, Entry) and asked.key == "why_choose_transfer"
    assert p.toggle(C("6H")) is None
    assert p.lay() is Action.parse(">6♥")  # 6♥ cannot beat 6♠: Enter transfers
    assert p.toggle(C("6C")) is None  # 6♣ beats 6♠ and transfers: both offered
    assert p.lay() is Action.parse(">6♥+6♣")
    p.toggle(C("6H"))
    assert p.lay() is Action.parse("6♠/6♣")
    assert p.transfer() is Action.parse(">6♣")
    assert {o.key for o in p.offers()} >= {"enter", "r", "s", "t"}


def test_picker_only_ever_returns_legal_actions() -> None:
    """Random clicks and keys on random positions of every preset: whatever the
    picker returns as an action is legal."""
    rng = random.Random(4)
    presets = ["podkidnoy", "perevodnoy", "perevodnoy-proezdnoy", "prostoy", "pogonny"]
    for i in range(40):
        rules = Rules.preset(presets[i % len(presets)], players=2 + i % 3)
        g = Game(rules, seed=i)
        while not g.is_over:
            obs = g.observation(g.to_act)
            p = Picker(obs)
            for _ in range(4):
                cards = list(obs.hand) + [a for a, _ in obs.table]
                c = rng.choice(cards)
                r = p.toggle(c) if c in obs.hand else p.choose_target(c)
                assert r is None or isinstance(r, Entry) or r in obs.legal
            for fn in (p.lay, p.transfer, p.show, p.take, p.pass_, p.exchange):
                r = fn()
                assert isinstance(r, Entry) or r in obs.legal
            assert all(o.action in obs.legal for o in p.offers())
            g.apply(rng.choice(obs.legal))


def test_words_describe_every_kind_of_move() -> None:
    g = two_player(preset="perevodnoy")
    names = ["Ivan", "Anna"]
    lines = [render(e, "en", names) for e in play(g, "6♠")]
    assert lines == ["Ivan leads 6♠ against Anna"]
    assert [render(e, "en", names) for e in play(g, "take")] == ["Anna takes"]
    more = [render(e, "ru", names) for e in play(g, "6♥")]
    assert more == ["Ivan подкидывает вдогонку 6♥", "Anna забирает 2 карты"]
    g = two_player(preset="perevodnoy")
    assert [render(e, "en", names) for e in play(g, "8♠")] == ["Ivan leads 8♠ against Anna"]
    assert [render(e, "en", names) for e in play(g, "8♠/9♠")] == ["Anna beats 8♠ with 9♠"]
    assert [render(e, "en", names) for e in play(g, "pass")] == [
        "Ivan passes",
        "Beaten off: 2 cards to the discard",
    ]
    g = Game(
        Rules.preset("perevodnoy", transfer_first_bout=True),
        deck="6S 6H 7S 7H 8S 8H 9S 9H 10S 10H JS JH QS",
        dealer=1,
    )
    assert [render(e, "en", names) for e in play(g, "6♠")][0] == "Ivan leads 6♠ against Anna"
    assert [render(e, "en", names) for e in play(g, ">6♥")] == ["Anna transfers with 6♥ to Ivan"]


def test_session_undo_and_records(tmp_path: Path) -> None:
    save = tmp_path / "m.txt"
    s = Session(
        Settings(
            Rules.preset("perevodnoy", players=3),
            opponents=["greedy", "random"],
            seed=11,
            deals=2,
            save=save,
            name="Tester",
        )
    )
    assert s.names[0] == "Tester"
    moved = 0
    while not s.game.is_over:
        if s.human_to_act:
            before = (len(s.game.history), s.game.hand(0))
            s.apply(s.game.legal_actions()[-1])
            moved += 1
            if moved == 3:
                while not s.human_to_act and not s.game.is_over:
                    s.apply(s.bot_choice())
                assert s.undo()
                assert (len(s.game.history), s.game.hand(0)) == before
        else:
            s.apply(s.bot_choice())
    assert s.match_finished() is False and s.next_deal()
    assert s.deal_number == 2
    assert not s.undo()  # nothing of the person's in the new deal yet
    path = s.save()
    assert path == save
    m = Match.from_record(save.read_text(encoding="utf-8"))
    assert len(m.games) == 1 and m.names[0] == "Tester"
    assert str(m.games[0].outcome) == str(s.match.games[0].outcome)


def test_bots_by_level_or_name() -> None:
    choices = opponent_choices()
    assert choices
    for spec in choices[:3] + ["greedy", "random"]:
        bot = make_bot(spec, seed=1)
        g = Game(Rules(), seed=2)
        assert bot.choose(g.observation(g.to_act)) in g.legal_actions()


def test_entries_keep_values_not_text() -> None:
    e = Entry("mv_defend", {"who": Seat(1), "target": C("6S"), "card": C("QS")})
    assert render(e, "en", ["a", "Anna"]) == "Anna beats 6♠ with Q♠"
    assert render(e, "ru", ["a", "Анна"]) == "Анна бьёт 6♠ картой Д♠"
    assert str(CardSet.parse("6S")) == "6♠"


def test_the_terminal_modules_import_one_another_without_a_circle() -> None:
    """Issue 30: widgets and screens post messages instead of reaching for the screen or
    the app above them, so no chain of imports (at the top or inside a function) leads
    from a module of durak.tui back to itself."""
    import ast
    from pathlib import Path

    here = Path(__file__).resolve().parent.parent / "src" / "durak" / "tui"
    graph: dict[str, set[str]] = {}
    for path in here.glob("*.py"):
        deps = graph.setdefault(path.stem, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                deps.add(node.module.split(".")[0])
    done: set[str] = set()

    def visit(name: str, trail: tuple[str, ...]) -> None:
        assert name not in trail, " -> ".join((*trail, name))
        if name in done:
            return
        for dep in graph.get(name, ()):
            visit(dep, (*trail, name))
        done.add(name)

    for name in graph:
        visit(name, ())
