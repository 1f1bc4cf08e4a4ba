"""Distributed and split runs give the very games of one local run (docs/scale.md).

One local Ray with 2 CPUs (a real cluster of worker processes, not local mode) is started
for the module, after the multiprocessing reference runs (forking beside Ray's threads is
unsafe), and shut down at its end.
"""

from __future__ import annotations

import json
import operator
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import ray

from durak import Game, Rules
from durak.actions import encoding
from durak.arena import ArenaResult, chart, merge_files, run_match
from durak.bots import make
from durak.cli import main
from durak.dist import runlog
from durak.dist.executors import RayExecutor, executor
from durak.dist.selfplay import SelfPlay, register_encoder

TWO = (Rules(), ["heuristic", "greedy"], 24, 7)  # rules, bots, games, seed
# three seats, a bot repeated: the rotations of a deal must still come back in order
THREE = (Rules.preset("perevodnoy", players=3), ["heuristic", "greedy", "greedy"], 12, 2)


# what a game's record holds that depends on the machine: wall and CPU time
TIMING = {"seconds", "clock"}
# an entrant's results (its other fields are timing)
STATS = (
    "name",
    "seat_games",
    "durak",
    "draws",
    "durak_rate",
    "durak_ci",
    "score",
    "score_ci",
    "rating",
)


def untimed(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING} for r in records]


def games(result: ArenaResult) -> list[dict[str, Any]]:
    """Every game, in order, without its timing."""
    return untimed(result.records)


def stats(result: ArenaResult) -> list[list[Any]]:
    return [[getattr(e, k) for k in STATS] for e in result.entrants]


def same_result(a: ArenaResult, b: ArenaResult) -> None:
    assert games(a) == games(b)
    assert stats(a) == stats(b)
    # the table is the same up to its timing: the columns to the rating, and the last line
    # but for the time it gives
    head = a.table().splitlines()[0]
    cut = head.index("rating") + len("rating")
    ta, tb = a.table().splitlines(), b.table().splitlines()
    assert [x[:cut] for x in ta[:-1]] == [x[:cut] for x in tb[:-1]]
    assert ta[-1].split(",")[:2] == tb[-1].split(",")[:2]  # games, draws, rules


@pytest.fixture(scope="module")
def reference() -> dict[str, ArenaResult]:
    """The matches on two local processes (the default backend)."""
    return {
        name: run_match(rules, bots, games=n, seed=seed, jobs=2)
        for name, (rules, bots, n, seed) in (("two", TWO), ("three", THREE))
    }


@pytest.fixture(scope="module")
def local_ray(reference: dict[str, ArenaResult]) -> Iterator[Any]:
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR")
    yield ray
    ray.shutdown()


def test_a_failing_task_fails_the_run_on_processes() -> None:
    with executor("process", jobs=2) as ex, pytest.raises(ValueError, match="'x'"):
        list(ex.map_unordered(int, ["1", "2", "x", "4"]))


def test_ray_arena_gives_the_multiprocessing_games(
    reference: dict[str, ArenaResult], local_ray: Any
) -> None:
    with executor("ray") as ex:
        assert isinstance(ex, RayExecutor) and ex.workers == 2
        # the tasks really run in Ray's worker processes
        pids = set(ex.map_unordered(operator.call, [os.getpid] * 4))
        assert os.getpid() not in pids
    assert local_ray.is_initialized()  # a Ray started before is left running
    with executor("ray") as ex, pytest.raises(ValueError, match="'x'"):
        list(ex.map_unordered(int, ["1", "x"]))
    for name, (rules, bots, n, seed) in (("two", TWO), ("three", THREE)):
        for batch in (None, 1, 5):
            r = run_match(rules, bots, games=n, seed=seed, backend="ray", batch=batch)
            assert r.games == n
            same_result(r, reference[name])
    other_seed = run_match(TWO[0], TWO[1], games=TWO[2], seed=8, backend="ray")
    assert games(other_seed) != games(reference["two"])


def test_the_command_on_ray(
    reference: dict[str, ArenaResult], local_ray: Any, tmp_path: Path, capsys: Any
) -> None:
    rules, bots, n, seed = TWO
    out = tmp_path / "ray.json"
    assert (
        main(
            [
                "arena",
                "--backend",
                "ray",
                "--bots",
                *bots,
                "--games",
                str(n),
                "--seed",
                str(seed),
                "--json",
                str(out),
                "--png",
                "",
                "--quiet",
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert untimed(data["records"]) == games(reference["two"])
    assert main(["arena", "--address", "127.0.0.1:1", "--games", "2"]) == 2
    assert "--address is for --backend ray" in capsys.readouterr().err


def test_another_process_joins_the_cluster_at_ray_address(
    reference: dict[str, ArenaResult], local_ray: Any, tmp_path: Path
) -> None:
    # as a driver on a cluster machine would: RAY_ADDRESS names the running cluster
    port = local_ray.get_runtime_context().gcs_address.rsplit(":", 1)[1]
    rules, bots, n, seed = TWO
    out = tmp_path / "joined.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "durak.cli",
            "arena",
            "--backend",
            "ray",
            "--bots",
            *bots,
            "--games",
            str(n),
            "--seed",
            str(seed),
            "--json",
            str(out),
            "--png",
            "",
            "--quiet",
        ],
        env={**os.environ, "RAY_ADDRESS": f"127.0.0.1:{port}"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert untimed(json.loads(out.read_text())["records"]) == games(reference["two"])
    assert local_ray.is_initialized()  # the other driver left the cluster running


def test_without_ray_the_ray_backend_says_what_to_install(monkeypatch: Any) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the dist extra were not installed
    with pytest.raises(RuntimeError, match=r"pip install 'durak\[dist\]'"):
        run_match(Rules(), ["greedy"], games=2, backend="ray")
    assert run_match(Rules(), ["greedy"], games=2, jobs=1).games == 2


def test_shards_merge_into_the_one_run(
    reference: dict[str, ArenaResult], local_ray: Any, tmp_path: Path
) -> None:
    rules, bots, n, seed = TWO
    parts = [str(tmp_path / f"part-{i}.jsonl") for i in (1, 2, 3)]
    for i, part in enumerate(parts, start=1):
        # shards may run anywhere: the second on Ray, the others in this process
        r = run_match(
            rules,
            bots,
            games=n,
            seed=seed,
            shard=(i, 3),
            out=part,
            backend="ray" if i == 2 else "process",
            jobs=1,
        )
        assert {rec["deal"] % 3 for rec in r.records} == {i - 1}
    merged = merge_files(parts)
    same_result(merged, reference["two"])
    chart(merged, str(tmp_path / "merged.png"))
    chart(reference["two"], str(tmp_path / "one.png"))
    assert (tmp_path / "merged.png").read_bytes() == (tmp_path / "one.png").read_bytes()
    # the command: merge in any order, write the JSON
    out = tmp_path / "merged.json"
    assert main(["arena", "merge", parts[2], parts[0], parts[1], "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["games"] == n and untimed(data["records"]) == games(reference["two"])
    want = json.loads(json.dumps(stats(reference["two"])))
    assert [[e[k] for k in STATS] for e in data["entrants"]] == want


def test_merge_refuses_what_is_not_one_whole_run(tmp_path: Path, capsys: Any) -> None:
    rules, bots, n, seed = TWO
    a, b, c = (str(tmp_path / f"{x}.jsonl") for x in "abc")
    run_match(rules, bots, games=n, seed=seed, shard=(1, 2), out=a, jobs=1)
    run_match(rules, bots, games=n, seed=seed + 1, shard=(2, 2), out=b, jobs=1)
    run_match(rules, bots, games=n, seed=seed, shard=(2, 2), out=c, jobs=1)
    with pytest.raises(ValueError, match="not from the same run"):
        merge_files([a, b])
    with pytest.raises(ValueError, match=r"missing shard\(s\) 2/2"):
        merge_files([a])
    with pytest.raises(ValueError, match="twice"):
        merge_files([a, a, c])
    lines = Path(c).read_text().splitlines()
    Path(c).write_text("\n".join(lines[:-1]) + "\n")  # the last deal lost a game
    with pytest.raises(ValueError, match="1 of 6 deals not played yet"):
        merge_files([a, c])
    assert main(["arena", "merge", a, str(tmp_path / "none.jsonl")]) == 2
    assert "No such file" in capsys.readouterr().err


def test_an_interrupted_run_continues_from_its_file(
    reference: dict[str, ArenaResult], tmp_path: Path
) -> None:
    rules, bots, n, seed = TWO
    out = str(tmp_path / "run.jsonl")
    played = []

    def stop_after_seven(k: int) -> None:
        played.append(k)
        if sum(played) >= 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_match(
            rules, bots, games=n, seed=seed, out=out, jobs=1, batch=1, on_progress=stop_after_seven
        )
    assert sum(played) == 8  # four deals were done before the stop
    # a stop in the middle of a write: the last game cut off half way
    text = Path(out).read_text()
    Path(out).write_text(text[: len(text) - 40])
    assert len(runlog.read_path(out).complete_deals()) == 3
    again: list[int] = []
    r = run_match(rules, bots, games=n, seed=seed, out=out, jobs=1, on_progress=again.append)
    assert sum(again) == n - 6  # only the missing deals were played
    same_result(r, reference["two"])
    # the file now holds the whole run, each game once, and merges to the same result
    assert len(Path(out).read_text().splitlines()) == 1 + n
    same_result(merge_files([out]), reference["two"])
    # run again: nothing to play; ask for more games: the run is extended
    assert run_match(rules, bots, games=n, seed=seed, out=out, jobs=1).games == n
    more = run_match(rules, bots, games=n + 4, seed=seed, out=out, jobs=1)
    assert games(more)[:n] == games(reference["two"]) and more.games == n + 4


def test_a_file_of_another_run_is_left_alone(tmp_path: Path) -> None:
    rules, bots, n, seed = TWO
    out = tmp_path / "run.jsonl"
    run_match(rules, bots, games=4, seed=seed, out=str(out), jobs=1)
    before = out.read_bytes()
    with pytest.raises(ValueError, match="holds another run"):
        run_match(rules, ["random", "greedy"], games=4, seed=seed, out=str(out), jobs=1)
    with pytest.raises(ValueError, match="holds another run"):
        run_match(rules, bots, games=2, seed=seed, out=str(out), jobs=1)  # fewer deals
    assert out.read_bytes() == before
    lines = before.decode().splitlines()
    out.write_text("\n".join([lines[0], "{oops", *lines[1:]]) + "\n")
    with pytest.raises(ValueError, match="line 2: not a game record"):
        runlog.read_path(str(out))
    out.write_text('{"rules": "podkidnoy"}\n')
    with pytest.raises(ValueError, match="not a durak arena run file"):
        runlog.read_path(str(out))
    with pytest.raises(ValueError, match="expected i/N"):
        runlog.parse_shard("3/2")


def test_selfplay_on_ray_actors_streams_the_local_games(local_ray: Any) -> None:
    rules = Rules(deck=24)
    with SelfPlay(rules, ["heuristic", "random"], backend="local", seed=5) as sp:
        local = list(sp.games(10))
    with SelfPlay(rules, ["heuristic", "random"], workers=2, seed=5, batch=3) as sp:
        streamed = list(sp.games(10))
        assert sorted(streamed, key=lambda t: t.number) == local
        # the learner hands over a new player (an object, pickled to the workers)
        sp.set_players([make("greedy"), "heuristic"])
        later = sorted(sp.games(4), key=lambda t: t.number)
    assert [t.number for t in later] == [10, 11, 12, 13]
    with SelfPlay(rules, ["heuristic", "random"], backend="local", seed=5) as sp:
        endless = sp.games()
        assert [next(endless) for _ in range(10)] == local
    assert {t.version for t in later} == {1} and later[0].seats == ["greedy", "heuristic"]
    for t in local:
        g = Game.from_record(t.data["record"])
        assert g.seed == t.deal_seed and g.outcome is not None
        assert g.outcome.durak == t.data["durak"]
    with pytest.raises(ValueError, match="no bot 'nobody'"):
        SelfPlay(rules, ["nobody"], workers=1)
    with pytest.raises(ValueError, match="need 3 CPUs; the Ray cluster has 2"):
        SelfPlay(rules, ["greedy"], workers=3)
    # an encoder the learner names: the workers get the function, not the name
    register_encoder("moves", lambda g, seats: len(g.history))
    with SelfPlay(rules, ["heuristic", "random"], workers=2, seed=5, encoder="moves") as sp:
        counts = sorted(sp.games(4), key=lambda t: t.number)
    assert [t.data for t in counts] == [
        len(Game.from_record(t.data["record"]).history) for t in local[:4]
    ]
    check_envs_encoder(rules)
    with SelfPlay(rules, ["greedy"], workers=1, seed=5, encoder="actions") as sp:
        (t,) = sp.games(1)
    g = Game(rules, seed=t.data["seed"])
    for seat, index in t.data["moves"]:
        assert g.to_act == seat
        g.apply(g.legal_actions()[[a.index(rules) for a in g.legal_actions()].index(index)])
    assert g.is_over and g.outcome is not None and g.outcome.durak == t.data["durak"]


def check_envs_encoder(rules: Rules) -> None:
    """The ``envs`` encoder: the environments' own vectors, or a clear error without them."""
    try:
        from durak.envs.encoding import Encoder  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        with pytest.raises(RuntimeError, match="envs encoder needs durak.envs"):
            SelfPlay(rules, ["greedy"], workers=1, encoder="envs")
        return
    with SelfPlay(rules, ["greedy", "random"], workers=2, seed=5, encoder="envs") as sp:
        (t,) = sp.games(1)
    d, enc = t.data, Encoder(rules)
    g = Game(rules, seed=t.deal_seed)
    for k in range(len(d["action"])):
        assert g.to_act == d["seat"][k]
        assert (d["obs"][k] == enc.encode(g, g.to_act)).all()
        assert sorted(d["legal"][k]) == sorted(a.index(rules) for a in g.legal_actions())
        g.apply(next(a for a in g.legal_actions() if a.index(rules) == d["action"][k]))
    assert g.is_over and sum(d["returns"]) == 0


def _bias_policy(w: Any, name: str) -> Any:
    """A policy that plays the legal action of highest weight ``w[a]`` (a lambda: Ray's
    pickling sends it by value, with its weights)."""
    policy = lambda obs, mask: int(np.flatnonzero(mask)[np.argmax(w[np.flatnonzero(mask)])])  # noqa: E731
    policy.name = name  # type: ignore[attr-defined]
    return policy


def test_selfplay_on_ray_against_past_copies_of_a_policy(local_ray: Any) -> None:
    """Issue 34.2: the SelfPlay actors play policies (past copies of a learner, from an
    OpponentPool) as bots; each round the learner learns from the games and hands the
    workers its new copy and an old one."""
    from durak.envs.selfplay import OpponentPool

    rules = Rules(deck=24)
    w = np.zeros(encoding(rules).size)
    pool = OpponentPool(size=2, latest=0.0, seed=1)
    learner = _bias_policy(w.copy(), "v0")
    pool.add(learner, "v0")
    versions, names = set(), set()
    with SelfPlay(rules, [learner, pool.pick()[1]], workers=2, seed=3, encoder="envs") as sp:
        for v in (1, 2, 3):
            for t in sp.games(4):
                versions.add(t.version)
                names.update(t.seats)
                assert sum(t.data["returns"]) == 0 and len(t.data["action"]) > 0
                # "learning": actions of the seats that did not lose weigh more
                for k, a in enumerate(t.data["action"]):
                    w[a] += 0.1 * t.data["returns"][t.data["seat"][k]]
            learner = _bias_policy(w.copy(), f"v{v}")
            pool.add(learner, f"v{v}")
            sp.set_players([learner, pool.pick()[1]])
    assert pool.names() == ["v2", "v3"] and pool.added == 4
    # the workers played the new copies: later versions and their names came back
    assert {1, 2} <= versions and {"v0", "v1", "v2"} <= names
