"""The ASGI application: the lobby over HTTP, the game over a WebSocket, the browser
client as static files. ``create_app(db_url)`` makes one; ``durak serve`` runs it.

In front of every route sits ``Shield``: per-address request rates, the body limit
(checked on Content-Length before a byte of the body is read, and counted while it
streams), JSON-only POSTs, and the security headers of every answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import Headers, State
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..rules import CHOICES, PRESETS, Rules
from . import assist, pages, people, protocol, seatbots, tournament_routes
from .clock import Clock
from .cluster import (
    Cluster,
    Local,
    Moving,
    RedisCluster,
    RemoteConnection,
    services_down,
)
from .limits import BodyTooLarge, Bucket, Guard, Limits, peer_key
from .lobby import Lobby, LobbyError, TableOp
from .protocol import PROTOCOL_VERSION, Act, Claim, Hello, Ping, ProtocolError
from .settings import Timings
from .store import Store
from .table import Connection, hash_token
from .tournaments import Director, TournamentLimits

log = logging.getLogger("durak.server")

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
MAX_DEAL_ID = 2**62

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
        b"form-action 'self'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


# PLR0913: the server's parts, one keyword each as `durak serve` passes them
def create_app(  # noqa: PLR0913
    db_url: str = "sqlite:///durak.db",
    timings: Timings | None = None,
    limits: Limits | None = None,
    *,
    bot_threads: int = 2,
    stats_token: str | None = None,
    redis_url: str | None = None,
    worker: str | None = None,
    stopped: Callable[[list[str]], None] | None = None,
    clock: Clock | None = None,
    tournaments: TournamentLimits | None = None,
) -> ASGIApp:
    """The server. ``timings``: its waits, pauses, leases and bounds
    (``settings.Timings``, its defaults when None); ``limits``: rates and caps
    (``durak.server.limits.Limits``); ``bot_threads``: the threads seat bots think on;
    ``stats_token``: the bearer token of ``/api/stats`` (without one it is not served);
    ``redis_url``: join the workers of a cluster there (docs/scale.md), as ``worker``
    (an id; a random one by default); without it this process holds every table.
    ``stopped``: called once the server stopped, with what it could not store (empty:
    everything was). ``clock``: the time the tables read (a test's ``ManualClock``).
    ``tournaments``: the tournaments' limits (``durak.server.tournaments``)."""
    lim = limits or Limits()
    times = timings or Timings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db_url, busy_timeout=times.lock_timeout, stall=times.stall)
        lobby = Lobby(store, times, lim, clock, bot_threads, sharing=cluster)
        app.state.lobby = lobby
        await cluster.start(lobby)
        # Directing tournaments is a leased role, held by one worker at a time.
        app.state.director = Director(
            lobby,
            tournaments,
            worker=getattr(cluster, "worker", None),
            shared=not isinstance(cluster, Local),
            lease=2 * times.lease,
        )
        await app.state.director.start()
        try:
            yield
        finally:
            await app.state.director.stop()
            unstored = await cluster.stop()
            app.state.logins.close()
            if stopped is not None:
                stopped(unstored)

    down: dict[Any, Any] = {kind: _services_down for kind in DOWN}
    app = Starlette(routes=_routes(), lifespan=lifespan, exception_handlers=down)
    cluster: Cluster = (
        RedisCluster(redis_url, lim, Frames(app.state), worker, times) if redis_url else Local(lim)
    )
    app.state.guard = cluster.guard()
    app.state.cluster = cluster
    app.state.logins = cluster.logins()
    app.state.stats_token = stats_token
    return Shield(app, app.state.guard)


def _routes() -> list[Any]:
    """The server's pages, API and socket."""
    return [
        Route("/", index),
        Route("/api/meta", meta),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", get_table, methods=["GET"]),
        Route("/api/tables/{table_id}/{action:str}", table_action, methods=["POST"]),
        Route("/api/games", list_games),
        Route("/api/stats", stats),
        Route("/api/games/{deal_id}", get_game),
        Route("/api/games/{deal_id}/review", get_review),
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        *pages.ROUTES,
        *people.ROUTES,
        *tournament_routes.ROUTES,
    ]


# The errors of a database or a Redis that does not answer (cluster.services_down).
DOWN = services_down()
RETRY_AFTER = "2"  # seconds a client is told to wait when the services are down


def _down_response() -> Response:
    return JSONResponse(
        {"error": "the server's services are not answering; try again shortly"},
        503,
        headers={"Retry-After": RETRY_AFTER},
    )


async def _services_down(request: Request, exc: Exception) -> Response:
    log.warning("%s %s: services down: %s", request.method, request.url.path, exc)
    return _down_response()


class Shield:
    """ASGI middleware: rate limit per address, body limit, JSON POSTs, headers."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        lim = self.guard.limits
        try:
            refusal = await self._refusal(scope, Headers(scope=scope))
        except DOWN as e:  # (its limits are counted in Redis)
            log.warning("services down: %s", e)
            refusal = _down_response()
        if refusal is not None:
            await refusal(scope, receive, send_with_headers)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > lim.max_body:
                    raise BodyTooLarge
            return message

        await self.app(scope, counted, send_with_headers)

    async def _refusal(self, scope: Scope, headers: Headers) -> Response | None:
        lim = self.guard.limits
        if not await self.guard.requests.acquire(address(scope)):
            return JSONResponse(
                {"error": "too many requests; slow down"}, 429, headers={"Retry-After": "1"}
            )
        if scope["method"] == "POST":
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            # A cross-site form can send neither this type nor an Authorization header
            # without the browser asking first: either one rules out a forged request.
            if kind != "application/json" and "authorization" not in headers:
                return JSONResponse({"error": "POST bodies are application/json"}, 415)
            length = headers.get("content-length")
            if length is not None:
                if not length.isdigit() or len(length) > 12:
                    return JSONResponse({"error": "bad Content-Length"}, 400)
                if int(length) > lim.max_body:
                    return JSONResponse({"error": "request too large"}, 413)
        return None


def address(scope: Scope) -> str:
    """What the per-address limits count by: the peer's address, an IPv6 one by its /64."""
    return peer_key(scope)


def _lobby(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _guard(request: Request | WebSocket) -> Guard:
    guard: Guard = request.app.state.guard
    return guard


async def _body(request: Request) -> dict[str, Any]:
    try:
        raw = await request.body()
    except BodyTooLarge:
        raise LobbyError("request too large", 413) from None
    if not raw:
        return {}
    try:
        data = protocol.decode_body(raw)
    except ProtocolError as e:
        raise LobbyError(e.message[:200]) from None
    if not isinstance(data, dict):
        raise LobbyError("the body is a JSON object")
    return data


def _json(data: Any, status: int = 200) -> Response:
    return Response(
        protocol.dumps(data), status_code=status, media_type="application/json; charset=utf-8"
    )


def _error(e: LobbyError) -> Response:
    headers = {"Retry-After": RETRY_AFTER} if e.status == 503 else None
    return JSONResponse({"error": str(e)}, status_code=e.status, headers=headers)


def _cluster(request: Request | WebSocket) -> Cluster:
    cluster: Cluster = request.app.state.cluster
    return cluster


async def _limited(bucket: Bucket, request: Request, what: str) -> None:
    if not await bucket.acquire(address(request.scope)):
        raise LobbyError(f"too many {what} from your address; wait a little", 429)


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def meta(request: Request) -> Response:
    options = []
    for f in fields(Rules):
        kind = type(f.default).__name__
        options.append(
            {
                "name": f.name,
                "type": kind,
                "default": f.default,
                "choices": list(CHOICES.get(f.name, ())),
            }
        )
    return _json(
        {
            "protocol": PROTOCOL_VERSION,
            "presets": {k: v for k, v in PRESETS.items()},
            "options": options,
            "bots": seatbots.choices(),
        }
    )


async def stats(request: Request) -> Response:
    """Only for the operator: with ``Authorization: Bearer <stats token>``."""
    token = request.app.state.stats_token
    given = request.headers.get("authorization", "")
    if not token or not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return JSONResponse({"error": "not found"}, 404)
    return _json(_lobby(request).stats())


def _int_param(request: Request, key: str, default: int, lo: int, hi: int) -> int:
    text = request.query_params.get(key, "")
    if not text.isdigit():
        return default
    return hi if len(text) > 9 else max(lo, min(hi, int(text)))


async def list_tables(request: Request) -> Response:
    size = _guard(request).limits.page_size
    return _json(
        await _cluster(request).summaries(
            _int_param(request, "offset", 0, 0, 10**9), _int_param(request, "limit", size, 1, 100)
        )
    )


async def _account_id(request: Request) -> int | None:
    """The signed-in account of a request that takes a seat: the seat plays as it."""
    if "authorization" not in request.headers:
        return None
    account = await people.signed_in(request)
    return account.id if account is not None else None


async def create_table(request: Request) -> Response:
    try:
        await _limited(_guard(request).creates, request, "new tables")
        body = await _body(request)
        account_id = await _account_id(request)
        return _json(
            await _lobby(request).create(body, owner=address(request.scope), account_id=account_id),
            201,
        )
    except LobbyError as e:
        return _error(e)


async def get_table(request: Request) -> Response:
    try:
        invite = request.query_params.get("invite")
        return _json(
            await _cluster(request).table_op(
                TableOp("summary", request.path_params["table_id"], {"invite": invite})
            )
        )
    except LobbyError as e:
        return _error(e)


async def table_action(request: Request) -> Response:
    """POST /api/tables/{id}/join | leave | again: the lobby method of that name, run by
    the worker that holds the table."""
    guard = _guard(request)
    action = request.path_params["action"]
    if action not in ("join", "leave", "again"):
        return JSONResponse({"error": "no such action: join, leave or again"}, status_code=404)
    addr = address(request.scope)
    try:
        await _limited(guard.joins if action == "join" else guard.requests, request, "seats taken")
        body = await _body(request)
        # Over the limit only a right seat token is checked (see _hello).
        guesser = not await guard.token_tries.available(addr)
        account_id = await _account_id(request) if action == "join" else None
        try:
            return _json(
                await _cluster(request).table_op(
                    TableOp(
                        action, request.path_params["table_id"], body, account_id, addr, guesser
                    )
                )
            )
        except LobbyError as e:
            if e.status in (403, 404):  # a wrong token, invite or id: a guess, counted
                await guard.token_tries.acquire(addr)
            raise
    except LobbyError as e:
        return _error(e)


async def list_games(request: Request) -> Response:
    try:
        return _json(
            {"games": await _lobby(request).games(_int_param(request, "limit", 50, 1, 200))}
        )
    except LobbyError as e:
        return _error(e)


async def get_game(request: Request) -> Response:
    text = request.path_params["deal_id"]
    if not text.isdigit() or len(text) > 19 or int(text) > MAX_DEAL_ID:
        return JSONResponse({"error": f"no finished game {text[:32]!r}"}, 404)
    try:
        return _json(await _lobby(request).game(int(text), request.query_params.get("invite")))
    except LobbyError as e:
        return _error(e)


async def get_review(request: Request) -> Response:
    """GET /api/games/{id}/review: the review of a finished deal (docs/review.md), to
    whoever may see its replay; 503 with Retry-After while the reviewer is busy."""
    text = request.path_params["deal_id"]
    if not text.isdigit() or len(text) > 19 or int(text) > MAX_DEAL_ID:
        return JSONResponse({"error": f"no finished game {text[:32]!r}"}, 404)
    try:
        review = await _lobby(request).review(int(text), request.query_params.get("invite"))
    except LobbyError as e:
        response = _error(e)
        if e.status == 503:
            response.headers["Retry-After"] = "5"
        return response
    return _json(review)


def origin_allowed(ws: WebSocket, allowed: tuple[str, ...]) -> bool:
    """A browser's WebSocket must come from this site's own pages (or a listed origin);
    clients that send no Origin (not browsers) are let in."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    host = ws.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


async def websocket_endpoint(ws: WebSocket) -> None:
    """One client: ``hello`` first (within the hello deadline), then ``act``, ``claim``
    and ``ping``. Every refused message gets an ``error`` and nothing else happens; the
    connection stays open."""
    guard = _guard(ws)
    lim = guard.limits
    addr = address(ws.scope)
    if not origin_allowed(ws, lim.allowed_origins):
        await ws.close(code=1008)
        return
    # A new connection costs a handshake and a state message: counted as a request.
    try:
        if not await guard.requests.acquire(addr) or not await guard.connect(addr):
            await ws.close(code=1008)
            return
    except DOWN:  # its limits are counted in Redis: "try again later"
        await ws.close(code=1013)
        return
    try:
        await ws.accept()
        await _serve(ws, _lobby(ws), guard, _cluster(ws), addr)
    finally:
        await guard.disconnect(addr)


# C901: one connection's message loop: every limit in one place
async def _serve(  # noqa: C901
    ws: WebSocket, lobby: Lobby, guard: Guard, cluster: Cluster, addr: str
) -> None:
    lim = guard.limits
    conn = Connection(ws.send_text, ws.close, address=addr)
    writer = asyncio.create_task(conn.writer())
    mine = Bucket(lim.messages_per_second, lim.messages_burst, max_keys=1)
    clock = lobby.clock  # (the connection's rate on the tables' time: a test moves it)
    loop = asyncio.get_running_loop()
    hello_by = loop.time() + lim.hello_deadline
    greeted = False
    refused = 0  # messages over the rate in a row
    told = float("-inf")  # when this connection was last told it is over the rate
    try:
        while not conn.closed:
            if greeted:
                msg = await ws.receive()
            else:
                try:
                    msg = await asyncio.wait_for(ws.receive(), max(0.0, hello_by - loop.time()))
                except TimeoutError:
                    conn.push(protocol.error("hello_timeout", "no hello in time; goodbye"))
                    conn.stop()
                    break
            if msg["type"] == "websocket.disconnect":
                break
            data = msg.get("text")
            if data is None:
                data = msg.get("bytes") or b""
            now = clock.monotonic()
            if not mine.take(0, now) or not await guard.messages.acquire(addr):
                # Over the rate the message is dropped unread: a flood costs the server
                # as little as can be. The client is told at most once a second, and a
                # connection that keeps on is closed.
                refused += 1
                guard.dropped += 1
                if refused > 10 * lim.messages_burst:
                    conn.push(protocol.error("rate_limited", "too many messages; goodbye"))
                    conn.stop()
                    break
                if now - told >= 1.0:
                    told = now
                    conn.push(protocol.error("rate_limited", "too many messages; slow down"))
                continue
            refused = 0
            greeted = await handle_frame(lobby, guard, cluster, conn, data) or greeted
    except WebSocketDisconnect:
        pass
    finally:
        if conn.table is not None:
            conn.table.detach(conn)
        await cluster.unrelay(conn)
        conn.stop()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(writer, 1.0)


class Frames:
    """What a worker hands the frames of sockets relayed to it (``cluster.Handler``):
    ``handle_frame`` with the app's lobby, guard and cluster, read as each frame comes
    (the lobby is made when the app starts)."""

    def __init__(self, state: State) -> None:
        self.state = state

    async def __call__(self, conn: Connection, text: str) -> object:
        s = self.state
        return await handle_frame(s.lobby, s.guard, s.cluster, conn, text)


async def handle_frame(
    lobby: Lobby, guard: Guard, cluster: Cluster, conn: Connection, data: str | bytes
) -> bool:
    """One frame a client sent (past the rate limits), on the worker its socket is on
    or, relayed, on the worker that owns its table (``cluster``); True if it was a
    hello. A refused frame gets an ``error`` and changes nothing."""
    try:
        m = protocol.parse_client(data)
        if isinstance(m, Hello):
            try:
                owner = await cluster.where(m.table)
            except Moving as e:  # (not a guess: the table is there, settling)
                raise ProtocolError("moving", str(e)) from None
            if owner is not None:
                if isinstance(conn, RemoteConnection):
                    # Relayed here, but the table is elsewhere now: the edge asks again.
                    conn.moved = True
                    conn.stop()
                else:
                    text = data if isinstance(data, str) else data.decode()
                    await cluster.relay(conn, owner, m.table, text)
                return True
            await cluster.unrelay(conn)
            await _hello(lobby, guard, conn, m)
            return True
        if isinstance(m, Ping):
            conn.push(protocol.dumps({"type": "pong", "id": m.id}))
        elif cluster.relayed(conn):
            await cluster.forward(conn, data if isinstance(data, str) else data.decode())
        elif isinstance(m, Act | Claim):
            if conn.table is None:
                raise ProtocolError("hello_first", "say hello to a table first")
            if isinstance(m, Act):
                await conn.table.act(conn, m.state, m.action)
            else:
                await conn.table.claim(conn)
        else:
            await assist.handle(conn, m)
    except ProtocolError as e:
        state = conn.table.state if conn.table is not None else None
        conn.push(protocol.error(e.code, e.message, state))
    return False


async def _hello(lobby: Lobby, guard: Guard, conn: Connection, m: Hello) -> None:
    # While an address is over its limit of wrong guesses, no table id or invite it shows
    # is checked: a right guess among the refused ones would otherwise still get through.
    # A seat's token is still honoured when it is right: 24 random bytes are not guessed,
    # and a guesser behind a NAT must not lock its neighbours out of their own seats.
    if not await guard.token_tries.available(conn.address):
        t = lobby.tables.get(m.table)
        if m.token is None or t is None or t.seat_of_token(m.token) is None:
            raise ProtocolError("rate_limited", "too many wrong tables, tokens or invites")
    try:
        _check_hello(lobby, conn, m)
    except ProtocolError as e:
        if e.code in ("no_table", "bad_token"):
            await guard.token_tries.acquire(conn.address)
        raise


def _check_hello(lobby: Lobby, conn: Connection, m: Hello) -> None:
    t = lobby.tables.get(m.table)
    if t is None or (m.token is None and not t.admits(m.invite)):
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
    if conn.table is not None and conn.table is not t:
        conn.table.detach(conn)
    conn.welcome(
        protocol.dumps({"type": "welcome", "v": PROTOCOL_VERSION, "table": t.id, "seat": seat}),
        seat,
    )
    t.attach(conn, seat, hash_token(m.token) if m.token is not None else None)
