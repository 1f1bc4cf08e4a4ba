"""The message catalogue both front ends speak: English and Russian, with CLDR plurals.

The catalogue is JSON, one file per domain: ``common.json`` (game terms, rule and
option names and help), ``web.json`` (the browser), ``tui.json`` (the terminal),
``cli.json`` (the command line), ``howto.json`` (the beginners' pages) and
``review.json`` (the game review). Each maps a key to one text per language::

    "term.deal": {"en": "Deal", "ru": "Сдача"}

or, for a counted phrase, to one text per CLDR plural category of the language
(English: one, other; Russian: one, few, many, other)::

    "count.cards": {"en": {"one": "{n} card", "other": "{n} cards"},
                    "ru": {"one": "{n} карта", "few": "{n} карты", "many": "{n} карт",
                           "other": "{n} карты"}}

Placeholders are ``{name}``; a counted phrase takes its count as ``n``. The browser
gets the same files (``/i18n/<domain>.json``) and picks plural forms with the
standard ``Intl.PluralRules``.

>>> t("ru", "count.cards", n=1), t("ru", "count.cards", n=3), t("ru", "count.cards", n=11)
('1 карта', '3 карты', '11 карт')
>>> t("en", "count.cards", n=1), t("en", "count.cards", n=21)
('1 card', '21 cards')
>>> t("ru", "term.deal_n_of", n=2, m=5)
'Сдача 2 из 5'
>>> rules_name("perevodnoy(players=4,teams=2x2)", "ru")
'Переводной, 4 игрока, 2×2'
>>> rules_name("podkidnoy(deck=24,pile_on=off)", "en")
'Podkidnoy (throw-in), 2 players, 24 cards, Throw in after «take»: off'
>>> card_text("QS", "ru"), card_text("10H", "en")
('Д♠', '10♥')
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import fields
from pathlib import Path
from typing import Any, Final, Literal

from ..cards import Card
from ..errors import DurakError
from ..rules import CHOICES, Rules

Lang = Literal["en", "ru"]
LANGS: Final[tuple[Lang, ...]] = ("en", "ru")
DOMAINS: Final = ("common", "web", "tui", "cli", "howto", "review")
HERE: Final = Path(__file__).resolve().parent

# CLDR plural categories each language uses for whole numbers and fractions.
CATEGORIES: Final[dict[str, tuple[str, ...]]] = {
    "en": ("one", "other"),
    "ru": ("one", "few", "many", "other"),
}


class CatalogueError(DurakError, ValueError):
    """A key missing from the catalogue, or a catalogue file that breaks its format."""


@functools.cache
def domain(name: str) -> dict[str, Any]:
    """One domain's file as stored: ``{key: {lang: text or {category: text}}}``."""
    if name not in DOMAINS:
        raise CatalogueError(f"no catalogue domain {name!r}; one of {', '.join(DOMAINS)}")
    data: dict[str, Any] = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    return data


@functools.cache
def _all() -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for name in DOMAINS:
        for key, value in domain(name).items():
            if key in merged:
                raise CatalogueError(f"key {key!r} is in two domains")
            merged[key] = value
    return merged


def plural_category(lang: str, n: float) -> str:
    """The CLDR plural category of ``n`` in ``lang`` (the rules of CLDR's plurals.xml).

    >>> [plural_category("ru", n) for n in (1, 2, 5, 11, 21, 22, 25, 1.5)]
    ['one', 'few', 'many', 'many', 'one', 'few', 'many', 'other']
    >>> plural_category("en", 1), plural_category("en", 0)
    ('one', 'other')
    """
    whole = float(n).is_integer()
    if lang == "ru":
        if not whole:
            return "other"
        i = int(abs(n))
        if i % 10 == 1 and i % 100 != 11:
            return "one"
        if 2 <= i % 10 <= 4 and not 12 <= i % 100 <= 14:
            return "few"
        return "many"
    return "one" if whole and abs(n) == 1 else "other"


def has(key: str) -> bool:
    return key in _all()


def t(lang: str, key: str, /, **values: object) -> str:
    """The text of ``key`` in ``lang`` (English for any other language), filled in.
    A counted phrase picks its plural form by ``n``."""
    entry = _all().get(key)
    if entry is None:
        raise CatalogueError(f"no message {key!r}")
    text = entry["ru" if lang == "ru" else "en"]
    if isinstance(text, dict):
        n = values.get("n")
        if not isinstance(n, int | float):
            raise CatalogueError(f"{key} is counted: give n")
        text = text[plural_category(lang, n)]
    return str(text).format_map(values) if values else str(text)


def catalogue(lang: str, domains: tuple[str, ...] = DOMAINS) -> dict[str, Any]:
    """Every message of ``domains`` in one language: ``{key: text or {category: text}}``."""
    code = "ru" if lang == "ru" else "en"
    return {k: v[code] for d in domains for k, v in domain(d).items()}


# -- cards and rules in words -----------------------------------------------------------


def rank_text(rank: int, lang: str) -> str:
    """A rank as players of ``lang`` write it: J Q K A, or В Д К Т."""
    key = f"rank.{rank}"
    return t(lang, key) if has(key) else str(rank)


def card_text(card: Card | str, lang: str) -> str:
    """A card as players of ``lang`` write it: ``Д♠`` in Russian for the queen."""
    c = Card.parse(card) if isinstance(card, str) else card
    return rank_text(c.rank, lang) + "♠♥♦♣"[c.suit]


def option_label(name: str, lang: str) -> str:
    """A rule option's name as players say it: ``pile_on`` -> «Подкидывать вдогонку»."""
    return t(lang, f"opt.{name}")


def option_help(name: str, lang: str) -> str:
    """One sentence on what a rule option does."""
    return t(lang, f"opt_help.{name}")


def value_text(name: str, value: object, lang: str) -> str:
    """A rule option's value in words: ``on``/``off``, a choice's label, a number."""
    if isinstance(value, bool):
        return t(lang, "val.on" if value else "val.off")
    if name in CHOICES:
        return t(lang, f"val.{name}.{value}")
    if name == "deck":
        return t(lang, "count.cards", n=int(str(value)))
    return str(value)


def preset_label(name: str, lang: str) -> str:
    return t(lang, f"preset.{name}")


def _value_of(name: str, text: str) -> object:
    kinds = {f.name: type(f.default) for f in fields(Rules)}
    if kinds.get(name) is bool:
        return text == "on"
    if kinds.get(name) is int:
        return int(text)
    return text


def rules_name(rules: Rules | str, lang: str) -> str:
    """A rule set as players name it: the game, the players, then what differs from the
    game's usual rules. The browser's ``rulesName`` (web/static/i18n.js) writes the
    same words from the same text form."""
    text = str(rules if isinstance(rules, Rules) else Rules.parse(rules))
    preset, _, rest = text.partition("(")
    over = dict(item.split("=", 1) for item in rest.rstrip(")").split(",") if item)
    parts = [preset_label(preset, lang), t(lang, "count.players", n=int(over.pop("players", 2)))]
    if "deck" in over:
        parts.append(t(lang, "count.cards", n=int(over.pop("deck"))))
    if "teams" in over:
        parts.append(value_text("teams", over.pop("teams"), lang))
    for name, value in over.items():
        parts.append(
            t(
                lang,
                "rules.option_value",
                option=option_label(name, lang),
                value=value_text(name, _value_of(name, value), lang),
            )
        )
    return t(lang, "rules.joiner").join(parts)


# -- how to play -----------------------------------------------------------------------


def seat_names(names: list[str], lang: str) -> list[str]:
    """Names as a record keeps them, with the default ones ("Player 2", the name of a
    seat nobody named) in ``lang``: «Игрок 2».

    >>> seat_names(["Аня", "Player 2"], "ru")
    ['Аня', 'Игрок 2']
    """
    out = []
    for name in names:
        m = re.fullmatch(r"(?:Player|Seat) (\d+)", name)
        out.append(t(lang, "player.default", n=int(m[1])) if m else name)
    return out


def howto(preset: str, lang: str) -> list[tuple[str, list[str]]]:
    """The beginners' page for a variant: ``(title, paragraphs)`` sections, what is
    different in this game first, then the basics every durak shares (which the part
    before overrides). The browser's "How to play" shows the same.

    >>> [title for title, _ in howto("perevodnoy", "ru")][:5]
    ['Переводной', 'Чем отличается эта игра', 'Перевод', 'Остальное: основы дурака', 'Подкидывание']
    """
    code = "ru" if lang == "ru" else "en"
    pages = domain("howto")
    page = pages[f"howto.{preset}"][code]
    game = t(lang, "preset." + preset)
    out = [
        (game, [str(page["intro"])]),
        (t(lang, "howto.variant_title"), [t(lang, "howto.different_lead", game=game)]),
    ]
    # A section the game shares with подкидной (throwing in) is not a difference: it
    # goes with the basics.
    shared = (
        {sec["title"] for sec in pages["howto.podkidnoy"][code]["sections"]}
        if preset != "podkidnoy"
        else set()
    )
    own = [sec for sec in page["sections"] if sec["title"] not in shared]
    common = [sec for sec in page["sections"] if sec["title"] in shared]
    out.extend((str(sec["title"]), [str(p) for p in sec["text"]]) for sec in own)
    out.append((t(lang, "howto.rest_title"), [t(lang, "howto.rest_note", game=game)]))
    for part in (common, pages["howto.basics"][code]):
        out.extend((str(sec["title"]), [str(p) for p in sec["text"]]) for sec in part)
    return out


def howto_text(preset: str, lang: str) -> str:
    """The beginners' page as plain text (for a terminal)."""
    return "\n\n".join(f"{title}\n" + "\n".join(paras) for title, paras in howto(preset, lang))


def default_lang() -> Lang:
    """Russian when the environment asks for it (DURAK_LANG, LC_ALL, LANG…), else English."""
    for var in ("DURAK_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        v = os.environ.get(var, "")
        if v:
            return "ru" if v.lower().startswith("ru") else "en"
    return "en"
