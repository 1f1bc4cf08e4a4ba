"""``durak replay FILE``: print a game or match record bout by bout, in plain words,
with the outcome and the match tally after each deal. ``--step`` opens it in the
terminal viewer (needs the ``tui`` extra).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .actions import Action
from .game import Game
from .match import Match
from .record import RecordError, parse_headers


def describe(seat_name: str, a: Action) -> str:
    """An action in plain words."""
    cards = " ".join(str(c) for c in a.cards)
    return {
        "attack": f"{seat_name} plays {cards}",
        "defend": f"{seat_name} beats {a.target} with {cards}",
        "transfer": f"{seat_name} transfers with {cards}",
        "show": f"{seat_name} shows {cards} to transfer",
        "take": f"{seat_name} takes",
        "pass": f"{seat_name} passes",
        "exchange": f"{seat_name} exchanges {cards} for the trump card",
    }[a.kind]


def deal_lines(game: Game, names: list[str]) -> list[str]:
    """The deal bout by bout: who attacks whom, every action, how the bout ended."""
    g = game.fresh()
    out = [f"trump {g.trump}, dealer {names[g.dealer]}"]
    bout = -1
    for a in game.history:
        if g.bout != bout:
            bout = g.bout
            out.append(f" bout {bout + 1}: {names[g.attacker]} attacks {names[g.defender]}"
                       f" (talon {g.talon_size})")
        seat = g.to_act
        assert seat is not None
        g._apply(a)
        out.append("   " + describe(names[seat], a))
    o = game.outcome
    if o is None:
        out.append(" (unfinished)")
    elif o.draw:
        out.append(" draw: nobody is left with cards")
    else:
        assert o.durak is not None
        line = f" {names[o.durak]} is the durak"
        if o.pogony:
            line += f", hung with {o.pogony} pogony"
        if o.hung is not None:
            cards = f"{o.hung_cards} card" + ("s" if o.hung_cards > 1 else "")
            line += f"; side {o.hung + 1} hung its pagony ({cards})"
        out.append(line)
    return out


def replay_text(text: str) -> str:
    headers, _ = parse_headers(text)
    if headers.get("Match") == "durak":
        m = Match.from_record(text)
        lines = [f"match {m.rules}, seed {m.seed}"]
        from .match import Tally

        running = Tally(m.rules.players, sides=m.rules.sides)
        deals = m.games + ([] if m.games and m.games[-1] is m.game else [m.game])
        for i, g in enumerate(deals, 1):
            lines.append(f"deal {i}:")
            lines += deal_lines(g, m.names)
            if g.outcome is not None:
                running.add(g.outcome, m.rules)
                lines.append(running.summary(m.names, m.rules))
        return "\n".join(lines)
    g = Game.from_record(text)
    names = [headers.get(f"Seat{i}", f"seat {i}") for i in range(g.rules.players)]
    return "\n".join([f"game {g.rules}, seed {g.seed}", *deal_lines(g, names)])


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game or match record")
    p.add_argument("--step", action="store_true", help="step through it in the terminal viewer")


def run(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as e:
        print(f"durak replay: {e}", file=sys.stderr)
        return 2
    if args.step:
        try:
            from .tui.replay_app import run_replay
        except ImportError as e:
            print(f"durak replay --step needs the terminal extra: {e}", file=sys.stderr)
            return 2
        result: int = run_replay(text)
        return result
    try:
        print(replay_text(text))
    except BrokenPipeError:  # piped into head and the like
        return 0
    except RecordError as e:
        print(f"durak replay: {e}", file=sys.stderr)
        return 1
    return 0
