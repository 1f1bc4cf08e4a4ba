"""``durak serve``: the web table under uvicorn.

    durak serve                         # http://127.0.0.1:8000, SQLite file durak.db
    durak serve --host 0.0.0.0 --port 8080 --db postgresql+psycopg://u:p@host/durak
"""

from __future__ import annotations

import argparse
import logging

DEFAULT_DB = "sqlite:///durak.db"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--db", default=DEFAULT_DB,
                        help=f"SQLAlchemy database URL (default {DEFAULT_DB})")
    parser.add_argument("--bot-pace", type=float, default=0.8,
                        help="seconds a bot takes for a move, so people can follow")
    parser.add_argument("--deal-pause", type=float, default=None,
                        help="seconds a finished deal stays on the table (default 4 x pace)")
    parser.add_argument("--bot-threads", type=int, default=2,
                        help="threads that bots think on")
    parser.add_argument("--log-level", default="info",
                        choices=["critical", "error", "warning", "info", "debug"])


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from .app import create_app

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(message)s")
    app = create_app(args.db, bot_pace=args.bot_pace, deal_pause=args.deal_pause,
                     bot_threads=args.bot_threads)
    print(f"durak: serving on http://{args.host}:{args.port}/ (database {args.db})")
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                ws_max_size=64 * 1024)
    return 0
