"""``durak tournament``: a small bots-only event of each format runs to its standings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from durak.cli import main


def test_a_swiss_of_five_bots_prints_its_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t.json"
    argv = ["tournament", "--format", "swiss", "--rounds", "3", "--deals", "2", "--seed", "1"]
    argv += ["--bots", "greedy", "random", "level1", "greedy", "random", "--json", str(out)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "Buchholz" in text and "greedy#2" in text
    event = json.loads(out.read_text())
    assert event["state"] == "finished" and len(event["rounds"]) == 3
    assert sorted(e for e, _ in event["byes"]) == sorted({e for e, _ in event["byes"]})
    table = [line.split() for line in text.splitlines()[2:7]]
    assert [row[0] for row in table] == ["1", "2", "3", "4", "5"]
    # 2 matches a round and a bye point: 3 points a round
    assert sum(float(row[2]) for row in table) == 9.0
    assert main(argv) == 0 and capsys.readouterr().out == text  # the seed fixes the run


def test_a_round_robin_and_a_group_event(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["tournament", "--format", "round_robin", "--bots", "greedy", "random", "level1"]) == 0
    )
    assert "S-B" in capsys.readouterr().out
    argv = ["tournament", "--format", "groups", "--rules", "podkidnoy(players=3)", "--rounds", "2"]
    assert main([*argv, "--bots", "greedy", "random", "level1", "greedy", "random", "level1"]) == 0
    text = capsys.readouterr().out
    assert "duraks" in text and "rounds: 2" in text


def test_bad_input_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "tournament",
        "--format",
        "groups",
        "--rules",
        "podkidnoy(players=4)",
        "--bots",
        "greedy",
    ]
    assert main(argv) == 2
    assert "durak tournament:" in capsys.readouterr().err
