"""Reviews of finished deals for the web (``GET /api/games/{id}/review``).

A review (:mod:`durak.review`) is seconds of CPU, so the server works out one at a time,
on a thread (the event loop and the tables' moves never wait on it), keeps the last
:data:`KEEP` it made, and turns a request away with 503 and ``Retry-After`` when
:data:`MAX_WAITING` others already wait: a stranger cannot queue the server's CPU away.
A finished deal's review covers every seat, judged from each seat's own view; during a
deal a person may ask (over the table's socket, :mod:`durak.server.assist`) for the
review of their own seat's decisions so far, and of no other seat.

Invariants: a review is a function of the record and the deal's id (its seed); the
answer is the same for everyone who may see the replay; no request waits on another
table's moves.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..errors import DurakError
from ..game import Game
from ..match import record_deals
from ..review import Judge, Review, review_game

KEEP = 64
MAX_WAITING = 4
WORLDS, DEPTH = 16, 4


class ReviewBusy(DurakError):
    """Too many reviews waiting: try again later."""


class Reviews:
    """The finished deals' reviews, made one at a time and kept (see the module)."""

    def __init__(self, keep: int = KEEP, max_waiting: int = MAX_WAITING) -> None:
        self.keep, self.max_waiting = keep, max_waiting
        self._done: OrderedDict[tuple[int, ...], dict[str, Any]] = OrderedDict()
        self._lock = asyncio.Lock()
        self._waiting = 0

    async def of(self, deal_id: int, record: str) -> dict[str, Any]:
        """The review of deal ``deal_id`` (its record ``record``), as JSON."""
        return await self._made((deal_id,), lambda: make_review(deal_id, record))

    async def in_play(
        self, deal_id: int, game: Game, seat: int, names: list[str]
    ) -> dict[str, Any]:
        """The review of ``seat``'s own decisions so far in deal ``deal_id``, in play
        (``game``: a copy of it), as JSON: judged from the seat's view alone, as the
        finished deal's review will judge them."""
        key = (deal_id, len(game.history), seat)
        return await self._made(key, lambda: review_in_play(deal_id, game, seat, names))

    async def _made(
        self, key: tuple[int, ...], make: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        """The review kept under ``key``, else ``make``'s, made on a thread, one at a time."""
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        if self._waiting >= self.max_waiting:
            raise ReviewBusy("the reviewer is busy: try again in a few seconds")
        self._waiting += 1
        try:
            async with self._lock:
                done = self._done.get(key)
                if done is None:
                    done = await asyncio.to_thread(make)
                    self._done[key] = done
                    while len(self._done) > self.keep:
                        self._done.popitem(last=False)
        finally:
            self._waiting -= 1
        return done


def make_review(deal_id: int, record: str) -> dict[str, Any]:
    """The review of a finished deal's record: every seat, the default judge seeded by
    the deal's id."""
    deals, names = record_deals(record)
    game = deals[-1]
    review = Review(str(game.rules), names)
    review_game(game, Judge(worlds=WORLDS, depth=DEPTH, seed=deal_id), review=review)
    return review.to_json()


def review_in_play(deal_id: int, game: Game, seat: int, names: list[str]) -> dict[str, Any]:
    """The review of ``seat``'s decisions so far in a deal in play (``in_play`` true), with
    the judge the finished deal's review will use."""
    review = Review(str(game.rules), names)
    review_game(game, Judge(worlds=WORLDS, depth=DEPTH, seed=deal_id), [seat], review=review)
    return review.to_json()
