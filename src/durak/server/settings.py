"""The server's timings, in one value: every wait, pause, lease and bound of
``durak serve`` with its default, built once (by the CLI, or a test) and passed down to
the app, the lobby, the store and the cluster, which read it and keep no copy of their
own.

>>> Timings().beat, Timings(lease=6.0).worker_gone
(0.5, 10.0)
>>> Timings(deal_pause=None, bot_pace=0.5).unattended_pause
2.0
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ArgumentError

# PostgreSQL ends a session left idle inside a transaction this long (its worker stopped
# or was cut off mid-write), freeing the table rows it held (docs/scale.md).
STALL_SECONDS = 5.0


@dataclass(frozen=True)
class Timings:
    """Seconds, all of them (``durak serve``'s options of the same names).

    ``bot_pace``: a bot's move takes at least this long, so people can follow;
    ``deal_pause``: at most this long a finished deal of a match stays on show (None:
    until every connected person presses Next deal; ``unattended_pause`` with nobody
    connected); ``grace``: a person disconnected this long is away and a stand-in plays
    for them; ``forfeit_after``: away this long, the others may claim the win;
    ``close_*_after``: a table nobody is connected to stays open this long, by status;
    ``lock_timeout``: a database write waits this long for a lock before it fails;
    ``stall``: PostgreSQL ends a session idle this long inside a transaction;
    ``lease``: a table's lease in a cluster (a worker beats six times a lease);
    ``drain``: a worker told to stop waits this long for its sockets' requests, then as
    long again for its tables' writes."""

    bot_pace: float = 0.8
    deal_pause: float | None = None
    grace: float = 60.0
    forfeit_after: float = 120.0
    close_finished_after: float = 600.0
    close_playing_after: float = 900.0
    close_waiting_after: float = 300.0
    lock_timeout: float = 2.0
    stall: float = STALL_SECONDS
    lease: float = 3.0
    drain: float = 5.0

    def __post_init__(self) -> None:
        wrong = self.problem()
        if wrong:
            raise ArgumentError(wrong)

    def problem(self) -> str:
        """What is wrong with these numbers ("" when nothing is), named as the options of
        ``durak serve``."""
        if not self.lease >= 1.0:
            return f"--lease {self.lease:g}: at least 1 second"
        if not self.lock_timeout > 0 or not self.stall > 0:
            return "--db-lock-timeout and --db-stall: more than 0"
        if not self.drain > 0:
            return f"--drain {self.drain:g}: more than 0 seconds"
        if min(self.bot_pace, self.grace, self.forfeit_after) < 0 or (
            self.deal_pause is not None and self.deal_pause < 0
        ):
            return "--bot-pace, --deal-pause, --grace, --forfeit-after: at least 0"
        return ""

    @property
    def unattended_pause(self) -> float:
        """How long a finished deal stays on show with nobody connected."""
        return 4 * self.bot_pace if self.deal_pause is None else self.deal_pause

    @property
    def close_after(self) -> dict[str, float]:
        """Seconds a table with nobody connected stays open, by its status."""
        return {
            "finished": self.close_finished_after,
            "waiting": self.close_waiting_after,
            "playing": self.close_playing_after,
        }

    @property
    def beat(self) -> float:
        """Seconds between a worker's beats (renewing its leases): six a lease."""
        return self.lease / 6

    @property
    def worker_gone(self) -> float:
        """A worker that has not beaten this long (5/3 of a lease) is gone."""
        return self.lease * 5 / 3
