"""Slow requests: a deadline for a request's headers and a cap on connections per
address that have not finished sending them.

uvicorn waits for a request's headers as long as the client likes, and counts open
connections only server-wide: fifty connections that each send half a request line
and then a byte a minute are held open for good (the slow-loris attack). ``guarded``
makes uvicorn's HTTP protocol class close a connection whose headers are not complete
``header_timeout`` seconds after it opened (or after its previous response, on a
kept-alive connection), and refuse a new connection at once when its address
(``limits.net_key``) already has ``half_open_per_address`` connections waiting for
their headers. Browsers finish their headers at once, so neither touches them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .limits import Limits, Tally, net_key

log = logging.getLogger("durak.server")


def guarded(base: type[asyncio.Protocol], limits: Limits) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's httptools protocol) with the header deadline and the cap."""
    waiting = Tally(limits.half_open_per_address)
    timeout = limits.header_timeout

    class Guarded(base):  # type: ignore[valid-type,misc]
        _key = "unknown"
        _counted = False
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            self._key = net_key(str(peer[0])) if peer else "unknown"
            if not waiting.open(self._key):
                log.warning("too many half-open connections from %s; refused", self._key)
                transport.close()
                return
            self._counted = True
            self._arm()

        def _arm(self) -> None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(timeout, self._expire)

        def _headers_in(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._counted:
                self._counted = False
                waiting.close(self._key)

        def _expire(self) -> None:
            self._timer = None
            transport = self.transport
            # An upgraded connection belongs to the WebSocket protocol now.
            if transport is not None and transport.get_protocol() is self:
                self._headers_in()
                transport.close()

        def on_headers_complete(self) -> None:
            self._headers_in()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # Kept alive: the next request's head has the same deadline (an idle
            # connection is closed sooner by uvicorn's keep-alive timeout).
            if not self.transport.is_closing() and self._timer is None:
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._headers_in()
            super().connection_lost(exc)

    return Guarded


def protocol_class(limits: Limits) -> type[asyncio.Protocol] | str:
    """The HTTP protocol ``durak serve`` runs uvicorn with."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # no httptools: uvicorn's h11 protocol, without the guard
        log.warning("httptools is not installed: no header deadline for slow requests")
        return "h11"
    return guarded(HttpToolsProtocol, limits)
