"""``durak tournament``: a bots-only Swiss, round robin or group event, played here (or
on Ray, as the arena plays), and its standings table.

    durak tournament --format swiss --rounds 5 --bots level1 level2 greedy random --deals 2
    durak tournament --format round_robin --bots level1 level2 level3 heuristic
    durak tournament --format groups --rules "podkidnoy(players=4)" --bots level1 greedy ...

The entrants are the bot specs (a spec given twice enters twice: ``greedy``, ``greedy#2``).
A match of ``--deals`` deals is played with the table's seats as paired (seat 0 first);
every deal's cards come from ``--seed``, the round and the table, so a run is the same
on every backend.

>>> r = run_tournament(Settings("swiss", rounds=2), Rules(), ["greedy", "random", "greedy"], 1)
>>> len(r.rounds), [s.rank for s in r.standings()]
(2, [1, 2, 3])
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ..arena import deal_seed, play_game
from ..dist.executors import BACKENDS, executor
from ..errors import ArgumentError
from ..outcome import Outcome
from ..rules import Rules, RulesError
from .event import Settings, Tournament
from .model import Table
from .scoring import duel, group
from .standings import text_table

Task = tuple[Rules, tuple[str, ...], int, int, int]


def entrant_names(specs: Sequence[str]) -> list[str]:
    """One name an entrant: the spec, with ``#2``, ``#3``... for a spec given again.

    >>> entrant_names(["greedy", "random", "greedy"])
    ['greedy', 'random', 'greedy#2']
    """
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return out


def spec_of(name: str) -> str:
    """The bot spec of an entrant's name (:func:`entrant_names`)."""
    return name.split("#", 1)[0]


def play_table(task: Task) -> tuple[int, list[Outcome]]:
    """One table's match (a worker's task): its index and every deal's outcome."""
    rules, seats, index, base, deals = task
    specs = [spec_of(s) for s in seats]
    out = []
    for d in range(deals):
        ds = deal_seed(base, d)
        g = play_game(rules, specs, ds, ds + 1)
        assert g.outcome is not None
        out.append(g.outcome)
    return index, out


def run_tournament(  # noqa: PLR0913
    settings: Settings,
    rules: Rules,
    specs: Sequence[str],
    seed: int,
    jobs: int | None = 1,
    backend: str = "process",
    address: str | None = None,
) -> Tournament:
    """A bots-only event of ``specs`` under ``rules`` (its players: the table size), to
    the end."""
    if settings.format == "arena":
        raise ArgumentError("format: the arena runs on the web server's clock, not here")
    t = Tournament(settings)
    for name in entrant_names(specs):
        t.join(name)
    rnd = t.start()
    with executor(backend, jobs, address) as ex:
        while rnd is not None:
            pending = t.pending()
            tasks = [
                (rules, table.seats, i, deal_seed(seed, rnd.number * 10_000 + i), settings.deals)
                for (n, i), table in pending.items()
            ]
            for i, outcomes in ex.map_unordered(play_table, tasks):
                table: Table = pending[(rnd.number, i)]
                score = duel if len(table.seats) == 2 else group
                t.record(rnd.number, i, score(table, outcomes))
            rnd = t.advance()
    return t


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``durak tournament``."""
    parser.add_argument(
        "--format", choices=("swiss", "round_robin", "groups"), default="swiss", help="the format"
    )
    parser.add_argument(
        "--bots",
        nargs="+",
        default=["level1", "level2", "greedy", "random"],
        metavar="SPEC",
        help="the entrants: bot specs (one entrant each)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds (swiss, groups)")
    parser.add_argument("--deals", type=int, default=1, help="deals a match")
    parser.add_argument(
        "--rules",
        default="podkidnoy",
        help="a preset with options; its players are the table size "
        '(groups: e.g. "podkidnoy(players=4,teams=2x2)"; else 2)',
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals")
    parser.add_argument("--jobs", type=int, default=1, help="processes (0: every core)")
    parser.add_argument("--backend", choices=BACKENDS, default="process", help="where games run")
    parser.add_argument(
        "--address",
        default=None,
        help="the Ray cluster to use (default RAY_ADDRESS, else a local Ray)",
    )
    parser.add_argument("--json", default="", metavar="FILE", help="write the event here")


def run(args: argparse.Namespace) -> int:
    """Play the event and print its standings."""
    try:
        rules = Rules.parse(args.rules)
        if args.format != "groups":
            rules = rules.replace(players=2)
        settings = Settings(
            args.format,
            rounds=args.rounds,
            table_size=rules.players,
            teams=rules.teams != "none",
            deals=args.deals,
            max_entrants=max(2, len(args.bots)),
        )
        t = run_tournament(
            settings, rules, args.bots, args.seed, args.jobs or None, args.backend, args.address
        )
    except (RulesError, ValueError, RuntimeError, OSError) as e:
        print(f"durak tournament: {e}", file=sys.stderr)
        return 2
    n = len(t.rounds)
    print(f"{settings.format}, rounds: {n}, deals a match: {settings.deals}, {rules}")
    print(text_table(settings.format, t.standings()))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(t.to_json(), f, indent=1)
        print(f"wrote {args.json}")
    return 0
