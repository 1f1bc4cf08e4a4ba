"""Who sits where at a table, and who is connected: taking and freeing seats, linking
an account, a person's connections coming and going (a person with no connection for
the grace period is away, and a stand-in plays their moves until they come back)."""

from __future__ import annotations

import logging

from . import accounts
from .protocol import ProtocolError
from .store import StoreUnavailable
from .tableclock import TableClock
from .tablecore import RETRY_DELAYS, C

log = logging.getLogger("durak.server")


class TableSeating(TableClock[C]):
    """The seats and connections of a table."""

    def _presence_changed(self, before: set[int]) -> None:
        after = self._online()
        if after == before:
            return
        now = self.lobby.clock.monotonic()
        for s in self.seats:
            if (s.index in before) != (s.index in after):
                s.gone_since = None if s.index in after else now
        self.broadcast_seats()
        g = self.game
        if self.status == "playing" and g is not None and g.to_act in before ^ after:
            # The mover came or went: their clock changes.
            self.spawn(self._reschedule())
        elif self.pending is not None:
            # Between deals: who must be ready for the next one changed.
            self.spawn(self._reschedule())

    async def take_seat(
        self,
        seat: int,
        name: str,
        token_hash: str,
        account_id: int | None = None,
        address: str | None = None,
        nonce: str | None = None,
    ) -> None:
        """Give a free person's seat to ``token_hash``, playing as ``account_id``, with its
        ``nonce`` for the next deal (which may start now that the seat is taken). Checked
        under the lock: of two who reach for one seat, the second is refused
        (``seat_taken``), and the first one's token stays good."""
        async with self.lock:
            s = self.seats[seat]
            if s.kind != "human" or s.token_hash is not None:
                raise ProtocolError("seat_taken", "someone took that seat first")
            await self.write(
                self.store.store.set_seat,
                self.id,
                seat,
                name=name,
                token_hash=token_hash,
                address=address,
            )
            await self.write(accounts.link_seat, self.store.store, self.id, seat, account_id)
            s.name, s.token_hash = name, token_hash
            s.account_id, s.address = account_id, address
            if nonce is not None:
                self.set_nonce(seat, nonce)
            s.gone_since = self.lobby.clock.monotonic()  # taken over HTTP; not yet connected
            self.broadcast_seats()
            try:
                await self._start_if_ready()
            except StoreUnavailable:
                # The seat is taken; the match starts when the next change comes through.
                log.warning("table %s: the match could not start yet", self.id)
                self.spawn(self.start_if_ready_later())
            self.schedule()

    def deal_in_play(self) -> bool:
        g = self.game
        return self.status == "playing" and g is not None and not g.is_over and not self.pending

    async def link_account(self, seat: int, account_id: int) -> None:
        """The holder of ``seat`` plays as ``account_id``: only while no deal is in play
        (a link made mid-deal could move a deal's result to another account), unless it
        is the link the seat already has."""
        async with self.lock:
            s = self.seats[seat]
            if s.account_id == account_id:
                return
            if self.deal_in_play():
                raise ProtocolError(
                    "deal_in_play", "a seat's account is set before a deal, not during it"
                )
            await self.write(accounts.link_seat, self.store.store, self.id, seat, account_id)
            s.account_id = account_id

    async def start_if_ready_later(self) -> None:
        for delay in RETRY_DELAYS:
            await self.lobby.clock.sleep(delay)
            try:
                await self.start_if_ready()
                return
            except StoreUnavailable:
                continue

    async def free_seat(self, seat: int) -> None:
        async with self.lock:
            s = self.seats[seat]
            name = s.name if self.status == "playing" else ""
            await self.write(
                self.store.store.set_seat, self.id, seat, name=name, token_hash=None, address=None
            )
            # The account plays this seat no more (the deal in play still counts as
            # theirs: as a loss, see ratings.rate_in).
            await self.write(accounts.link_seat, self.store.store, self.id, seat, None)
            s.token_hash, s.name = None, name
            s.account_id = s.address = None
            for c in list(self.conns):
                if c.seat == seat:
                    c.seat = c.token_hash = None
                    c.push(self.message(None))
            self.broadcast_seats()
            self.schedule()

    async def again(self) -> None:
        """Another match with the same seats, once this one is over."""
        async with self.lock:
            if self.status != "finished":
                raise ProtocolError("not_finished", "the match is still in play")
            await self.write(self.store.store.set_table, self.id, status="waiting")
            self.status = "waiting"
            await self._start_if_ready()
            if self.status == "waiting":
                self.broadcast()
