"""HTTP routes of tournaments (docs/protocol.md, «Tournaments»): create, list, show
(with a long poll on the event's version), and join, leave, withdraw, start. A request
that acts sends ``Authorization: Bearer <session token>``; errors answer
``{"error": ...}`` with the status, and change nothing."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import accounts, protocol
from .limits import BodyTooLarge, Guard, peer_key
from .lobby import LobbyError
from .people import signed_in
from .store import StoreUnavailable
from .tournaments import Director

ACTIONS = ("join", "leave", "withdraw", "start")
MAX_WAIT = 25.0  # seconds a long poll is held at most


def _director(request: Request) -> Director:
    director: Director = request.app.state.director
    return director


def _json(data: dict[str, Any], status: int = 200) -> Response:
    return Response(
        protocol.dumps(data), status_code=status, media_type="application/json; charset=utf-8"
    )


def _refused(e: LobbyError) -> Response:
    return JSONResponse({"error": str(e)}, status_code=e.status)


async def _account(request: Request) -> accounts.Account | None:
    if "authorization" not in request.headers:
        return None
    return await signed_in(request)


async def _body(request: Request) -> dict[str, Any]:
    try:
        raw = await request.body()
    except BodyTooLarge:
        raise LobbyError("request too large", 413) from None
    try:
        data = protocol.decode_body(raw or b"{}")
    except protocol.ProtocolError as e:
        raise LobbyError(e.message[:200]) from None
    if not isinstance(data, dict):
        raise LobbyError("the body is a JSON object")
    return data


async def create(request: Request) -> Response:
    """POST /api/tournaments."""
    guard: Guard = request.app.state.guard
    try:
        if not await guard.creates.acquire(peer_key(request.scope)):
            raise LobbyError("too many new tournaments from your address; wait a little", 429)
        body = await _body(request)
        return _json(await _director(request).create(body, await _account(request)), 201)
    except LobbyError as e:
        return _refused(e)
    except StoreUnavailable as e:
        return _refused(LobbyError(str(e), 503))


async def listing(request: Request) -> Response:
    """GET /api/tournaments: the latest, newest first."""
    return _json({"tournaments": await _director(request).listing()})


async def show(request: Request) -> Response:
    """GET /api/tournaments/{id}[?after=VERSION]: the event; with ``after``, answered
    once its version is past that (at most 25 s later)."""
    d, tid = _director(request), request.path_params["tid"]
    try:
        after = request.query_params.get("after", "")
        if after.isdigit() and len(after) < 10:
            await d.entry(tid)  # (404 first: no wait for an event that is not)
            await d.wait(tid, int(after), MAX_WAIT)
        return _json(d.view(await d.entry(tid), await _account(request)))
    except LobbyError as e:
        return _refused(e)


async def act(request: Request) -> Response:
    """POST /api/tournaments/{id}/join | leave | withdraw | start."""
    action = request.path_params["action"]
    if action not in ACTIONS:
        return JSONResponse({"error": f"no such action: {', '.join(ACTIONS)}"}, 404)
    try:
        await _body(request)
        d = _director(request)
        tid, account = request.path_params["tid"], await _account(request)
        return _json(await d.act(tid, action, account, peer_key(request.scope)))
    except LobbyError as e:
        return _refused(e)
    except StoreUnavailable as e:
        return _refused(LobbyError(str(e), 503))


ROUTES = [
    Route("/api/tournaments", create, methods=["POST"]),
    Route("/api/tournaments", listing, methods=["GET"]),
    Route("/api/tournaments/{tid}", show, methods=["GET"]),
    Route("/api/tournaments/{tid}/{action:str}", act, methods=["POST"]),
]
