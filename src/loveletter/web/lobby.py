"""The tables this server serves, and who is at each: tables read back from the store when asked for
and put away when left; new tables and rematches, one made at a time; the bots' moves and the hints;
each move stored, then applied, then told to every connection from its own seat's view.

Bots and hints think in worker threads of their own (:data:`THINKERS` at a time each: a bot's move
never waits for other people's hints), the expert's searches for its moves in processes of their own
(:mod:`~loveletter.web.apart`), so the server keeps answering and storing moves meanwhile; a
person who is away when their turn comes can be replaced by a bot for that move after the table's
timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import random
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fastapi import WebSocket, WebSocketDisconnect
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from loveletter.bots.expert import ExpertBot
from loveletter.engine import Action, View
from loveletter.i18n import Translator
from loveletter.web.apart import WORKERS
from loveletter.web.bodies import NewTable, seat_numbers
from loveletter.web.fair import TakingTurns
from loveletter.web.logbook import said
from loveletter.web.messages import (
    Advice,
    advice_at,
    first_line,
    hints_message,
    refusal_message,
    state_message,
)
from loveletter.web.recent import Recent
from loveletter.web.replays import frames_json
from loveletter.web.store import Store, StoredTable
from loveletter.web.table import (
    ASK_AFTER,
    GameTable,
    Refused,
    Seating,
    Settings,
    is_code,
    new_code,
    new_settings,
)

#: Searches run at once, in threads of their own: the moves' storing and the other tables never queue
#: behind them, and the event loop shares the interpreter with few threads. As many again for hints,
#: apart: with one pool, two players asking for hints held up every table's bots for seconds.
THINKERS = WORKERS  # (the bots' searches in processes: each thread waits for one, see apart)
#: Replays made at once, in threads of their own: in the pool that stores moves and reads tables back,
#: six uploads of a long record at once held every table's moves for seconds.
REPLAYERS = 2
#: What a database says when it cannot take a write now (locked, gone, every connection busy), rather
#: than never (a fault of ours): the move or table may be sent again.
NOT_NOW = (OperationalError, PoolTimeout)
#: The SQL states of errors of other kinds that say the same: a database turned read-only (a fail-over
#: to a replica, ``default_transaction_read_only``), a write no longer permitted (a ``REVOKE``). A
#: player's move was dropped with a traceback, and a bot's move stopped its table for good.
REFUSED_FOR_NOW = frozenset({"25006", "42501"})


#: The errors among which :func:`for_now` finds those: caught, and raised again where it does not.
MAYBE_NOT_NOW = (PoolTimeout, DBAPIError)  # (OperationalError is a DBAPIError)


def for_now(err: BaseException) -> bool:
    """Whether ``err`` is the database not taking a read or a write now (:data:`NOT_NOW`,
    :data:`REFUSED_FOR_NOW`), to be tried again, rather than a fault of ours. (psycopg names the SQL
    state ``sqlstate``, psycopg2 ``pgcode``: both may drive PostgreSQL here.)"""
    if isinstance(err, NOT_NOW):
        return True
    orig = getattr(err, "orig", None)
    return isinstance(err, DBAPIError) and (
        getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)) in REFUSED_FOR_NOW
#: The refusal of what the database refuses because another server stored it first (two servers on
#: one database, as when a restart overlaps the old server's last seconds).
ELSEWHERE = "web_store_elsewhere"
#: Seconds before a bot tries again to store a move the database did not take.
STORE_RETRY = 1.0
#: The most tables one client address may create within :data:`NEW_TABLES_WITHIN` seconds.
NEW_TABLES = 20
NEW_TABLES_WITHIN = 600
#: The most codes with no table one client address may name within :data:`MISSES_WITHIN` seconds.
MISSES = 30
MISSES_WITHIN = 600
#: The most seats one client address may take at tables within :data:`JOINS_WITHIN` seconds (a script
#: could take every free seat in the lobby, and hold its tables up).
JOINS = 30
JOINS_WITHIN = 600
#: Tables made within these seconds are read back when the server starts (any other when asked for).
AT_HAND = 24 * 3600
#: Seconds a stored table that could not be read back is left out before it is read again when asked
#: for (its rows mended by hand, it is served without a restart).
LEFT_OUT_FOR = 300
#: Seconds after its players last left that a table waiting for nothing is no longer kept at hand
#: (:meth:`Server.put_away`).
PUT_AWAY_AFTER = 3600
#: Seconds a table stays in the lobby once none of its players is connected (a page reloading, a
#: phone switching networks, come back within it).
LOBBY_AWAY = 600
#: Seconds a player's seat at the rematch stays kept for them once their connection to the finished
#: table drops (a page connecting again, a phone switching networks): in a second's blip, someone
#: watching took it.
KEPT_THROUGH_A_DROP = 30.0
#: The most messages that may wait to go out to one connection; one that lets more pile up is dropped.
OUTBOX = 64
#: Seconds a message may take to go out to a connection before the connection is dropped.
SEND_WAIT = 20.0

log = logging.getLogger(__name__)


def wire(message: dict[str, Any]) -> str:
    """``message`` as a WebSocket's text carries it (as Starlette's ``send_json`` writes it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


@dataclass
class Connection:
    """One WebSocket at a table. What the server tells it waits in its own ``outbox``, sent by its own
    task (:meth:`deliver`): a client that stops reading holds up nobody but itself, and once it has let
    :data:`OUTBOX` messages pile up, or one message has waited :data:`SEND_WAIT` seconds to go out, it
    is ``dropped`` (the page connects again, and is told the table afresh)."""

    socket: WebSocket
    seat: int | None
    t: Translator
    address: str = ""  # the client's: the bots its play sets going take their turn by it (see Room.driver)
    asked: int = 0  # hint requests so far: only the latest is worked out (see Server.advise)
    advising: set[asyncio.Task[None]] = field(default_factory=set)
    outbox: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(OUTBOX))  # (JSON, as sent)
    # the last refusal told, until a state is told (the page shows it until then): a language chosen
    # meanwhile says it again in that language (see handle)
    refused: Refused | None = None
    dropped: asyncio.Event = field(default_factory=asyncio.Event)

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message`` (never waits), or its JSON (:func:`wire`) where it is made for many
        connections; a connection with a full outbox is dropped instead."""
        if self.dropped.is_set():
            return
        try:
            self.outbox.put_nowait(message if isinstance(message, str) else wire(message))
        except asyncio.QueueFull:
            self.dropped.set()

    async def deliver(self) -> None:
        """Send what is queued, in order, until the connection is dropped (or closes under us)."""
        while True:
            message = await self.outbox.get()
            try:
                await asyncio.wait_for(self.socket.send_text(message), SEND_WAIT)
            except Exception:  # too slow (TimeoutError), or closed: either way, nothing more goes out
                self.dropped.set()
                return

    async def next_text(self) -> str | None:
        """The text of the next message from the client (see :func:`receive_text`), or ``None`` once
        the connection is dropped."""
        receiving = asyncio.ensure_future(receive_text(self.socket))
        dropping = asyncio.ensure_future(self.dropped.wait())
        try:
            done, _ = await asyncio.wait({receiving, dropping}, return_when=asyncio.FIRST_COMPLETED)
        finally:  # (this wait cancelled too: at the server's shutdown, say)
            dropping.cancel()
            if not receiving.done():
                receiving.cancel()
        return receiving.result() if receiving in done else None


@dataclass
class Adviser:
    """The expert that gives one seat its hints, the lock it holds while it searches (one search
    at a time: the bot keeps its reading of the round between searches), and its last advice."""

    bot: ExpertBot
    busy: asyncio.Lock = field(default_factory=asyncio.Lock)
    last: Advice | None = None


@dataclass
class Room:
    """A table and who is watching it right now."""

    table: GameTable
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    waiting: asyncio.Task[None] | None = None  # a bot's move or a timeout, pending
    plan: tuple[str, int, int] | None = None  # what the waiting task is for: kind, seat, moves made then
    advisers: dict[int, Adviser] = field(default_factory=dict)  # hints, per seat that asked
    rematch: str | None = None  # the code of the table for the next match, once someone asked
    rematched: set[int] = field(default_factory=set)  # the seats that went on to it
    storing: bool = False  # the waiting task is storing a bot's move (see Server.start_waiting)
    origin: Room | None = None  # at a rematch table: the finished table it follows
    # since when none of the table's players has been connected (None: one is now); a new table's
    # creator, and after a restart every player, has yet to connect (the module's clock looked up
    # when the room is made, as every other time here: a test may move it on)
    players_away_since: float | None = field(default_factory=lambda: time.monotonic())
    # read back from the store (at a restart, or asked for) and none of its players has come since:
    # out of the lobby (when they were last here is not stored, and at a restart every open table of
    # the last day came back to it)
    unvisited: bool = False
    # the number of moves made when the move now awaited was first awaited, and when (monotonic)
    awaited: tuple[int, float] = (-1, 0.0)
    # per seat away: since when (monotonic; a seat not listed since the table was served here)
    left_at: dict[int, float] = field(default_factory=dict)
    served_at: float = field(default_factory=lambda: time.monotonic())
    # the seat and move a player asked a bot to play for the person away (see Server.ask_stand_in),
    # until that person comes back
    stand_in_asked: tuple[int, int] | None = None
    # the client address whose player came or moved last: the table's bots think in its turn
    # (fair.TakingTurns), so that one address's many tables do not hold up everyone else's
    driver: str | None = None
    # the move whose place the database has not taken yet, and how many tries it refused (see commit)
    unstored: tuple[int, int] | None = None

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def away(self) -> list[int]:
        """The seats whose person is not connected (a bot is never away, and a free seat has nobody
        to be)."""
        return [seat for seat in sorted(self.table.names) if not self.connected(seat)]

    def away_for(self, seat: int) -> float:
        """Seconds the person at ``seat``, not connected, has been away."""
        return time.monotonic() - self.left_at.get(seat, self.served_at)

    def who_is_away(self) -> dict[str, Any]:
        """Who is away, and for how long (seconds, by seat): the page offers to ask a bot to play
        for someone away once they have been away :data:`ASK_AFTER` seconds (it offered it at once,
        and the server refused it for the first half minute)."""
        away = self.away()
        return {"away": away, "away_for": {seat: round(self.away_for(seat), 1) for seat in away}}

    def idle_for(self, moves: int) -> float:
        """Seconds the move after ``moves`` moves has been awaited (see :meth:`Server.start_waiting`),
        or 0 if that is not the move awaited."""
        return time.monotonic() - self.awaited[1] if self.awaited[0] == moves else 0.0

    def came_or_went(self) -> None:
        """Note a player's connection coming or going (see :attr:`players_away_since`)."""
        if any(c.seat is not None for c in self.connections):
            self.players_away_since = None
            self.unvisited = False
        elif self.players_away_since is None:
            self.players_away_since = time.monotonic()

    def players_here_lately(self) -> bool:
        """Whether a player is at the table, or was within :data:`LOBBY_AWAY` seconds while this
        server ran (see :attr:`unvisited`): a table all its players have left leaves the lobby, where
        nobody would be waiting to play with a newcomer (the tables of every past visitor piled up
        there)."""
        away = self.players_away_since
        return away is None or (not self.unvisited and time.monotonic() - away < LOBBY_AWAY)

    def kept_names(self) -> list[str]:
        """At a rematch table, the names of the last match's players who have not come on yet: a
        newcomer may not take them (the player themself comes on through the finished table, and
        joining from the lobby too would give one person two seats, under one name)."""
        origin = self.origin
        if origin is None:
            return []
        return [name for seat, name in origin.table.names.items() if seat not in origin.rematched]

    def open_seats(self) -> list[int]:
        """The free seats a newcomer may take. At a rematch table a seat is kept for the last match's
        player in it while they are still at the finished table (they may yet come on), or were there
        :data:`KEPT_THROUGH_A_DROP` seconds ago, so that nobody who merely watched takes it first."""
        origin = self.origin
        return [
            seat for seat in self.table.free_seats()
            if origin is None or seat not in origin.table.names or seat in origin.rematched
            or (not origin.connected(seat) and origin.away_for(seat) >= KEPT_THROUGH_A_DROP)
        ]


T = TypeVar("T")


class NotRead(Exception):
    """The database did not answer (:data:`NOT_NOW`) when a table not at hand was looked for in it:
    told as "could not read this table", by whatever asked (a join, a rematch, a hello, a record)."""


async def _read(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)``, a read of the store, in a worker thread; :class:`NotRead` where the database
    did not answer."""
    try:
        return await asyncio.to_thread(call, *args)
    except MAYBE_NOT_NOW as err:
        if not for_now(err):
            raise
        raise NotRead(first_line(err)) from err


@dataclass
class Reads:
    """A client address's requests for tables not at hand: read back one at a time (see
    :meth:`Server.room`)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    asking: int = 0  # the requests that hold the lock or wait for it


async def seated(table: GameTable, seating: Seating) -> None:
    """Store ``seating`` in a worker thread, as a move is stored (a slow or locked database holds up
    this table, whose lock is held meanwhile, not every table), then take it."""
    await asyncio.to_thread(table.store_seat, seating)
    table.take(seating)


class Server:
    def __init__(self, store: Store, bot_delay: float = 0.8, budget: int | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay  # seconds from the start of a bot's turn to its move, to follow
        self.budget = budget  # the expert's thinking budget, for bots and hints (None: its default)
        self.rooms: dict[str, Room] = {}
        self.made = Recent(NEW_TABLES_WITHIN)  # per client address: when it made its last tables
        self.missed = Recent(MISSES_WITHIN)  # per client address: when it named no table
        self.joined = Recent(JOINS_WITHIN)  # per client address: when it took a seat at a table
        self._reading: dict[str, Reads] = {}  # per client address looking for tables not at hand
        self._being_made: set[str] = set()  # codes of tables stored but not yet served (see _read_back)
        self.rng = random.SystemRandom()
        self.thinking = ThreadPoolExecutor(THINKERS, thread_name_prefix="loveletter-think")  # bots' moves
        self.thinkers = TakingTurns(self.thinking, THINKERS)  # ... each client address's in turn
        self.making = asyncio.Lock()  # held while a table is made: its code drawn, stored and served
        self.advising = ThreadPoolExecutor(THINKERS, thread_name_prefix="loveletter-hints")
        self.replaying = ThreadPoolExecutor(REPLAYERS, thread_name_prefix="loveletter-replays")
        # stored tables that cannot be read back: code -> why (see messages.left_out_reason), and when
        # (tried again when asked for past LEFT_OUT_FOR: their rows may have been mended by hand)
        self.left_out: dict[str, Exception] = {}
        self._left_out_at: dict[str, float] = {}
        # the tables made lately: any other is read back when it is asked for (see room)
        for stored in store.load_all(since=time.time() - AT_HAND):
            self._take_in(stored, link=False)
        for room in self.rooms.values():  # finished tables and their rematches, linked again
            if room.rematch in self.rooms:
                self.rooms[room.rematch].origin = room

    async def room(self, code: str, address: str | None = None, secret: str | None = None) -> Room:
        """The table with ``code`` (read back from the store, in a worker thread, if it is not at hand:
        see :meth:`put_away`).
        Asked by a client at ``address``, at most :data:`MISSES` codes with no table in
        :data:`MISSES_WITHIN` seconds: a private table's code is all that keeps it private, and
        unlimited guesses (thousands a second) found one in minutes. Past that, only a player's own
        ``secret`` for the table opens it (so another's guesses from the same address never lock a
        player out of their seat)."""
        code = code.upper()
        if code in self.rooms or address is None:
            return await self._room(code, address, secret)
        # one read at a time per address, its miss noted before the next: codes guessed at once (each
        # looked for in a worker thread) are held to the limit as codes guessed one by one
        reads = self._reading.setdefault(address, Reads())
        reads.asking += 1
        try:
            async with reads.lock:
                return await self._room(code, address, secret)
        finally:
            reads.asking -= 1
            if not reads.asking:
                del self._reading[address]

    async def _room(self, code: str, address: str | None, secret: str | None) -> Room:
        """:meth:`room`, ``code`` in capitals (with the address's reads one at a time)."""
        over = address is not None and self.missed.count(address) >= MISSES
        room = self.rooms.get(code)
        # past the limit, only for a player's own seat: no read to guess with
        if room is None and (not over or (secret is not None
                                          and await _read(self.store.holds, code, secret))):
            room = await self._read_back(code)
        if over and not (room is not None and secret is not None and room.table.holds(secret)):
            raise Refused("web_too_many_misses", minutes=MISSES_WITHIN // 60)
        if room is None:
            # a player's own table whose stored rows cannot be read: said so, not "no table" (to
            # them alone: another learns nothing of a code's table)
            if secret is not None and self._still_left_out(code) and await _read(self.store.holds, code, secret):
                raise Refused("web_table_unreadable")
            if address is not None:
                self.missed.note(address)
            raise Refused("web_no_table")
        return room

    async def _read_back(self, code: str) -> Room | None:
        """The stored table ``code`` served again (and what it was waiting for, on its way), if there
        is one that can be read; and the finished table whose rematch it is, if not served (it keeps
        its players' seats and names there)."""
        # (a table being made is stored before it is served: read back now, it would be served twice)
        if self._still_left_out(code) or not is_code(code) or code in self._being_made:
            return None
        for stored in await _read(self.store.load, code):
            # (served meanwhile: read back for another request while this one's was read)
            if stored.code in self.rooms or self._still_left_out(stored.code):
                continue
            room = self._take_in(stored)
            if room is not None:
                self.start_waiting(room)
            else:  # (those found at the start are told by serve)
                log.error(said("log_table_left_out", code=stored.code, reason=first_line(self.left_out[stored.code])))
        return self.rooms.get(code)

    def _still_left_out(self, code: str) -> bool:
        """Whether the stored table ``code`` was left out less than :data:`LEFT_OUT_FOR` seconds ago
        (one left out longer ago is forgotten, to be read again)."""
        if code not in self.left_out:
            return False
        if time.monotonic() - self._left_out_at[code] < LEFT_OUT_FOR:
            return True
        del self.left_out[code], self._left_out_at[code]
        return False

    @contextlib.asynccontextmanager
    async def holding(self, code: str, address: str | None = None, secret: str | None = None) -> AsyncIterator[Room]:
        """The table with ``code`` (as :meth:`room` finds it), its lock held: one put away while this
        waited for the lock is read back, and the one put away let go (a move or a seat taken there
        would be lost to the table served)."""
        while True:
            room = await self.room(code, address, secret)
            async with room.lock:
                if self.rooms.get(room.table.code) is room:
                    yield room
                    return

    def _take_in(self, stored: StoredTable, link: bool = True) -> Room | None:
        """Serve the table ``stored``; with ``link``, linked to its finished table or its rematch where
        either is served (at the start, all are linked at once). A table whose rows were damaged
        outside the app, in any way, is left out (and left as it is in the database), alone."""
        if stored.damage is not None:
            self._leave_out(stored.code, stored.damage)
            return None
        try:
            room = Room(GameTable.load(stored, self.store, self.budget), unvisited=True)
        except Exception as err:
            self._leave_out(stored.code, err)
            return None
        room.rematch, room.rematched = stored.rematch, set(stored.went_on)
        self.rooms[stored.code] = room
        if link:
            room.origin = next((other for other in self.rooms.values() if other.rematch == stored.code), None)
            if room.rematch in self.rooms:
                self.rooms[room.rematch].origin = room
        return room

    def _leave_out(self, code: str, why: Exception) -> None:
        self.left_out[code], self._left_out_at[code] = why, time.monotonic()

    def put_away(self) -> list[str]:
        """Stop serving the tables nobody has been at for :data:`PUT_AWAY_AFTER` seconds and that
        wait for nothing (their match over, or left by its players): their rows are all they are, and
        any is read back when it is asked for. Without it the server kept every table ever made, and
        read them all back when it started. The codes put away."""
        now = time.monotonic()
        idle = [code for code, room in self.rooms.items()
                if not room.connections and not room.lock.locked()
                and (room.waiting is None or room.waiting.done())
                and room.players_away_since is not None and now - room.players_away_since >= PUT_AWAY_AFTER]
        for code in idle:
            del self.rooms[code]
        return idle

    # ----------------------------------------------------------------------------- lobby

    async def create(self, request: NewTable, address: str = "") -> dict[str, Any]:
        """A new table, its creator in seat 0; at most :data:`NEW_TABLES` in :data:`NEW_TABLES_WITHIN`
        seconds from one client ``address`` (each table is kept, and its bots think on this server),
        but any number from this machine: its owner's (a proxy there that names its clients in
        ``X-Forwarded-For`` is seen through by uvicorn, and each of them counts apart). One table is
        made at a time (:attr:`making`), stored in a worker thread: a slow or locked database holds up
        the other new tables and rematches, not the tables being played."""
        room, creator = await self._make_table(address, lambda rng: new_settings(
            request.edition, request.players, request.target, seat_numbers(request.bots), request.private,
            request.bot_timeout, rng, request.stand_in), creator=request.name)
        assert creator is not None
        return self._seated(room, creator)  # (nobody else to tell yet)

    async def _make_table(self, address: str, settings_of: Callable[[random.Random], Settings],
                          creator: str | None = None, rematch_of: Room | None = None) -> tuple[Room, Seating | None]:
        """Make, store and serve a new table (:meth:`create`, :meth:`rematch`), one at a time
        (:attr:`making`), for a client ``address`` within its limit: its settings from ``settings_of``
        (given a generator for its secret seed), with its ``creator`` (a name) in seat 0 or as the
        rematch of the finished table ``rematch_of``. The served room, and the creator's seating."""
        async with self.making:
            self.made.check(address, NEW_TABLES, "web_too_many_tables")
            settings = settings_of(self.rng)  # (the system's randomness itself: a float of it, 53 bits, seeded a generator)
            async with self._new_code() as code:
                table = GameTable(code, settings, self.store, budget=self.budget)
                seating = None if creator is None else table.seating(creator)  # (a name refused: nothing stored)
                await asyncio.to_thread(table.store_new, seating, None if rematch_of is None else rematch_of.table.code)
                if seating is not None:
                    table.take(seating)
                self.made.note(address)
                self.rooms[code] = room = Room(table, origin=rematch_of)
        return room, seating

    async def rematch(self, room: Room, secret: str, address: str = "") -> dict[str, Any]:
        """A new table like ``room``'s finished one (same seats, bots and target, a new deal): the
        player asking sits down there; the others are shown the way to it. The first to ask, from a
        client ``address``, makes it: one of the new tables it may make (:meth:`create`; a match to
        one token against a bot, and its rematches, made tables past any limit)."""
        old = room.table
        seat = old.seat_of(secret)
        if not old.match.over:
            raise Refused("web_rematch_not_finished")
        if seat in room.rematched:
            raise Refused("web_rematch_twice")
        if room.rematch is None:
            s = old.settings
            bots = {i: plan.level for i, plan in enumerate(s.seats) if plan.level is not None}
            made, _ = await self._make_table(address, lambda rng: new_settings(
                s.edition, s.players, s.target, bots, s.private, s.bot_timeout, rng, s.stand_in), rematch_of=room)
            room.rematch = made.table.code
            self.tell_all(room)
            for gone in room.away():  # a seat kept there for a player gone lately opens in a while
                if (kept := KEPT_THROUGH_A_DROP - room.away_for(gone)) > 0:
                    self.tell_rematch_later(room, kept)
        if self._still_left_out(room.rematch):  # (its stored rows cannot be read: not "no table")
            raise Refused("web_table_unreadable")
        async with self.holding(room.rematch) as new_room:  # (a newcomer may be taking a seat there)
            # their own seat again (kept for them), else one kept for nobody
            seating = new_room.table.seating(old.names[seat], among=[seat, *new_room.open_seats()],
                                             went_on_from=(old.code, seat))
            await seated(new_room.table, seating)
        room.rematched.add(seat)
        return self._seated(new_room, seating)

    async def join(self, code: str, name: str, address: str) -> dict[str, Any]:
        """Seat the person called ``name`` at the first open seat of the table ``code``, within the
        seats a client ``address`` may take (:data:`JOINS`). The seat is counted before it is stored:
        joins to many tables at once hold only their own tables' locks, and all passed the limit
        while their seats were stored (one whose storing fails still counts)."""
        async with self.holding(code, address) as room:
            self.joined.check(address, JOINS, "web_too_many_joins")
            seating = room.table.seating(name, among=room.open_seats(), kept_names=room.kept_names())
            self.joined.note(address)
            await seated(room.table, seating)
        return self._seated(room, seating)

    def _seated(self, room: Room, seating: Seating) -> dict[str, Any]:
        """The answer to one who took ``seating`` at ``room``, once the others there are told and
        what comes next without a person is on its way."""
        self.tell_all(room)
        self.start_waiting(room)
        return {"code": room.table.code, "seat": seating.seat, "secret": seating.secret}

    async def replay(self, doc: Any, t: Translator) -> str:
        """The frames of the record ``doc`` (:func:`~loveletter.web.replays.frames_json`), made in a
        thread of :attr:`replaying`: a long record's take a second or more."""
        return await asyncio.get_running_loop().run_in_executor(self.replaying, frames_json, doc, t)

    def open_tables(self) -> list[dict[str, Any]]:
        return [
            {"code": code, "edition": room.table.settings.edition, "players": room.table.settings.players,
             "names": [room.table.names.get(s) for s in range(room.table.settings.players)],
             "bots": [p.level for p in room.table.settings.seats], "free": len(free)}
            for code, room in self.rooms.items()
            if not room.table.settings.private and (free := room.open_seats()) and room.players_here_lately()
        ]

    # ----------------------------------------------------------------------------- play

    def arrive(self, room: Room, connection: Connection) -> None:
        """``connection`` has joined ``room``: tell it the table, and the others that its person is
        back if they were away; then what comes next."""
        seat = connection.seat
        back = seat is not None and not room.connected(seat)
        if back and seat is not None:
            room.left_at.pop(seat, None)
            if room.stand_in_asked is not None and room.stand_in_asked[0] == seat:  # (asked of someone gone)
                room.stand_in_asked = None
        room.connections.append(connection)
        room.came_or_went()
        if seat is not None:
            room.driver = connection.address
        table = room.table
        if back and seat == table.match.current and table.started and not table.match.over:
            room.awaited = (len(table.moves), time.monotonic())  # their time to move starts again
        self.tell(room, connection)
        if back:
            self.tell_away(room, but=connection)
        self.start_waiting(room)
        if seat is not None:  # back at the finished table: their seat is kept again
            self.tell_rematch(room)

    def leave(self, room: Room, connection: Connection) -> None:
        """``connection`` has left ``room``: the others are told if its person is now away."""
        room.connections.remove(connection)
        room.came_or_went()
        if connection.seat is not None and not room.connected(connection.seat):
            room.left_at[connection.seat] = time.monotonic()
            self.tell_away(room)
        self.start_waiting(room)
        if room.rematch is not None and connection.seat is not None and not room.connected(connection.seat):
            # their seat there opens, unless they are back (a rematch made later sees to it: see rematch)
            self.tell_rematch_later(room, KEPT_THROUGH_A_DROP)

    def tell_away(self, room: Room, but: Connection | None = None) -> None:
        """Tell everyone at ``room`` (``but`` one, told already) whose person is away now: a message
        of its own, for nothing else at the table changed."""
        message = wire({"type": "away", **room.who_is_away()})  # (written once for every connection)
        for connection in room.connections:
            if connection is not but:
                connection.send(message)

    def tell_all(self, room: Room) -> None:
        shared = self._room_state(room)  # (the same for every connection)
        # one message for each seat and language: a hundred spectators cost every move a tenth of a
        # second of the loop that serves every table, each told a state made for them alone
        made: dict[tuple[int | None, str], str] = {}
        for connection in list(room.connections):
            self.tell(room, connection, shared, made)

    def tell(self, room: Room, connection: Connection, shared: dict[str, Any] | None = None,
             made: dict[tuple[int | None, str], str] | None = None) -> None:
        """Queue the table's state, as ``connection``'s seat sees it (see :meth:`Connection.send`);
        ``shared``: the room's part of it (:meth:`_room_state`), where it is at hand; ``made``: the
        states made for this change so far, by seat and language, as sent (taken from there, or put there)."""
        key = (connection.seat, connection.t.language)
        told = None if made is None else made.get(key)
        if told is None:
            message = state_message(room.table, connection.seat, connection.t)
            message.update(self._room_state(room) if shared is None else shared)
            told = wire(message)
            if made is not None:
                made[key] = told
        connection.send(told)
        connection.refused = None  # (the page puts it away)

    @staticmethod
    def _room_state(room: Room) -> dict[str, Any]:
        """What the table's state adds from the room, the same for every connection."""
        return {"open_seats": room.open_seats(), "rematch": room.rematch, **room.who_is_away(),
                # (when the page offers to ask a bot to play for someone, counted from how long the
                # move has been awaited here: a page reloaded counted afresh)
                "ask_after": {"away": ASK_AFTER, "idle": room.table.settings.ask_idle_after},
                "waited": round(room.idle_for(len(room.table.moves)), 1)}

    def tell_rematch(self, room: Room) -> None:
        """Tell those at ``room``'s rematch table, if it has one, that a player of the finished match
        came or went, or has been gone :data:`KEPT_THROUGH_A_DROP` seconds: which keeps or opens their
        seat there."""
        if room.rematch in self.rooms:  # (not served: nobody is there)
            self.tell_all(self.rooms[room.rematch])

    def tell_rematch_later(self, room: Room, seconds: float) -> None:
        """:meth:`tell_rematch` in ``seconds``, when a seat kept for a player gone opens."""
        asyncio.get_running_loop().call_later(seconds, self.tell_rematch, room)

    @contextlib.asynccontextmanager
    async def _new_code(self) -> AsyncIterator[str]:
        """A code for a new table, while it is made: none that is served or stored, nor one of a
        table left out (it keeps its code). Entered with :attr:`making` held (two tables made at
        once could draw the same); until the table is served, its code is not read back."""
        while True:
            code = new_code(self.rooms.keys() | self.left_out.keys())
            if not await asyncio.to_thread(self.store.exists, code):
                break
        self._being_made.add(code)
        try:
            yield code
        finally:
            self._being_made.discard(code)

    def start_waiting(self, room: Room) -> None:
        """Schedule what comes next without a person: a bot's move, or a bot standing in, after the
        table's timeout, for a person away (or after its
        :attr:`~loveletter.web.table.Settings.idle_timeout` for one here who does not move). Called
        whenever something changed (a move, a join, anyone coming or going); what is already on its
        way for the same seat and move is left to go on, so that watchers coming and going never
        hold a bot back."""
        table = room.table
        plan: tuple[str, int, int] | None = None
        delay = 0.0
        seat = table.bot_seat_to_move()
        if seat is not None:
            plan, delay = ("bot", seat, len(table.moves)), self.bot_delay
        elif table.started and not table.match.over:
            settings = table.settings
            current, moves = table.match.current, len(table.moves)
            if room.awaited[0] != moves:
                room.awaited = (moves, time.monotonic())
            # only while another player is here: at a table nobody is at, stand-ins played whole
            # matches to 20 tokens, and 20 such tables kept the server's bots busy
            others_here = any(c.seat not in (None, current) for c in room.connections)
            if room.stand_in_asked == (current, moves):  # at once, as asked (of someone still away: see arrive)
                plan = ("asked", current, moves)
            elif settings.bot_timeout is not None and settings.idle_timeout is not None and others_here:
                if not room.connected(current):  # away: the timeout counts from now (they left, or it is their turn)
                    plan, delay = ("stand-in", current, moves), settings.bot_timeout
                else:  # here but not moving (a tab left open): counted from when the move was first awaited
                    plan, delay = ("idle", current, moves), max(0.0, settings.idle_timeout - room.idle_for(moves))
        if room.waiting is not None and not room.waiting.done():
            if room.storing or room.plan == plan:  # storing: that task schedules what follows itself
                return
            room.waiting.cancel()  # still thinking or waiting: nothing done yet, safe to drop
        room.plan = plan
        room.waiting = None if plan is None else asyncio.ensure_future(
            self._bot_moves(room, plan[1], delay, stand_in=plan[0] != "bot"))

    async def _bot_moves(self, room: Room, seat: int, delay: float, stand_in: bool = False) -> None:
        """The bot's move, ``delay`` after the turn began, its thinking included (it came on top), and
        an expert thinks even with one legal move (:func:`~loveletter.bots.choose_in_sight`): R7, an
        expert that answered at once told that its other card was the same, or beside a Countess a
        King or a Prince. A ``stand_in`` thinks only once its ``delay`` is over: the person may yet
        move, and a stand-in thinking at each person's turn, a minute ahead, kept the bots busy. Its
        move then goes out the server's bot delay after it began to think, as a bot's does (R7: out
        at once, an expert's think told the others a little of the hand it played for)."""
        loop = asyncio.get_running_loop()
        if stand_in:
            await asyncio.sleep(delay)
            delay = self.bot_delay
        started = loop.time()
        table = room.table
        async with room.lock:  # the view now: the table does not change under the thinking bot
            at = len(table.moves)
            if table.match.over or table.match.current != seat:
                return
            seen = table.view_for(seat)
        action = await self.thinkers.run(room.driver or table.code, table.bot_choice, seat, seen, at)
        await asyncio.sleep(max(0.0, delay - (loop.time() - started)))
        while True:
            async with room.lock:
                if not table.still_for_bot(seat, at):
                    return
                # Not to be cancelled from here on: a move stored but not applied would stall the table.
                room.storing = True
                try:
                    await self.commit(room, action, by_bot=True)
                    break
                except Refused as refusal:  # the database did not take it (nothing applied): again in a
                    if refusal.key == ELSEWHERE:  # moment, unless another server stored that move's place
                        return
                finally:
                    room.storing = False
            await asyncio.sleep(STORE_RETRY)
        self.tell_all(room)
        self.start_waiting(room)

    async def advise(self, room: Room, connection: Connection, v: View, moves: int, asked: int) -> None:
        """Work out the hints for ``v``, the table after ``moves`` moves, and send them, unless the
        player asked again meanwhile or the table has moved on (one search per seat at a time: a
        newer request makes an older one pointless, and the page drops advice for a position it
        has left). The seat's last advice is kept: asked for again at the same position (a language
        switch, a page reloaded, another tab), it is worded again rather than searched anew."""
        seat = connection.seat
        assert seat is not None
        adviser = room.advisers.get(seat)
        if adviser is None:
            # it reads each bot by its level, which the table shows (a random bot's plays say little)
            levels = {s: plan.level for s, plan in enumerate(room.table.settings.seats) if plan.level}
            adviser = room.advisers[seat] = Adviser(ExpertBot(seed=seat, budget=self.budget, levels=levels))

        def moved_on() -> bool:  # (read from the search's thread too)
            return len(room.table.moves) != moves

        def wanted() -> bool:  # neither asked again nor moved on
            return asked == connection.asked and not moved_on()

        async with adviser.busy:
            if not wanted():
                return
            advice = adviser.last if adviser.last is not None and adviser.last.moves == moves else None
            if advice is None:
                search = asyncio.get_running_loop().run_in_executor(
                    self.advising, advice_at, v, moves, adviser.bot, moved_on)
                try:
                    advice = await asyncio.shield(search)
                except asyncio.CancelledError:
                    # the connection closed, but the search goes on in its thread: the bot stays taken
                    # until it ends, or a reconnection's search would run on the same bot at once
                    await asyncio.wait({search})
                    if search.exception() is not None:  # (taken, so that it is not reported as never seen)
                        log.error(said("log_hints_failed", seat=seat, code=room.table.code),
                                  exc_info=search.exception())
                    elif search.result() is not None:  # kept: a reconnection at the same move is given it at once
                        adviser.last = search.result()
                    raise
                except Exception:  # a fault of ours: logged, and the table goes on without these hints
                    log.exception(said("log_hints_failed", seat=seat, code=room.table.code))
                    return
                if advice is None:  # the table moved on meanwhile, and the search stopped
                    return
                adviser.last = advice
        if not wanted():  # (the newer request gets this advice, kept, at once)
            return
        try:
            message = hints_message(advice, connection.t)
        except Exception:  # as a search's fault
            log.exception(said("log_hints_failed", seat=seat, code=room.table.code))
            return
        connection.send(message)

    async def commit(self, room: Room, action: Action, by_bot: bool) -> None:
        """Store a checked move (in a worker thread: other tables go on meanwhile), then apply it.
        Called under the room's lock, so the table's moves keep their order. A move the database
        does not take is not applied: :class:`Refused`, and the player (or the bot) may send it again.
        Its place's first failure is logged, and its success after failing, not each try between (a
        full disk logged a bot's once a second, and each player's try again)."""
        code, at = room.table.code, len(room.table.moves)
        tried = room.unstored[1] if room.unstored is not None and room.unstored[0] == at else 0
        room.unstored = None  # (unless the database does not take it now, below)
        try:
            await asyncio.to_thread(room.table.store_move, action, by_bot)
        except IntegrityError:  # that move's number is taken: the table is out of date here
            log.error(said("log_move_elsewhere", code=code, at=at))
            raise Refused(ELSEWHERE) from None
        except MAYBE_NOT_NOW as err:
            if not for_now(err):
                raise
            if not tried:
                log.error(said("log_move_not_stored", code=code, at=at, reason=first_line(err)))
            room.unstored = (at, tried + 1)
            raise Refused("web_store_failed") from None
        if tried:
            log.warning(said("log_move_stored_after", code=code, at=at, tries=tried + 1))
        room.table.apply(action, by_bot)

    async def handle(self, room: Room, connection: Connection, data: dict[str, Any]) -> None:
        if data["type"] == "ping":  # (the page's check that the connection is alive)
            connection.send({"type": "pong"})
            return
        if data["type"] == "lang":
            connection.t = Translator(data["lang"])
            refused = connection.refused
            self.tell(room, connection)  # (its state puts the page's alert away: a refusal comes again)
            # one worded whole anew: a refusal with words of its own in it (a bot's name, a number
            # of seconds counting down) would come in two languages, or out of date
            if refused is not None and (refused.engine_error is not None or not refused.params):
                connection.send({**refusal_message(refused, connection.t, room.table.match.edition), "again": True})
                connection.refused = refused
            return
        if data["type"] == "hello":
            raise Refused("web_hello_twice")
        if data["type"] == "stand_in":
            await self.ask_stand_in(room, connection, data["at"])
            return
        if data["type"] == "hints":
            if connection.seat is None:
                raise Refused("web_spectator_hints")
            seat = connection.seat
            async with room.lock:  # a snapshot of the seat's view: the table may move on meanwhile
                v, moves, waiting = room.table.view_for(seat), len(room.table.moves), bool(room.table.free_seats())
                over = room.table.match.over
            if waiting:  # no hints against an empty seat
                raise Refused("web_not_started")
            if over:  # (not "not your turn": nobody's turn comes again)
                raise Refused("web_match_over")
            if not v.legal_actions:
                raise Refused("web_not_your_turn")
            # The search takes a while: nothing waits for it, not even this player's next move (its
            # advice is then not sent: see advise).
            connection.asked += 1
            task = asyncio.ensure_future(self.advise(room, connection, v, moves, connection.asked))
            connection.advising.add(task)
            task.add_done_callback(connection.advising.discard)
            return
        async with room.lock:
            action = room.table.check(connection.seat, data["move"], data["at"])
            await self.commit(room, action, by_bot=False)
            room.driver = connection.address
        self.tell_all(room)
        self.start_waiting(room)


    async def ask_stand_in(self, room: Room, connection: Connection, at: int) -> None:
        """A player asks the table's stand-in to play the move awaited (``at`` moves played) of a
        person away for :data:`ASK_AFTER` seconds or more, or here and not moving for the table's
        :attr:`~loveletter.web.table.Settings.ask_idle_after`: at a table with no timeout, someone gone, or a tab left open, held it
        for good, and nobody could do anything about it."""
        if connection.seat is None:
            raise Refused("web_spectator_stand_in")
        table = room.table
        async with room.lock:
            table.check_at(at)
            current = table.match.current
            if current == connection.seat:
                raise Refused("web_stand_in_yourself")
            name = table.display_names(connection.t)[current]
            if table.settings.seats[current].is_bot:
                raise Refused("web_stand_in_here", name=name)
            if room.connected(current):  # here, but not moving: since the move was awaited (see start_waiting)
                idle, after = room.idle_for(at), table.settings.ask_idle_after
                if idle < after:
                    raise Refused("web_stand_in_idle_soon", name=name, after=connection.t.decimal(after),
                                  seconds=connection.t.decimal(math.ceil(after - idle)))
            elif (waited := room.away_for(current)) < ASK_AFTER:
                raise Refused("web_stand_in_soon", name=name, after=connection.t.decimal(ASK_AFTER),
                              seconds=connection.t.decimal(math.ceil(ASK_AFTER - waited)))
            room.stand_in_asked = (current, at)
        self.start_waiting(room)


async def receive_text(socket: WebSocket) -> str:
    """The text of the next message; a binary one is refused (the page sends JSON text only)."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        raise Refused("web_not_json")
    return str(text)
