"""HTTP routes for accounts, ratings, the leaderboard and personal history
(docs/protocol.md, "Accounts"). A signed-in browser sends ``Authorization: Bearer
<session token>``. Errors answer ``{"error", "code", "field"}``: the code lets the
browser word the error in the player's language next to the field it is about.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import ArgumentError
from . import accounts, protocol, ratings, seasons
from .accounts import AccountError
from .limits import BodyTooLarge, peer_key
from .lobby import LobbyError, TableOp
from .logins import Logins
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
    try:
        raw = await request.body()
    except BodyTooLarge:  # a chunked body that grew past the limit while it streamed
        raise AccountError("too_large", "request too large", None, 413) from None
    if len(raw) > MAX_BODY:
        raise AccountError("too_large", "request too large", None, 413)
    try:
        data = protocol.decode_body(raw or b"{}")
    except protocol.ProtocolError:
        raise AccountError("malformed", "the body is not JSON") from None
    if not isinstance(data, dict):
        raise AccountError("malformed", "the body is a JSON object")
    return data


def _refused(e: AccountError) -> Response:
    headers = {"Retry-After": "1"} if e.status in (429, 503) else None
    return JSONResponse(
        {"error": str(e), "code": e.code, "field": e.field}, status_code=e.status, headers=headers
    )


def _session(account: accounts.Account, token: str) -> dict[str, Any]:
    return {**account.public(), "token": token}


def _logins(request: Request) -> Logins:
    logins: Logins = request.app.state.logins
    return logins


def _address(request: Request) -> str:
    return peer_key(request.scope)


async def register(request: Request) -> Response:
    """A new account: the name checked first, then the password hashed on the hashing
    pool (never the database thread), then stored with a session."""
    s, logins = _store(request), _logins(request)
    try:
        body = await _body(request)
        await logins.admit(_address(request), None)
        name = accounts.clean_account_name(body.get("name"))
        pw = await logins.hash(accounts.check_password(body.get("password")))
        account, token = await s.run(accounts.create, s.store, name, pw)
    except AccountError as e:
        return _refused(e)
    return JSONResponse(_session(account, token), status_code=201)


async def login(request: Request) -> Response:
    """Limits and the lockout first (nothing hashed for a refused try); an unknown name
    is hashed against a dummy, so every wrong try takes as long and says the same."""
    s, logins = _store(request), _logins(request)
    try:
        body = await _body(request)
        name, password = body.get("name"), body.get("password")
        keys = accounts.name_keys(name)
        key = keys[0] if keys else ""
        await logins.admit(_address(request), key)
        found = await s.run(accounts.credentials, s.store, name)
        if not await logins.verify(password, found[1] if found else None):
            await logins.lockout.missed(key)
            raise AccountError("bad_login", "wrong name or password", "password", 401)
        assert found is not None and isinstance(password, str)
        await logins.lockout.passed(key)
        rehash = await logins.hash(password) if accounts.outdated(found[1]) else None
        account, token = await s.run(accounts.open_session, s.store, found[0], rehash)
    except AccountError as e:
        return _refused(e)
    return JSONResponse(_session(account, token))


async def logout(request: Request) -> Response:
    """End this session; with ``{"everywhere": true}`` every session of the account."""
    token = _bearer(request)
    try:
        body = await _body(request)
    except AccountError as e:
        return _refused(e)
    if token:
        s = _store(request)
        await s.run(accounts.logout, s.store, token, body.get("everywhere") is True)
    return JSONResponse({"ok": True})


async def change_password(request: Request) -> Response:
    """``{password, new_password}`` with a session: the password changes, every session
    of the account ends, and a new one is returned."""
    s, logins = _store(request), _logins(request)
    try:
        account = await signed_in(request)
        if account is None:
            raise AccountError("not_signed_in", "sign in first", None, 401)
        body = await _body(request)
        await logins.admit(_address(request), None)
        new = accounts.check_password(body.get("new_password"))
        found = await s.run(accounts.credentials, s.store, account.name)
        if found is None or found[0] != account.id:
            found = None
        if not await logins.verify(body.get("password"), found[1] if found else None):
            raise AccountError("bad_login", "wrong password", "password", 401)
        pw = await logins.hash(new)
        changed, token = await s.run(accounts.open_session, s.store, account.id, pw, True)
    except AccountError as e:
        return _refused(e)
    return JSONResponse(_session(changed, token))


async def me(request: Request) -> Response:
    account = await signed_in(request)
    if account is None:
        return _refused(AccountError("not_signed_in", "sign in first", None, 401))
    s = _store(request)
    return JSONResponse(await s.run(ratings.history, s.store, account.id))


async def player(request: Request) -> Response:
    s = _store(request)
    text = request.path_params["account_id"]
    # Digits only and within a database integer: anything else is no player, not a 500.
    account_id = int(text) if text.isdigit() and len(text) <= 15 else -1
    data = await s.run(ratings.history, s.store, account_id, 100, False)
    if data is None:
        return _refused(AccountError("no_player", "no such player", None, 404))
    return JSONResponse(data)


async def leaderboard(request: Request) -> Response:
    """All time; with ``?season=YYYY-Qn`` (or ``current``) that season (server/seasons.py)."""
    s = _store(request)
    season = request.query_params.get("season")
    if season is None:
        return JSONResponse({"players": await s.run(ratings.leaderboard, s.store)})
    try:
        return JSONResponse(await s.run(seasons.leaderboard, s.store, season[:16]))
    except ArgumentError as e:
        return _refused(AccountError("malformed", str(e), "season", 400))


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
    table_id, token = body.get("table"), body.get("token")
    if not isinstance(table_id, str) or not isinstance(token, str):
        return _refused(
            AccountError("bad_token", "that token holds no seat at this table", None, 403)
        )
    # The worker that holds the table links it (here, or another: docs/scale.md).
    try:
        answer = await request.app.state.cluster.table_op(
            TableOp("link", table_id, {"token": token}, account.id)
        )
    except LobbyError as e:
        code = {403: "bad_token", 404: "bad_token", 409: "deal_in_play"}.get(e.status, "busy")
        return _refused(AccountError(code, str(e), None, 403 if e.status == 404 else e.status))
    return JSONResponse(answer)


ROUTES = [
    Route("/api/accounts", register, methods=["POST"]),
    Route("/api/login", login, methods=["POST"]),
    Route("/api/logout", logout, methods=["POST"]),
    Route("/api/password", change_password, methods=["POST"]),
    Route("/api/me", me),
    Route("/api/players/{account_id}", player),
    Route("/api/leaderboard", leaderboard),
    Route("/api/seat-account", seat_account, methods=["POST"]),
]
