"""What the parts of the terminal game tell each other, as Textual messages.

Widgets and screens post these and never reach for the screen or the app above them
(no import of ``game_screen`` or ``app`` below them): a card view says which card was
clicked and the game screen, which handles it, decides what that means; a screen asks
the application to start, save or end a match and the application does it.

Those that carry a value are dataclasses (Textual calls ``Message.__post_init__`` for
them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from .session import Settings


@dataclass
class Clicked(Message):
    """Something at ``index`` was clicked (which thing: the subclass)."""

    index: int


class CardClicked(Clicked):
    """The card at ``index`` in the player's hand was clicked."""


class TargetClicked(Clicked):
    """The attacking card at ``index`` on the table was clicked."""


class OfferClicked(Clicked):
    """The move button at ``index`` was clicked."""


@dataclass
class KeyClicked(Message):
    """A button standing for a key (``t``, ``p``…) was clicked."""

    key: str


@dataclass
class StartMatch(Message):
    """The start screen asks for a match with ``settings``."""

    settings: Settings


class NewMatch(Message):
    """Back to the start screen for a new match (the last one is saved)."""


class SaveMatch(Message):
    """Write the match record now (a deal has ended)."""


class QuitGame(Message):
    """Save the record and leave."""


@dataclass
class LanguageChosen(Message):
    """The player switched the language to ``lang``."""

    lang: str
