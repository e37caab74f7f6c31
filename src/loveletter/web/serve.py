"""``loveletter serve``: the web app under uvicorn, with a one-line error for what can go wrong."""

from __future__ import annotations

import contextlib
import copy
import errno
import ipaddress
import logging
import os
import signal
import socket
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import uvicorn
from sqlalchemy.exc import (
    ArgumentError,
    DatabaseError,
    DBAPIError,
    NoSuchModuleError,
    OperationalError,
    SQLAlchemyError,
)
from starlette.types import ASGIApp

from loveletter.folders import NoHomeFolder
from loveletter.i18n import Translator
from loveletter.signals import HANG_UP, handled
from loveletter.web import apart
from loveletter.web.app import GIVEN_UP, create_app, page_language
from loveletter.web.limits import LoopbackOnly, Seldom
from loveletter.web.logbook import said, written_in
from loveletter.web.messages import first_line, left_out_reason
from loveletter.web.store import (
    FileHold,
    ForeignTable,
    Hold,
    InUse,
    Store,
    claim,
    default_database,
    sqlite_file,
    sqlite_url,
)


def database_url(given: str | None) -> str:
    """An SQLAlchemy URL: ``given`` as it is if it is one, else an SQLite file at that path."""
    if given is None:
        return default_database()
    return given if "://" in given else sqlite_url(given)


#: How often (seconds) a server on PostgreSQL asks whether it holds its database still.
HOLD_CHECK_EVERY = 10.0
#: How often (seconds) a server on an SQLite file looks whether the file is there still: a look costs nothing.
FILE_CHECK_EVERY = 1.0


def say(t: Translator, key: str, **params: object) -> None:
    """Say the line ``key`` on standard error, as ``loveletter serve``'s own."""
    print(f"loveletter serve: {t(key, **params)}", file=sys.stderr, flush=True)


def watch_hold(hold: Hold | FileHold, t: Translator, stopped: threading.Event, lost: threading.Event,
               every: float, db: str) -> None:
    """Every ``every`` seconds until ``stopped``, whether ``hold`` holds the database ``db`` still
    (:meth:`~loveletter.web.store.Hold.check`, :meth:`~loveletter.web.store.FileHold.check`): its lock
    taken again is said in a line; held by another server now (started while the lock was lost), or
    its file replaced or removed, ``lost`` is set, which stops this one, saying why: two servers would
    each serve their own copy of a table, and moves stored in a file no path names are lost."""
    while not stopped.wait(every):
        found = hold.check()
        if found == "taken again":
            say(t, "serve_hold_taken_again")
        elif found in ("lost", "replaced"):
            give_up(found, t, db, lost)
            return


def give_up(found: str, t: Translator, db: str, lost: threading.Event) -> None:
    """Say why this server gives up its database ``db`` (``found``: another server took it, or its
    file was replaced or removed), and set ``lost``, which stops it."""
    say(t, "serve_hold_lost" if found == "lost" else "serve_db_replaced", db=db)
    lost.set()


def shut_down(store: Store, hold: Hold | FileHold | None, lost: threading.Event, t: Translator, db: str) -> None:
    """What the server does once it has shut down (a SIGTERM ends the process as soon as this
    returns): the searches' processes stopped (left running, each said its pipe was gone with a
    traceback); the store closed (SQLite then writes the changes it keeps beside the file, FILE-wal,
    into it), and an SQLite file kept open by its hold last, for the last connection to close writes
    them (the file held none of the tables). A file replaced or removed meanwhile is copied first
    (:func:`rescue`)."""
    apart.stop()
    store.close()
    if isinstance(hold, FileHold):
        if not lost.is_set() and hold.check() == "replaced":  # (since its last look: stopped meanwhile)
            give_up("replaced", t, db, lost)
        if lost.is_set():  # (every move in it now)
            rescue(hold, t)
        hold.close_file()


def rescue(hold: FileHold, t: Translator) -> None:
    """Copy the SQLite file the server had open, replaced or removed since, beside its path, and say where."""
    try:
        copy = hold.rescue()
    except (OSError, sqlite3.Error) as err:
        reason = t.os_reason(err) if isinstance(err, OSError) else str(err)
        say(t, "serve_db_not_rescued", reason=reason)
        return
    say(t, "serve_db_rescued", copy=copy)


#: The addresses that stand for every address of this machine's: IPv4's, and IPv6's (IPv6 alone).
EVERY_ADDRESS = {"0.0.0.0": socket.AF_INET, "::": socket.AF_INET6}


def network_address(family: socket.AddressFamily = socket.AF_INET) -> str | None:
    """This machine's address on its network in ``family`` (IPv6's in brackets), where a server
    listening on every address is reached from the others (the one its default route leaves by), or
    None where it has none. A UDP socket "connected" sends nothing: it only picks the route (to an
    address kept for documentation)."""
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("2001:db8::1" if family == socket.AF_INET6 else "192.0.2.1", 9))
            address = ipaddress.ip_address(probe.getsockname()[0])
        except OSError:  # no route: no network
            return None
    if address.is_loopback or address.is_unspecified or address.is_link_local:
        return None
    return f"[{address}]" if address.version == 6 else str(address)


def serve(host: str, port: int, database: str | None, bot_delay: float, budget: int | None,
          t: Translator, proxy: str | None = None) -> int:
    """``loveletter serve``, its log in ``t``'s language; ``proxy``: the addresses (or networks) of
    the proxies in front whose ``X-Forwarded-For`` is believed (none: the header is not, for anyone
    may send it)."""
    with written_in(t):
        return _serve(host, port, database, bot_delay, budget, t, proxy)


def _serve(host: str, port: int, database: str | None, bot_delay: float, budget: int | None,
           t: Translator, proxy: str | None) -> int:
    def fail(key: str, **params: object) -> int:
        say(t, key, **params)
        return 1

    try:  # the port first, so that a server that cannot start creates no database
        for listener in listen(host, port):  # (socket.create_server took ::1 for an IPv4 address)
            # closed again, and bound anew to serve: a socket listening while the tables are read back
            # takes connections the server does not answer yet (a check that it started passes too soon)
            listener.close()
    except OSError as err:
        return fail("serve_err_port", host=host, port=port, reason=t.os_reason(err))
    try:
        url = database_url(database)
    except OSError as err:  # the default data folder could not be made
        return fail("serve_err_data_folder", folder=err.filename, reason=t.os_reason(err))
    except NoHomeFolder:
        return fail("serve_err_no_home", reason=t("no_home", option=f"--db {t('meta_file')}"))
    shown_db = _shown_database(url)
    problem = _sqlite_file_problem(url, t)
    if problem:
        return fail("serve_err_db", db=shown_db, reason=problem)
    try:
        store = Store(url)
    except NoSuchModuleError:
        return fail("serve_err_db", db=shown_db, reason=t("serve_err_db_kind", kind=url.partition(":")[0]))
    except ImportError as err:
        return fail("serve_err_db", db=shown_db, reason=t("serve_err_db_driver", module=err.name or err))
    except ForeignTable as err:
        return fail("serve_err_db", db=shown_db,
                    reason=t("serve_err_db_foreign", table=err.table, columns=", ".join(err.missing)))
    except (SQLAlchemyError, ValueError) as err:
        return fail("serve_err_db", db=shown_db, reason=_database_reason(err, url, t))
    except OSError as err:  # the SQLite file could not be made (its folder gone since it was looked at, say)
        return fail("serve_err_db", db=shown_db, reason=t.os_reason(err))
    try:  # one server to a database, and one that may write to it (kept while this server runs)
        claimed = claim(url)
        store.check_writable()
    except InUse:
        return fail("serve_err_db_in_use", db=shown_db)
    except OSError as err:  # the lock's file beside an SQLite file could not be made
        return fail("serve_err_db", db=shown_db, reason=t.os_reason(err))
    except SQLAlchemyError as err:
        return fail("serve_err_db", db=shown_db, reason=_database_reason(err, url, t))
    try:  # every stored table read back before the server says it is open
        app = create_app(store, bot_delay, budget)
    except SQLAlchemyError as err:
        return fail("serve_err_db", db=shown_db, reason=_database_reason(err, url, t))
    apart.start()  # (the expert's searches: their processes ready before the first)
    for code, why in app.state.server.left_out.items():
        reason = left_out_reason(why, t)
        say(t, "serve_table_left_out", code=code, reason=reason)
    network = network_address(EVERY_ADDRESS[host]) if host in EVERY_ADDRESS else None
    if network is not None:  # (opened at "localhost", the page's invite link would lead a friend's browser to its own machine)
        print(t("serve_open_network", url=f"http://{network}:{port}/"), flush=True)
    else:
        shown = "localhost" if host == "127.0.0.1" or host in EVERY_ADDRESS else f"[{host}]" if ":" in host else host
        print(t("serve_open", url=f"http://{shown}:{port}/"), flush=True)
    # as given, password hidden (SQLAlchemy's own rendering failed, with a traceback, on a file name
    # that is not UTF-8, after the database was made)
    print(t("serve_db", db=shown_db), flush=True)
    logging.getLogger("uvicorn.error").addFilter(_client_faults_on_one_line)
    logging.getLogger("asyncio").addFilter(OutOfSockets())
    try:
        listeners = listen(host, port)
    except OSError as err:  # (taken since it was tried above)
        return fail("serve_err_port", host=host, port=port, reason=t.os_reason(err))
    watching = threading.Event()  # set as the server stops
    lost = threading.Event()  # set where another server has taken the database
    hold = claimed if isinstance(claimed, (Hold, FileHold)) else None
    every = HOLD_CHECK_EVERY if isinstance(hold, Hold) else FILE_CHECK_EVERY
    watcher = None if hold is None else threading.Thread(target=watch_hold, args=(hold, t, watching, lost, every, shown_db),
                                                         daemon=True)
    if watcher is not None:
        watcher.start()
    served: ASGIApp = app
    bound = [str(listener.getsockname()[0]) for listener in listeners]
    # only this machine's own pages may reach it: the addresses bound decide ("--host 127.0.0.2", or a
    # name of this machine's, was no loopback address to a check of the words given)
    if all(ipaddress.ip_address(address).is_loopback for address in bound):
        names = [host, *(f"[{address}]" if ":" in address else address for address in bound)]
        served = LoopbackOnly(app, language=page_language, names=names)
    try:
        # the proxies named only (uvicorn believed anyone on this machine, so a client here could name
        # itself anyone and pass the limits per address)
        stopped_by = run_server(served, listeners, stop=lost, stopped=lambda: shut_down(store, hold, lost, t, shown_db),
                                log_level="warning",
                                ws_max_size=16_384, timeout_graceful_shutdown=5, proxy_headers=proxy is not None,
                                forwarded_allow_ips=proxy or "")
    finally:
        watching.set()
        for listener in listeners:
            listener.close()
    if hold is not None and watcher is not None:  # (the watcher holds it too: let go here, not when the last goes)
        watcher.join(every)  # (a check under way ends first: its connection is the one closed)
        hold.close()
    del claimed  # (held until here: the database is this server's while it serves)
    if stopped_by is not None:  # stopped by Ctrl-C, as a shell expects (a SIGTERM ended it already)
        signal.signal(stopped_by, signal.SIG_DFL)
        signal.raise_signal(stopped_by)
    return 1 if lost.is_set() else 0  # (its database taken by another server, or its file gone: said, and a failure)


def _client_faults_on_one_line(record: logging.LogRecord) -> bool:
    """uvicorn logs a WebSocket text frame that is not UTF-8 with a traceback of its own decoding,
    once per such frame: the client's fault, logged in one line (the client is told by the close
    code, 1007). A replay given up for want of a reader (:data:`~loveletter.web.app.GIVEN_UP`) is said
    so, as a warning, where uvicorn logged an error of the application's."""
    if record.exc_info and record.getMessage().startswith("Invalid UTF-8"):
        record.exc_info = record.exc_text = None
    elif record.getMessage() == "ASGI callable returned without completing response." and GIVEN_UP:
        record.msg, record.args = said("log_replay_unread", seconds=f"{GIVEN_UP.pop(0):g}"), ()
        record.levelno, record.levelname = logging.WARNING, "WARNING"
    return True


class OutOfSockets(logging.Filter):
    """asyncio logs a traceback each time the server cannot take a connection for want of open files
    (a client that opened thousands and sends nothing takes them all), up to :data:`BACKLOG` times a
    second: 300 MB of log in a minute, enough to fill a disk. Logged in one line, once in
    :attr:`every` seconds."""

    def __init__(self, every: float = 60.0) -> None:
        super().__init__()
        self.every = every
        self._told = Seldom()

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith("socket.accept() out of system resource"):
            return True
        if not self._told.due("out of sockets", self.every):
            return False
        error = record.exc_info[1] if record.exc_info else None
        record.msg, record.args = said("log_out_of_sockets", reason=error), ()
        record.exc_info = record.exc_text = None
        return True


def _database_reason(err: SQLAlchemyError | ValueError, url: str, t: Translator) -> str:
    """Why a database could not be opened, in the user's words where we know them; a driver's own
    words (a server refusing the connection, say) are passed on after them."""
    if isinstance(err, (ArgumentError, ValueError)):  # SQLAlchemy cannot read the URL (or its port)
        return t("serve_err_db_url")
    detail = first_line(err.orig) if isinstance(err, DBAPIError) and err.orig is not None else first_line(err)
    if isinstance(err, OperationalError) and not url.startswith("sqlite"):  # a server that did not answer
        return t("serve_err_db_unreachable", detail=detail.removeprefix("connection failed: "))
    if isinstance(err, DatabaseError) and "file is not a database" in detail:
        return t("serve_err_db_not_sqlite")
    if "readonly database" in detail:  # (SQLite's words for a file this user may only read)
        return t("serve_err_db_read_only")
    return t("serve_err_db_says", detail=detail)


def without_password(url: str) -> str:
    """A database URL as it may be shown (in an error, a log): the password in it as ***. Read
    without parsing the URL, so that one SQLAlchemy cannot read (a bad port) is hidden too; the
    password runs to the last "@" (one written unescaped in it is hidden whole).

    >>> without_password("postgresql://ann:p@ss@db:5432/x"), without_password("sqlite:///a:b.db")
    ('postgresql://ann:***@db:5432/x', 'sqlite:///a:b.db')
    """
    scheme, sep, rest = url.partition("://")
    who, at, where = rest.rpartition("@")
    user, colon, _ = who.partition(":")
    if not (sep and at and colon):  # no user:password@ in it
        return url
    return f"{scheme}://{user}:***@{where}"


def _shown_database(url: str) -> str:
    """A database URL as it is shown: the password hidden, an SQLite file by its path as it is (the
    URL escapes a ``%`` or ``?`` in it)."""
    with contextlib.suppress(ArgumentError, ValueError):
        file = sqlite_file(url)
        if file is not None:
            return f"sqlite:///{file}"
    return without_password(url)


def _sqlite_file_problem(url: str, t: Translator) -> str | None:
    """Why the SQLite file of ``url`` cannot hold the database, in words (SQLite only says "unable to
    open"), whether it was given as a path or a URL."""
    try:
        file = sqlite_file(url)
    except (ArgumentError, ValueError):  # (not a URL, or a bad port: told as such when the database is opened)
        return None
    if file is None or "?" in url:  # (one with options, SQLite's to read)
        return None
    path = Path(file)
    if path.is_dir():
        return t("os_is_folder")
    if not path.parent.is_dir():
        return t("serve_err_db_no_folder", folder=path.parent)
    if not os.access(path.parent, os.W_OK | os.X_OK):  # (SQLite said "unable to open database file")
        return t("serve_err_db_folder_read_only", folder=path.parent)
    return None


#: Seconds what the server sent a client may go unacknowledged before the system drops the connection
#: (``TCP_USER_TIMEOUT``, where the system has it). uvicorn closes a connection only after what it has
#: to send has gone out, so a client that stopped reading at all (its TCP window shut) kept its socket
#: open for ever, one of the server's file descriptors each, though the app had dropped it (still open
#: after 215 s, where with this limit it was gone after 65 s: a scratch client that never read).
UNACKNOWLEDGED = 60
#: Connections waiting to be accepted, at most (uvicorn's default).
BACKLOG = 2048


def listen(host: str, port: int) -> list[socket.socket]:
    """The server's sockets on ``host`` and ``port``, one for each address the host name has, bound
    as uvicorn binds its own (asyncio's ``create_server``), whose connections the system drops once
    what they were sent goes unacknowledged for :data:`UNACKNOWLEDGED` seconds (each connection
    inherits it)."""
    listeners: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(
                socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)):
            try:
                listener = socket.socket(family, kind, proto)
            except OSError:  # (as asyncio: a family the system lacks, IPv6 turned off, is passed over)
                continue
            listeners.append(listener)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # (as asyncio: an IPv4 address is bound apart)
                listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            if hasattr(socket, "TCP_USER_TIMEOUT"):  # (Linux)
                listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, UNACKNOWLEDGED * 1000)
            listener.bind(address)
            listener.listen(BACKLOG)  # (two servers started at once both bind, and only one may listen)
        if not listeners:
            raise OSError(errno.EAFNOSUPPORT, "no address of the host name can be used here")
    except OSError:
        for listener in listeners:
            listener.close()
        raise
    return listeners


class _Server(uvicorn.Server):
    """uvicorn's server, which shuts the app down even when a second Ctrl-C hurries it (as people press
    when a server is slow to stop): uvicorn then left the app's shutdown out, and the app's task,
    cancelled as the event loop closed, logged a traceback. A hang-up shuts it down as SIGTERM does,
    where it ended the server at once, its players' connections cut without a word. ``stop``, once
    set (from another thread), shuts it down too; ``stopped`` is called once it has shut down, before a
    signal that stopped it is raised again (which ends the process there)."""

    def __init__(self, config: uvicorn.Config, stop: threading.Event | None = None,
                 stopped: Callable[[], object] | None = None) -> None:
        super().__init__(config)
        self.stop = stop
        self.stopped = stopped

    async def on_tick(self, counter: int) -> bool:
        return await super().on_tick(counter) or (self.stop is not None and self.stop.is_set())

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # a hang-up, which uvicorn leaves to the system (uvicorn raises each signal it caught again once
        # its own handlers are back: a hang-up too, once ours is; one ignored by whoever started us, as
        # nohup does, stays ignored); and so does a signal uvicorn takes, ignored by whoever started us
        # (a script's `serve &` ignores Ctrl-C): uvicorn heard it anyway, and stopped with status 0
        ignored = tuple(signum for signum in uvicorn.server.HANDLED_SIGNALS if signal.getsignal(signum) is signal.SIG_IGN)
        with super().capture_signals(), handled(HANG_UP, self.handle_exit), handled(ignored, signal.SIG_IGN):
            yield

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await super().shutdown(sockets)
            if self.force_exit and not self.lifespan.shutdown_event.is_set():  # (not where uvicorn ran it)
                await self.lifespan.shutdown()
        finally:
            if self.stopped is not None:
                self.stopped()


def log_config() -> dict[str, Any]:
    """uvicorn's logging, each line with its time (a server run for weeks said when nothing had
    happened, a database away or back), and the game's own lines with their level and time too (they
    came without either, as Python writes a line no handler takes)."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    for formatter in config["formatters"].values():
        formatter["fmt"] = "%(asctime)s " + formatter["fmt"]
        formatter["datefmt"] = "%Y-%m-%d %H:%M:%S"
    config["loggers"]["loveletter"] = {"handlers": ["default"], "level": "WARNING", "propagate": False}
    return config


def run_server(app: ASGIApp, listeners: list[socket.socket], stop: threading.Event | None = None,
               stopped: Callable[[], object] | None = None, **options: Any) -> int | None:
    """Serve ``app`` under uvicorn on ``listeners``, with uvicorn's ``options``, until stopped (by a
    signal, or ``stop`` set), and say nothing of it: SIGINT where Ctrl-C stopped it (once uvicorn has
    shut down, it raises the signal again; a SIGTERM raised again ends this process there, as it
    would have at once). ``stopped``: called once the server has shut down, however it was stopped."""
    try:
        options = {"log_config": log_config(), **options}  # (a test passes its own)
        _Server(uvicorn.Config(app, backlog=BACKLOG, **options), stop, stopped).run(sockets=listeners)
    except KeyboardInterrupt:
        return signal.SIGINT
    return None
