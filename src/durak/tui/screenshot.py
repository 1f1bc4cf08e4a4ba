"""Make the documentation's screenshot of a game in progress.

``python -m durak.tui.screenshot docs/screenshot-tui.svg [WIDTH HEIGHT]`` plays a seeded
three-player transfer game with keys until the person is defending with a beaten
pair and an unbeaten card on the table, marks a card that beats two of them, and saves
Textual's SVG screenshot.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from durak.enums import Kind, Phase

from ..bots import make
from ..rules import Rules
from .app import DurakApp
from .game_screen import GameScreen
from .session import Settings


async def _shoot(path: Path, size: tuple[int, int], seed: int, lang: str) -> bool:
    settings = Settings(
        Rules.preset("perevodnoy", players=3),
        opponents=["level:3", "level:4"],
        seed=seed,
        delay=0.0,
        lang=lang,
        save=None,
        name=None,
        deals=3,
    )
    app = DurakApp(settings, skip_setup=True)
    greedy = make("greedy")
    async with app.run_test(size=size) as pilot:
        for _ in range(3000):
            await pilot.pause()
            screen = app.screen
            if not isinstance(screen, GameScreen):
                return False
            g = screen.session.game
            if g.is_over:
                return False
            if g.to_act != 0 or screen.busy:
                continue
            obs = g.observation(0)
            beaten = [b for _, b in obs.table if b is not None]
            unbeaten = [a for a, b in obs.table if b is None]
            if (
                obs.phase == Phase.DEFEND
                and beaten
                and unbeaten
                and obs.talon_size > 2
                and obs.known[1] | obs.known[2]
            ):
                for a in obs.legal:
                    if a.kind == Kind.DEFEND:
                        screen.picker.toggle(a.cards[0])
                        screen.picker.target = a.target
                        break
                screen.refresh_view()
                await pilot.pause(0.3)  # let the log scroll to its end
                app.save_screenshot(path.name, str(path.parent))
                return True
            action = greedy.choose(obs)
            screen.play(action)
    return False


def main(argv: list[str]) -> int:
    path = Path(argv[0] if argv else "docs/screenshot-tui.svg")
    w, h = (int(argv[1]), int(argv[2])) if len(argv) >= 3 else (100, 30)
    lang = argv[3] if len(argv) >= 4 else "en"
    for seed in range(1, 60):
        if asyncio.run(_shoot(path, (w, h), seed, lang)):
            print(f"{path} (seed {seed})")
            return 0
    print("no position found", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
