"""The arena: paired deals with rotating seats, statistics, ratings, files; the hint command."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from durak import Game, Rules
from durak.arena import (
    add_arguments,
    bradley_terry,
    clustered_ci,
    lineups,
    replay_game,
    run,
    run_match,
    wilson,
)
from durak.bots import hint as hint_cmd
from durak.bots import make
from durak.bots import parse as parse_spec
from durak.bots.hint import hint
from durak.record import RecordError


def test_lineups_rotate_every_bot_through_every_seat() -> None:
    assert lineups(["a", "b"], 2) == [("a", "b"), ("b", "a")]
    ups = lineups(["x", "g", "g", "g"], 4)
    assert len(ups) == 4 and {u.index("x") for u in ups} == {0, 1, 2, 3}
    assert lineups(["a"], 3) == [("a", "a", "a")]


def test_parse_spec() -> None:
    assert parse_spec("ismcts:time=0.1,seed=3,solver=off") == (
        "ismcts",
        {"time": 0.1, "seed": 3, "solver": False},
    )
    assert parse_spec("greedy") == ("greedy", {})


def test_paired_deals_replay_the_same_cards() -> None:
    r = run_match(Rules(), ["heuristic", "random"], games=20, seed=4, jobs=1)
    assert r.games == 20
    by_deal: dict[int, list[dict]] = {}
    for rec in r.records:
        by_deal.setdefault(rec["deal"], []).append(rec)
    assert len(by_deal) == 10
    for recs in by_deal.values():
        assert len({rec["deal_seed"] for rec in recs}) == 1
        assert sorted(tuple(rec["seats"]) for rec in recs) == [
            ("heuristic", "random"),
            ("random", "heuristic"),
        ]
    h = next(e for e in r.entrants if e.name == "heuristic")
    rnd = next(e for e in r.entrants if e.name == "random")
    assert h.seat_games == rnd.seat_games == 20
    assert h.score > rnd.score and h.rating > rnd.rating
    assert h.durak_ci[0] <= h.durak_rate <= h.durak_ci[1]
    assert abs(h.score + rnd.score - 1) < 1e-9  # two players: one's loss is the other's win


def test_every_record_replays_its_game_exactly() -> None:
    """An arena record keeps every action: replayed on its deal it ends the same way
    (durak, order out, length), two- and four-player, transfers included."""
    for rules, bots in (
        (Rules(), ["heuristic", "random"]),
        (Rules.preset("perevodnoy", players=4), ["greedy", "random"]),
    ):
        r = run_match(rules, bots, games=8, seed=3, jobs=1)
        for rec in r.records:
            g = replay_game(rules, rec)
            o = g.outcome
            assert o is not None and g.is_over
            assert (o.durak, list(o.out_order), len(g.history)) == (
                rec["durak"],
                rec["out_order"],
                rec["moves"],
            )
    bad = dict(r.records[0])
    tokens = bad["play"].split()
    assert tokens[0] == "1." and ":" in tokens[1]
    tokens[1] = tokens[1].split(":")[0] + ":take"  # the leader cannot take
    bad["play"] = " ".join(tokens)
    with pytest.raises(RecordError, match="take"):
        replay_game(rules, bad)


def test_multiplayer_match_on_two_processes() -> None:
    rules = Rules.preset("perevodnoy", players=4)
    r = run_match(rules, ["heuristic", "greedy", "greedy", "greedy"], games=16, seed=2, jobs=2)
    assert r.games == 16
    ents = {e.name: e for e in r.entrants}
    assert ents["heuristic"].seat_games == 16 and ents["greedy"].seat_games == 48
    duraks = sum(e.durak for e in r.entrants)
    draws = sum(1 for rec in r.records if rec["draw"])
    assert duraks + draws == 16


def test_statistics() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson(0, 10)[0] == 0.0
    m, lo, hi = clustered_ci({0: [1.0, 1.0], 1: [0.0, 1.0], 2: [1.0, 0.5]})
    assert abs(m - 0.75) < 1e-9 and lo < m < hi
    # a 3:1 record is about +190 Elo (400 log10 3), less with the prior
    ratings = bradley_terry(["a", "b"], {("a", "b"): 300.0, ("b", "a"): 100.0}, anchor="b")
    assert ratings["b"] == 0.0 and 180 < ratings["a"] < 195


def test_command_writes_json_and_png(tmp_path: Path, capsys) -> None:
    p = argparse.ArgumentParser()
    add_arguments(p)
    js, png = tmp_path / "a.json", tmp_path / "a.png"
    args = p.parse_args(
        [
            "--bots",
            "greedy",
            "random",
            "--rules",
            "podkidnoy(deck=24)",
            "--games",
            "12",
            "--jobs",
            "1",
            "--json",
            str(js),
            "--png",
            str(png),
            "--quiet",
        ]
    )
    assert run(args) == 0
    out = capsys.readouterr().out
    assert "durak rate" in out and "greedy" in out
    data = json.loads(js.read_text())
    assert data["games"] == 12 and len(data["records"]) == 12
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = p.parse_args(["--bots", "nobody", "--games", "2", "--json", "", "--png", ""])
    assert run(bad) == 2


def test_hint_python_and_command(tmp_path: Path, capsys) -> None:
    g = Game(Rules(), seed=21)
    bots = [make("heuristic"), make("greedy")]
    for _ in range(12):
        g.apply(bots[g.to_act].choose(g.observation(g.to_act)))  # type: ignore[index]
    ranked = hint(g, iterations=60, seed=1)
    assert {a for a, _ in ranked} == set(g.legal_actions())
    values = [v for _, v in ranked]
    assert values[0] == max(values)
    rec = tmp_path / "game.txt"
    rec.write_text(g.record())
    p = argparse.ArgumentParser()
    hint_cmd.add_arguments(p)
    assert hint_cmd.run(p.parse_args([str(rec), "--ply", "5", "--iterations", "40"])) == 0
    out = capsys.readouterr().out
    assert "to act" in out and "  1. " in out
    assert hint_cmd.run(p.parse_args([str(rec), "--ply", "999"])) == 2
