"""Every command shown in README.md and docs/ runs (issue 13): a broken example fails CI.

The commands are read from the documents themselves (fenced blocks without a language,
and indented blocks), so a new example is tested as soon as it is written. Each runs
with small counts: ``--games 1``, ``--iterations 5`` for searching bots and hints, output
files in a temporary directory, and a record written for the file it names. Commands
that open an interactive screen or a server (``durak play``, ``durak serve``,
``durak replay --step``) have their arguments checked by the command's own parser, and
``durak verify-deal``, which asks a running server, its option names; a
``make`` target must exist in the Makefile. Bot strength and speed are not this test's
business: the benchmarks measure them.

Issue 33: the commands paste as they are. A command in a block of README.md or docs/
runs a program that exists after ``make`` (``make …`` or ``.venv/bin/…``, never a bare
``durak``, ``python`` or ``pip``), names repository files that exist and no placeholder
(except those that need a server or a cluster of your own), and one that takes a while
(an arena, a hint, a benchmark, an install, an example) says how long in its comment.
"""

from __future__ import annotations

import argparse
import importlib
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from durak import Game, Match, Rules
from durak.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parent.parent
DOCS = [
    ROOT / "README.md",
    ROOT / "benchmarks" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
INTERACTIVE = {"play", "serve"}
NEEDS_SERVER = {"verify-deal"}  # asks a running server: its options are checked
# a Ray cluster's address is a placeholder in the docs: such commands have their
# arguments checked (tests/test_dist.py runs the arena on a local Ray)
NEEDS_CLUSTER = "--address"
HEAVY_BOTS = re.compile(r"^(ismcts|level[45])")


def _blocks(text: str) -> list[str]:
    """Lines of fenced blocks without a language (or a shell one) and of indented blocks."""
    lines: list[str] = []
    fence: str | None = None
    prev_blank = True
    # a shell line continued with a backslash is one command
    for line in re.sub(r"\\\n\s*", " ", text).splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else stripped[3:].strip()
            continue
        if fence is not None:
            if fence in ("", "sh", "bash", "console", "shell"):
                lines.append(stripped)
        elif line.startswith("    ") and (prev_blank or lines) and stripped:
            lines.append(stripped)
        prev_blank = not stripped
    return lines


def documented_commands() -> list[tuple[str, str]]:
    """Commands in blocks, and inline ones with arguments such as `durak replay FILE`
    (a bare `durak hint` names a command: see the test below). Each once."""
    found: dict[str, str] = {}
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        # inline commands with a file to work on; option mentions are checked below
        inline = [" ".join(c.split()) for c in re.findall(r"`(durak [\w-]+ [^`-][^`]*)`", text)]
        for line in _blocks(text) + inline:
            cmd = line.split("  #")[0].strip()
            if re.match(r"^(\.venv/bin/)?durak [a-z-]+(\s|$)|^make \w|^python -m durak", cmd):
                found.setdefault(cmd.removeprefix(".venv/bin/"), doc.relative_to(ROOT).as_posix())
    return [(doc, cmd) for cmd, doc in found.items()]


COMMANDS_SHOWN = documented_commands()


# The documents whose commands must paste as they are (benchmarks/README.md documents
# the benchmark runs, measured where they are described).
PASTED = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROGRAM = re.compile(r"^(?:[A-Z_]+=\S+\s+)*(\S+)")
SLOW = re.compile(
    r"^(?:[A-Z_]+=\S+\s+)*(?:\.venv/bin/)?(?:durak (?:arena|bench|hint)|pip|python)\b"
)
TIME = re.compile(r"#.*\b(?:\d+(?:\.\d+)?\s*(?:s|min|minutes?|h|hours?)|seconds|hours?|minutes?)\b")
PLACEHOLDER = re.compile(r"\b(?:FILE|URL|HOST|ID|PORT)\b|<[^>]*>")
# Commands that need something of your own: a server, a cluster, a database.
OWN = re.compile(r"verify-deal|--address|--db |serve --host")


def pasted_commands() -> list[tuple[str, str]]:
    """(document, line) for every shell command in a block of the pasted documents."""
    out = []
    for doc in PASTED:
        for line in _blocks(doc.read_text(encoding="utf-8")):
            word = PROGRAM.match(line)
            if word and re.match(r"(make|durak|python3?|pip|uv|\.venv/bin/\S+)$", word.group(1)):
                out.append((doc.relative_to(ROOT).as_posix(), line))
    return out


@pytest.mark.parametrize(("doc", "line"), pasted_commands(), ids=[c for _, c in pasted_commands()])
def test_commands_paste_as_written(doc: str, line: str) -> None:
    command = line.split("  #")[0].strip()
    program = PROGRAM.match(command)
    assert program is not None
    name = program.group(1)
    assert name == "make" or name.startswith(".venv/bin/"), (
        f"{doc}: `{command}`: `{name}` is not on a new user's PATH; write .venv/bin/{name}"
    )
    if name.startswith(".venv/bin/"):
        assert name.removeprefix(".venv/bin/") in ("durak", "python", "pip"), f"{doc}: {name}"
    if not OWN.search(command):
        assert not PLACEHOLDER.search(command), f"{doc}: `{command}` has a placeholder"
    for word in shlex.split(command):
        if re.match(r"^(examples|benchmarks|scripts|docs|tests)/\S+\.(py|md|txt|sh)$", word):
            assert (ROOT / word).exists(), f"{doc}: `{command}` names {word}, which is missing"
        if word.startswith("~/") or "/.local/share/" in word:
            # a file of one person's machine: only as "the newest record", $(ls -t … | head -1)
            assert word.startswith("$(ls -t ") and word.endswith("| head -1)"), (
                f"{doc}: `{command}` names {word}, a file of one person's machine"
            )
    if SLOW.match(command):
        assert TIME.search(line), f"{doc}: `{command}` takes a while: say how long in a comment"


def test_the_documents_show_the_main_commands() -> None:
    shown = {
        shlex.split(c)[1] for _, c in COMMANDS_SHOWN if "durak " in c and not c.startswith("python")
    }
    assert len(COMMANDS_SHOWN) >= 15
    assert {"arena", "hint", "bench", "play", "serve", "replay"} <= shown


def test_every_command_named_in_the_text_exists() -> None:
    """Inline mentions such as `durak replay FILE` or `durak serve --grace` name real
    subcommands and options."""
    for doc in DOCS:
        for span in re.findall(r"`durak ([\w-]+[^`]*)`", doc.read_text(encoding="utf-8")):
            name, *rest = span.split()
            assert name in COMMANDS, f"{doc.name}: `durak {name}` is no command"
            options = _options(name)
            for word in rest:
                if word.startswith("--"):
                    assert word.split("=")[0] in options, f"{doc.name}: `durak {span}`"


def _options(name: str) -> set[str]:
    p = argparse.ArgumentParser(prog=f"durak {name}")
    importlib.import_module(COMMANDS[name][0]).add_arguments(p)
    return {o for action in p._actions for o in action.option_strings}


def _record(path: Path, match: bool, finished: bool) -> Path:
    """A match record, or a game record: finished, or 30 actions into the deal (a
    position to ask for a hint in)."""
    if match:
        m = Match(Rules(), seed=5, deals=2)
        while not m.is_over:
            g = m.game
            while not g.is_over:
                g.apply(g.legal_actions()[0])
            m.next_deal()
        path.write_text(m.record(), encoding="utf-8")
    else:
        g = Game(Rules(), seed=5)
        while not g.is_over and (finished or len(g.history) < 30):
            g.apply(g.legal_actions()[0])
        path.write_text(g.record(), encoding="utf-8")
    return path


def _small(name: str, args: list[str], tmp: Path) -> list[str]:
    """The command with small counts, its files in ``tmp``."""
    out: list[str] = []
    it = iter(args)
    for a in it:
        if a in ("--games", "--iterations"):
            next(it)
            out += [a, "1" if a == "--games" else "5"]
        elif a in ("--json", "--png"):
            out += [a, str(tmp / Path(next(it)).name)]
        elif a == "--bots":
            out.append(a)
        elif HEAVY_BOTS.match(a):
            name, _, opts = a.partition(":")
            kept = [o for o in opts.split(",") if o and not o.startswith(("time=", "iterations="))]
            out.append(name + ":" + ",".join([*kept, "iterations=5"]))
        elif a.endswith(".txt") or a == "FILE" or "match-*.txt" in a:
            out.append(
                str(_record(tmp / "record.txt", match="match" in a, finished=name != "hint"))
            )
        else:
            out.append(a)
    return out


def _check_arguments(name: str, argv: list[str]) -> None:
    """Parse ``argv`` with the subcommand's own parser, without running it."""
    p = argparse.ArgumentParser(prog=f"durak {name}", exit_on_error=False)
    importlib.import_module(COMMANDS[name][0]).add_arguments(p)
    p.parse_args(argv)


@pytest.mark.parametrize(("doc", "command"), COMMANDS_SHOWN, ids=[c for _, c in COMMANDS_SHOWN])
def test_documented_command_runs(
    doc: str,
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # anything written by default lands here
    words = shlex.split(command)
    if words[0] == "make":
        targets = re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M)
        assert words[1] in targets, f"{doc}: no make target {words[1]!r}"
        return
    if words[0] == "python":
        module = words[2]
        argv = [str(tmp_path / Path(w).name) if "/" in w else w for w in words[3:]]
        done = subprocess.run(
            [sys.executable, "-m", module, *argv],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, f"{doc}: {command}\n{done.stderr[-2000:]}"
        return
    name = words[1]
    if name in NEEDS_SERVER:
        options = _options(name)
        assert all(w in options for w in words[2:] if w.startswith("--")), f"{doc}: {command}"
        return
    argv = _small(name, words[2:], tmp_path)
    if name == "arena" and argv[:1] == ["merge"]:
        # the shards to merge: a small sharded run in this folder, then the glob expanded
        for i in (1, 2):
            assert (
                main(
                    [
                        "arena",
                        "--bots",
                        "random",
                        "greedy",
                        "--games",
                        "4",
                        "--jobs",
                        "1",
                        "--quiet",
                        "--shard",
                        f"{i}/2",
                        "--out",
                        f"part-{i}.jsonl",
                    ]
                )
                == 0
            )
        argv = [
            "merge",
            *[str(f) for w in argv[1:] if "*" in w for f in sorted(tmp_path.glob(w))],
            *[w for w in argv[1:] if "*" not in w],
        ]
        assert main([name, *argv]) == 0, f"{doc}: {command}"
        return
    if name in INTERACTIVE or "--step" in argv or NEEDS_CLUSTER in argv:
        _check_arguments(name, argv)
        return
    if name in ("arena", "bench") and "--games" not in argv:
        argv += ["--games", "1"]
    if name == "arena":
        argv += ["--jobs", "1", "--quiet"]
    if name == "hint" and "--iterations" not in argv and "--time" not in argv:
        argv += ["--iterations", "5"]
    assert main([name, *argv]) == 0, f"{doc}: {command}"
    assert capsys.readouterr().out.strip(), f"{doc}: {command} printed nothing"
