"""Routes for what the browser reads besides games: the message catalogue
(``/i18n/<domain>.json``, the files of :mod:`durak.i18n` as they are) and a table's
recent chat (``/api/chat/<table>``)."""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import i18n
from . import assist

# The browser needs only these domains; the terminal's stay on the server.
WEB_DOMAINS = ("common", "web", "howto", "review")


async def catalogue(request: Request) -> Response:
    name = request.path_params["domain"]
    if name not in WEB_DOMAINS:
        return JSONResponse({"error": f"no catalogue {name!r}"}, status_code=404)
    body = json.dumps(i18n.domain(name), ensure_ascii=False)
    return Response(
        body, media_type="application/json; charset=utf-8", headers={"Cache-Control": "no-cache"}
    )


async def chat(request: Request) -> Response:
    t = request.app.state.lobby.tables.get(request.path_params["table_id"])
    # A private table's chat, as the table itself, only with its invite.
    if t is None or not t.admits(request.query_params.get("invite")):
        return JSONResponse({"error": "no such table"}, status_code=404)
    return JSONResponse({"messages": assist.chat_history(t)})


ROUTES = [Route("/i18n/{domain}.json", catalogue), Route("/api/chat/{table_id}", chat)]
