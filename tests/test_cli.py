"""The ``durak`` command line: clear errors and exit codes for bad options, defaults in
every --help, nothing written unasked, records read in either language."""

from __future__ import annotations

import argparse
import socket
import threading
from pathlib import Path

import pytest

from durak import Game, Rules
from durak.arena import Progress
from durak.bots import make
from durak.cli import COMMANDS, DefaultsHelp, build_parser, main
from durak.match import Match

from .waiting import until


def sub_parser(name: str) -> argparse.ArgumentParser:
    parser, _ = build_parser(name)
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub: argparse.ArgumentParser = subs.choices[name]
    return sub


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_option_of_every_command_shows_its_default(name: str) -> None:
    sub = sub_parser(name)
    formatter = DefaultsHelp("durak")
    for action in sub._actions:
        if not action.option_strings or action.nargs == 0:  # positionals, flags
            continue
        text = formatter._get_help_string(action) or ""
        assert "default" in text, (name, action.option_strings, text)
    assert "(default: " in sub.format_help()


def test_bench_refuses_zero_games_and_unknown_presets(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in (
        (["--games", "0"], "--games: must be at least 1"),
        (["--presets", "foo"], "no preset 'foo'; one of podkidnoy"),
        (["--players", "9"], "at most 6"),
    ):
        with pytest.raises(SystemExit) as e:
            main(["bench", *argv])
        assert e.value.code == 2
        assert message in capsys.readouterr().err
    assert main(["bench", "--games", "2", "--presets", "prostoy", "--players", "2"]) == 0
    assert "prostoy()" in capsys.readouterr().out


def test_serve_refuses_a_bad_port_and_a_taken_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("uvicorn")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["serve", "--port", "99999"])
    assert e.value.code == 2 and "99999 is not a port" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    out = capsys.readouterr()
    assert "cannot listen on 127.0.0.1:" in out.err
    assert "serving on" not in out.out  # never claimed
    assert list(tmp_path.iterdir()) == []  # and no database was made


def two_deal_record(finish_second: bool) -> tuple[Match, str]:
    m = Match(Rules(), seed=4, deals=2)
    bots = [make("greedy"), make("greedy")]
    g = m.game
    while not g.is_over:
        g.apply(bots[g.to_act or 0].choose(g.observation(g.to_act or 0)))
    m.next_deal()
    g = m.game
    for _ in range(1000 if finish_second else 7):
        if g.is_over:
            break
        g.apply(bots[g.to_act or 0].choose(g.observation(g.to_act or 0)))
    return m, m.record()


def test_replay_in_russian_and_no_zero_pogony(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    m, text = two_deal_record(finish_second=True)
    path = tmp_path / "match.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path), "--lang", "ru"]) == 0
    ru = capsys.readouterr().out
    assert ru.startswith("Партия: Подкидной, 2 игрока") and "Сдача 2:" in ru
    assert "кон 1:" in ru and "После 2 сдач:" in ru and "бьёт" in ru
    assert main(["replay", str(path), "--lang", "en"]) == 0
    en = capsys.readouterr().out
    assert "After 2 deals:" in en and "durak 1 time" in en
    hung = sum(g.outcome.pogony for g in m.games if g.outcome is not None)
    assert ("pogon" in en) == (hung > 0)  # pogony are named only when some were hung
    assert "pogony 0" not in en


def test_hint_reads_the_deal_asked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m, text = two_deal_record(finish_second=False)
    path = tmp_path / "match.txt"
    path.write_text(text, encoding="utf-8")
    first, second = m.games[0], m.game
    assert first.trump != second.trump or first.seed != second.seed
    assert main(["hint", str(path), "--iterations", "20"]) == 0  # the last deal, as it stands
    out = capsys.readouterr().out
    assert f"trump {second.trump}" in out and f"bout {second.bout + 1}" in out
    assert main(["hint", str(path), "--deal", "1", "--ply", "0", "--iterations", "20"]) == 0
    out = capsys.readouterr().out
    assert f"trump {first.trump}" in out and "bout 1," in out
    assert main(["hint", str(path), "--deal", "3"]) == 2
    assert "--deal: the record holds deals 1..2" in capsys.readouterr().err


def test_arena_writes_files_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["arena", "--bots", "greedy", "random", "--games", "4", "--jobs", "1", "--quiet"]
    assert main(argv) == 0
    assert list(tmp_path.iterdir()) == []
    pytest.importorskip("matplotlib")
    assert main([*argv, "--json", "out.json", "--chart", "out.png"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json", "out.png"]


def test_arena_progress_clears_its_line_and_reads_as_a_clock(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bar = Progress(3)
    bar.tty = True
    bar.start -= 7000  # as if two hours had gone by
    bar.update(1)
    bar.update(1)
    err = capsys.readouterr().err
    lines = err.split("\r")[1:]
    assert all(line.startswith("[") and "\x1b[K" in line for line in lines)
    # 7000 s for the first game: two more take 14000 s; then one more 3500 s
    assert "1/3 games  1:56:40  eta 3:53:20" in lines[0]
    assert "2/3 games  1:56:40  eta 58:20" in lines[1]
    assert " ss" not in err


def test_game_record_hint_still_reads_a_lone_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g = Game(Rules(), seed=6)
    for _ in range(5):
        g.apply(g.legal_actions()[0])
    path = tmp_path / "game.txt"
    path.write_text(g.record(), encoding="utf-8")
    assert main(["hint", str(path), "--iterations", "20"]) == 0
    assert f"trump {g.trump}" in capsys.readouterr().out


def test_arena_progress_speaks_at_least_every_few_seconds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow game (level 5 takes minutes a deal) still shows the clock moving: the
    ticker redraws with no game ended (waited for as an event, not a time)."""
    assert Progress.EVERY <= 5
    monkeypatch.setattr(Progress, "EVERY", 1.0)
    ticked = threading.Event()
    show = Progress._show

    def shown(self: Progress, force: bool) -> None:
        show(self, force)
        ticked.set()

    monkeypatch.setattr(Progress, "_show", shown)
    bar = Progress(4)
    bar.tty = False
    bar.start_ticker()
    assert ticked.wait(60), "the ticker never redrew"
    bar.close()
    lines = [x for x in capsys.readouterr().err.splitlines() if x]
    assert len(lines) >= 1 and all("0/4 games" in x and "eta ?" in x for x in lines)


def test_arena_png_without_matplotlib_says_so_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 50: the chart's missing library is said at once, not after every game."""
    import importlib.util

    import durak.arena

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name)
    )

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the missing library was said")

    monkeypatch.setattr(durak.arena, "run_match", played)
    png = tmp_path / "chart.png"
    argv = ["arena", "--bots", "random", "greedy", "--games", "2", "--png", str(png)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "matplotlib" in err and "Traceback" not in err and not png.exists()


def answering(line: str) -> None:
    """Wait until the server that printed ``line`` ("serving on http://...") answers."""
    import re
    import urllib.request

    url = re.search(r"http://\S+", line)
    assert url is not None, line

    def answers() -> bool:
        with urllib.request.urlopen(url[0], timeout=2):
            return True

    until(answers, "the server to answer")  # (an OSError: not yet)


def test_a_second_server_on_one_database_refuses_and_ctrl_c_ends_quietly(tmp_path: Path) -> None:
    """Issue 50: a second `durak serve` on the same SQLite file refuses, saying why,
    instead of running the first one's live tables beside it; Ctrl-C then stops the
    first one without a traceback."""
    import os
    import signal
    import subprocess
    import sys

    env = {**os.environ, "DURAK_PURE": "1", "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "durak.cli", "serve", "--port", "0", "--db", "sqlite:///d.db"]
    first = subprocess.Popen(
        cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert first.stdout is not None
        line = first.stdout.readline()  # (said once the address is ours)
        assert "serving on" in line
        answering(line)
        second = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True)
        assert second.returncode == 1
        assert "another server is already using d.db" in second.stderr
        assert f"process {first.pid}" in second.stderr and "Traceback" not in second.stderr
        first.send_signal(signal.SIGINT)
        _, err = first.communicate(timeout=30)
        assert first.returncode == 0, err
        assert "Traceback" not in err
    finally:
        if first.poll() is None:
            first.kill()
    # the first one gone, the database is free again
    third = subprocess.Popen(
        cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert third.stdout is not None
        line = third.stdout.readline()
        assert "serving on" in line
        # Ctrl-C once it answers, as for the first: a process started in the background
        # of a non-interactive shell (`make test &`) inherits SIGINT ignored, and Python
        # keeps it so until the server sets its own handler, so an earlier one is lost.
        answering(line)
    finally:
        third.send_signal(signal.SIGINT)
        third.communicate(timeout=30)
