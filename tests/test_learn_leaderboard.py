"""The leaderboard protocol v1 (issue 52.6, durak.learn.leaderboard) and the zoo (52.5,
durak.learn.zoo): a row is reproducible bit for bit, the command scores a spec and prints
its row, a network that cannot play a task's table gets ``-`` there, and the zoo's models
are bot specs that the environments take as opponents."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from durak.bots import make
from durak.envs.vector import DurakVectorEnv
from durak.errors import ArgumentError
from durak.learn import leaderboard, zoo
from durak.rules import Rules


def test_a_row_is_the_same_bit_for_bit_when_scored_again() -> None:
    first = leaderboard.score("heuristic", deals=1)
    again = leaderboard.score("heuristic", deals=1)
    assert first == again
    assert [(r.task, r.opponent) for r in first] == [
        (t.name, o) for t in leaderboard.TASKS for o in leaderboard.OPPONENTS
    ]
    # a game from every side of a deal: 2 at two players and in teams, 3 and 4 beside
    games = {r.task: r.cell.games for r in first if r.cell is not None}
    assert games == {"2p-podkidnoy": 2, "2p-perevodnoy": 2, "3p-podkidnoy": 3,
                     "4p-podkidnoy": 4, "2x2-podkidnoy": 2}  # fmt: skip
    # a bigger run starts with the same deals: its first deal's cell is this one
    two = leaderboard.score("heuristic", deals=2, tasks=leaderboard.TASKS[:1])
    assert two[0].cell is not None and two[0].cell.games == 4


def test_the_seeds_are_the_protocols_not_the_processs() -> None:
    task = leaderboard.TASKS[0]
    assert leaderboard.bot_seed(task, 3, 1, 0) == 3460109017  # CRC-32: any machine, any run
    assert len({t.seed for t in leaderboard.TASKS}) == len(leaderboard.TASKS)


def test_the_command_scores_a_spec_and_prints_its_row(capsys: pytest.CaptureFixture[str]) -> None:
    leaderboard.main(["score", "zoo:dmc2", "--deals", "1"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("leaderboard v1")
    assert out[1].startswith("| entry | 2p-podkidnoy vs greedy |")
    cells = out[3].split(" | ")
    assert cells[0] == "| zoo:dmc2"
    # the 2-player network plays the 2-player tasks and cannot play the others
    assert all(c.endswith("(2)") for c in cells[1:7])
    assert cells[7:] == ["-"] * 9 + ["- |"]


def test_the_table_command_writes_the_page_and_the_zoos_cells(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, cells = tmp_path / "board.md", tmp_path / "board.json"
    two = [("greedy (level2)", "greedy"), ("zoo:table", "zoo:table")]
    monkeypatch.setattr(leaderboard, "BASELINES", two)  # (the whole table: benchmarks/rl)
    text, results, _ = leaderboard.table(1, entries=[("greedy", "greedy")])
    assert text.splitlines()[2].startswith("| greedy | ")
    page = leaderboard.page(text, {"greedy": 1.0}, 1.0, "2026-12-05 19:00", "1.0-1.0", 1)
    assert "table --deals 1 " in page and "load 1.0-1.0" in page
    leaderboard.main(["table", "--deals", "1", "--out", str(out), "--json", str(cells)])
    data = json.loads(cells.read_text())
    assert data["version"] == "v1" and list(data["rows"]) == ["greedy (level2)", "zoo:table"]
    assert zoo.rows(str(cells))["zoo:table"][0][:2] == ["2p-podkidnoy", "greedy"]
    assert "| greedy (level2) |" in out.read_text()


def test_bad_entries_are_refused_before_any_game() -> None:
    with pytest.raises(ArgumentError):
        leaderboard.score("no-such-bot", deals=1)
    with pytest.raises(ArgumentError, match="at least 1"):
        leaderboard.score("greedy", deals=0)
    with pytest.raises(ArgumentError, match="no zoo model"):
        make("zoo:nothing")


def test_zoo_models_are_specs_the_envs_take_as_opponents() -> None:
    for name, model in zoo.ZOO.items():
        assert os.path.exists(model.path), name
        assert Path(__file__).resolve().parent.parent.joinpath(model.curve).exists(), name
        assert make(f"zoo:{name}").name == f"zoo:{name}"
    assert set(zoo.FAMILIES.values()) <= set(zoo.ZOO)
    env = DurakVectorEnv(2, Rules.preset("podkidnoy", players=3), ["zoo:table"])
    obs, _ = env.reset(seed=1)
    done = 0
    while done < 2:
        obs, _, term, trunc, _ = env.step(
            np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
        )
        done += int((term | trunc).sum())


def test_the_zoo_lists_its_models(capsys: pytest.CaptureFixture[str]) -> None:
    zoo.main()
    out = capsys.readouterr().out
    for name in zoo.ZOO:
        assert f"zoo:{name}  " in out
    assert "3 players: zoo:table" in out
