"""What happens at a table without a person: bots think on a thread pool (never holding
the lock while they think), a stand-in moves for a person whose turn clock ran out or
who is away, the next deal of a match comes after its pause."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from ..actions import Action
from ..bots import Bot
from ..observation import Observation
from . import protocol
from .limits import Tally
from .seatbots import make_bot
from .store import Fenced, StoreUnavailable
from .tablecore import RETRY_DELAYS, C
from .tabledeals import TableDeals

log = logging.getLogger("durak.server")

_GIVING_BACK: set[asyncio.Task[None]] = set()


def _give_back(loop: asyncio.AbstractEventLoop, slots: Tally, key: str) -> None:
    """A bot's thread is done (any thread): its address's place is given back, on the
    event loop (a shared tally's count is in Redis)."""

    async def give() -> None:
        try:
            await slots.release(key)
        except Exception:
            log.exception("giving back a bot's place of %s failed", key)

    def start() -> None:
        task = loop.create_task(give())
        _GIVING_BACK.add(task)
        task.add_done_callback(_GIVING_BACK.discard)

    with contextlib.suppress(RuntimeError):  # the loop is closed: the count went with it
        loop.call_soon_threadsafe(start)


class TableClock(TableDeals[C]):
    """The bots and clocks of a table."""

    def schedule(self) -> None:
        """After every change: start whatever must happen next without a person, and set
        the mover's deadline."""
        me = asyncio.current_task()
        if self.task is not None and self.task is not me:
            self.task.cancel()
        self.task = None
        self.deadline = None
        if self.let_go:
            return
        now = self.lobby.clock.monotonic()
        if self.turn_state != self.state:
            self.turn_state, self.turn_started = self.state, now
        if self.status != "playing":
            return
        if self.pending is not None:
            # The finished deal stays on show until every connected person has pressed
            # "Next deal" (then at once), or for the deal pause when nobody is connected
            # or the server was given one (``deal_pause``: at most that long).
            waiting = {
                s.index for s in self.seats if s.kind == "human" and s.token_hash is not None
            } & self._online()
            pause = self.lobby.timings.deal_pause
            if waiting and waiting <= self.ready:
                pause = 0.0
            elif waiting and pause is None:
                return
            self.task = asyncio.create_task(
                self._next_deal_later(
                    self.state, self.lobby.timings.unattended_pause if pause is None else pause
                )
            )
            return
        g = self.game
        if g is None or g.to_act is None:
            return
        seat = self.seats[g.to_act]
        pace = self.lobby.timings.bot_pace
        bot = self.bots[seat.index]
        if seat.kind == "bot" and bot is not None:
            self.task = asyncio.create_task(self._bot_move(seat.index, bot, pace))
            return
        if seat.token_hash is None:
            # Nobody holds the seat (they left): a stand-in plays it.
            self.task = asyncio.create_task(self._bot_move(seat.index, self.stand_in, pace))
            return
        # A person: the turn clock, or what is left of the grace period if they are not
        # connected; past the grace period a stand-in plays for them at the bot pace.
        clock = self.turn_timer - (now - self.turn_started) if self.turn_timer else None
        waits = [clock] if clock is not None else []
        away = self._away_for(seat, self._online(), now)
        if seat.index not in self._online():
            waits.append(self.lobby.timings.grace - away)
        if not waits:
            return
        wait = max(0.0, min(waits))
        if wait <= 0:
            # The clock ran out while it was being rescheduled: its move, now.
            timed_out = clock is not None and clock <= 0
            self.task = asyncio.create_task(
                self._bot_move(seat.index, self.stand_in, 0.0 if timed_out else pace, timed_out)
            )
            return
        self.deadline = round(self.lobby.clock.time() + wait, 3)
        self.task = asyncio.create_task(
            self._bot_move(seat.index, self.stand_in, wait, wait_first=True)
        )

    async def _reschedule(self) -> None:
        async with self.lock:
            before = self.deadline
            self.schedule()
            if self.deadline != before:
                text = protocol.dumps(
                    {
                        "type": "clock",
                        "table": self.id,
                        "state": self.state,
                        "deadline": self.deadline,
                    }
                )
                for c in list(self.conns):
                    c.push(text)

    async def _bot_move(self, seat: int, bot: Bot, delay: float, wait_first: bool = False) -> None:
        state = self.state
        g = self.game
        assert g is not None
        try:
            if wait_first:
                await self.lobby.clock.sleep(delay)
            t0 = self.lobby.clock.monotonic()
            obs = g.observation(seat)
            action = await self._think(seat, bot, obs)
            if not wait_first:
                rest = delay - (self.lobby.clock.monotonic() - t0)
                if rest > 0:
                    await self.lobby.clock.sleep(rest)
            by = "timer" if wait_first else "stand_in" if bot is self.stand_in else None
            for retry in (*RETRY_DELAYS, None):
                async with self.lock:
                    if self.state != state:
                        return
                    if (
                        bot is self.stand_in
                        and seat in self._online()
                        and not (wait_first and self.turn_timer)
                    ):
                        # The person came back while the stand-in thought: their move
                        # (the reschedule their return spawned may not have run yet).
                        # Only their own turn clock running out moves for them now.
                        return
                    try:
                        await self._act(seat, state, action, by)
                        return
                    except Fenced:
                        return  # another worker holds the table now: this copy is let go
                    except StoreUnavailable:
                        if retry is None:
                            raise
                        log.warning("table %s: a bot move could not be stored; retrying", self.id)
                await self.lobby.clock.sleep(retry)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: automatic move failed; trying again", self.id)
            # Never leave the table stuck: the next attempt comes after a pause.
            self.spawn(self._reschedule_later(state, RETRY_DELAYS[-1]))

    async def _think(self, seat: int, bot: Bot, obs: Observation) -> Action:
        """``bot``'s move, within the hard time cap of a move. A seat bot thinks on the
        bot pool; past the cap (or failing) the stand-in moves instead, on a pool of its
        own that seat bots never hold, so turn clocks and away players are never kept
        waiting by another table's bots."""
        loop = asyncio.get_running_loop()
        if bot is not self.stand_in:
            cap = self.lobby.limits.bot_move_seconds
            start = loop.time()
            # The bots of one address key's tables think only so many at once (over every
            # worker of a cluster): a stranger's tables cannot fill every worker's pool.
            # Waiting for a place counts against the move's cap, as a queue did.
            slots, key = self.lobby.bot_slots, self.budget_key
            try:
                held = await slots.wait(key, cap)
            except Exception:
                log.exception("table %s: counting its bots failed; a stand-in moves", self.id)
                held = False
            if not held:
                log.warning("table %s: its address's bots were busy for %g s", self.id, cap)
            else:
                # The place is held for as long as the bot's thread thinks, past the cap
                # or the table's end too (as the thread of a pool is): given back when
                # the thread is done.
                work = self.lobby.bot_pool.submit(bot.choose, obs)
                work.add_done_callback(lambda _: _give_back(loop, slots, key))
                try:
                    return await asyncio.wait_for(
                        asyncio.wrap_future(work), max(0.0, start + cap - loop.time())
                    )
                except TimeoutError:
                    log.warning(
                        "table %s: bot %s took over %g s; a stand-in moves", self.id, bot.name, cap
                    )
                    # The late bot's thread may still be using it: the seat gets a fresh one.
                    spec = self.seats[seat].bot
                    if self.bots[seat] is bot and spec:
                        self.bots.seat(seat, make_bot(spec))
                except Exception:
                    log.exception("bot %s failed at table %s; a stand-in moves", bot.name, self.id)
        try:
            return await loop.run_in_executor(self.lobby.stand_in_pool, self.stand_in.choose, obs)
        except Exception:
            log.exception("the stand-in failed at table %s; the first legal move", self.id)
            return obs.legal[0]

    async def _reschedule_later(self, state: int, delay: float) -> None:
        await self.lobby.clock.sleep(delay)
        async with self.lock:
            if self.state == state:
                self.schedule()

    async def set_ready(self, seat: int) -> None:
        """The person at ``seat`` wants the next deal of the match (shown to the table)."""
        async with self.lock:
            if self.pending is None or seat in self.ready:
                return
            self.ready.add(seat)
            self.schedule()
            self.broadcast()

    async def _next_deal_later(self, state: int, pause: float) -> None:
        try:
            if pause > 0:
                await self.lobby.clock.sleep(pause)
            for retry in (*RETRY_DELAYS, *[10.0] * 30):
                async with self.lock:
                    if self.state != state or self.pending is None or self.let_go:
                        return
                    try:
                        await self._start_deal(self.pending)
                        return
                    except StoreUnavailable:
                        log.warning(
                            "table %s: the next deal could not be stored; retrying", self.id
                        )
                await self.lobby.clock.sleep(retry)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: could not start the next deal", self.id)
