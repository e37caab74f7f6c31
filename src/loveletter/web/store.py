"""Where the web app keeps its tables: any SQLAlchemy database (SQLite by default, PostgreSQL too).

A table is its settings (edition, seats, token target, the match's seed) and the moves played on it
in order, in the engine's notation (and, once finished, its rematch and who went on to it). That is
all: the match is rebuilt by replaying the moves, so a server started again on the same database
carries on exactly where it stopped. Seat credentials are kept only as SHA-256 hashes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # (Windows: a second server on one SQLite file is not refused there)
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    false,
    insert,
    inspect,
    select,
    text,
    true,
)
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.pool import NullPool, StaticPool
from sqlalchemy.sql.dml import Insert
from sqlalchemy.sql.elements import ColumnElement

from loveletter.folders import data_folder
from loveletter.i18n import Translator
from loveletter.narrate import MAX_NAME_POINTS

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("code", String(16), primary_key=True),
    Column("settings", Text, nullable=False),  # JSON: edition, players, target, seed, seats, timeout
    Column("private", Boolean, nullable=False),
    Column("created", Float, nullable=False),
)

seats = Table(
    "seats", metadata,
    Column("code", String(16), ForeignKey("tables.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(MAX_NAME_POINTS), nullable=False),  # (String(64) before: see _widen_names)
    Column("secret_hash", String(64), nullable=False),
)

moves = Table(
    "moves", metadata,
    Column("code", String(16), ForeignKey("tables.code"), primary_key=True),
    Column("number", Integer, primary_key=True),  # 0, 1, 2, ... over the whole match
    Column("move", String(200), nullable=False),
    Column("by_bot", Boolean, nullable=False),  # played by a bot (a bot seat, or for an absent human)
)

# A finished table's rematch: the table for the next match, and the seats whose players went on to it
# (a player goes on once; their seat at the rematch is kept for them while they are at the old table).
rematches = Table(
    "rematches", metadata,
    Column("code", String(16), ForeignKey("tables.code"), primary_key=True),  # the finished table
    Column("rematch", String(16), ForeignKey("tables.code"), nullable=False),
)

went_on = Table(
    "went_on", metadata,
    Column("code", String(16), ForeignKey("tables.code"), primary_key=True),  # the finished table
    Column("seat", Integer, primary_key=True),
)


class DamagedRow(ValueError):
    """Why a table's stored row cannot be read (it was edited outside the app): a message ``key`` of
    the i18n catalogue and its ``params``, so that the server can say it in its operator's language;
    ``str()`` is the English."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key, self.params = key, params
        super().__init__(Translator("en")(key, **params))


@dataclass
class StoredTable:
    code: str
    settings: dict[str, Any]
    private: bool
    names: dict[int, str]  # the human seats taken so far
    secret_hashes: dict[int, str]
    moves: list[str]
    rematch: str | None = None  # the table of the next match, once someone asked for one
    went_on: set[int] = field(default_factory=set)  # the seats whose players went on to it
    by_bot: set[int] = field(default_factory=set)  # the numbers of the moves a bot played
    damage: DamagedRow | None = None  # why its stored settings cannot be read (they are then empty)


def hash_secret(secret: str) -> str:
    # surrogatepass: a secret sent with a lone surrogate (JSON allows one) hashes too, to no seat's
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


#: The mode of the files and folders the server makes for its data: the user's alone. The database
#: holds every table's seed, so every hidden card of every game being played, and the codes of the
#: private tables (it was made readable by every account on the machine).
PRIVATE_FILE, PRIVATE_FOLDER = 0o600, 0o700
#: What names an SQLite file's lock beside it (:func:`claim`): ``FILE.lock``.
LOCK = ".lock"


def default_database() -> str:
    """A per-user SQLite file (XDG data folder), created on first use. The folder and the files of the
    database there are made the user's alone where they were there already: older versions made them
    readable by every account, and an upgraded server served them so."""
    folder = data_folder()
    folder.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
    path = folder / "web.sqlite3"
    files = [Path(f"{path}{end}") for end in ("", LOCK, "-wal", "-shm")]
    for made, mode in [(folder, PRIVATE_FOLDER), *((file, PRIVATE_FILE) for file in files)]:
        with contextlib.suppress(FileNotFoundError, PermissionError):  # (another account's: left as it is)
            made.chmod(mode)
    return sqlite_url(str(path))


def sqlite_url(path: str) -> str:
    """The URL of the SQLite file at ``path``, which SQLAlchemy reads back as that path: its ``%`` and
    ``?`` escaped (as they were, ``--db 'games?v2.db'`` made the file ``games``, and ``c%20d.db`` the
    file ``c d.db``, while the path given was shown).

    >>> sqlite_file(sqlite_url("/x/games?v2 %20.db"))
    '/x/games?v2 %20.db'
    """
    return "sqlite:///" + path.replace("%", "%25").replace("?", "%3F")


def _made_private(path: str) -> None:
    """Make the SQLite file ``path``, empty (a database with nothing in it), for its user alone, if it
    is not there yet; SQLite makes its journals beside it with the same mode."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))


def _seat_row(code: str, seat: int, name: str, secret: str) -> Insert:
    """The row of a seat taken (the secret kept as its hash only)."""
    return insert(seats).values(code=code, seat=seat, name=name, secret_hash=hash_secret(secret))


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # Write-ahead logging, synced at checkpoints: a commit survives the server process being killed
    # (what "nothing lost" asks) without an fsync per move, which would cap the moves per second.
    # Text that is not UTF-8 (written by another program) is read with a mark where it breaks, not
    # refused: the decoding fails for the whole query, and one bad name stopped every table loading.
    connection.text_factory = _lenient_text
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _widen_names(engine: Engine) -> None:
    """A database made before names were counted in characters as a reader sees them holds names of
    at most 64 code points: widen the column (SQLite does not enforce lengths; PostgreSQL does)."""
    if engine.dialect.name != "postgresql":
        return
    column = next(c for c in inspect(engine).get_columns("seats") if c["name"] == "name")
    length = getattr(column["type"], "length", None)
    if length is not None and length < MAX_NAME_POINTS:
        with engine.begin() as db:
            db.execute(text(f"ALTER TABLE seats ALTER COLUMN name TYPE VARCHAR({MAX_NAME_POINTS})"))


class InUse(Exception):
    """Another server holds the database (see :func:`claim`)."""


def sqlite_file(url: str) -> str | None:
    """The path of the SQLite file ``url`` names, if it names one: not a database in memory, nor one
    named by a URI ("file:…?mode=ro", which SQLite reads as it is)."""
    where = make_url(url)
    if where.get_backend_name() != "sqlite" or not where.database or where.database == ":memory:" \
            or where.query.get("uri"):
        return None
    return where.database


#: libpq's settings for our connections to PostgreSQL (which psycopg passes on): a server that does not
#: answer a connection is given up after 10 s (a start against one hung without a word), and a
#: connection cut is found out within a minute or so (TCP's own retries took a quarter of an hour).
LIBPQ = {"connect_timeout": 10, "keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10,
         "keepalives_count": 3}
#: Seconds a statement of ours waits for a lock another session holds (an operator's open
#: transaction, a migration) before PostgreSQL refuses it, as SQLite's busy time does: a table's moves
#: waited for as long as the lock was held, the players told "connection lost", a bot never moving.
LOCK_WITHIN = 5
#: Seconds a statement of ours may take in all before PostgreSQL gives it up (a server overloaded).
STATEMENT_WITHIN = 10


def _libpq(where: URL) -> dict[str, Any]:
    """The connection's arguments for ``where``: :data:`LIBPQ` where psycopg drives PostgreSQL."""
    return dict(LIBPQ) if where.get_driver_name() in ("psycopg", "psycopg2") else {}


def _postgres_limits(connection: Any, _record: Any) -> None:
    """Give a new connection :data:`LOCK_WITHIN` and :data:`STATEMENT_WITHIN` (set for its session,
    and committed: a setting made in a transaction rolled back is undone). Not by libpq's
    ``options``: given here, they would replace a URL's own (``?options=-csearch_path%3D…``, a
    schema), and the tables would go elsewhere."""
    cursor = connection.cursor()
    cursor.execute(f"SET lock_timeout = {int(LOCK_WITHIN * 1000)}")
    cursor.execute(f"SET statement_timeout = {int(STATEMENT_WITHIN * 1000)}")
    cursor.close()
    connection.commit()


class Hold:
    """A PostgreSQL database held for this server: an advisory lock, which is its session's, on a
    connection of its own. Where that connection is lost (PostgreSQL restarted, the connection cut)
    the lock goes with it, unnoticed, and a second server could start on the database: :meth:`check`
    finds that out, and takes the lock again."""

    def __init__(self, where: URL) -> None:
        self.engine = create_engine(where, poolclass=NullPool, connect_args=_libpq(where))
        self.connection: Connection | None = None
        self.session = 0  # the server process of PostgreSQL's that holds the lock for us
        self._take()

    def _take(self) -> None:
        connection = self.engine.connect()
        held = connection.execute(text("SELECT pg_try_advisory_lock(hashtext('loveletter ' || current_schema())),"
                                       " pg_backend_pid()")).one()
        if not held[0]:
            connection.close()
            raise InUse
        connection.commit()  # (the lock is the session's: no transaction is left open)
        self.connection, self.session = connection, held[1]

    def check(self) -> str:
        """``"held"`` where the database is held still; ``"taken again"`` where the connection was
        lost and the lock is taken again; ``"lost"`` where another server holds it now; ``"unknown"``
        where that cannot be known now (the database out of reach, nor any other server reaching it;
        a fault of the moment): asked again later."""
        if self.connection is not None:
            try:
                self.connection.execute(text("SELECT 1"))
                self.connection.commit()
                return "held"
            except DBAPIError as err:
                if not err.connection_invalidated:  # (the session, and its lock, are there still)
                    return "unknown"
            with contextlib.suppress(SQLAlchemyError):
                self.connection.close()
            self.connection = None
        try:
            self._take()
        except InUse:
            # our own session may hold it still: its connection cut, PostgreSQL has not noticed yet.
            # Ended, it is taken again at the next check; held by another, this server has lost it
            return "unknown" if self._end_own_session() else "lost"
        except SQLAlchemyError:
            return "unknown"
        return "taken again"

    def _end_own_session(self) -> bool:
        """End the session that held the lock for us, if it still holds one; whether it did."""
        try:
            with self.engine.connect() as db:
                ended = db.execute(text("SELECT pg_terminate_backend(pid) FROM pg_locks"
                                        " WHERE pid = :pid AND locktype = 'advisory'"), {"pid": self.session}).first()
                db.commit()
        except SQLAlchemyError:
            return True  # (not known: asked again at the next check)
        return ended is not None

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
        self.engine.dispose()


def _identity(path: str) -> tuple[int, int] | None:
    """Which file is at ``path`` (its device and inode), or None where there is none."""
    try:
        found = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return found.st_dev, found.st_ino


class FileHold:
    """An SQLite file held for this server: a lock on a file beside it (``FILE.lock``, let go when
    the process ends, however it ends), and the file itself kept open. A file replaced while the
    server ran (a backup put back by a rename) or removed (its folder deleted) went unnoticed: the
    moves went on into the file the server had open, which no path named any more, and were lost when
    it stopped. :meth:`check` finds that out, and :meth:`rescue` copies what that file holds."""

    def __init__(self, path: str, lock: IO[bytes]) -> None:
        self.path, self.lock = path, lock
        _made_private(path)  # (as the store makes it: SQLite would make it readable by everyone)
        self.identity = _identity(path)
        # its WAL opened too, by a first read: a file replaced takes those beside it by name
        self.kept = sqlite3.connect(path, check_same_thread=False)
        self.kept.execute("SELECT count(*) FROM sqlite_master").fetchall()

    def check(self) -> str:
        """``"held"`` while the file at its path is the one opened; ``"replaced"`` where another file,
        or none, is there now."""
        return "held" if _identity(self.path) == self.identity else "replaced"

    def rescue(self) -> str:
        """Copy the file the server had open, as it holds every change, beside its path
        (``FILE.rescued-TIME``, its user's alone); the copy's path. OSError or sqlite3.Error where it
        could not be made (its folder removed)."""
        copy = f"{self.path}.rescued-{time.strftime('%Y%m%d-%H%M%S')}"
        os.close(os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
        try:
            target = sqlite3.connect(copy)
            try:
                self.kept.backup(target)
            finally:
                target.close()
        except (OSError, sqlite3.Error):  # (a disk full, say: no half copy left to be taken for one)
            with contextlib.suppress(OSError):
                os.unlink(copy)
            raise
        return copy

    def close_file(self) -> None:
        """Close the file kept open (the last connection to close writes its changes into it)."""
        self.kept.close()

    def close(self) -> None:
        """Close the file kept open (if :meth:`close_file` has not), and let go of the lock."""
        self.kept.close()
        self.lock.close()


def claim(url: str) -> FileHold | Hold | None:
    """Hold the database at ``url`` for this server while what this returns is kept (the system lets
    it go when the process ends, however it ends); :class:`InUse` where another server holds it. Each server keeps its tables in memory: two on one
    database each served its own copy of a table, and a player on one never saw the other's moves.
    An SQLite file: a lock on a file beside it (``FILE.lock``, the file's real path: a link to it is
    the same file), and the file kept open (:class:`FileHold`); PostgreSQL: an advisory lock named by
    the schema (:class:`Hold`); other
    databases, and an SQLite database in memory: nothing."""
    where = make_url(url)
    if where.get_backend_name() == "sqlite":
        path = sqlite_file(url)
        if fcntl is None or path is None:
            return None
        lock = f"{os.path.realpath(path)}{LOCK}"
        handle = os.fdopen(os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PRIVATE_FILE), "ab")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise InUse from None
        return FileHold(path, handle)
    if where.get_backend_name() == "postgresql":  # (a connection of its own: closed, it is let go)
        return Hold(where)
    return None


class ForeignTable(Exception):
    """The database holds a table by one of our tables' names that is not ours (another program's,
    in a shared database): it is left as it is, and nothing is created beside it."""

    def __init__(self, table: str, missing: list[str]) -> None:
        super().__init__(f"table {table!r} lacks the columns {', '.join(missing)}")
        self.table, self.missing = table, missing


def _foreign_table(engine: Engine) -> ForeignTable | None:
    """The first table named as one of ours that lacks some of our columns, if any."""
    found = inspect(engine)
    present = set(found.get_table_names())
    for table in metadata.sorted_tables:
        if table.name in present:
            columns = {column["name"] for column in found.get_columns(table.name)}
            missing = [column.name for column in table.columns if column.name not in columns]
            if missing:
                return ForeignTable(table.name, missing)
    return None


def _stored_table(row: Any) -> StoredTable:
    """A table's row, its settings read; a damaged row (edited by hand, by another program) is
    marked, so that the caller can leave that table out and keep the others."""
    damage: DamagedRow | None = None
    try:
        settings = json.loads(row.settings)
        if not isinstance(settings, dict):
            damage = DamagedRow("serve_damage_not_object")
    except json.JSONDecodeError as err:
        settings, damage = {}, DamagedRow("serve_damage_not_json_at", line=err.lineno, column=err.colno)
    except (TypeError, ValueError):  # not text at all
        settings, damage = {}, DamagedRow("serve_damage_not_json")
    return StoredTable(row.code, settings if damage is None else {}, row.private, {}, {}, [], damage=damage)


class Store:
    """The database behind the web app. Every write is committed before it returns."""

    def __init__(self, url: str) -> None:
        options: dict[str, Any] = {}
        if url.startswith("sqlite"):
            # the app's threads share the database; an in-memory one must be one shared connection
            options["connect_args"] = {"check_same_thread": False}
            if ":memory:" in url or url.rstrip("/") == "sqlite:":
                options["poolclass"] = StaticPool
            elif path := sqlite_file(url):
                _made_private(path)
        else:  # a pooled connection the server dropped (PostgreSQL restarted) found out before it is used:
            options["pool_pre_ping"] = True  # a person's first move after was refused once ("try again")
            options["connect_args"] = _libpq(make_url(url))
        self.engine: Engine = create_engine(url, **options)
        if self.engine.dialect.name == "postgresql":
            event.listen(self.engine, "connect", _postgres_limits)
        foreign = _foreign_table(self.engine)  # before anything is created or set in the file
        if foreign is not None:
            self.engine.dispose()
            raise foreign
        if self.engine.dialect.name == "sqlite":
            self.engine.dispose()  # the connection that looked was opened before the pragmas
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        _widen_names(self.engine)

    def close(self) -> None:
        """Close the database's connections (at the server's stop): SQLite then writes the changes it
        keeps beside the file (FILE-wal) into the file, which held none of the tables after a Ctrl-C,
        to a copy made of it alone. The store may still be used: it connects again."""
        self.engine.dispose()

    def check_writable(self) -> None:
        """Raise the database's refusal where this server may not write to it (a read-only file, a
        role without the right): such a server started, and refused every new table with "try
        again", for ever. An insert of no row, undone: it asks for the right the server uses (a
        delete asked for one it never uses)."""
        with self.engine.connect() as connection:
            connection.execute(insert(moves).from_select(list(moves.c.keys()), select(moves).where(false())))
            connection.rollback()

    def create(self, code: str, settings: dict[str, Any], private: bool, rematch_of: str | None = None,
               creator: tuple[str, str] | None = None) -> None:
        """A new table; ``rematch_of``: the finished table whose rematch it is; ``creator``: the name
        and secret of the person in seat 0, who made it (each stored together with it)."""
        with self.engine.begin() as db:
            db.execute(insert(tables).values(code=code, settings=json.dumps(settings), private=private,
                                             created=time.time()))
            if rematch_of is not None:
                db.execute(insert(rematches).values(code=rematch_of, rematch=code))
            if creator is not None:
                name, secret = creator
                db.execute(_seat_row(code, 0, name, secret))

    def take_seat(self, code: str, seat: int, name: str, secret: str,
                  went_on_from: tuple[str, int] | None = None) -> None:
        """A seat taken; ``went_on_from``: the finished table and seat its player comes from, to a
        rematch (stored together, so that a player can never go on twice)."""
        with self.engine.begin() as db:
            db.execute(_seat_row(code, seat, name, secret))
            if went_on_from is not None:
                db.execute(insert(went_on).values(code=went_on_from[0], seat=went_on_from[1]))

    def add_move(self, code: str, number: int, move: str, by_bot: bool) -> None:
        """Store move ``number`` (the primary key refuses a second move with the same number)."""
        with self.engine.begin() as db:
            db.execute(insert(moves).values(code=code, number=number, move=move, by_bot=by_bot))

    def load_all(self, since: float | None = None) -> list[StoredTable]:
        """Every table with its seats and moves, oldest first; with ``since`` (a time), only those
        made since then and the finished tables whose rematches they are: what a server starting
        again keeps at hand (it reads any other when it is asked for: :meth:`load`)."""
        if since is None:
            return self._load(None)
        recent = tables.c.created >= since
        return self._load(recent | tables.c.code.in_(select(rematches.c.code).where(
            rematches.c.rematch.in_(select(tables.c.code).where(recent)))))

    def load(self, code: str) -> list[StoredTable]:
        """The table ``code`` with its seats and moves, and the finished table whose rematch it is, if
        any (it keeps the seats of its players there: see :class:`~loveletter.web.lobby.Room`), oldest
        first; none if there is no such table."""
        return self._load((tables.c.code == code) | tables.c.code.in_(
            select(rematches.c.code).where(rematches.c.rematch == code)))

    def holds(self, code: str, secret: str) -> bool:
        """Whether ``secret`` is the credential of a seat at table ``code`` (one query, whether or not
        there is such a table)."""
        with self.engine.connect() as db:
            return db.scalar(select(seats.c.seat).where(
                seats.c.code == code, seats.c.secret_hash == hash_secret(secret))) is not None

    def exists(self, code: str) -> bool:
        """Whether a table ``code`` is stored."""
        with self.engine.connect() as db:
            return db.scalar(select(tables.c.code).where(tables.c.code == code)) is not None

    def _load(self, which: ColumnElement[bool] | None) -> list[StoredTable]:
        """The tables ``which`` chooses (``None``: all) with their seats and moves, oldest first; a
        finished table's ``rematch`` is named whether or not it is chosen too."""
        chosen = select(tables.c.code).where(true() if which is None else which)
        with self.engine.connect() as db:
            found = {row.code: _stored_table(row)
                     for row in db.execute(select(tables).where(tables.c.code.in_(chosen)).order_by(tables.c.created))}
            for row in db.execute(select(seats).where(seats.c.code.in_(chosen))):
                if row.code in found:
                    found[row.code].names[row.seat] = row.name
                    found[row.code].secret_hashes[row.seat] = row.secret_hash
            for row in db.execute(select(moves).where(moves.c.code.in_(chosen)).order_by(moves.c.code, moves.c.number)):
                if row.code in found:
                    found[row.code].moves.append(row.move)
                    if row.by_bot:
                        found[row.code].by_bot.add(row.number)
            for row in db.execute(select(rematches).where(rematches.c.code.in_(chosen))):
                if row.code in found:
                    found[row.code].rematch = row.rematch
            for row in db.execute(select(went_on).where(went_on.c.code.in_(chosen))):
                if row.code in found:
                    found[row.code].went_on.add(row.seat)
        return list(found.values())
