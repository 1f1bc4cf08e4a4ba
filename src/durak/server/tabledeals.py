"""The move pipeline and the deal lifecycle of a table: an action checked, stored, applied
and broadcast; a deal dealt fairly (the server's committed seed mixed with the players'
nonces), ended, rated and recorded; a match begun; a win claimed over absent players."""

from __future__ import annotations

import functools
import itertools
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ..actions import Action
from ..game import Game
from ..match import Match
from . import protocol, ratings
from .protocol import ProtocolError
from .store import Fenced, StoreUnavailable
from .tablecore import RETRY_DELAYS, C, commitment, mix_seed
from .tableviews import TableViews

log = logging.getLogger("durak.server")


def forfeit_text(names: list[str], gone: list[int], claimer: int) -> str:
    """How a claimed win is stored as the deal's result."""
    return f"forfeit: {', '.join(names[i] for i in gone)} left; {names[claimer]} claimed the win"


def forfeit_seats(names: list[str], text: str) -> tuple[list[int], int | None]:
    """The seats that forfeited and the one that claimed, read back from a stored result
    (the one reading that writes the same text; none: ``[], None``).

    >>> names = ["Anna, Jr.", "Boris", "Vera"]
    >>> forfeit_seats(names, forfeit_text(names, [0, 2], 1))
    ([0, 2], 1)
    """
    seats = range(len(names))
    for claimer in seats:
        others = [i for i in seats if i != claimer]
        for k in range(1, len(others) + 1):
            for gone in itertools.combinations(others, k):
                if forfeit_text(names, list(gone), claimer) == text:
                    return list(gone), claimer
    return [], None


def forfeit_result(text: str, gone: list[int], claimer: int | None) -> dict[str, Any]:
    """A claimed win as the result a table reports: the away seats lose the match."""
    return {
        "durak": gone[0] if len(gone) == 1 else None,
        "draw": False,
        "out_order": [],
        "pogony": 0,
        "losing_team": None,
        "text": text,
        "forfeit": gone,
        "claimed_by": claimer,
    }


class TableDeals(TableViews[C]):
    """The moves and deals of a table."""

    async def act(self, conn: C, state: int, text: str) -> None:
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
            try:
                await self._act(conn.seat, state, action)
            except StoreUnavailable:
                raise ProtocolError(
                    "unavailable", "the move could not be stored, so it was not played; try again"
                ) from None
        self.lobby.latencies.append(time.perf_counter() - t0)

    async def _act(self, seat: int, state: int, action: Action, by: str | None = None) -> None:
        """``by``: who moved for the seat when not its player ("timer": the turn timer
        ran out; "stand_in": nobody holds the seat), shown as such in the log."""
        g = self.game
        if self.status != "playing" or g is None or g.is_over or self.pending is not None:
            raise ProtocolError("not_playing", "no deal is in play")
        if state != self.state:
            raise ProtocolError("stale", f"state {state} is not the current state {self.state}")
        if g.to_act != seat:
            raise ProtocolError("not_your_turn", f"seat {g.to_act} is to act, not seat {seat}")
        why = g.why_illegal(action)  # (None: legal, a cheat or a call included, шулерский)
        if why is not None:
            raise ProtocolError("illegal", why)
        assert self.deal_id is not None
        # Stored first: a crash after this line replays the action on restart; a store
        # that fails leaves everything as it was.
        try:
            await self.write(
                self.store.store.add_action, self.deal_id, len(g.history), seat, str(action), by
            )
        except StoreUnavailable as e:
            if isinstance(e.__cause__, IntegrityError):  # that move's number is taken
                self.lobby.outdated(self.id)
            raise
        phase = g.phase
        called = protocol.call_outcome(g, seat, action)  # (шулерский: what a call finds)
        g.apply(action)
        self.state += 1
        entry: dict[str, Any] = {
            "seat": seat,
            "action": str(action),
            "bout": g.bout,
            "phase": str(phase),
            **called,
        }
        if by is not None:
            entry["by"] = by
        self.log.append(entry)
        if g.is_over:
            await self._deal_over()
        self.bots.show(g)
        self.touched = self.lobby.clock.monotonic()
        self.schedule()
        self.broadcast()
        self.lobby.events.emit("moved", self.id)

    async def _deal_over(self) -> None:
        g, m = self.game, self.match
        assert g is not None and m is not None and g.outcome is not None
        nxt = m.next_deal()
        status = "finished" if nxt is None else None
        if nxt is None:
            self.status = "finished"
        else:
            self.pending = nxt
        end = self._deal_end(status)
        await self._store_or_retry(self.store.store.finish_deal, *end, stored="ended")
        # The rating change of each rated person, for the end-of-deal panel (display only:
        # a fault here never touches the stored deal or its ratings).
        try:
            changes = await self.store.run(ratings.deal_changes, self.store.store, self.deal_id)
            self.rating = changes or None
        except Exception:
            log.exception("table %s: reading deal %s's rating changes", self.id, self.deal_id)

    def _deal_end(self, status: str | None) -> tuple[Any, ...]:
        """What ``Store.finish_deal`` is given of the deal on show, which has ended: its
        outcome, its record, the table's ``status`` after it, its ratings."""
        g = self.game
        assert g is not None and g.outcome is not None and self.deal_id is not None
        record = g.record(self.names(), Table=self.id)
        rating = self._rating(None if g.outcome.draw else g.outcome.durak)
        return (self.deal_id, str(g.outcome), record, self.id, status, rating)

    def _abandoned(self) -> set[int]:
        """Seats of the deal in play whose moves the stand-in (or the turn clock's
        stand-in) made more of than their holder did."""
        own: dict[int, int] = {}
        auto: dict[int, int] = {}
        for e in self.log:
            side = auto if e.get("by") else own
            side[e["seat"]] = side.get(e["seat"], 0) + 1
        return {seat for seat, n in auto.items() if n > own.get(seat, 0)}

    def _rating(self, durak: int | None, gone: list[int] | None = None) -> Callable[[Any], None]:
        """What rates the deal in play, inside the transaction that records its end
        (server/ratings.py). A fault in the rating itself is logged and leaves the
        deal unrated; it never keeps the deal's end from being stored."""
        deal_id = self.deal_id
        assert deal_id is not None
        seats = [(s.kind, s.bot, s.token_hash) for s in self.seats]
        abandoned = self._abandoned() | set(gone or ())
        helped = self.deal_id in self.assisted
        rules = self.rules

        def write(c: Any) -> None:
            try:
                ratings.rate_in(c, deal_id, rules, durak, seats, abandoned, helped)
            except SQLAlchemyError:
                raise
            except Exception:
                log.exception("table %s: rating deal %s failed", self.id, deal_id)

        return write

    async def _store_or_retry(
        self, fn: Callable[..., Any], *args: Any, stored: str | None = None
    ) -> None:
        """A write that records what already happened (the actions are stored): if the
        database refuses it now, it is tried again in the background until it takes
        (and a restart before that records it from the stored actions). ``stored``: the
        moment announced once it took (``clock.Events``)."""
        try:
            await self.write(fn, *args)
            if stored is not None:
                self.lobby.events.emit(stored, self.id)
        except Fenced:
            return  # the table's new owner stores it (from the stored actions)
        except StoreUnavailable:
            what = f"{fn.__name__}({args[0]})"

            async def again() -> None:
                try:
                    for delay in (*RETRY_DELAYS, *[10.0] * 60):
                        await self.lobby.clock.sleep(delay)
                        try:
                            await self.write(fn, *args)
                            if stored is not None:
                                self.lobby.events.emit(stored, self.id)
                            return
                        except Fenced:
                            return
                        except StoreUnavailable:
                            continue
                    log.error("table %s: gave up storing %s", self.id, fn.__name__)
                finally:
                    self.retrying.discard(what)

            self.retrying.add(what)
            self.spawn(again())

    def _fair_deal(self, game: Game, seed: int) -> Game:
        """The deal ``game`` stands for, dealt from ``seed`` (the server's seed from the
        operating system's cryptographic source, mixed with the players' nonces) instead
        of the match's generator."""
        return Game(
            self.rules,
            seed=seed,
            dealer=game.dealer,
            leader=game.leader,
            pagon=game.pagon or None,
        )

    async def _start_deal(
        self, game: Game, table_values: dict[str, Any] | None = None, match: Match | None = None
    ) -> None:
        """Store and show a new deal (of ``match``, else of the match in play); raises
        StoreUnavailable, changing nothing, when the store refuses."""
        m = match or self.match
        assert m is not None
        server_seed, salt = self.next_seed, self.next_salt
        nonces = [self.nonces[i] for i in sorted(self.nonces)]
        game = self._fair_deal(game, mix_seed(server_seed, salt, nonces))
        match_no = self.match_no + 1 if match is not None else self.match_no
        deal_no = 1 if match is not None else self.deal_no + 1
        names = self.names()
        self.deal_id = await self.write(
            self.store.store.start_deal,
            self.id,
            match_no,
            deal_no,
            game.seed,
            game.dealer,
            game.leader,
            protocol.rules_text(self.rules),
            names,
            table_values,
            salt,
            functools.partial(
                ratings.snapshot,
                holders=[
                    (s.index, s.account_id, s.token_hash, s.address)
                    for s in self.seats
                    if s.kind == "human"
                ],
            ),
            server_seed=server_seed,
            nonces=nonces,
        )
        # This deal's seed is fixed: the next one's is drawn and committed now.
        self.next_seed, self.next_salt = secrets.randbits(63), secrets.token_hex(16)
        self.nonces = {}
        self.server_seed, self.deal_nonces = server_seed, nonces
        m.game = game
        if match is not None:
            self.match, self.match_no, self.status = match, match_no, "playing"
        self.deal_no = deal_no
        self.game, self.salt, self.forfeit = game, salt, None
        self.pending = None
        self.ready = set()
        self.rating = None
        self.state += 1
        self.log = []
        self.bots.reset(game)
        # The commitment reaches every seat before any card of the deal does.
        commit = protocol.dumps(
            {
                "type": "deal",
                "table": self.id,
                "deal_id": self.deal_id,
                "deal": deal_no,
                "commit": commitment(server_seed, salt),
            }
        )
        for c in list(self.conns):
            c.push(commit)
        self.schedule()
        self.broadcast()
        self.lobby.events.emit("deal", self.id)

    async def _begin_match(self) -> None:
        seed = secrets.randbits(63)
        m = Match(self.rules, seed=seed, deals=self.deals, target=self.target, names=self.names())
        await self._start_deal(
            m.game,
            {"status": "playing", "match_no": self.match_no + 1, "match_seed": seed},
            match=m,
        )

    async def start_if_ready(self) -> None:
        async with self.lock:
            await self._start_if_ready()

    async def _start_if_ready(self) -> None:
        if self.status == "waiting" and all(s.taken for s in self.seats):
            await self._begin_match()

    async def claim(self, conn: C) -> None:
        """Claim the win: every other person at the table has been away for the forfeit
        time. The deal ends there; the away seats lose it and the match is over."""
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators cannot claim")
        async with self.lock:
            g = self.game
            if self.status != "playing" or g is None:
                raise ProtocolError("not_playing", "no match is in play")
            seat = self.seats[conn.seat]
            if seat.token_hash is None or seat.token_hash != conn.token_hash:
                raise ProtocolError("bad_token", "this seat is no longer yours")
            online, now = self._online(), self.lobby.clock.monotonic()
            others = [
                s for s in self.seats if s.kind == "human" and s.index != conn.seat and s.token_hash
            ]
            wait = self.lobby.timings.forfeit_after
            gone = [s.index for s in others if self._away_for(s, online, now) >= wait]
            if not others or len(gone) < len(others):
                raise ProtocolError(
                    "cannot_claim",
                    "a win can be claimed only when every "
                    f"other person has been away for {wait:g} s",
                )
            names = self.names()
            text = forfeit_text(names, gone, conn.seat)
            assert self.deal_id is not None
            await self.write(
                self.store.store.finish_deal,
                self.deal_id,
                text,
                g.record(names, Table=self.id),
                self.id,
                "finished",
                self._rating(None, gone),
            )
            self.status = "finished"
            self.pending = None
            self.forfeit = forfeit_result(text, gone, conn.seat)
            self.state += 1
            self.schedule()
            self.broadcast()
