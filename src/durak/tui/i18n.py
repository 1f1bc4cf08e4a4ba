"""The terminal's words, from the shared message catalogue (:mod:`durak.i18n`).

The terminal's own texts are the ``tui`` domain of the catalogue; game terms, rule
options, presets, ranks and plurals come from its ``common`` domain, so the terminal
and the web table say the same things (Партия, Сдача, Кон, Отбой).

>>> tr("ru", "take_key"), tr("ru", "term.discard")
('взять', 'Отбой')
>>> plural("ru", 5, "cards"), plural("en", 1, "cards"), plural("ru", 22, "cards")
('5 карт', '1 card', '22 карты')
>>> card_text(Card.parse("QH"), "ru"), card_text(Card.parse("10S"), "en")
('Д♥', '10♠')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .. import i18n as catalogue
from ..cards import Card

LANGS: Final = catalogue.LANGS
has = catalogue.has
rank_text = catalogue.rank_text
default_lang = catalogue.default_lang


def tr(lang: str, key: str, /, **values: object) -> str:
    """The text of ``key`` in ``lang``, with ``values`` filled in."""
    return catalogue.t(lang, key, **values)


def plural(lang: str, n: int, word: str) -> str:
    """``n`` with the right form of ``word`` (``cards``, ``cards_acc``: Russian has three)."""
    return catalogue.t(lang, f"count.{word}", n=n)


def card_text(card: Card, lang: str) -> str:
    return catalogue.card_text(card, lang)


def cards_text(cards: Iterable[Card], lang: str) -> str:
    return " ".join(card_text(c, lang) for c in cards)


def seat_names(lang: str, players: int, human_name: str | None = None) -> list[str]:
    """Default names: the human at seat 0, bots named from the table."""
    bots = tr(lang, "bot.names").split(",")
    return [human_name or tr(lang, "default_name")] + bots[: players - 1]
