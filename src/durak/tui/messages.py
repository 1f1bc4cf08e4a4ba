"""What the parts of the terminal game tell each other, as Textual messages.

Widgets and screens post these and never reach for the screen or the app above them
(no import of ``game_screen`` or ``app`` below them): a card view says which card was
clicked and the game screen, which handles it, decides what that means; a screen asks
the application to start, save or end a match and the application does it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from .session import Settings


class CardClicked(Message):
    """The card at ``index`` in the player's hand was clicked."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class TargetClicked(Message):
    """The attacking card at ``index`` on the table was clicked."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class OfferClicked(Message):
    """The move button at ``index`` was clicked."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class KeyClicked(Message):
    """A button standing for a key (``t``, ``p``…) was clicked."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key


class StartMatch(Message):
    """The start screen asks for a match with ``settings``."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings


class NewMatch(Message):
    """Back to the start screen for a new match (the last one is saved)."""


class SaveMatch(Message):
    """Write the match record now (a deal has ended)."""


class QuitGame(Message):
    """Save the record and leave."""


class LanguageChosen(Message):
    """The player switched the language to ``lang``."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
