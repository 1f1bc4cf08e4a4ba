"""What a table shows: its seats, its summary, and the state message each seat is sent."""

from __future__ import annotations

import hmac
from typing import Any

from . import protocol
from .limits import net_key
from .protocol import PROTOCOL_VERSION
from .tablecore import LOG_TAIL, C, Seat, TableCore, commitment, hash_token


class TableViews(TableCore[C]):
    """The views of a table: read-only, made under its lock."""

    def names(self) -> list[str]:
        return [s.name or f"Seat {s.index + 1}" for s in self.seats]

    def public_seats(self) -> list[dict[str, Any]]:
        online = self._online()
        now = self.lobby.clock.monotonic()
        return [
            {
                "seat": s.index,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "taken": s.taken,
                "online": s.kind == "bot" or s.index in online,
                "away": self._away_for(s, online, now) >= self.lobby.timings.grace,
            }
            for s in self.seats
        ]

    def away_for(self, seat: int, now: float | None = None) -> float:
        """Seconds the person holding ``seat`` has had no connection (0 if connected)."""
        at = self.lobby.clock.monotonic() if now is None else now
        return self._away_for(self.seats[seat], self._online(), at)

    @staticmethod
    def _away_for(s: Seat, online: set[int], now: float) -> float:
        """Seconds a held person's seat has had no connection (0 when connected)."""
        if s.kind != "human" or s.token_hash is None or s.index in online or s.gone_since is None:
            return 0.0
        return now - s.gone_since

    @property
    def budget_key(self) -> str:
        """Whose share of the bots this table's bots think on: its creator's address key
        (a table taken over from the database does not know its creator: its own)."""
        return net_key(self.owner) if self.owner is not None else f"table:{self.id}"

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "id": self.id,
            "rules": protocol.rules_text(self.rules),
            "status": self.status,
            "seats": self.public_seats(),
            "deals": self.deals,
            "target": self.target,
            "turn_timer": self.turn_timer,
            "deal": self.deal_no,
            "state": self.state,
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "private": self.invite_hash is not None,
        }

    def _match_json(self) -> dict[str, Any] | None:
        if self.match is None:
            return None
        t = self.match.tally
        return {
            "no": self.match_no,
            "deal": self.deal_no,
            "deals": self.deals,
            "target": self.target,
            "played": t.deals,
            "draws": t.draws,
            "durak_counts": t.durak_counts,
            "pogony_hung": t.pogony_hung,
            "pogonny_scores": t.pogonny_scores,
            "team_losses": t.side_losses,
        }

    def _result_json(self) -> dict[str, Any] | None:
        g = self.game
        if self.forfeit is not None:
            return self.forfeit
        if g is None or g.outcome is None:
            return None
        o = g.outcome
        return {
            "durak": o.durak,
            "draw": o.draw,
            "out_order": list(o.out_order),
            "pogony": o.pogony,
            "losing_team": o.losing_team,
            "text": str(o),
        }

    def message(self, seat: int | None) -> str:
        """The update for one seat (None: a spectator): its Observation and public facts."""
        g = self.game
        obs: dict[str, Any] | None = None
        if g is not None:
            obs = (
                protocol.observation_json(g.observation(seat))
                if seat is not None
                else protocol.public_json(g)
            )
        return protocol.dumps(
            {
                "type": "state",
                "v": PROTOCOL_VERSION,
                "table": self.id,
                "state": self.state,
                "status": self.status,
                "seat": seat,
                "rules": protocol.rules_text(self.rules),
                "seats": self.public_seats(),
                "match": self._match_json(),
                "turn_timer": self.turn_timer,
                "deadline": self.deadline,
                "obs": obs,
                "fair": self._fair_json(),
                # The log's tail keeps every message small however long the deal runs.
                "log": self.log[-LOG_TAIL:],
                "log_start": max(0, len(self.log) - LOG_TAIL),
                "result": self._result_json(),
                "rating": self.rating if g is not None and g.is_over else None,
                # between deals of a match: the seats ready for the next one
                "ready": sorted(self.ready) if self.pending is not None else None,
                # двухкозырный: the card turned for each seat (public); else absent
                **(
                    {"turned": protocol.turned_cards(g)}
                    if g is not None and g.rules.trump == "per_player"
                    else {}
                ),
            }
        )

    def _fair_json(self) -> dict[str, Any]:
        """The deal's seed commitment; the seed and salt too once the deal is over."""
        g = self.game
        # The next deal's commitment is out before any nonce for it can come in.
        out: dict[str, Any] = {"next_commit": commitment(self.next_seed, self.next_salt)}
        if g is None or self.salt is None or self.deal_id is None:
            return out
        server = self.server_seed if self.server_seed is not None else g.seed
        out.update(deal_id=self.deal_id, commit=commitment(server, self.salt))
        if g.is_over or self.forfeit is not None:
            out.update(seed=str(g.seed), salt=self.salt)
            if self.server_seed is not None:
                out.update(server_seed=str(self.server_seed), nonces=self.deal_nonces or [])
        return out

    def set_nonce(self, seat: int, value: str) -> None:
        """The holder of ``seat`` gives its nonce for the next deal (the last one wins)."""
        self.nonces[seat] = value

    def broadcast(self) -> None:
        cache: dict[int | None, str] = {}
        for c in list(self.conns):
            if c.seat not in cache:
                cache[c.seat] = self.message(c.seat)
            c.push(cache[c.seat])

    def broadcast_seats(self) -> None:
        text = protocol.dumps(
            {"type": "seats", "table": self.id, "state": self.state, "seats": self.public_seats()}
        )
        for c in list(self.conns):
            c.push(text)

    def admits(self, invite: object) -> bool:
        """True for a public table, and for a private one with its invite secret."""
        if self.invite_hash is None:
            return True
        return (
            isinstance(invite, str)
            and len(invite) <= 64
            and hmac.compare_digest(self.invite_hash, hash_token(invite))
        )

    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.index
        return None

    def _online(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None}

    def idle_for(self, now: float) -> float:
        """Seconds since the last connection left, or 0 while someone is connected."""
        return 0.0 if self.conns else now - self.alone_since
