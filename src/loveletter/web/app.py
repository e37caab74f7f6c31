"""The web app: a lobby over HTTP, tables over WebSocket, the engine as the only authority.

- ``GET /api/tables``: open tables with free seats and a player there (or lately); ``POST
  /api/tables``: create one (the creator takes seat 0); ``POST /api/tables/{code}/join``: take a
  free seat; ``POST /api/tables/{code}/rematch``: a finished table's rematch; ``GET
  /api/tables/{code}/record`` and ``/replay``: a finished table's record and its replay's frames;
  ``POST /api/replay``: the frames of a record sent; ``GET /api/words/{lang}``: the interface's
  words in English or Dutch.
- ``/ws/{code}``: the first message is ``{"type": "hello", "secret": ..., "lang": ...}`` (``secret``
  null to watch); then ``move`` (in notation, its card words in English or Dutch), ``lang`` and
  ``hints`` messages (the last answered with a ``hints`` message, unless asked again or moved on
  meanwhile). Each connection gets ``state`` messages made from its own seat's view only, and
  refusals meant for it alone.

Bots and hints think in worker threads of their own (:data:`THINKERS` at a time each: a bot's move
never waits for other people's hints), so the server keeps answering and storing moves meanwhile; a
person who is away when their turn comes can be replaced by a bot for that move after the table's
timeout.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ipaddress
import json
import logging
import os
import random
import re
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar

from fastapi import Depends, FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from loveletter.bots.expert import ExpertBot
from loveletter.engine import Action, View
from loveletter.i18n import LANGUAGES, MESSAGES, Translator
from loveletter.record import KeyTwice, RecordError, no_key_twice, parse
from loveletter.web.limits import BodyLimit, Limit, SafetyHeaders, same_origin
from loveletter.web.messages import (
    Advice,
    advice_at,
    asked_language,
    first_line,
    hints_message,
    read_client_message,
    refusal_message,
    state_message,
)
from loveletter.web.replays import MAX_RECORD_BYTES, frames_json, record_of
from loveletter.web.store import Store, StoredTable
from loveletter.web.table import GameTable, Refused, Seating, Settings, is_code, new_code, new_settings

WEB_WORDS_PREFIX = "web_"
#: The terminal's words the page shows too: the "best" beside a hint (the hint itself comes worded).
SHARED_WORDS = ("hint_best",)
#: Searches run at once, in threads of their own: the moves' storing and the other tables never queue
#: behind them, and the event loop shares the interpreter with few threads. As many again for hints,
#: apart: with one pool, two players asking for hints held up every table's bots for seconds.
THINKERS = max(2, os.cpu_count() or 2)
#: Replays made at once, in threads of their own: in the pool that stores moves and reads tables back,
#: six uploads of a long record at once held every table's moves for seconds.
REPLAYERS = 2
log = logging.getLogger(__name__)


class Body(BaseModel):
    """A request body: a field it does not know is refused, not passed over (a ``"budget"`` would
    look taken)."""

    model_config = ConfigDict(extra="forbid")


class NewTable(Body):
    """A new table's settings. Types are strict (``true`` is no number, ``"5"`` no whole number);
    the ranges are checked by :func:`~loveletter.web.table.new_settings`, which says what they are.
    The bots' seats are JSON keys, so text: read by :func:`seat_numbers`."""

    name: StrictStr  # its length: clean_name's to refuse, in its words (the body's size: BodyLimit)
    edition: StrictStr = Field(default="classic", max_length=20)
    players: StrictInt = 2
    target: StrictInt | None = None
    bots: dict[StrictStr, StrictStr] = Field(default_factory=dict, max_length=6)  # (a seat for each; the seat checks say what is wrong)
    private: StrictBool = False
    bot_timeout: StrictFloat | None = None  # (a whole number is taken too)
    # the level that plays for someone away: only with a bot timeout (none: the default level)
    stand_in: StrictStr | None = Field(default=None, max_length=20)


def seat_numbers(bots: dict[str, str]) -> dict[int, str]:
    """The bots by seat number: ``"1"``, not ``"01"``, ``"1.0"`` or ``" 1"`` (read as 1 too, two
    of them would name one seat, and one bot would be lost without a word)."""
    seats = {}
    for key, level in bots.items():
        if not re.fullmatch(r"0|[1-9][0-9]{0,5}", key):
            raise Refused("web_err_bot_seat_number", seat=key[:20])
        seats[int(key)] = level
    return seats


async def keys_once(request: Request) -> None:
    """Refuse a JSON body that names a key twice, as a record file is refused: the JSON reader keeps
    the last without a word (``{"bots": {"1": "expert", "1": "random"}}`` made a random bot). Any
    other fault of the body (empty, not JSON, not text, sent as text/plain) is left to FastAPI's own
    check of the request, which tells it in one line (it answered 500 from here)."""
    try:
        json.loads(await request.body(), object_pairs_hook=no_key_twice)
    except KeyTwice as twice:
        raise Refused("web_key_twice", field=twice.key) from None
    except (ValueError, RecursionError):
        return


def from_our_pages(request: Request) -> None:
    """Refuse a request naming a table that another site's page sent from its visitor's browser
    (the browser says so in ``Sec-Fetch-Site``), before it names the table: each code with no table
    counts against the visitor's address (:data:`MISSES`), and a page could spend them all, as an
    image's address, in the background. A link to a record that the visitor follows, from anywhere,
    is a navigation they made (``Sec-Fetch-Mode: navigate``, ``Sec-Fetch-User: ?1``), and served; a
    navigation without them (a popup the other page keeps sending elsewhere, a prefetch) is not. A
    client that sends no such header (not a browser) is taken at its word, as its misses are its own."""
    headers = request.headers
    if headers.get("sec-fetch-site") in (None, "same-origin", "none"):
        return
    followed = (headers.get("sec-fetch-dest") == "document" and headers.get("sec-fetch-mode") == "navigate"
                and headers.get("sec-fetch-user") == "?1"
                and "prefetch" not in headers.get("sec-purpose", "") + headers.get("purpose", ""))
    if not followed:
        raise Refused("web_foreign_origin")


class Joining(Body):
    name: StrictStr


class Rematch(Body):
    secret: StrictStr = Field(max_length=200)


@dataclass
class Connection:
    """One WebSocket at a table. What the server tells it waits in its own ``outbox``, sent by its own
    task (:meth:`deliver`): a client that stops reading holds up nobody but itself, and once it has let
    :data:`OUTBOX` messages pile up, or one message has waited :data:`SEND_WAIT` seconds to go out, it
    is ``dropped`` (the page connects again, and is told the table afresh)."""

    socket: WebSocket
    seat: int | None
    t: Translator
    asked: int = 0  # hint requests so far: only the latest is worked out (see Server.advise)
    advising: set[asyncio.Task[None]] = field(default_factory=set)
    outbox: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    dropped: asyncio.Event = field(default_factory=asyncio.Event)

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (never waits); a connection with a full outbox is dropped instead."""
        if self.dropped.is_set():
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped.set()

    async def deliver(self) -> None:
        """Send what is queued, in order, until the connection is dropped (or closes under us)."""
        while True:
            message = await self.outbox.get()
            try:
                await asyncio.wait_for(self.socket.send_json(message), SEND_WAIT)
            except Exception:  # too slow (TimeoutError), or closed: either way, nothing more goes out
                self.dropped.set()
                return

    async def next_text(self) -> str | None:
        """The text of the next message from the client (see :func:`_receive_text`), or ``None`` once
        the connection is dropped."""
        receiving = asyncio.ensure_future(_receive_text(self.socket))
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
    # creator, and after a restart every player, has yet to connect
    players_away_since: float | None = field(default_factory=time.monotonic)

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def came_or_went(self) -> None:
        """Note a player's connection coming or going (see :attr:`players_away_since`)."""
        if any(c.seat is not None for c in self.connections):
            self.players_away_since = None
        elif self.players_away_since is None:
            self.players_away_since = time.monotonic()

    def players_here_lately(self) -> bool:
        """Whether a player is at the table, or was within :data:`LOBBY_AWAY` seconds: a table all
        its players have left leaves the lobby, where nobody would be waiting to play with a
        newcomer (the tables of every past visitor piled up there)."""
        away = self.players_away_since
        return away is None or time.monotonic() - away < LOBBY_AWAY

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
        player in it while they are still at the finished table (they may yet come on), so that
        nobody who merely watched takes it first."""
        origin = self.origin
        return [
            seat for seat in self.table.free_seats()
            if origin is None or seat not in origin.table.names or seat in origin.rematched
            or not origin.connected(seat)
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
    except NOT_NOW as err:
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
                log.error("table %s left out: %s", stored.code, first_line(self.left_out[stored.code]))
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
            room = Room(GameTable.load(stored, self.store, self.budget))
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
            settings = settings_of(random.Random(self.rng.random()))
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
                s.edition, s.players, s.target, bots, s.private, s.bot_timeout, rng,
                s.stand_in if s.bot_timeout is not None else None), rematch_of=room)
            room.rematch = made.table.code
            self.tell_all(room)
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
             "bots": [p.level for p in room.table.settings.seats], "free": len(room.open_seats())}
            for code, room in self.rooms.items()
            if not room.table.settings.private and room.open_seats() and room.players_here_lately()
        ]

    # ----------------------------------------------------------------------------- play

    def tell_all(self, room: Room) -> None:
        for connection in list(room.connections):
            self.tell(room, connection)

    def tell(self, room: Room, connection: Connection) -> None:
        """Queue the table's state, as ``connection``'s seat sees it (see :meth:`Connection.send`)."""
        message = state_message(room.table, connection.seat, connection.t)
        message["open_seats"] = room.open_seats()
        message["rematch"] = room.rematch
        connection.send(message)

    def tell_rematch(self, room: Room, connection: Connection) -> None:
        """Tell those at ``room``'s rematch table, if it has one, that a player of the finished match
        came or went (which keeps or opens their seat there)."""
        if room.rematch in self.rooms and connection.seat is not None:  # (not served: nobody is there)
            self.tell_all(self.rooms[room.rematch])

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
        """Schedule what comes next without a person: a bot's move, or a bot standing in for an
        absent person after the table's timeout. Called whenever something changed (a move, a
        join, anyone coming or going); what is already on its way for the same seat and move is left
        to go on, so that watchers coming and going never hold a bot back."""
        table = room.table
        plan: tuple[str, int, int] | None = None
        delay = 0.0
        seat = table.bot_seat_to_move()
        if seat is not None:
            plan, delay = ("bot", seat, len(table.moves)), self.bot_delay
        else:
            timeout = table.settings.bot_timeout
            if timeout is not None and table.started and not table.match.over:
                current = table.match.current
                # for someone away, while another player is here (then the one here is another, kept
                # by came_or_went): at a table nobody is at, stand-ins played whole matches to 20
                # tokens, and 20 such tables kept the server's bots busy
                if room.players_away_since is None and not room.connected(current):
                    plan, delay = ("stand-in", current, len(table.moves)), timeout
        if room.waiting is not None and not room.waiting.done():
            if room.storing or room.plan == plan:  # storing: that task schedules what follows itself
                return
            room.waiting.cancel()  # still thinking or waiting: nothing done yet, safe to drop
        room.plan = plan
        room.waiting = None if plan is None else asyncio.ensure_future(self._bot_moves(room, plan[1], delay))

    async def _bot_moves(self, room: Room, seat: int, delay: float) -> None:
        """The bot's move, ``delay`` after the turn began, its thinking included (it came on top), and
        an expert thinks even with one legal move (:func:`~loveletter.bots.choose_in_sight`): R7, an
        expert that answered at once told that its other card was the same, or beside a Countess a
        King or a Prince."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        table = room.table
        async with room.lock:  # the view now: the table does not change under the thinking bot
            at = len(table.moves)
            if table.match.over or table.match.current != seat:
                return
            seen = table.view_for(seat)
        action = await loop.run_in_executor(self.thinking, table.bot_choice, seat, seen, at)
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
                        log.error("the hints for seat %s of table %s failed", seat, room.table.code,
                                  exc_info=search.exception())
                    elif search.result() is not None:  # kept: a reconnection at the same move is given it at once
                        adviser.last = search.result()
                    raise
                except Exception:  # a fault of ours: logged, and the table goes on without these hints
                    log.exception("the hints for seat %s of table %s failed", seat, room.table.code)
                    return
                if advice is None:  # the table moved on meanwhile, and the search stopped
                    return
                adviser.last = advice
        if not wanted():  # (the newer request gets this advice, kept, at once)
            return
        try:
            message = hints_message(advice, connection.t)
        except Exception:  # as a search's fault
            log.exception("the hints for seat %s of table %s failed", seat, room.table.code)
            return
        connection.send(message)

    async def commit(self, room: Room, action: Action, by_bot: bool) -> None:
        """Store a checked move (in a worker thread: other tables go on meanwhile), then apply it.
        Called under the room's lock, so the table's moves keep their order. A move the database
        does not take is not applied: :class:`Refused`, and the player may send it again."""
        try:
            await asyncio.to_thread(room.table.store_move, action, by_bot)
        except NOT_NOW as err:
            log.error("table %s: move %d not stored: %s", room.table.code, len(room.table.moves), first_line(err))
            raise Refused("web_store_failed") from None
        except IntegrityError:  # that move's number is taken: the table is out of date here
            log.error("table %s: move %d not stored: another server on this database stored one",
                      room.table.code, len(room.table.moves))
            raise Refused(ELSEWHERE) from None
        room.table.apply(action, by_bot)

    async def handle(self, room: Room, connection: Connection, data: dict[str, Any]) -> None:
        if data["type"] == "lang":
            connection.t = Translator(data["lang"])
            self.tell(room, connection)
            return
        if data["type"] == "hello":
            raise Refused("web_hello_twice")
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
        self.tell_all(room)
        self.start_waiting(room)


def create_app(store: Store, bot_delay: float = 0.8, budget: int | None = None) -> FastAPI:
    """The web app on ``store``; bots move ``bot_delay`` seconds into their turn, and the expert (its
    bots and its hints) searches ``budget`` iterations per move (``None``: its default)."""
    server = Server(store, bot_delay, budget)

    async def putting_away() -> None:
        while True:
            await asyncio.sleep(PUT_AWAY_EVERY)
            server.put_away()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        for room in server.rooms.values():  # tables left with a bot to move carry on by themselves
            server.start_waiting(room)
        sweeping = asyncio.ensure_future(putting_away())
        yield
        sweeping.cancel()

    app = FastAPI(title="Love Letter", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.server = server
    app.add_middleware(BodyLimit, limit=_body_limit, language=page_language)
    app.add_middleware(SafetyHeaders)  # (added last: outermost, so the body limit's refusals carry them too)

    @app.exception_handler(Refused)
    async def refused(request: Request, err: Refused) -> JSONResponse:
        # the page asks in its language
        return JSONResponse(refusal_message(err, page_language(request)), status_code=400)

    @app.exception_handler(OperationalError)
    @app.exception_handler(PoolTimeout)
    async def not_stored(request: Request, err: Exception) -> JSONResponse:
        # a table or a seat the database would not take (busy, out of reach): nothing was changed
        # (any other database error is a fault of ours: a 500, and its traceback in the log)
        log.error("%s %r not stored: %s", request.method, request.url.path, first_line(err))
        return JSONResponse(refusal_message(Refused("web_store_failed"), page_language(request)), status_code=503)

    @app.exception_handler(NotRead)
    async def not_read(request: Request, err: NotRead) -> JSONResponse:
        # a table put away that the database could not give back just now (a join, a rematch, a
        # record or a replay asked for it): nothing was changed
        log.error("%s %r not read: %s", request.method, request.url.path, err)
        return JSONResponse(refusal_message(Refused("web_read_failed"), page_language(request)), status_code=503)

    @app.exception_handler(IntegrityError)
    async def stored_elsewhere(request: Request, err: IntegrityError) -> JSONResponse:
        # a seat or a table another server on this database stored first: nothing was changed here
        log.error("%s %s not stored: %s", request.method, request.url.path, first_line(err))
        return JSONResponse(refusal_message(Refused(ELSEWHERE), page_language(request)),
                            status_code=409)

    @app.exception_handler(StarletteHTTPException)
    async def not_here(request: Request, err: StarletteHTTPException) -> Response:
        # no such address, or not for this method: said in the page's language, as every refusal
        if err.status_code == 405:
            refusal = Refused("web_wrong_method", method=request.method)
        elif err.status_code == 404:
            refusal = err.detail if isinstance(err.detail, Refused) else Refused("web_not_found")
        elif err.status_code == 400:  # a body the JSON reader gave up on (not UTF-8, nested too deep, ...)
            refusal = Refused("web_body_unreadable")
        else:
            return await http_exception_handler(request, err)
        return JSONResponse(refusal_message(refusal, page_language(request)),
                            status_code=err.status_code, headers=err.headers)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, err: RequestValidationError) -> JSONResponse:
        # a request body of the wrong shape: which field, in the page's language (not pydantic's report)
        problems = err.errors()
        if problems and problems[0].get("type") == "json_invalid":  # not JSON at all: no field to name
            refusal = Refused("web_not_json")
        elif problems and problems[0].get("type") == "extra_forbidden":
            refusal = Refused("web_unknown_field", field=str(problems[0].get("loc", ("?",))[-1])[:40])
        else:
            where = problems[0].get("loc", ()) if problems else ()
            field = ".".join(str(part) for part in where if part != "body")
            # no field named: the body as a whole is wrong (empty, a list, a form, JSON sent as text)
            refusal = Refused("web_err_request", field=field) if field else Refused("web_body_not_object")
        return JSONResponse(refusal_message(refusal, page_language(request)),
                            status_code=422)

    @app.get("/", response_class=HTMLResponse)
    async def index() -> str:
        return _static("index.html")

    @app.get("/static/{name}")
    async def static(name: str) -> Response:
        kinds = {"app.js": "text/javascript", "style.css": "text/css", "cards.svg": "image/svg+xml"}
        if name not in kinds:
            raise HTTPException(404)
        return Response(_static(name), media_type=kinds[name])

    @app.get("/api/words/{lang}")
    async def words(lang: str) -> dict[str, str]:
        if lang not in LANGUAGES:
            raise HTTPException(404, Refused("web_unknown_language", lang=lang[:20], languages=" / ".join(LANGUAGES)))
        return {k: v for k, v in MESSAGES[lang].items() if k.startswith(WEB_WORDS_PREFIX) or k in SHARED_WORDS}

    @app.get("/api/tables")
    async def tables() -> list[dict[str, Any]]:
        return server.open_tables()

    @app.post("/api/tables", dependencies=[Depends(keys_once)])
    async def create(request: NewTable, http: Request) -> dict[str, Any]:
        return await server.create(request, _address(http))

    @app.post("/api/tables/{code}/join", dependencies=[Depends(from_our_pages), Depends(keys_once)])
    async def join(code: str, request: Joining, http: Request) -> dict[str, Any]:
        return await server.join(code, request.name, _address(http))

    @app.post("/api/tables/{code}/rematch", dependencies=[Depends(from_our_pages), Depends(keys_once)])
    async def rematch(code: str, request: Rematch, http: Request) -> dict[str, Any]:
        address = _address(http)
        async with server.holding(code, address, request.secret) as room:
            return await server.rematch(room, request.secret, address)

    async def finished_record(code: str, t: Translator, address: str) -> tuple[str, dict[str, Any]]:
        """A finished table's code and record (before the end, a record would show the decks), its bots
        named with their level in ``t``'s language; asked from ``address``."""
        table = (await server.room(code, address)).table
        if not table.match.over:
            raise Refused("web_not_finished")
        return table.code, record_of(table.match, table.display_names(t))

    @app.get("/api/tables/{code}/record", dependencies=[Depends(from_our_pages)])
    async def record(code: str, http: Request) -> JSONResponse:
        # the bots named in English: a record file is read in any language
        found, doc = await finished_record(code, Translator("en"), _address(http))
        return JSONResponse(doc, headers={"Content-Disposition": f'attachment; filename="loveletter-{found}.json"'})

    @app.get("/api/tables/{code}/replay", dependencies=[Depends(from_our_pages)])
    async def table_replay(code: str, http: Request, lang: str = "en") -> Response:
        t = _translator(lang)
        _found, doc = await finished_record(code, t, _address(http))  # the bots named as the table named them on this page
        try:
            return _json_text(await server.replay(doc, t))
        except RecordError as err:  # (a table's own record: never, but a refusal rather than a 500)
            raise Refused("web_bad_record", reason=t.record_error(err)) from None

    # (not for other sites' pages: any page could have its visitors' browsers send long records here)
    @app.post("/api/replay", dependencies=[Depends(from_our_pages)])
    async def uploaded_replay(request: Request, lang: str = "en") -> Response:
        body = await request.body()  # at most MAX_RECORD_BYTES (BodyLimit)
        t = _translator(lang)
        try:  # read as the command line reads a record file: UTF-8 JSON, no key twice, errors with their place
            doc = parse(body, t("web_upload"))
            return _json_text(await server.replay(doc, t))
        except RecordError as err:
            raise Refused("web_bad_record", reason=t.record_error(err)) from None

    @app.websocket("/ws/{code}")
    async def play(socket: WebSocket, code: str) -> None:
        await socket.accept()
        t = Translator("en")
        try:
            origin = socket.headers.get("origin")
            if origin is not None and not same_origin(origin, [socket.headers.get("host", ""),
                                                               socket.headers.get("x-forwarded-host", "")]):
                raise Refused("web_foreign_origin")  # another site's page, in its visitor's browser
            try:
                text = await asyncio.wait_for(_receive_text(socket), HELLO_WAIT)
            except TimeoutError:  # told, as every other refusal, not dropped without a word
                raise Refused("web_hello_late", seconds=HELLO_WAIT) from None
            t = Translator(asked_language(text))
            hello = read_client_message(text, first=True)
            # after the hello: a missing table is told in the player's language
            try:
                room = await server.room(code, _address(socket), hello["secret"])
            except NotRead as err:  # reading a table put away: told, not an unanswered hello and a traceback
                log.error("table %r not read: %s", code[:12], err)
                raise Refused("web_read_failed") from None
            seat = room.table.seat_of(hello["secret"]) if hello["secret"] is not None else None
            crowded, most = ("web_too_many_watchers", WATCHERS) if seat is None else ("web_too_many_tabs", TABS)
            if sum(c.seat == seat for c in room.connections) >= most:
                raise Refused(crowded, most=most)
        except Refused as err:
            with contextlib.suppress(WebSocketDisconnect):  # (closed while its table was looked for)
                await socket.send_json(refusal_message(err, t))
                await socket.close(code=4000)
            return
        except WebSocketDisconnect:
            return
        connection = Connection(socket, seat, t)
        delivering = asyncio.ensure_future(connection.deliver())
        room.connections.append(connection)
        room.came_or_went()
        server.tell(room, connection)
        server.start_waiting(room)
        server.tell_rematch(room, connection)  # back at the finished table: their seat is kept again
        try:
            while True:
                try:
                    said = await connection.next_text()
                    if said is None:  # dropped: it stopped reading what it was sent
                        break
                    await server.handle(room, connection, read_client_message(said))
                except Refused as err:
                    connection.send(refusal_message(err, connection.t, room.table.match.edition))
        except WebSocketDisconnect:
            pass
        finally:
            delivering.cancel()
            for task in list(connection.advising):
                task.cancel()
            room.connections.remove(connection)
            room.came_or_went()
            server.start_waiting(room)
            server.tell_rematch(room, connection)  # their kept seat may open

    return app


async def _receive_text(socket: WebSocket) -> str:
    """The text of the next message; a binary one is refused (the page sends JSON text only)."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        raise Refused("web_not_json")
    return str(text)


#: What a database says when it cannot take a write now (locked, gone, every connection busy), rather
#: than never (a fault of ours): the move or table may be sent again.
NOT_NOW = (OperationalError, PoolTimeout)
#: The refusal of what the database refuses because another server stored it first (two servers on
#: one database, as when a restart overlaps the old server's last seconds).
ELSEWHERE = "web_store_elsewhere"
#: Seconds before a bot tries again to store a move the database did not take.
STORE_RETRY = 1.0
#: Seconds a new connection has to say hello (which table, seat and language) before it is closed.
HELLO_WAIT = 30
#: The most spectators a table lets watch at once (each move is told to each of them), and the most
#: connections (tabs, devices) one seat may have.
WATCHERS = 100
TABS = 10
#: How many client addresses the limits per address remember at most (see :class:`Recent`).
ADDRESSES_KEPT = 100_000
#: The most tables one client address may create within :data:`NEW_TABLES_WITHIN` seconds.
NEW_TABLES = 20
NEW_TABLES_WITHIN = 600
THIS_MACHINE = ("127.0.0.1", "::1")
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
#: (:meth:`Server.put_away`), and how often the server looks for such tables.
PUT_AWAY_AFTER = 3600
PUT_AWAY_EVERY = 300
#: Seconds a table stays in the lobby once none of its players is connected (a page reloading, a
#: phone switching networks, come back within it).
LOBBY_AWAY = 600
#: The most messages that may wait to go out to one connection; one that lets more pile up is dropped.
OUTBOX = 64
#: Seconds a message may take to go out to a connection before the connection is dropped.
SEND_WAIT = 20.0

#: The most bytes of body a request other than an upload may have: a name, a few settings, a secret.
MAX_BODY = 64_000


def _body_limit(path: str) -> Limit:
    """How much body a request to ``path`` may send (:class:`~loveletter.web.limits.BodyLimit`)."""
    if path == "/api/replay":
        return MAX_RECORD_BYTES, lambda most: Refused("web_record_too_big", max=most // 1000)
    return MAX_BODY, lambda most: Refused("web_request_too_big", max=most // 1000)


def _json_text(text: str) -> Response:
    """JSON already written (a replay's frames, written as they were made)."""
    return Response(text, media_type="application/json")


class Recent:
    """When each client address did a thing (made a table, named no table) within the last
    ``seconds``. An address whose times are all older is forgotten; past :data:`ADDRESSES_KEPT`
    addresses, the oldest are, so that many addresses cannot fill the memory."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.times: dict[str, collections.deque[float]] = {}

    def count(self, address: str) -> int:
        """How often ``address`` did it lately."""
        done = self.times.get(address)
        if done is None:
            return 0
        while done and done[0] <= time.monotonic() - self.seconds:
            done.popleft()
        if not done:
            del self.times[address]
        return len(done)

    def check(self, address: str, most: int, key: str) -> None:
        """:class:`Refused` (the message ``key``) for an ``address`` that did it ``most`` times lately,
        unless it is this machine's own (its owner's, or a proxy's there that names its clients)."""
        if self.count(address) >= most and address not in THIS_MACHINE:
            raise Refused(key, most=most, minutes=round(self.seconds / 60))

    def note(self, address: str) -> None:
        """``address`` did it now."""
        if address not in self.times and len(self.times) >= ADDRESSES_KEPT:
            for other in list(self.times):  # the forgotten first; then the longest known
                self.count(other)
            while len(self.times) >= ADDRESSES_KEPT:
                del self.times[next(iter(self.times))]
        self.times.setdefault(address, collections.deque()).append(time.monotonic())


def _address(connection: Request | WebSocket) -> str:
    """The client's address (a proxy's client's, where uvicorn trusts the proxy: ``X-Forwarded-For``).
    An IPv6 address counts by its /64 network, which one household or server is given whole: its
    many addresses would each have their own limits."""
    host = connection.client.host if connection.client else ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # an IPv4 client of a dual-stack socket
            return str(ip.ipv4_mapped)
        if not ip.is_loopback:
            return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def page_language(request: Request) -> Translator:
    """The language a request's page asks in (``?lang=``): every refusal is said in it."""
    return _translator(request.query_params.get("lang", "en"))


def _translator(lang: str) -> Translator:
    return Translator(lang if lang in LANGUAGES else "en")


def _static(name: str) -> str:
    return resources.files("loveletter.web").joinpath("static", name).read_text(encoding="utf-8")
