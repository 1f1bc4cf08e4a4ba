"""``durak verify-deal``: check a finished web game's deal against its revealed seed.

Before each deal the server sends every seat ``commit = sha256("<seed>:<salt>")``; the
seed comes from the operating system's cryptographic source. When the deal is over it
reveals ``seed`` and ``salt``. This re-deals from the revealed seed with the engine on
your machine and compares the cards with the game's record, so a server that changed the
deck after the deal began (or dealt from another seed) is caught::

    durak verify-deal http://127.0.0.1:8000/api/games/12 --commit 5f0c...   # the hash you saw
    durak verify-deal game.json

>>> from durak.game import Game
>>> g = Game(seed=5)
>>> from durak.server.table import commitment
>>> problems({"seed": "5", "salt": "ab", "commit": commitment(5, "ab"),
...           "record": g.record(["A", "B"])})
[]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..game import Game
from ..record import RecordError, game_headers, parse_headers
from .table import commitment


def problems(game: dict[str, Any], seen_commit: str | None = None) -> list[str]:
    """Everything wrong with ``game`` (the JSON of ``/api/games/{id}``): an empty list
    when its revealed seed matches the commitment and re-deals the recorded deck."""
    out: list[str] = []
    seed_text, salt = game.get("seed"), game.get("salt")
    if not isinstance(seed_text, str) or not seed_text.isdigit() or not isinstance(salt, str):
        return ["the game reveals no seed and salt (dealt before fair deals, or not over)"]
    seed = int(seed_text)
    commit = commitment(seed, salt)
    if game.get("commit") != commit:
        out.append(
            f"the server's commitment {game.get('commit')} is not sha256(seed:salt) = {commit}"
        )
    if seen_commit is not None and seen_commit.lower() != commit:
        out.append(
            f"the commitment you saw before the deal, {seen_commit}, is not "
            f"sha256(seed:salt) = {commit}"
        )
    try:
        headers = parse_headers(str(game.get("record", "")))[0]
        recorded = Game.from_record(str(game["record"]))
    except (RecordError, ValueError, KeyError) as e:
        return [*out, f"the record does not replay: {e}"]
    if headers.get("Seed") != seed_text:
        out.append(f"the record's seed {headers.get('Seed')} is not the revealed {seed}")
    fresh = Game(
        recorded.rules,
        seed=seed,
        dealer=recorded.dealer,
        leader=recorded.leader,
        pagon=recorded.pagon or None,
    )
    dealt = game_headers(fresh)["Deck"]
    if headers.get("Deck") != dealt:
        out.append(
            "the recorded deck is not the deck the revealed seed deals:\n"
            f"  recorded: {headers.get('Deck')}\n  re-dealt: {dealt}"
        )
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a finished game: URL of /api/games/{id}, or a JSON file")
    parser.add_argument(
        "--commit",
        help="the commitment your browser was sent before the deal "
        "(default: none; then only the server's own record is checked)",
    )


def run(args: argparse.Namespace) -> int:
    if args.game.startswith(("http://", "https://")):
        import httpx

        game = httpx.get(args.game, timeout=30).json()
    else:
        with open(args.game, encoding="utf-8") as f:
            game = json.load(f)
    found = problems(game, args.commit)
    for p in found:
        print("FAIL:", p)
    if not found:
        print(
            f"ok: seed {game['seed']} matches the commitment {game['commit'][:16]}... "
            "and re-deals the recorded deck"
        )
    return 1 if found else 0
