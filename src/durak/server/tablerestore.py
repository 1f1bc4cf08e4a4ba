"""A table rebuilt from the database after a restart or a takeover: its current match
replayed move by move."""

from __future__ import annotations

from typing import Any

from ..errors import RecordError
from ..game import Game
from ..match import Match
from . import protocol
from .store import TableRow
from .store import now as now_utc
from .tablecore import C
from .tabledeals import forfeit_result, forfeit_seats
from .tableseating import TableSeating


class TableRestore(TableSeating[C]):
    """Restoring a table."""

    def restore(self, row: TableRow, keep_clock: bool = False) -> bool:
        """Rebuild from the database: replay the current match. True if the last deal's
        end was played but not recorded as such (the caller stores it). ``keep_clock``
        (a table taken over from another worker): the turn clock runs from the stored
        time of the last change, not from now."""
        self.status = row.status
        self.match_no = row.match_no
        self.state = row.deal_count + row.action_count
        if keep_clock and row.turn_since is not None:
            since = (now_utc() - row.turn_since).total_seconds()
            started = self.lobby.clock.monotonic() - max(0.0, since)
            self.turn_state, self.turn_started = self.state, started
        unrecorded_end = False
        if row.match_seed is None or not row.current:
            return False
        m = self.match = Match(
            self.rules,
            seed=row.match_seed,
            deals=self.deals,
            target=self.target,
            names=self.names(),
        )
        for i, d in enumerate(row.current):
            g = m.game
            if (g.seed, g.dealer, g.leader) != (d.seed, d.dealer, d.leader):
                # Each deal was dealt from a seed of its own (``_fair_deal``), stored
                # with it: the stored deal wins.
                g = m.game = Game(
                    self.rules,
                    seed=d.seed,
                    dealer=d.dealer,
                    leader=d.leader,
                    pagon=g.pagon or None,
                )
            self.salt = d.salt
            self.server_seed, self.deal_nonces = d.server_seed, d.nonces
            self.log = []
            if d.assisted:
                self.assisted.add(d.id)
            for seat, text, moved_by in d.actions:
                if g.to_act != seat:
                    raise RecordError(
                        f"table {self.id}: stored action {text} by seat {seat}, "
                        f"but seat {g.to_act} is to act"
                    )
                phase = g.phase
                called = protocol.call_outcome(g, seat, protocol.parse_action(text))
                g.apply(text)
                entry: dict[str, Any] = {
                    "seat": seat,
                    "action": text,
                    "bout": g.bout,
                    "phase": str(phase),
                    **called,
                }
                if moved_by is not None:
                    entry["by"] = moved_by
                self.log.append(entry)
            self.game, self.deal_id, self.deal_no = g, d.id, d.deal_no
            if d.result is not None and d.result.startswith("forfeit"):
                gone, by = forfeit_seats(self.names(), d.result)
                self.forfeit = forfeit_result(d.result, gone, by)
                continue
            if g.is_over:
                nxt = m.next_deal()
                if d.result is None:
                    unrecorded_end = True
                if nxt is None:
                    self.status = "finished"
                elif i == len(row.current) - 1:
                    self.pending = nxt
            elif i != len(row.current) - 1:
                raise RecordError(f"table {self.id}: deal {d.id} unfinished but not the last")
        return unrecorded_end

    async def resume(self, record_end: bool) -> None:
        async with self.lock:
            if record_end:
                await self.write(self.store.store.finish_deal, *self._deal_end(self.status))
            self.schedule()
