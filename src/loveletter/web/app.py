"""The web app: a lobby over HTTP, tables over WebSocket, the engine as the only authority.

- ``GET /api/tables``: open tables with free seats and a player there (or lately); ``POST
  /api/tables``: create one (the creator takes seat 0); ``POST /api/tables/{code}/join``: take a
  free seat; ``POST /api/tables/{code}/rematch``: a finished table's rematch (these three answered
  once for a ``Request-Key``: :mod:`~loveletter.web.once`); ``GET
  /api/tables/{code}/record`` and ``/replay``: a finished table's record and its replay
  (``{"frames": [...], "left_out": ..., "target": ..., "result": ...}``:
  :func:`~loveletter.web.replays.frames_json`); ``POST
  /api/replay``: the replay of a record sent; ``GET /api/words/{lang}``: the interface's
  words in English or Dutch; ``GET /api/page``: the version of the page served (named on every
  answer under ``/api/`` too: :func:`page_version`).
- ``/ws/{code}``: the first message is ``{"type": "hello", "secret": ..., "lang": ...}`` (``secret``
  null to watch); then ``move`` (in notation, its card words in English or Dutch), ``lang`` and
  ``hints`` messages (the last answered with a ``hints`` message, unless asked again or moved on
  meanwhile), and ``ping``, answered with a ``pong`` (the page finds out so that a connection went
  dead without a word: a network that drops its packets closes nothing). Each connection gets
  ``state`` messages made from its own seat's view only, and refusals meant for it alone.

The tables themselves, and who is at each, are kept by :class:`~loveletter.web.lobby.Server`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import html
import ipaddress
import json
import logging
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy.exc import IntegrityError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from loveletter.i18n import LANGUAGES, MESSAGES, Translator, grouped
from loveletter.record import KeyTwice, RecordError, no_key_twice, parse
from loveletter.web.bodies import Joining, NewTable, Rematch
from loveletter.web.limits import BodyLimit, Limit, SafetyHeaders, Seldom, same_origin
from loveletter.web.lobby import ELSEWHERE, MAYBE_NOT_NOW, Connection, NotRead, Server, for_now, receive_text
from loveletter.web.logbook import said
from loveletter.web.messages import (
    asked_language,
    first_line,
    read_client_message,
    refusal_message,
    refusal_response,
)
from loveletter.web.once import AnsweredOnce
from loveletter.web.replays import MAX_RECORD_BYTES, record_of
from loveletter.web.store import Store
from loveletter.web.table import Refused

WEB_WORDS_PREFIX = "web_"
#: The terminal's words the page shows too: the "best" beside a hint (the hint itself comes worded).
SHARED_WORDS = ("hint_best", "hint_legend", "sr_hint_legend", "sr_move_fmt_guard", "sr_move_fmt_target")
log = logging.getLogger(__name__)


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
    counts against the visitor's address (:data:`~loveletter.web.lobby.MISSES`), and a page could
    spend them all, as an image's address, in the background. A link to a record that the visitor
    follows, from anywhere, is a navigation they made (``Sec-Fetch-Mode: navigate``,
    ``Sec-Fetch-User: ?1``), and served; a navigation without them (a popup the other page keeps sending elsewhere, a prefetch) is not. A
    client that sends no such header (not a browser) is taken at its word, as its misses are its own."""
    headers = request.headers
    if headers.get("sec-fetch-site") in (None, "same-origin", "none"):
        return
    followed = (headers.get("sec-fetch-dest") == "document" and headers.get("sec-fetch-mode") == "navigate"
                and headers.get("sec-fetch-user") == "?1"
                and "prefetch" not in headers.get("sec-purpose", "") + headers.get("purpose", ""))
    if not followed:
        raise Refused("web_foreign_origin")


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
    told = Seldom()

    def tell_operator(fault: str, key: str, **params: object) -> None:
        """Log the line ``key`` (with ``params``) of a connection refused for what a proxy in front
        may be getting wrong, at most once each :data:`TELL_EVERY` seconds for each ``fault``: every
        page tries again and again (the log said nothing, and the players saw "reconnecting…")."""
        if told.due(fault, TELL_EVERY):
            log.warning(said(key, **params))

    app.state.server = server
    app.add_middleware(BodyLimit, limit=_body_limit, language=page_language)
    app.add_middleware(SafetyHeaders, page=page_version())  # (added last: outermost, so the body limit's refusals carry them too)

    @app.exception_handler(Refused)
    async def refused(request: Request, err: Refused) -> JSONResponse:
        # the page asks in its language
        return refusal_response(err, page_language(request), 400)

    async def not_stored(request: Request, err: Exception) -> JSONResponse:
        # a table or a seat the database would not take (busy, out of reach, read-only): nothing was
        # changed (any other database error is a fault of ours: a 500, and its traceback in the log)
        if not for_now(err):
            raise err
        log.error(said("log_request_not_stored", method=request.method, path=repr(request.url.path),
                       reason=first_line(err)))
        return refusal_response(Refused("web_store_failed"), page_language(request), 503)

    for not_now in MAYBE_NOT_NOW:  # (what a database says when it cannot take a write now: for_now)
        app.add_exception_handler(not_now, not_stored)

    @app.exception_handler(NotRead)
    async def not_read(request: Request, err: NotRead) -> JSONResponse:
        # a table put away that the database could not give back just now (a join, a rematch, a
        # record or a replay asked for it): nothing was changed
        log.error(said("log_request_not_read", method=request.method, path=repr(request.url.path), reason=err))
        return refusal_response(Refused("web_read_failed"), page_language(request), 503)

    @app.exception_handler(IntegrityError)
    async def stored_elsewhere(request: Request, err: IntegrityError) -> JSONResponse:
        # a seat or a table another server on this database stored first: nothing was changed here
        log.error(said("log_request_not_stored", method=request.method, path=repr(request.url.path),
                       reason=first_line(err)))
        return refusal_response(Refused(ELSEWHERE), page_language(request), 409)

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
        return refusal_response(refusal, page_language(request), err.status_code, err.headers)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, err: RequestValidationError) -> JSONResponse:
        # a request body of the wrong shape: which field, in the page's language (not pydantic's report)
        problems = err.errors()
        if problems and problems[0].get("type") == "json_invalid":  # not JSON at all: no field to name
            refusal = Refused("web_body_not_object")
        elif problems and problems[0].get("type") == "extra_forbidden":
            refusal = Refused("web_unknown_field", field=str(problems[0].get("loc", ("?",))[-1])[:40])
        else:
            where = problems[0].get("loc", ()) if problems else ()
            field = ".".join(str(part) for part in where if part != "body")
            # no field named: the body as a whole is wrong (empty, a list, a form, JSON sent as text)
            refusal = Refused("web_err_request", field=field) if field else Refused("web_body_not_object")
        return refusal_response(refusal, page_language(request), 422)

    page = _index_page()

    @app.get("/", response_class=HTMLResponse)
    async def index() -> str:
        return page

    @app.get("/static/{name}")
    async def static(name: str) -> Response:
        if name not in STATIC:
            raise HTTPException(404)
        return Response(_static(name), media_type=STATIC[name])

    @app.get("/api/page")
    async def page_served() -> dict[str, str]:  # (asked by a page whose connection came back)
        return {"page": page_version()}

    @app.get("/api/words/{lang}")
    async def words(lang: str) -> dict[str, str]:
        if lang not in LANGUAGES:
            raise HTTPException(404, Refused("web_unknown_language", lang=lang[:20], languages=LANGUAGES))
        return {k: v for k, v in MESSAGES[lang].items() if k.startswith(WEB_WORDS_PREFIX) or k in SHARED_WORDS}

    @app.get("/api/tables")
    async def tables() -> list[dict[str, Any]]:
        return server.open_tables()

    # (each answered once for the page's Request-Key: see once.py)
    answered = AnsweredOnce()

    @app.post("/api/tables", dependencies=[Depends(keys_once)])
    async def create(request: NewTable, http: Request) -> dict[str, Any]:
        return await answered.answer(http, lambda: server.create(request, _address(http)))

    @app.post("/api/tables/{code}/join", dependencies=[Depends(from_our_pages), Depends(keys_once)])
    async def join(code: str, request: Joining, http: Request) -> dict[str, Any]:
        return await answered.answer(http, lambda: server.join(code, request.name, _address(http)))

    @app.post("/api/tables/{code}/rematch", dependencies=[Depends(from_our_pages), Depends(keys_once)])
    async def rematch(code: str, request: Rematch, http: Request) -> dict[str, Any]:
        async def rematch_of() -> dict[str, Any]:
            address = _address(http)
            async with server.holding(code, address, request.secret) as room:
                return await server.rematch(room, request.secret, address)

        return await answered.answer(http, rematch_of)

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

    replays_out = 0  # replays made or being sent (see replayed)

    def replay_done() -> None:
        nonlocal replays_out
        replays_out -= 1

    async def replayed(doc: Any, t: Translator) -> Response:
        """The frames of the record ``doc``, :data:`REPLAYS_AT_ONCE` at most at once, counted until
        each is sent: six uploads of a long record whose answers were never read held 350 MB."""
        nonlocal replays_out
        if replays_out >= REPLAYS_AT_ONCE:
            raise Refused("web_replays_busy")
        replays_out += 1
        try:
            frames = await server.replay(doc, t)
        except BaseException:
            replay_done()
            raise
        return _SentThen(frames, then=replay_done)

    @app.get("/api/tables/{code}/replay", dependencies=[Depends(from_our_pages)])
    async def table_replay(code: str, http: Request, lang: str = "en") -> Response:
        t = _translator(lang)
        _found, doc = await finished_record(code, t, _address(http))  # the bots named as the table named them on this page
        try:
            return await replayed(doc, t)
        except RecordError as err:  # (a table's own record: never, but a refusal rather than a 500)
            raise Refused("web_bad_record", reason=t.record_error(err)) from None

    # (not for other sites' pages: any page could have its visitors' browsers send long records here)
    @app.post("/api/replay", dependencies=[Depends(from_our_pages)])
    async def uploaded_replay(request: Request, lang: str = "en") -> Response:
        body = await request.body()  # at most MAX_RECORD_BYTES (BodyLimit)
        t = _translator(lang)
        try:  # read as the command line reads a record file: UTF-8 JSON, no key twice, errors with their place
            doc = parse(body, t("web_upload"))
            return await replayed(doc, t)
        except RecordError as err:
            raise Refused("web_bad_record", reason=t.record_error(err)) from None

    @app.get("/ws/{code}")
    async def not_upgraded(request: Request) -> JSONResponse:
        # a table's connection asked for without its upgrade to a WebSocket: a proxy in front that
        # does not pass it on (a plain 404, which only the proxy's log showed)
        tell_operator("upgrade", "log_not_upgraded")
        return refusal_response(Refused("web_not_upgraded"), page_language(request), 426,
                            headers={"Upgrade": "websocket", "Connection": "Upgrade"})  # (RFC 9110: 426 names it)

    @app.websocket("/ws/{code}")
    async def play(socket: WebSocket, code: str) -> None:
        await socket.accept()
        t = Translator("en")
        address = _address(socket)
        # a table's free seats, told with the refusal of a spectator where its spectators are too many:
        # a person invited to one takes it there (a seat's connection is no spectator's)
        open_seats: list[int] = []
        try:
            origin = socket.headers.get("origin")
            # behind a proxy, the host the browser asked for is the one it passes on: the README's
            # proxy names this server "localhost" to it, and a page of any port of the visitor's
            # own machine passed for ours (a browser cannot send X-Forwarded-Host itself)
            host = socket.headers.get("x-forwarded-host") or socket.headers.get("host", "")
            if origin is not None and not same_origin(origin, host):
                tell_operator("origin", "log_foreign_origin", origin=repr(origin[:100]), host=repr(host[:100]))
                raise Refused("web_foreign_origin")  # another site's page, in its visitor's browser
            try:
                text = await asyncio.wait_for(receive_text(socket), HELLO_WAIT)
            except TimeoutError:  # told, as every other refusal, not dropped without a word
                raise Refused("web_hello_late", seconds=HELLO_WAIT) from None
            t = Translator(asked_language(text))
            hello = read_client_message(text, first=True)
            # after the hello: a missing table is told in the player's language. Taken in with the
            # table's lock held, after a move being stored, if one is (a page that took a slow store
            # for a dead connection, told a state without that move, said it had not reached the
            # table: then refused as stale); on the table served (one put away while this waited,
            # taken in there, held the player apart from the others, and their moves from them);
            # and counted there (pages that came while a move was stored all passed the count)
            try:
                async with server.holding(code, address, hello["secret"]) as room:
                    seat = room.table.seat_of(hello["secret"]) if hello["secret"] is not None else None
                    crowded, most = ("web_too_many_watchers", WATCHERS) if seat is None else ("web_too_many_tabs", TABS)
                    if sum(c.seat == seat for c in room.connections) >= most:
                        open_seats = room.open_seats() if seat is None else []
                        raise Refused(crowded, most=most)
                    connection = Connection(socket, seat, t, address)
                    server.arrive(room, connection)
            except NotRead as err:  # reading a table put away: told, not an unanswered hello and a traceback
                log.error(said("log_table_not_read", code=repr(code[:12]), reason=err))
                raise Refused("web_read_failed") from None
        except Refused as err:
            told = refusal_message(err, t)
            if open_seats:
                told["open_seats"] = open_seats
            with contextlib.suppress(WebSocketDisconnect):  # (closed while its table was looked for)
                await socket.send_json(told)
                await socket.close(code=4000)
            return
        except WebSocketDisconnect:
            return
        delivering = asyncio.ensure_future(connection.deliver())
        try:
            while True:
                try:
                    sent = await connection.next_text()
                    if sent is None:  # dropped: it stopped reading what it was sent
                        break
                    await server.handle(room, connection, read_client_message(sent))
                except Refused as err:
                    connection.refused = err
                    connection.send(refusal_message(err, connection.t, room.table.match.edition))
        except WebSocketDisconnect:
            pass
        finally:
            delivering.cancel()
            for task in list(connection.advising):
                task.cancel()
            server.leave(room, connection)

    return app


#: Seconds a new connection has to say hello (which table, seat and language) before it is closed.
HELLO_WAIT = 30
#: The most spectators a table lets watch at once (each move is told to each of them), and the most
#: connections (tabs, devices) one seat may have.
WATCHERS = 100
TABS = 10
#: How often, in seconds, the server looks for tables to put away
#: (:meth:`~loveletter.web.lobby.Server.put_away`).
PUT_AWAY_EVERY = 300

#: How often, at most, the log tells of each fault of a proxy in front (seconds).
TELL_EVERY = 60.0

#: The most bytes of body a request other than an upload may have: a name, a few settings, a secret.
MAX_BODY = 64_000


def _body_limit(path: str) -> Limit:
    """How much body a request to ``path`` may send (:class:`~loveletter.web.limits.BodyLimit`)."""
    if path == "/api/replay":
        return MAX_RECORD_BYTES, lambda most: Refused("web_record_too_big", max=grouped(most // 1000))
    return MAX_BODY, lambda most: Refused("web_request_too_big", max=grouped(most // 1000))


#: Replays made or being sent at once, at most (each up to :data:`~loveletter.web.replays.MAX_REPLAY_BYTES`,
#: held until its reader has read it): more are refused, to be asked for again in a moment.
REPLAYS_AT_ONCE = 4
#: A replay goes out in parts this large, each once its reader has taken most of the part before (the
#: server's write buffer holds 64 KiB before it waits): sent whole, the answer went into that buffer at
#: once, and its place among :data:`REPLAYS_AT_ONCE` with it, however little the reader read (one
#: client that read none of its answers had the server hold 1.4 GB in 45 seconds).
SEND_PART = 64 * 1024
#: A reader that takes nothing of its replay for this long is given up, and its connection closed:
#: one that never reads would otherwise hold its place among :data:`REPLAYS_AT_ONCE` for ever.
READ_WITHIN = 30.0
#: Replays given up for want of a reader, not yet logged: uvicorn logs each such answer left
#: unfinished as an error of the application's, which serve words as what it is (any other answer
#: left unfinished stays an error).
GIVEN_UP: list[float] = []


class _SentThen(Response):
    """JSON already written (a replay's frames, written as they were made), sent a part at a time
    (:data:`SEND_PART`), and ``then`` called once the reader has taken it, or stopped taking it
    (:data:`READ_WITHIN`), or the sending has failed."""

    def __init__(self, text: str, then: Callable[[], None]) -> None:
        super().__init__(text, media_type="application/json")
        self._then = then

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = memoryview(self.body)
        try:
            await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
            # (the server waits for its buffer to empty before each part is sent, the last, empty one
            # too: a reader that stopped there held its place for good)
            for start in [*range(0, len(body), SEND_PART), None]:
                part = b"" if start is None else bytes(body[start:start + SEND_PART])
                await asyncio.wait_for(send({"type": "http.response.body", "body": part, "more_body": start is not None}),
                                       READ_WITHIN)
        except TimeoutError:  # left unfinished: the server closes the connection (and logs it: see serve)
            GIVEN_UP.append(READ_WITHIN)
        finally:
            self._then()


def _address(connection: Request | WebSocket) -> str:
    """The client's address (a proxy's client's, where the server was told to believe the proxy:
    ``serve --proxy``, ``X-Forwarded-For``). An IPv6 address counts by its /64 network, the smallest
    any one network is given (a household is given a /56 or more, so one may count as up to 256):
    its many addresses would each have their own limits."""
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
    """The language a request's page asks in (``?lang=``), else the first of ours its browser
    prefers (``Accept-Language``: an address typed by hand, a proxy's host refused before the page
    loaded, said in English to a Dutch browser), else English: every refusal is said in it."""
    asked = request.query_params.get("lang")
    return _translator(asked if asked is not None else preferred(request.headers.get("accept-language", "")))


def preferred(accepted: str) -> str:
    """The first of our languages in a browser's ``Accept-Language`` by its weights (``nl-BE,
    en;q=0.8``: ``nl``), else English.

    >>> preferred("fr-CH, fr;q=0.9, nl;q=0.8, en;q=0.7"), preferred("en;q=0.5, nl-NL"), preferred("*")
    ('nl', 'nl', 'en')
    """
    weighed = []
    for n, part in enumerate(accepted.split(",")[:50]):  # (a header of thousands of parts: the first few)
        tag, _, weight = part.strip().partition(";")
        try:
            q = float(weight.strip().removeprefix("q=")) if weight else 1.0
        except ValueError:
            q = 0.0
        code = tag.strip().lower().partition("-")[0]
        if code in LANGUAGES and q > 0:
            weighed.append((-q, n, code))
    return min(weighed)[2] if weighed else "en"


def _translator(lang: str) -> Translator:
    return Translator(lang if lang in LANGUAGES else "en")


#: The page's files served under ``/static/``, and their media types.
STATIC = {"app.js": "text/javascript", "style.css": "text/css", "cards.svg": "image/svg+xml"}


def _index_page() -> str:
    """The page, with the one thing it must say before its words come from the server, in each
    language: that the server cannot be reached; and its version."""
    unreachable = {language: MESSAGES[language]["web_unreachable"] for language in LANGUAGES}
    return (_static("index.html").replace("{unreachable}", html.escape(json.dumps(unreachable)))
            .replace("{page}", page_version()))


@functools.cache
def page_version() -> str:
    """The version of the page (a digest of its files), named on the API's answers: a page left open
    while the server was upgraded finds another there, and asks to be reloaded. It may not read all
    that the new server sends (an older page's replay showed nothing)."""
    digest = hashlib.sha256()
    for name in ("index.html", *STATIC):
        digest.update(_static(name).encode("utf-8"))
    return digest.hexdigest()[:16]


@functools.cache  # (read once: they change only with the package)
def _static(name: str) -> str:
    return resources.files("loveletter.web").joinpath("static", name).read_text(encoding="utf-8")
