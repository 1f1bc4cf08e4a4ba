"""The web table: an ASGI server (Starlette) for people and bots.

``create_app`` builds the application; ``durak serve`` (:mod:`durak.server.cli`) runs it
under uvicorn. The lobby is plain HTTP, play goes over one WebSocket per client
(:mod:`durak.server.protocol`, written down in docs/protocol.md), and every accepted
action is stored (:mod:`durak.server.store`) before anyone hears of it.
"""

from .app import create_app

__all__ = ["create_app"]
