"""The ASGI application: the lobby over HTTP, the game over a WebSocket, the browser
client as static files. ``create_app(db_url)`` makes one; ``durak serve`` runs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import fields
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..rules import CHOICES, PRESETS, Rules
from . import assist, pages, people, protocol, seatbots
from .lobby import Lobby, LobbyError
from .protocol import PROTOCOL_VERSION, Act, Hello, Ping, ProtocolError
from .store import Store
from .table import Connection, hash_token

log = logging.getLogger("durak.server")

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
MAX_BODY = 16 * 1024


def create_app(db_url: str = "sqlite:///durak.db", bot_pace: float = 0.8,
               deal_pause: float | None = None, bot_threads: int = 2,
               db_thread: bool | None = None, close_finished_after: float = 600.0
               ) -> Starlette:
    """The server. ``bot_pace``: seconds a bot takes for a move, so people can follow;
    ``deal_pause``: seconds a finished deal stays on the table before the next;
    ``db_thread``: call the database on a worker thread (default: unless SQLite);
    ``close_finished_after``: seconds a finished table nobody watches stays open."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        lobby = Lobby(Store(db_url), bot_pace=bot_pace, deal_pause=deal_pause,
                      bot_threads=bot_threads,
                      db_inline=None if db_thread is None else not db_thread,
                      close_finished_after=close_finished_after)
        app.state.lobby = lobby
        n = await lobby.restore()
        if n:
            log.info("restored %d tables", n)
        try:
            yield
        finally:
            await lobby.close()

    routes = [
        Route("/", index),
        Route("/api/meta", meta),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", get_table, methods=["GET"]),
        Route("/api/tables/{table_id}/{action:str}", table_action, methods=["POST"]),
        Route("/api/games", list_games),
        Route("/api/stats", stats),
        Route("/api/games/{deal_id:int}", get_game),
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        *pages.ROUTES,
        *people.ROUTES,
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _lobby(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise LobbyError("request too large", 413)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        raise LobbyError("the body is not JSON") from None
    if not isinstance(data, dict):
        raise LobbyError("the body is a JSON object")
    return data


def _json(data: Any, status: int = 200) -> Response:
    return Response(protocol.dumps(data), status_code=status,
                    media_type="application/json; charset=utf-8")


def _error(e: LobbyError) -> Response:
    return JSONResponse({"error": str(e)}, status_code=e.status)


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def meta(request: Request) -> Response:
    options = []
    for f in fields(Rules):
        kind = type(f.default).__name__
        options.append({"name": f.name, "type": kind, "default": f.default,
                        "choices": list(CHOICES.get(f.name, ()))})
    return _json({"protocol": PROTOCOL_VERSION, "presets": {k: v for k, v in PRESETS.items()},
                  "options": options, "bots": seatbots.choices()})


async def stats(request: Request) -> Response:
    return _json(_lobby(request).stats())


async def list_tables(request: Request) -> Response:
    return _json({"tables": _lobby(request).summaries()})


async def create_table(request: Request) -> Response:
    try:
        return _json(await _lobby(request).create(await _body(request)), 201)
    except LobbyError as e:
        return _error(e)


async def get_table(request: Request) -> Response:
    try:
        return _json(_lobby(request).table(request.path_params["table_id"]).summary())
    except LobbyError as e:
        return _error(e)


async def table_action(request: Request) -> Response:
    """POST /api/tables/{id}/join | leave | again: the lobby method of that name."""
    lobby = _lobby(request)
    method = {"join": lobby.join, "leave": lobby.leave, "again": lobby.again}.get(
        request.path_params["action"]
    )
    if method is None:
        return JSONResponse({"error": "no such action: join, leave or again"}, status_code=404)
    try:
        return _json(await method(request.path_params["table_id"], await _body(request)))
    except LobbyError as e:
        return _error(e)


async def list_games(request: Request) -> Response:
    try:
        limit = max(1, min(200, int(request.query_params.get("limit", "50"))))
    except ValueError:
        limit = 50
    return _json({"games": await _lobby(request).games(limit)})


async def get_game(request: Request) -> Response:
    try:
        return _json(await _lobby(request).game(request.path_params["deal_id"]))
    except LobbyError as e:
        return _error(e)


async def websocket_endpoint(ws: WebSocket) -> None:
    """One client: ``hello`` first, then ``act`` and ``ping``. Every refused message
    gets an ``error`` and nothing else happens; the connection stays open."""
    await ws.accept()
    lobby = _lobby(ws)
    conn = Connection(ws.send_text, ws.close)
    writer = asyncio.create_task(conn.writer())
    try:
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            data = msg.get("text")
            if data is None:
                data = msg.get("bytes") or b""
            try:
                m = protocol.parse_client(data)
                if isinstance(m, Hello):
                    _hello(lobby, conn, m)
                elif isinstance(m, Act):
                    if conn.table is None:
                        raise ProtocolError("hello_first", "say hello to a table first")
                    await conn.table.act(conn, m.state, m.action)
                elif isinstance(m, Ping):
                    conn.push(protocol.dumps({"type": "pong", "id": m.id}))
                else:
                    await assist.handle(conn, m)
            except ProtocolError as e:
                state = conn.table.state if conn.table is not None else None
                conn.push(protocol.error(e.code, e.message, state))
    except WebSocketDisconnect:
        pass
    finally:
        if conn.table is not None:
            conn.table.detach(conn)
        conn.stop()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(writer, 1.0)


def _hello(lobby: Lobby, conn: Connection, m: Hello) -> None:
    t = lobby.tables.get(m.table)
    if t is None:
        raise ProtocolError("no_table", f"no table {m.table!r}")
    seat: int | None = None
    if m.token is not None:
        seat = t.seat_of_token(m.token)
        if seat is None:
            raise ProtocolError("bad_token", "that token holds no seat at this table")
        if m.seat is not None and m.seat != seat:
            raise ProtocolError("bad_token", f"that token is not for seat {m.seat}")
    elif m.seat is not None:
        raise ProtocolError("bad_token", "a seat needs its token")
    if conn.table is not None:
        conn.table.detach(conn)
    conn.push(protocol.dumps({"type": "welcome", "v": PROTOCOL_VERSION, "table": t.id,
                              "seat": seat}))
    t.attach(conn, seat, hash_token(m.token) if m.token is not None else None)
