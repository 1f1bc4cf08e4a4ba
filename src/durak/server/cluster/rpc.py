"""Requests about a table (HTTP: join, leave, settings...) run by the worker that owns
it: the worker a request reaches sends a ``Req`` to the owner and waits for its
``ReqResponse``."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from ..lobby import LobbyError, TableOp
from .leases import Moving
from .node import Node
from .wire import Req, ReqResponse

CALL_SECONDS = 5.0  # how long an edge waits for the owner to answer a request


class Calls:
    """The requests this worker sent and waits on, and those it answers."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.waiting: dict[str, asyncio.Future[ReqResponse]] = {}
        self._ids = itertools.count(1)

    async def table_op(self, op: TableOp) -> dict[str, Any]:
        """Run a request about a table on its owner (here, or over Redis)."""
        node, table_id = self.node, op.table
        for _ in range(3):
            try:
                owner = await node.where(table_id)
            except Moving as e:
                raise LobbyError(str(e), 503) from None
            if owner is None:
                return await node.lobby.op(op)
            rid = f"{node.worker}:{next(self._ids)}"
            fut: asyncio.Future[ReqResponse] = asyncio.get_running_loop().create_future()
            self.waiting[rid] = fut
            req = Req(node.worker, rid, op)
            await node.publish(owner, req)
            try:
                answer = await asyncio.wait_for(fut, CALL_SECONDS)
            except TimeoutError:
                self.waiting.pop(rid, None)
                raise LobbyError("the table's worker did not answer; try again", 503) from None
            if answer.status == 0:
                continue  # it moved on the way: ask again
            if answer.status >= 400:
                raise LobbyError(str(answer.body.get("error", "refused")), answer.status)
            return answer.body
        raise LobbyError("the table is moving between workers; try again", 503)

    async def serve(self, req: Req) -> None:
        """Run ``req`` here and answer its caller (status 0: the table is not here)."""
        lobby = self.node.lobby
        status, answer = 200, {}
        if req.op.table not in lobby.tables:
            status = 0
        else:
            try:
                answer = await lobby.op(req.op)
            except LobbyError as e:
                status, answer = e.status, {"error": str(e)}
        await self.node.publish(req.caller, ReqResponse(req.id, status, answer))

    def answered(self, m: ReqResponse) -> None:
        fut = self.waiting.pop(m.id, None)
        if fut is not None and not fut.done():
            fut.set_result(m)
