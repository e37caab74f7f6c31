"""``loveletter serve``: the web app under uvicorn, with a one-line error for what can go wrong."""

from __future__ import annotations

import socket
import sys

import uvicorn
from sqlalchemy.exc import SQLAlchemyError

from loveletter.i18n import Translator
from loveletter.web.app import create_app
from loveletter.web.store import Store, default_database


def database_url(given: str | None) -> str:
    """An SQLAlchemy URL: ``given`` as it is if it is one, else an SQLite file at that path."""
    if given is None:
        return default_database()
    return given if "://" in given else f"sqlite:///{given}"


def serve(host: str, port: int, database: str | None, bot_delay: float, t: Translator) -> int:
    url = database_url(database)
    try:
        store = Store(url)
    except (SQLAlchemyError, ImportError, ValueError) as err:
        print(f"loveletter serve: {t('serve_err_db', db=url, reason=_first_line(err))}", file=sys.stderr)
        return 1
    try:  # a clear message now rather than a traceback from the server later
        with socket.create_server((host, port)):
            pass
    except OSError as err:
        print(f"loveletter serve: {t('serve_err_port', host=host, port=port, reason=err.strerror or err)}",
              file=sys.stderr)
        return 1
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(t("serve_open", url=f"http://{shown}:{port}/"), flush=True)
    print(t("serve_db", db=store.engine.url.render_as_string(hide_password=True)), flush=True)
    uvicorn.run(create_app(store, bot_delay), host=host, port=port, log_level="warning", ws_max_size=16_384,
                timeout_graceful_shutdown=5)
    return 0


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
