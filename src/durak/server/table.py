"""One live table: its seats, its match, its connections, its bots and its timer.

Every change goes through the table's lock: an action is checked, stored, applied and
then broadcast, in that order, so what the database holds is never behind what a
client has seen. Bots think on a thread pool and never hold the lock while thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..bots import Bot
from ..game import Game
from ..match import Match
from ..rules import Rules
from . import assist, protocol, ratings
from .protocol import PROTOCOL_VERSION, ProtocolError
from .seatbots import STAND_IN, make_bot
from .store import TableRow

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("durak.server")

LOG_TAIL = 60  # moves of the deal's log sent with each update
OUTBOX_LIMIT = 512  # messages queued for one client before it is dropped as too slow


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Connection:
    """One client's outbox: a writer task drains it, so that a slow client never holds
    up its table or the others."""

    def __init__(self, send: Callable[[str], Awaitable[None]],
                 close: Callable[[], Awaitable[None]] | None = None) -> None:
        self._send = send
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: LiveTable | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.closed = False

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= OUTBOX_LIMIT:
            log.warning("dropping a client that does not read its messages")
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                if self._close is not None:
                    with contextlib.suppress(Exception):
                        await self._close()
                return
            try:
                await self._send(text)
            except Exception:  # the client is gone; its reader ends the connection
                self.closed = True
                return

    def stop(self) -> None:
        self.closed = True
        self.queue.put_nowait(None)


@dataclass
class Seat:
    index: int
    kind: str  # "human" or "bot"
    bot: str | None  # the bot spec of a bot seat
    name: str
    token_hash: str | None  # who holds a human seat; None while it is free
    player: Bot | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def row(self) -> dict[str, Any]:
        return {"seat": self.index, "kind": self.kind, "bot": self.bot, "name": self.name,
                "token_hash": self.token_hash}


class LiveTable:
    """A table in memory. Public coroutines take the lock; ``_`` methods expect it held."""

    def __init__(self, lobby: Lobby, table_id: str, rules: Rules, seats: list[Seat],
                 deals: int | None = 1, target: int | None = None,
                 turn_timer: float | None = None) -> None:
        self.lobby = lobby
        self.id = table_id
        # a table of bots only must end its deals (RULES.md 5, action_limit)
        self.rules = rules.with_action_limit() if all(s.kind == "bot" for s in seats) else rules
        self.seats = seats
        self.deals = deals
        self.target = target
        self.turn_timer = turn_timer
        self.status = "waiting"
        self.match: Match | None = None
        self.match_no = 0
        self.game: Game | None = None  # the deal on show (a finished one between deals)
        self.pending: Game | None = None  # the next deal, shown after a pause
        self.deal_no = 0
        self.deal_id: int | None = None
        self.state = 0
        self.log: list[dict[str, Any]] = []
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.touched = time.monotonic()  # the last change or connection: for the janitor
        self.task: asyncio.Task[None] | None = None
        self.stand_in: Bot = make_bot(STAND_IN)
        for s in seats:
            if s.kind == "bot" and s.bot:
                s.player = make_bot(s.bot)

    # -- views -----------------------------------------------------------------------
    @property
    def store(self) -> Any:
        return self.lobby.store

    def names(self) -> list[str]:
        return [s.name or f"Seat {s.index + 1}" for s in self.seats]

    def public_seats(self) -> list[dict[str, Any]]:
        online = {c.seat for c in self.conns if c.seat is not None}
        return [{"seat": s.index, "kind": s.kind, "bot": s.bot, "name": s.name,
                 "taken": s.taken, "online": s.kind == "bot" or s.index in online}
                for s in self.seats]

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {"id": self.id, "rules": protocol.rules_text(self.rules), "status": self.status,
                "seats": self.public_seats(), "deals": self.deals, "target": self.target,
                "turn_timer": self.turn_timer, "deal": self.deal_no, "state": self.state,
                "spectators": sum(1 for c in self.conns if c.seat is None)}

    def _match_json(self) -> dict[str, Any] | None:
        if self.match is None:
            return None
        t = self.match.tally
        return {"no": self.match_no, "deal": self.deal_no, "deals": self.deals,
                "target": self.target, "played": t.deals, "draws": t.draws,
                "durak_counts": t.durak_counts, "pogony_hung": t.pogony_hung,
                "pogonny_scores": t.pogonny_scores, "team_losses": t.side_losses}

    def _result_json(self) -> dict[str, Any] | None:
        g = self.game
        if g is None or g.outcome is None:
            return None
        o = g.outcome
        return {"durak": o.durak, "draw": o.draw, "out_order": list(o.out_order),
                "pogony": o.pogony, "losing_team": o.losing_team, "text": str(o)}

    def message(self, seat: int | None) -> str:
        """The update for one seat (None: a spectator): its Observation and public facts."""
        g = self.game
        obs: dict[str, Any] | None = None
        if g is not None:
            obs = (protocol.observation_json(g.observation(seat)) if seat is not None
                   else protocol.public_json(g))
        return protocol.dumps({
            "type": "state", "v": PROTOCOL_VERSION, "table": self.id, "state": self.state,
            "status": self.status, "seat": seat, "rules": protocol.rules_text(self.rules),
            "seats": self.public_seats(), "match": self._match_json(),
            "turn_timer": self.turn_timer, "obs": obs,
            # The log's tail keeps every message small however long the deal runs.
            "log": self.log[-LOG_TAIL:], "log_start": max(0, len(self.log) - LOG_TAIL),
            "result": self._result_json(),
        })

    def broadcast(self) -> None:
        cache: dict[int | None, str] = {}
        for c in list(self.conns):
            if c.seat not in cache:
                cache[c.seat] = self.message(c.seat)
            c.push(cache[c.seat])

    def broadcast_seats(self) -> None:
        text = protocol.dumps({"type": "seats", "table": self.id, "state": self.state,
                               "seats": self.public_seats()})
        for c in list(self.conns):
            c.push(text)

    # -- connections -----------------------------------------------------------------
    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.index
        return None

    def _online(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None}

    def attach(self, conn: Connection, seat: int | None, token_hash: str | None) -> None:
        before = self._online()
        self.conns.add(conn)
        conn.table, conn.seat, conn.token_hash = self, seat, token_hash
        conn.push(self.message(seat))
        # Only a seat coming online is news; spectators come and go unannounced, so a
        # crowd of them costs each one message, not one per pair.
        if self._online() != before:
            self.broadcast_seats()

    def idle_for(self, now: float) -> float:
        """Seconds since anything happened here, or 0 while someone is connected."""
        return 0.0 if self.conns else now - self.touched

    def detach(self, conn: Connection) -> None:
        self.touched = time.monotonic()
        if conn in self.conns:
            before = self._online()
            self.conns.discard(conn)
            if self._online() != before:
                self.broadcast_seats()
        conn.table = conn.seat = None

    # -- playing -----------------------------------------------------------------------
    async def act(self, conn: Connection, state: int, text: str) -> None:
        """A person's action through their connection; ProtocolError if refused."""
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators cannot act")
        action = protocol.parse_action(text)
        t0 = time.perf_counter()
        async with self.lock:
            seat = self.seats[conn.seat]
            if seat.token_hash is None or seat.token_hash != conn.token_hash:
                conn.seat = None
                raise ProtocolError("bad_token", "this seat is no longer yours")
            await self._act(conn.seat, state, action)
        self.lobby.timings.append(time.perf_counter() - t0)

    async def _act(self, seat: int, state: int, action: Action, by: str | None = None
                   ) -> None:
        """``by``: who moved for the seat when not its player ("timer": the turn timer
        ran out; "stand_in": nobody holds the seat), shown as such in the log."""
        g = self.game
        if self.status != "playing" or g is None or g.is_over or self.pending is not None:
            raise ProtocolError("not_playing", "no deal is in play")
        if state != self.state:
            raise ProtocolError("stale", f"state {state} is not the current state {self.state}")
        if g.to_act != seat:
            raise ProtocolError("not_your_turn", f"seat {g.to_act} is to act, not seat {seat}")
        if action not in g.legal_actions():
            try:
                g.clone().apply(action)
            except ValueError as e:
                raise ProtocolError("illegal", str(e)) from None
            raise ProtocolError("illegal", f"{action}: not legal now")
        assert self.deal_id is not None
        # Stored first: a crash after this line replays the action on restart.
        await self.store.run(self.store.store.add_action, self.deal_id, len(g.history),
                             seat, str(action))
        phase = g.phase
        g.apply(action)
        self.state += 1
        entry: dict[str, Any] = {"seat": seat, "action": str(action), "bout": g.bout,
                                 "phase": phase}
        if by is not None:
            entry["by"] = by
        self.log.append(entry)
        if g.is_over:
            await self._deal_over()
        for s in self.seats:
            observe = getattr(s.player, "observe", None)
            if observe is not None and not g.is_over and g.to_act != s.index:
                observe(g.observation(s.index))
        self.touched = time.monotonic()
        self.broadcast()
        self._schedule()

    async def _deal_over(self) -> None:
        g, m = self.game, self.match
        assert g is not None and m is not None and g.outcome is not None
        nxt = m.next_deal()
        status = "finished" if nxt is None else None
        assert self.deal_id is not None
        await self.store.run(self.store.store.finish_deal, self.deal_id, str(g.outcome),
                             g.record(self.names(), Table=self.id), self.id, status)
        await self._rate(g)
        if nxt is None:
            self.status = "finished"
        else:
            self.pending = nxt

    async def _rate(self, g: Game) -> None:
        """Personal history and ratings (server/ratings.py); never stops the game."""
        assert g.outcome is not None and self.deal_id is not None
        try:
            await self.store.run(ratings.rate_deal, self.store.store, self.deal_id, self.id,
                                 self.rules, None if g.outcome.draw else g.outcome.durak,
                                 [(s.kind, s.bot) for s in self.seats], assist.assisted(self))
        except Exception:
            log.exception("table %s: rating deal %s failed", self.id, self.deal_id)

    async def _start_deal(self, game: Game, table_values: dict[str, Any] | None = None) -> None:
        self.deal_no += 1
        self.deal_id = await self.store.run(
            self.store.store.start_deal, self.id, self.match_no, self.deal_no, game.seed,
            game.dealer, game.leader, protocol.rules_text(self.rules), self.names(), table_values)
        self.game = game
        self.pending = None
        self.state += 1
        self.log = []
        for s in self.seats:
            reset = getattr(s.player, "reset", None)
            if reset is not None:
                reset()
        self.broadcast()
        self._schedule()

    async def _begin_match(self) -> None:
        seed = random.randrange(2**63)
        self.match_no += 1
        self.deal_no = 0
        self.match = Match(self.rules, seed=seed, deals=self.deals, target=self.target,
                           names=self.names())
        self.status = "playing"
        await self._start_deal(self.match.game, {"status": "playing", "match_no": self.match_no,
                                                 "match_seed": seed})

    async def start_if_ready(self) -> None:
        async with self.lock:
            await self._start_if_ready()

    async def _start_if_ready(self) -> None:
        if self.status == "waiting" and all(s.taken for s in self.seats):
            await self._begin_match()

    # -- seats -------------------------------------------------------------------------
    async def take_seat(self, seat: int, name: str, token_hash: str) -> None:
        async with self.lock:
            s = self.seats[seat]
            s.name, s.token_hash = name, token_hash
            await self.store.run(self.store.store.set_seat, self.id, seat, name=name,
                                 token_hash=token_hash)
            self.broadcast_seats()
            await self._start_if_ready()
            self._schedule()

    async def free_seat(self, seat: int) -> None:
        async with self.lock:
            s = self.seats[seat]
            s.token_hash = None
            if self.status != "playing":
                s.name = ""
            await self.store.run(self.store.store.set_seat, self.id, seat, name=s.name,
                                 token_hash=None)
            for c in list(self.conns):
                if c.seat == seat:
                    c.seat = c.token_hash = None
                    c.push(self.message(None))
            self.broadcast_seats()
            self._schedule()

    async def again(self) -> None:
        """Another match with the same seats, once this one is over."""
        async with self.lock:
            if self.status != "finished":
                raise ProtocolError("not_finished", "the match is still in play")
            self.status = "waiting"
            await self.store.run(self.store.store.set_table, self.id, status="waiting")
            await self._start_if_ready()
            if self.status == "waiting":
                self.broadcast()

    # -- bots and timers -----------------------------------------------------------------
    def _schedule(self) -> None:
        """After every change: start whatever must happen next without a person."""
        me = asyncio.current_task()
        if self.task is not None and self.task is not me:
            self.task.cancel()
        self.task = None
        if self.status != "playing":
            return
        if self.pending is not None:
            self.task = asyncio.create_task(self._next_deal_later(self.state))
            return
        g = self.game
        if g is None or g.to_act is None:
            return
        seat = self.seats[g.to_act]
        pace = self.lobby.bot_pace
        if seat.kind == "bot" and seat.player is not None:
            self.task = asyncio.create_task(self._bot_move(seat.index, seat.player, pace))
        elif seat.token_hash is None:
            # Nobody holds the seat (they left): a stand-in plays it.
            self.task = asyncio.create_task(self._bot_move(seat.index, self.stand_in, pace))
        elif self.turn_timer:
            self.task = asyncio.create_task(
                self._bot_move(seat.index, self.stand_in, self.turn_timer, wait_first=True))

    async def _bot_move(self, seat: int, bot: Bot, delay: float, wait_first: bool = False
                        ) -> None:
        state = self.state
        g = self.game
        assert g is not None
        loop = asyncio.get_running_loop()
        try:
            if wait_first:
                await asyncio.sleep(delay)
            t0 = loop.time()
            obs = g.observation(seat)
            try:
                action = await loop.run_in_executor(self.lobby.bot_pool, bot.choose, obs)
            except Exception:
                log.exception("bot %s failed at table %s; a stand-in moves", bot.name, self.id)
                action = obs.legal[0]
            if not wait_first:
                rest = delay - (loop.time() - t0)
                if rest > 0:
                    await asyncio.sleep(rest)
            async with self.lock:
                if self.state != state:
                    return
                by = "timer" if wait_first else "stand_in" if bot is self.stand_in else None
                await self._act(seat, state, action, by)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: automatic move failed", self.id)

    async def _next_deal_later(self, state: int) -> None:
        try:
            await asyncio.sleep(self.lobby.deal_pause)
            async with self.lock:
                if self.state != state or self.pending is None:
                    return
                await self._start_deal(self.pending)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: could not start the next deal", self.id)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        for c in list(self.conns):
            c.stop()

    # -- restoring ---------------------------------------------------------------------
    def restore(self, row: TableRow) -> bool:
        """Rebuild from the database: replay the current match. True if the last deal's
        end was played but not recorded as such (the caller stores it)."""
        self.status = row.status
        self.match_no = row.match_no
        self.state = row.deal_count + row.action_count
        unrecorded_end = False
        if row.match_seed is None or not row.current:
            return False
        m = self.match = Match(self.rules, seed=row.match_seed, deals=self.deals,
                               target=self.target, names=self.names())
        for i, d in enumerate(row.current):
            g = m.game
            if (g.seed, g.dealer, g.leader) != (d.seed, d.dealer, d.leader):
                # The engine deals differently from when this was stored: the stored
                # deal wins.
                log.warning("table %s deal %s: rebuilt from its stored seed", self.id, d.id)
                g = m.game = Game(self.rules, seed=d.seed, dealer=d.dealer, leader=d.leader)
            self.log = []
            for seat, text in d.actions:
                if g.to_act != seat:
                    raise ValueError(f"table {self.id}: stored action {text} by seat {seat}, "
                                     f"but seat {g.to_act} is to act")
                phase = g.phase
                g.apply(text)
                self.log.append({"seat": seat, "action": text, "bout": g.bout,
                                 "phase": phase})
            self.game, self.deal_id, self.deal_no = g, d.id, d.deal_no
            if g.is_over:
                nxt = m.next_deal()
                if d.result is None:
                    unrecorded_end = True
                if nxt is None:
                    self.status = "finished"
                elif i == len(row.current) - 1:
                    self.pending = nxt
            elif i != len(row.current) - 1:
                raise ValueError(f"table {self.id}: deal {d.id} unfinished but not the last")
        return unrecorded_end

    async def resume(self, record_end: bool) -> None:
        async with self.lock:
            if record_end:
                g = self.game
                assert g is not None and self.deal_id is not None
                await self.store.run(self.store.store.finish_deal, self.deal_id,
                                     str(g.outcome), g.record(self.names(), Table=self.id),
                                     self.id, self.status)
                await self._rate(g)
            self._schedule()
