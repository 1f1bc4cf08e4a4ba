"""The output file of an arena run: JSON lines, a header and then one line a game.

The header says what the run is (rules, bots, seed, number of deals, games per deal, which
shard); every other line is one game's record, written as soon as its deal is done, the
games of a deal together. So a run that is stopped can be continued from its file (deals
already there are not played again) and shards of one run can be merged: the games are
pure functions of the header and the deal number, wherever and whenever they were played.

>>> import io
>>> h = Header("podkidnoy", ["greedy", "random"], seed=1, deals=2, games_per_deal=2)
>>> f = io.StringIO()
>>> write_header(f, h)
>>> append(f, [{"deal": 1, "durak": 0}, {"deal": 1, "durak": 1}])
>>> log = read(io.StringIO(f.getvalue() + '{"deal": 0, "du'))  # a line cut off by a stop
>>> log.header == h, sorted(log.complete_deals()), log.damaged
(True, [1], True)
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import IO, Any

from ..errors import ArgumentError, RecordError

FORMAT = 1
MAGIC = "durak-arena"


@dataclass(frozen=True)
class Header:
    """What a run file holds: ``shard`` is ``(i, n)``, the i-th of n shards (1-based); its
    deals are ``i-1, i-1+n, i-1+2n, ...`` below ``deals``."""

    rules: str
    bots: list[str]
    seed: int
    deals: int
    games_per_deal: int
    shard: tuple[int, int] = (1, 1)

    def shard_deals(self) -> range:
        """The deal numbers this shard plays.

        >>> list(Header("podkidnoy", ["greedy"], 1, 10, 1, (2, 3)).shard_deals())
        [1, 4, 7]
        """
        i, n = self.shard
        return range(i - 1, self.deals, n)

    def run_key(self) -> tuple[Any, ...]:
        """What every shard of one run shares."""
        return (self.rules, tuple(self.bots), self.seed, self.deals, self.games_per_deal,
                self.shard[1])

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["shard"] = list(self.shard)
        return {MAGIC: FORMAT, **d}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Header:
        if d.get(MAGIC) != FORMAT:
            raise RecordError(f"not a durak arena run file (format {FORMAT})")
        try:
            i, n = d.get("shard", (1, 1))
            return Header(str(d["rules"]), [str(b) for b in d["bots"]], int(d["seed"]),
                          int(d["deals"]), int(d["games_per_deal"]), (int(i), int(n)))
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(f"a damaged run file header: {e}") from e


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/4"`` -> ``(2, 4)``: the second of four shards.

    >>> parse_shard("2/4")
    (2, 4)
    """
    i, slash, n = text.partition("/")
    try:
        shard = (int(i), int(n))
    except ValueError:
        shard = (0, 0)
    if not slash or not 1 <= shard[0] <= shard[1]:
        raise ArgumentError(f"--shard {text!r}: expected i/N with 1 <= i <= N, e.g. 1/4")
    return shard


@dataclass
class RunLog:
    """A run file as read: its header, its games by deal, and whether a line was damaged
    (a line cut off when the run was stopped)."""

    header: Header
    by_deal: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    damaged: bool = False

    def complete_deals(self) -> dict[int, list[dict[str, Any]]]:
        """The deals with all their games (a stop can leave a deal half written)."""
        n = self.header.games_per_deal
        return {d: g for d, g in self.by_deal.items() if len(g) == n}

    def records(self) -> list[dict[str, Any]]:
        """The games of the complete deals."""
        return [r for games in self.complete_deals().values() for r in games]


def write_header(f: IO[str], header: Header) -> None:
    f.write(json.dumps(header.to_json()) + "\n")
    f.flush()


def append(f: IO[str], records: Iterable[dict[str, Any]]) -> None:
    """Add the games of a finished deal (or several) and push them to the file."""
    f.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
    f.flush()


def read(f: IO[str], name: str = "run file") -> RunLog:
    """Read a run file; a damaged last line (an interrupted write) is dropped, a damaged
    line anywhere else is an error."""
    lines = f.read().split("\n")
    if not lines[0].strip():
        raise RecordError(f"{name}: empty, not a durak arena run file")
    try:
        header = Header.from_json(json.loads(lines[0]))
    except (json.JSONDecodeError, AttributeError) as e:
        raise RecordError(f"{name}: not a durak arena run file") from e
    except ValueError as e:
        raise RecordError(f"{name}: {e}") from e
    log = RunLog(header)
    body = lines[1:]
    for no, line in enumerate(body, start=2):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            deal = int(rec["deal"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            if no == len(lines) or (no == len(lines) - 1 and not lines[-1]):
                log.damaged = True  # the last line, cut off by a stop
                continue
            raise RecordError(f"{name}, line {no}: not a game record") from e
        log.by_deal.setdefault(deal, []).append(rec)
    return log


def read_path(path: str) -> RunLog:
    with open(path, encoding="utf-8") as f:
        return read(f, path)


def rewrite(path: str, log: RunLog) -> None:
    """Replace ``path`` by the header and the complete deals of ``log``, atomically (a stop
    during the rewrite leaves the old file)."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        write_header(f, log.header)
        append(f, log.records())
        os.fsync(f.fileno())
    os.replace(tmp, path)


def merge(logs: list[tuple[str, RunLog]]) -> tuple[Header, list[dict[str, Any]]]:
    """The whole run from the files of its shards (or from one file of an unsharded run):
    checks that they belong to one run and that every deal is there exactly once."""
    if not logs:
        raise ArgumentError("no run files to merge")
    first_name, first = logs[0]
    key = first.header.run_key()
    seen: dict[int, str] = {}
    records: list[dict[str, Any]] = []
    for name, log in logs:
        if log.header.run_key() != key:
            raise RecordError(f"{name} is not from the same run as {first_name} "
                             "(rules, bots, seed, deals and number of shards must agree)")
        shard = log.header.shard[0]
        if shard in seen:
            raise RecordError(f"shard {shard}/{key[-1]} twice: {seen[shard]} and {name}")
        seen[shard] = name
        complete = log.complete_deals()
        missing = [d for d in log.header.shard_deals() if d not in complete]
        if missing:
            raise RecordError(f"{name}: {len(missing)} of {len(log.header.shard_deals())} deals "
                             "not played yet; run its command again to finish it")
        records.extend(r for d in log.header.shard_deals() for r in complete[d])
    absent = sorted(set(range(1, key[-1] + 1)) - set(seen))
    if absent:
        raise RecordError(f"missing shard(s) {', '.join(f'{i}/{key[-1]}' for i in absent)}")
    header = Header(first.header.rules, first.header.bots, first.header.seed,
                    first.header.deals, first.header.games_per_deal, (1, 1))
    return header, records
