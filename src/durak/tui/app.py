"""The Textual application of ``durak play``: the start screen, then the game."""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from .game_screen import GameScreen
from .messages import LanguageChosen, NewMatch, QuitGame, SaveMatch, StartMatch
from .session import Session, Settings
from .setup_screen import SetupScreen


class DurakApp(App[int]):
    """Durak in the terminal. ``skip_setup`` starts the match at once with ``settings``."""

    TITLE = "Durak"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, settings: Settings, skip_setup: bool = False) -> None:
        super().__init__()
        self.settings = settings
        self.skip_setup = skip_setup
        self.session: Session | None = None
        self.saved: list[Path] = []

    @property
    def lang(self) -> str:
        return self.settings.lang

    @lang.setter
    def lang(self, value: str) -> None:
        self.settings.lang = value

    def on_mount(self) -> None:
        if self.skip_setup:
            self.start_match(self.settings)
        else:
            self.push_screen(SetupScreen(self.settings))

    # What the screens ask for (messages: they do not know this class).
    def on_start_match(self, message: StartMatch) -> None:
        self.start_match(message.settings)

    def on_new_match(self, message: NewMatch) -> None:
        self.new_match()

    def on_save_match(self, message: SaveMatch) -> None:
        self.autosave()

    def on_quit_game(self, message: QuitGame) -> None:
        self.action_quit_game()

    def on_language_chosen(self, message: LanguageChosen) -> None:
        self.lang = message.lang

    def start_match(self, settings: Settings) -> None:
        """Begin a match; the previous one (if any) has been saved already."""
        self.settings = settings
        self.session = Session(settings)
        screen = GameScreen(self.session, delay=settings.delay)
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def new_match(self) -> None:
        """Back to the start screen; the next match is saved to a new file."""
        self.autosave()
        if self.session is not None and self.session.saved_to is not None:
            self.settings.save = unused_path(self.session.saved_to)
        self.session = None
        self.switch_screen(SetupScreen(self.settings))

    def autosave(self) -> None:
        if self.session is not None:
            path = self.session.save()
            if path is not None and path not in self.saved:
                self.saved.append(path)

    def action_quit_game(self) -> None:
        self.autosave()
        self.exit(0)

    async def action_quit(self) -> None:
        """ctrl+q and the like: save first, like ``q``."""
        self.action_quit_game()


def unused_path(path: Path) -> Path:
    """``match.txt`` -> ``match-2.txt`` (or -3…), a name not taken yet."""
    stem = path.stem
    base, _, num = stem.rpartition("-")
    if not (base and num.isdigit() and len(num) < 3):
        base, n = stem, 1
    else:
        n = int(num)
    while True:
        n += 1
        candidate = path.with_name(f"{base}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
