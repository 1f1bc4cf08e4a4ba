"""HTTP routes for accounts, ratings, the leaderboard and personal history
(docs/protocol.md, "Accounts"). A signed-in browser sends ``Authorization: Bearer
<session token>``. Errors answer ``{"error", "code", "field"}``: the code lets the
browser word the error in the player's language next to the field it is about.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import accounts, ratings
from .accounts import AccountError
from .store import AsyncStore

MAX_BODY = 4096


def _store(request: Request) -> AsyncStore:
    store: AsyncStore = request.app.state.lobby.store
    return store


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


async def signed_in(request: Request) -> accounts.Account | None:
    """The account of the request's session token, if any."""
    s = _store(request)
    return await s.run(accounts.by_token, s.store, _bearer(request))


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise AccountError("too_large", "request too large", None, 413)
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise AccountError("malformed", "the body is not JSON") from None
    if not isinstance(data, dict):
        raise AccountError("malformed", "the body is a JSON object")
    return data


def _refused(e: AccountError) -> Response:
    return JSONResponse({"error": str(e), "code": e.code, "field": e.field}, status_code=e.status)


def _session(account: accounts.Account, token: str) -> dict[str, Any]:
    return {**account.public(), "token": token}


async def _sign_in(
    request: Request, how: Callable[..., tuple[accounts.Account, str]], status_code: int
) -> Response:
    """Register or log in (``how``) with the body's name and password: the session."""
    s = _store(request)
    try:
        body = await _body(request)
        account, token = await s.run(how, s.store, body.get("name"), body.get("password"))
    except AccountError as e:
        return _refused(e)
    return JSONResponse(_session(account, token), status_code=status_code)


async def register(request: Request) -> Response:
    return await _sign_in(request, accounts.register, 201)


async def login(request: Request) -> Response:
    return await _sign_in(request, accounts.login, 200)


async def logout(request: Request) -> Response:
    token = _bearer(request)
    if token:
        s = _store(request)
        await s.run(accounts.logout, s.store, token)
    return JSONResponse({"ok": True})


async def me(request: Request) -> Response:
    account = await signed_in(request)
    if account is None:
        return _refused(AccountError("not_signed_in", "sign in first", None, 401))
    s = _store(request)
    return JSONResponse(await s.run(ratings.history, s.store, account.id))


async def player(request: Request) -> Response:
    s = _store(request)
    try:
        account_id = int(request.path_params["account_id"])
    except ValueError:
        account_id = -1
    data = await s.run(ratings.history, s.store, account_id)
    if data is None:
        return _refused(AccountError("no_player", "no such player", None, 404))
    return JSONResponse(data)


async def leaderboard(request: Request) -> Response:
    s = _store(request)
    return JSONResponse({"players": await s.run(ratings.leaderboard, s.store)})


async def seat_account(request: Request) -> Response:
    """``{table, token}`` with a session: the seat that token holds plays as the
    signed-in account (for ratings and history)."""
    account = await signed_in(request)
    if account is None:
        return _refused(AccountError("not_signed_in", "sign in first", None, 401))
    try:
        body = await _body(request)
    except AccountError as e:
        return _refused(e)
    lobby = request.app.state.lobby
    table = lobby.tables.get(body.get("table")) if isinstance(body.get("table"), str) else None
    token = body.get("token")
    seat = table.seat_of_token(token) if table is not None and isinstance(token, str) else None
    if table is None or seat is None:
        return _refused(
            AccountError("bad_token", "that token holds no seat at this table", None, 403)
        )
    s = _store(request)
    await s.run(accounts.link_seat, s.store, table.id, seat, account.id)
    return JSONResponse({"table": table.id, "seat": seat, "account": account.id})


ROUTES = [
    Route("/api/accounts", register, methods=["POST"]),
    Route("/api/login", login, methods=["POST"]),
    Route("/api/logout", logout, methods=["POST"]),
    Route("/api/me", me),
    Route("/api/players/{account_id}", player),
    Route("/api/leaderboard", leaderboard),
    Route("/api/seat-account", seat_account, methods=["POST"]),
]
