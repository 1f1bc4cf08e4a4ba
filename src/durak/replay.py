"""``durak replay FILE``: print a game or match record bout by bout, in plain words
(English or Russian, ``--lang``), with the outcome and the match tally after each deal.
``--step`` opens it in the terminal viewer (needs the ``tui`` extra).

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=5)
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
>>> text = replay_text(g.record(names=["Аня", "Боря"]), "ru")
>>> text.splitlines()[0]
'Игра: Подкидной, 2 игрока, зерно 5'
>>> "pogony 0" in replay_text(g.record(), "en"), "погон" in text
(False, False)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import i18n
from .game import Game, pagon_ladder
from .match import Tally, record_deals
from .record import RecordError, parse_headers
from .rules import Rules
from .tui.words import Entry, Seat, deal_trump, play, render


def deal_lines(game: Game, names: list[str], lang: str, number: int = 1) -> list[str]:
    """The deal bout by bout: who attacks whom, every action, how the bout and the deal
    ended (the pogony hung on the durak only when there are any)."""
    g = game.fresh()
    out = [
        render(
            Entry("ev_deal_start", {"n": number, "dealer": Seat(g.dealer), "trump": deal_trump(g)}),
            lang,
            names,
        )
    ]
    bout = -1
    for a in game.history:
        if g.bout != bout:
            bout = g.bout
            out.append(
                i18n.t(
                    lang,
                    "cli.replay.bout",
                    n=bout + 1,
                    attacker=names[g.attacker],
                    defender=names[g.defender],
                    talon=g.talon_size,
                )
            )
        out += ["   " + render(e, lang, names) for e in play(g, a, reveal=True)]
    if game.outcome is None:
        out.append(i18n.t(lang, "cli.replay.unfinished"))
    return out


def team_text(rules: Rules, side: int, names: list[str]) -> str:
    return " + ".join(names[s] for s in range(rules.players) if rules.team_of(s) == side)


def tally_lines(t: Tally, rules: Rules, names: list[str], lang: str) -> list[str]:
    """The match so far: durak counts (by team in team play), pogony hung when any,
    pogony scored in pogonny, each side's pagony rank in pagony."""
    lines = [i18n.t(lang, "cli.replay.after", n=t.deals)]
    if rules.teams != "none":
        lines += [
            "  "
            + i18n.t(
                lang,
                "cli.replay.team_lost",
                n=t.side_losses[side],
                team=team_text(rules, side, names),
            )
            for side in range(rules.sides)
        ]
    for s, name in enumerate(names):
        parts = [i18n.t(lang, "cli.replay.durak_times", n=t.durak_counts[s], name=name)]
        if t.pogony_hung[s]:
            parts.append(i18n.t(lang, "result.pogony", n=t.pogony_hung[s]))
        if rules.scoring == "pogonny":
            parts.append(
                i18n.t(
                    lang,
                    "cli.replay.scored",
                    pogony=i18n.t(lang, "term.pogony", n=t.pogonny_scores[s]),
                )
            )
        if rules.teams == "none" or t.durak_counts[s] or t.pogony_hung[s]:
            lines.append("  " + ", ".join(parts))
    if t.draws:
        lines.append("  " + i18n.t(lang, "cli.replay.draws", n=t.draws))
    if rules.scoring == "pagony":
        ladder = pagon_ladder(rules.deck)
        for side in range(rules.sides):
            team = team_text(rules, side, names)
            rank = i18n.rank_text(ladder[min(t.pagon_steps[side], len(ladder) - 1)], lang)
            lines.append("  " + i18n.t(lang, "cli.replay.pagon", team=team, rank=rank))
        if t.winner_side is not None:
            lines.append(
                "  " + i18n.t(lang, "cli.replay.won", team=team_text(rules, t.winner_side, names))
            )
    return lines


def replay_text(text: str, lang: str = "en") -> str:
    """A record (game or match) as text in ``lang`` (RecordError if it does not replay)."""
    headers, _ = parse_headers(text)
    deals, names = record_deals(text)
    names = i18n.seat_names(names, lang)
    rules = deals[0].rules
    is_match = headers.get("Match") == "durak"
    seed = headers.get("MatchSeed") if is_match else deals[0].seed
    lines = [
        i18n.t(
            lang,
            "cli.replay.match" if is_match else "cli.replay.game",
            rules=i18n.rules_name(rules, lang),
            seed=seed,
        )
    ]
    running = Tally(rules.players, sides=rules.sides)
    for i, g in enumerate(deals, 1):
        lines += deal_lines(g, names, lang, i)
        if is_match and g.outcome is not None:
            running.add(g.outcome, rules)
            lines += tally_lines(running, rules, names, lang)
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game or match record")
    p.add_argument("--step", action="store_true", help="step through it in the terminal viewer")
    p.add_argument(
        "--lang", choices=i18n.LANGS, default=None, help="language of the text (default: from LANG)"
    )


def run(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as e:
        print(f"durak replay: {e}", file=sys.stderr)
        return 2
    lang = args.lang or i18n.default_lang()
    if args.step:
        try:
            from .tui.replay_app import run_replay
        except ImportError as e:
            print(f"durak replay --step needs the terminal extra: {e}", file=sys.stderr)
            return 2
        result: int = run_replay(text, lang)
        return result
    try:
        print(replay_text(text, lang))
    except BrokenPipeError:  # piped into head and the like
        return 0
    except RecordError as e:
        print(f"durak replay: {e}", file=sys.stderr)
        return 1
    return 0
