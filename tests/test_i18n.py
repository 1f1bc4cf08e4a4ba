"""The shared message catalogue (durak.i18n): complete in both languages, the same
placeholders in each, CLDR plural forms, and a name for every rule option and value."""

from __future__ import annotations

import re
import string
from dataclasses import fields

import pytest

from durak import i18n
from durak.rules import CHOICES, PRESETS, Rules

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def texts(value: object) -> list[str]:
    """Every string inside one language's value (plural forms, howto pages)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in texts(v)]
    if isinstance(value, list):
        return [s for v in value for s in texts(v)]
    raise AssertionError(f"not text: {value!r}")


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_every_message_has_both_languages_with_the_same_placeholders(domain: str) -> None:
    for key, entry in i18n.domain(domain).items():
        assert set(entry) == set(i18n.LANGS), key
        en, ru = entry["en"], entry["ru"]
        assert type(en) is type(ru), key
        found = {
            lang: {p for s in texts(entry[lang]) for p in PLACEHOLDER.findall(s)}
            for lang in i18n.LANGS
        }
        assert found["en"] == found["ru"], key
        for lang in i18n.LANGS:
            for s in texts(entry[lang]):
                assert s.strip(), (key, lang)
                # str.format must accept it: no stray braces.
                list(string.Formatter().parse(s))


def test_counted_phrases_have_every_cldr_category() -> None:
    counted = 0
    for domain in ("common", "web", "tui", "cli"):
        for key, entry in i18n.domain(domain).items():
            if isinstance(entry["en"], dict):
                counted += 1
                for lang in i18n.LANGS:
                    assert set(entry[lang]) == set(i18n.CATEGORIES[lang]), (key, lang)
    assert counted >= 5


@pytest.mark.parametrize(
    ("n", "en", "ru"),
    [
        (0, "0 cards", "0 карт"),
        (1, "1 card", "1 карта"),
        (2, "2 cards", "2 карты"),
        (5, "5 cards", "5 карт"),
        (11, "11 cards", "11 карт"),
        (12, "12 cards", "12 карт"),
        (21, "21 cards", "21 карта"),
        (22, "22 cards", "22 карты"),
        (111, "111 cards", "111 карт"),
        (104, "104 cards", "104 карты"),
    ],
)
def test_russian_and_english_plurals(n: int, en: str, ru: str) -> None:
    assert i18n.t("en", "count.cards", n=n) == en
    assert i18n.t("ru", "count.cards", n=n) == ru


def test_every_rule_option_value_and_preset_has_a_name_and_help() -> None:
    for f in fields(Rules):
        for lang in i18n.LANGS:
            assert i18n.option_label(f.name, lang) != f.name
            assert i18n.option_help(f.name, lang)
    for name, values in CHOICES.items():
        for v in values:
            assert i18n.value_text(name, v, "ru") != v or v in ("2x2", "3x3")
    for p in PRESETS:
        assert i18n.preset_label(p, "ru") != p
        assert i18n.t("ru", f"preset_help.{p}")


def test_rules_names_in_both_languages() -> None:
    assert i18n.rules_name(Rules.preset("podkidnoy"), "ru") == "Подкидной, 2 игрока"
    assert i18n.rules_name("perevodnoy(players=4,teams=2x2)", "ru") == "Переводной, 4 игрока, 2×2"
    assert (
        i18n.rules_name("perevodnoy(players=4,teams=2x2)", "en")
        == "Perevodnoy (transfer), 4 players, 2×2"
    )
    name = i18n.rules_name("podkidnoy(players=3,pile_on=off,throwers=neighbours)", "ru")
    assert name == ("Подкидной, 3 игрока, Кто подкидывает: соседи, Подкидывать вдогонку: нет")
    # No raw option name or value survives in Russian.
    for p in PRESETS:
        text = i18n.rules_name(Rules.preset(p, players=4, deck=52, hand_size=5), "ru")
        assert not re.search(r"[A-Za-z_]", text), text


def test_russian_ranks_and_unknown_keys() -> None:
    assert [i18n.card_text(c, "ru") for c in ("JS", "QH", "KD", "AC")] == ["В♠", "Д♥", "К♦", "Т♣"]
    with pytest.raises(i18n.CatalogueError, match="no message"):
        i18n.t("en", "no.such.key")
    with pytest.raises(i18n.CatalogueError, match="give n"):
        i18n.t("en", "count.cards")


def test_terms_are_the_standard_russian_ones() -> None:
    assert [
        i18n.t("ru", k)
        for k in ("term.match", "term.deal", "term.bout", "term.beaten", "term.discard")
    ] == ["Партия", "Сдача", "Кон", "Бито", "Отбой"]


def test_every_key_the_browser_names_is_in_the_catalogue() -> None:
    """The web client's literal keys (t("…"), tn("…")) all exist, so no page shows a raw key."""
    from pathlib import Path

    static = Path(i18n.__file__).resolve().parent.parent / "web" / "static"
    keys = set()
    for js in static.glob("*.js"):
        keys |= set(re.findall(r"""\bt[n]?\(\s*["']([a-z_.-]+)["']\s*[,)]""", js.read_text()))
    assert len(keys) > 80
    missing = sorted(k for k in keys if not i18n.has(k))
    assert not missing, missing
    served = set().union(*(i18n.domain(d) for d in ("common", "web", "howto", "review")))
    assert keys <= served
    # Keys the browser builds from values: every phase, move kind and table status.
    from durak.game import PHASES

    built = [f"table.ph.{p}" for p in PHASES if str(p) != "over"]
    kinds = ["lead", "throw", "pile", "defend", "transfer", "show", "exchange", "take", "pass"]
    built += [f"log.{k}" for k in kinds] + [f"log.you.{k}" for k in kinds]
    built += [f"lobby.status.{s}" for s in ("waiting", "playing", "finished")]
    assert [k for k in built if not i18n.has(k)] == []


NAMES = r"\{(?:name|who|attacker|defender|player|seat|next|target_name)\}"
PREPOSITIONS = r"(?:на|у|для|от|с|со|к|ко|под|против|за|о|об|без|после|перед|про|через)"


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_russian_never_declines_a_name(domain: str) -> None:
    """A name stands where Russian needs no case ending (docs/i18n.md): never right after
    a preposition («ходит на {defender}» would print «ходит на Борис»)."""
    bad = re.compile(rf"(?i)(?:^|\s){PREPOSITIONS}\s+{NAMES}")
    for key, entry in i18n.domain(domain).items():
        for s in texts(entry["ru"]):
            assert not bad.search(s), (key, s)


def test_russian_has_one_word_for_the_seed() -> None:
    for domain in i18n.DOMAINS:
        for key, entry in i18n.domain(domain).items():
            for s in texts(entry["ru"]):
                assert not re.search(r"(?i)\bсид\b", s), (key, s)
