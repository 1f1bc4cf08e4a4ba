"""What a table offers besides playing cards: chat, voting an idle person off their
seat, and, when a person plays only against bots, a hint, the review of their own moves
so far and taking a move back.

A hint, a review or an undo makes the deal unrated (it is no longer the person's own play).
Each function checks who may do it and raises ``ProtocolError`` otherwise; nothing
changes then.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete

from ..bots.hint import hint as rank_actions
from . import protocol
from .limits import net_key
from .protocol import Chat, Hint, Nonce, ProtocolError, Ready, ReviewMine, Undo, Vote
from .reviews import ReviewBusy
from .store import Store, actions_t

if TYPE_CHECKING:
    from .table import Connection, LiveTable

CHAT_KEEP = 50  # messages a table remembers for those who arrive later
CHAT_MAX = 200  # characters in one message
IDLE_SECONDS = 30.0  # on the move this long without moving: others may vote them off
HINT_ITERATIONS = 300
HINT_EVERY = 2.0  # seconds between two hints of one seat (each costs a search)
HINT_WAIT = 10.0  # seconds a hint waits for its address's earlier hints to be searched


@dataclass
class Extras:
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_KEEP))
    votes: dict[int, set[int]] = field(default_factory=dict)  # target seat -> voters
    last_hint: dict[int, float] = field(default_factory=dict)  # seat -> monotonic time


_EXTRAS: weakref.WeakKeyDictionary[LiveTable, Extras] = weakref.WeakKeyDictionary()


def extras(t: LiveTable) -> Extras:
    e = _EXTRAS.get(t)
    if e is None:
        e = _EXTRAS[t] = Extras()
    return e


async def _store_assisted(t: LiveTable, deal_id: int) -> None:
    """The deal is assisted, stored before the hint is sent or the undo made, so that a
    restart does not make it rated again."""
    if deal_id not in t.assisted:
        await t.write(t.store.store.set_assisted, deal_id)
        t.assisted.add(deal_id)


def assisted(t: LiveTable) -> bool:
    """Whether the deal in play had a hint or an undo (so it is not rated)."""
    return t.deal_id is not None and t.deal_id in t.assisted


def _seated(conn: Connection) -> tuple[LiveTable, int]:
    t, seat = conn.table, conn.seat
    if t is None:
        raise ProtocolError("hello_first", "say hello to a table first")
    if seat is None:
        raise ProtocolError("not_seated", "only players can do that")
    if t.seats[seat].token_hash is None or t.seats[seat].token_hash != conn.token_hash:
        raise ProtocolError("bad_token", "this seat is no longer yours")
    return t, seat


def only_bots_against(t: LiveTable, seat: int) -> bool:
    return all(s.kind == "bot" for s in t.seats if s.index != seat)


def _check_assist(t: LiveTable, seat: int) -> None:
    if not only_bots_against(t, seat):
        raise ProtocolError("not_allowed", "hints and undo only when playing against bots alone")
    g = t.game
    if t.status != "playing" or g is None or g.is_over or t.pending is not None:
        raise ProtocolError("not_playing", "no deal is in play")


def _send(conn: Connection, message: dict[str, Any]) -> None:
    conn.push(protocol.dumps(message))


def _broadcast(t: LiveTable, message: dict[str, Any]) -> None:
    text = protocol.dumps(message)
    for c in list(t.conns):
        c.push(text)


# -- hint and undo -------------------------------------------------------------------


async def hint(conn: Connection) -> None:
    """The searcher's best move for the person to act, sent to them alone."""
    t, seat = _seated(conn)
    _check_assist(t, seat)
    g = t.game
    assert g is not None
    if g.to_act != seat:
        raise ProtocolError("not_your_turn", "a hint is for your own move")
    e = extras(t)
    now = t.lobby.clock.monotonic()
    if now - e.last_hint.get(seat, -HINT_EVERY) < HINT_EVERY:
        raise ProtocolError("rate_limited", f"one hint every {HINT_EVERY:g} s")
    e.last_hint[seat] = now
    state = t.state
    obs = g.observation(seat)
    # One address key's hints are searched only so many at once (Limits.hints_per_address,
    # over every worker of a cluster); refused, nothing was stored.
    slots, key = t.lobby.hint_slots, net_key(conn.address)
    if not await slots.wait(key, HINT_WAIT):
        raise ProtocolError("rate_limited", "your address's other hints are still searched")
    try:
        if t.deal_id is not None:
            await _store_assisted(t, t.deal_id)
        loop = asyncio.get_running_loop()
        ranked = await loop.run_in_executor(
            t.lobby.hint_pool, lambda: rank_actions(obs, iterations=HINT_ITERATIONS, seed=state)
        )
    finally:
        await slots.release(key)
    best, value = ranked[0]
    _send(
        conn,
        {
            "type": "hint",
            "state": state,
            "action": str(best),
            "cards": [str(c) for c in best.cards],
            "value": round(value, 3),
        },
    )


async def review_mine(conn: Connection) -> None:
    """The review of the person's own decisions so far in the deal in play, sent to them
    alone: judged from their seat's view only, never another seat's (issue 47). It is
    outside help as a hint is, under a hint's rule (against bots alone; the deal becomes
    unrated): against people, a rated deal could otherwise be made unrated by its loser,
    and the review of everyone's moves waits for the deal's end (the replay's)."""
    t, seat = _seated(conn)
    _check_assist(t, seat)
    g, deal_id = t.game, t.deal_id
    assert g is not None and deal_id is not None
    state, game = t.state, g.clone()
    await _store_assisted(t, deal_id)
    try:
        doc = await t.lobby.reviews.in_play(deal_id, game, seat, t.names())
    except ReviewBusy as e:
        raise ProtocolError("busy", str(e)) from None
    _send(conn, {"type": "review", "state": state, "review": doc})


def _drop_actions(store: Store, deal_id: int, from_ply: int) -> None:
    with store.begin() as c:
        c.execute(
            delete(actions_t).where(actions_t.c.deal_id == deal_id, actions_t.c.ply >= from_ply)
        )


async def undo(conn: Connection) -> None:
    """Take back the person's last move and every bot move after it."""
    t, seat = _seated(conn)
    async with t.lock:
        _check_assist(t, seat)
        g = t.game
        assert g is not None and t.deal_id is not None
        history = list(g.history)
        seats = [e["seat"] for e in t.log]
        if len(seats) != len(history) or seat not in seats:
            raise ProtocolError("nothing_to_undo", "no move of yours to take back in this deal")
        keep = len(seats) - 1 - seats[::-1].index(seat)
        # Stored first, as every change: a restart replays what the database holds.
        await _store_assisted(t, t.deal_id)
        await t.write(_drop_actions, t.store.store, t.deal_id, keep)
        for _ in range(len(history) - keep):
            g.undo()
        t.log = t.log[:keep]
        t.state += 1
        t.bots.reset(g)  # bots forget what they saw after that point
        t.broadcast()
        t.schedule()


# -- chat ----------------------------------------------------------------------------


def clean_text(text: str) -> str:
    out = "".join(ch for ch in text if ch.isprintable()).strip()[:CHAT_MAX]
    if not out:
        raise ProtocolError("malformed", "chat.text is empty")
    return out


async def chat(conn: Connection, text: str) -> None:
    """A player's message to everyone at the table (spectators read, not write)."""
    t, seat = _seated(conn)
    if not t.lobby.holds(t):
        # This worker stalled past the table's lease: another may hold the table now,
        # and the message was meant for the players there. Shown nowhere; the page asks
        # where the table is and says it again.
        raise ProtocolError("moving", "the table is moving between workers; try again")
    msg = {
        "type": "chat",
        "seat": seat,
        "name": t.seats[seat].name,
        "text": clean_text(text),
        "at": round(t.lobby.clock.time(), 3),
    }
    extras(t).chat.append(msg)
    _broadcast(t, msg)


def chat_history(t: LiveTable) -> list[dict[str, Any]]:
    return list(extras(t).chat)


# -- voting an idle person off their seat ---------------------------------------------


def idle(t: LiveTable, target: int, now: float | None = None) -> bool:
    """A person with no connection for the whole grace period (a dropped connection
    that comes back within it is not idle), or on the move for IDLE_SECONDS (and at
    least their turn clock) without moving."""
    s = t.seats[target]
    if s.kind != "human" or s.token_hash is None:
        return False
    at = t.lobby.clock.monotonic() if now is None else now
    if t.away_for(target, at) > 0:
        return t.away_for(target, at) >= t.lobby.timings.grace
    g = t.game
    if t.status != "playing" or g is None or g.to_act != target:
        return False
    return at - t.turn_started >= max(IDLE_SECONDS, t.turn_timer or 0.0)


async def vote_off(conn: Connection, target: int) -> None:
    """Vote to hand an idle person's seat to a bot. More than half of the other people
    seated (the target aside) must agree; then the seat is freed, as if they had left."""
    t, seat = _seated(conn)
    if not 0 <= target < len(t.seats) or target == seat:
        raise ProtocolError("malformed", "vote.seat: another player's seat")
    if not idle(t, target):
        raise ProtocolError("not_idle", "that player is not idle")
    voters = {
        s.index
        for s in t.seats
        if s.kind == "human" and s.token_hash is not None and s.index != target
    }
    e = extras(t)
    votes = e.votes.setdefault(target, set())
    votes.add(seat)
    votes &= voters
    need = len(voters) // 2 + 1
    _broadcast(t, {"type": "vote", "seat": target, "votes": len(votes), "need": need})
    if len(votes) >= need:
        e.votes.pop(target, None)
        await t.free_seat(target)
        _broadcast(t, {"type": "voted_off", "seat": target})


async def handle(
    conn: Connection, m: Chat | Vote | Hint | ReviewMine | Undo | Nonce | Ready | object
) -> None:
    """One of this module's WebSocket messages."""
    if isinstance(m, Chat):
        await chat(conn, m.text)
    elif isinstance(m, Vote):
        await vote_off(conn, m.seat)
    elif isinstance(m, Hint):
        await hint(conn)
    elif isinstance(m, ReviewMine):
        await review_mine(conn)
    elif isinstance(m, Undo):
        await undo(conn)
    elif isinstance(m, Nonce):
        t, seat = _seated(conn)
        t.set_nonce(seat, m.value)
    elif isinstance(m, Ready):
        t, seat = _seated(conn)
        await t.set_ready(seat)
    else:
        raise ProtocolError("unknown_type", f"no message type {type(m).__name__}")
