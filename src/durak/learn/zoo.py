"""The model zoo: the published networks, what tables each plays, how each was trained,
its learning curve and its leaderboard row.

Every model's weights ship in the package (``src/durak/bots/data``) and play with numpy
alone. A model is a bot spec ``zoo:NAME`` anywhere a spec is taken (the arena, the
environments' opponents, the evaluator, the leaderboard):

>>> from durak.bots import make
>>> make("zoo:table").name
'zoo:table'
>>> sorted(ZOO)
['dmc2', 'imitation', 'table']

:data:`FAMILIES` says which model plays each family of tables (``learned``, the default
learned player, is ``dmc2`` where it reads the table and ``table`` elsewhere). The
leaderboard rows (:mod:`durak.learn.leaderboard`, protocol v1) are read from the
``leaderboard.json`` beside this module, which one command regenerates with the whole
table::

    .venv/bin/python -m durak.learn.leaderboard table --out benchmarks/rl/leaderboard.md \\
        --json src/durak/learn/leaderboard.json   # about 10 min of one core

``python -m durak.learn.zoo`` lists the models, their families and their rows.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from ..bots.base import Bot
from ..errors import ArgumentError

__all__ = ["FAMILIES", "ZOO", "Model", "bot", "main", "rows"]

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "bots", "data")
BOARD = os.path.join(os.path.dirname(__file__), "leaderboard.json")


@dataclass(frozen=True)
class Model:
    """A published network: its weights file (in ``durak/bots/data``), the tables it
    plays, the command that trained it, its curve (a CSV in the repository) and what it
    is."""

    name: str
    weights: str
    tables: str
    train: str
    curve: str
    about: str

    @property
    def path(self) -> str:
        """The weights file's path in the installed package."""
        return os.path.join(DATA, self.weights)


ZOO: dict[str, Model] = {
    m.name: m
    for m in (
        Model(
            "dmc2",
            "learned.npz",
            "2 players, 36 cards, one trump suit, standard scoring (podkidnoy, perevodnoy, "
            "prostoy...)",
            "python -m durak.learn.dmc2 --rules podkidnoy,perevodnoy --resume "
            "--save benchmarks/rl/checkpoints/dmc.pt --curve benchmarks/rl/dmc_curve.csv "
            "--cpu-minutes 400 --eval-every 50000 --eval-deals 100 (then --export)",
            "benchmarks/rl/dmc_curve.csv",
            "Deep Monte-Carlo self-play, 1,000,000 deals of 2-player podkidnoy (95 min of "
            "one core; the checkpoint went on to 1,900,000 deals, not shipped: no better "
            "measured); what `learned` plays at the tables it reads",
        ),
        Model(
            "table",
            "table.npz",
            "every table: 2-6 players, teams 2x2 and 3x3, 24/36/52 cards, every trump kind "
            "and scoring (not the cheating game)",
            "python -m durak.learn.dmc --resume --save benchmarks/rl/checkpoints/table.pt "
            "--curve benchmarks/rl/table_curve.csv --cpu-minutes 170 --eval-every 20000 "
            "--eval-deals 40 (then --export)",
            "benchmarks/rl/table_curve.csv",
            "Deep Monte-Carlo self-play over the mix of every table (durak.learn.tables), "
            "220,000 deals; what `learned` plays at the tables dmc2 does not read",
        ),
        Model(
            "imitation",
            "imitation.npz",
            "every table (its features are any table's)",
            "python benchmarks/rl/train.py --rounds 15 --games 100 --steps 300 "
            "--export src/durak/bots/data/imitation.npz --curve benchmarks/rl/curve.csv",
            "benchmarks/rl/curve.csv",
            "fitted to the expert bot's moves in 2-player podkidnoy (1,500 deals)",
        ),
    )
}

# family of tables -> the zoo model `learned` plays there (each a leaderboard task or not)
FAMILIES: dict[str, str] = {
    "2 players: podkidnoy, perevodnoy, prostoy (36 cards, one trump)": "dmc2",
    "2 players: 24 or 52 cards, no trump, other trumps or scorings": "table",
    "3 players": "table",
    "4 players": "table",
    "5 players": "table",
    "6 players": "table",
    "teams 2x2": "table",
    "teams 3x3": "table",
}


def bot(model: str = "table", seed: int | None = None) -> Bot:
    """The bot of zoo model ``model`` (``make("zoo:NAME")``; ``make("zoo")`` is the
    every-table network): its network, greedy in ``Q``."""
    from ..bots.learned import LearnedBot

    if model not in ZOO:
        raise ArgumentError(f"no zoo model {model!r}; the zoo has {', '.join(sorted(ZOO))}")
    b = LearnedBot(path=ZOO[model].path, seed=seed)
    b.name = f"zoo:{model}"
    return b


def rows(path: str = BOARD) -> dict[str, list[list[object]]]:
    """The leaderboard's cells by row name (``[task, opponent, mean, low, high, games]``;
    a task the entry does not play has ``None`` for its numbers), or nothing when the
    table was never made."""
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    out: dict[str, list[list[object]]] = data["rows"]
    return out


def main() -> None:
    """List the models: weights, tables, training command, curve and leaderboard row."""
    board = rows()
    for m in ZOO.values():
        size = os.path.getsize(m.path) / 1e6 if os.path.exists(m.path) else 0.0
        print(f"zoo:{m.name}  {m.weights} ({size:.1f} MB)  {m.about}")
        print(f"  tables: {m.tables}")
        print(f"  trained by: {m.train}")
        print(f"  curve: {m.curve}")
        cells = board.get(f"zoo:{m.name}", [])
        played = [c for c in cells if c[2] is not None]
        for task, opponent, mean, low, high, games in played:
            print(
                f"  leaderboard: {task} vs {opponent}: {mean:.3f} [{low:.3f}, {high:.3f}] ({games})"
            )
        if not played:
            print("  leaderboard: no row yet (python -m durak.learn.leaderboard table)")
    print("\nwhich model `learned` plays at each family of tables:")
    for family, name in FAMILIES.items():
        print(f"  {family}: zoo:{name}")


if __name__ == "__main__":
    main()
