"""Request bodies kept small: one larger than its route allows is refused before it is read whole.

Starlette reads a body whole before a route sees it, and uvicorn sets no limit, so a 150 MB upload
was held in memory only to be refused for its size. This middleware refuses it by its
``Content-Length`` at once; a body sent without one is read here, and refused as soon as the bytes
received pass the limit (so at most the limit is ever held). The answer is ``413``, with the refusal
in the page's language (``?lang=``), as every other refusal.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit, urlunsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from loveletter.i18n import Translator
from loveletter.web.messages import refusal_response
from loveletter.web.table import Refused

Limit = tuple[int, Callable[[int], Refused]]
"""A route's most bytes of body, and its refusal of a larger one (given the limit)."""


class BodyLimit:
    """ASGI middleware: at most ``limit(path)`` bytes of request body."""

    def __init__(self, app: ASGIApp, limit: Callable[[str], Limit], language: Callable[[Request], Translator]
                 ) -> None:
        self.app = app
        self.limit = limit
        self.language = language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        most, refusal = self.limit(scope["path"])
        length = dict(scope["headers"]).get(b"content-length", b"")
        if length.isdigit() and int(length) > most:
            await self._refuse(scope, receive, send, refusal(most))
            return
        if length.isdigit():  # the server stops a body at its stated length
            await self.app(scope, receive, send)
            return
        # no length given (chunked): read it here, counting, and hand it on whole
        chunks: list[bytes] = []
        received = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > most:
                await self._refuse(scope, receive, send, refusal(most))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        handed = False

        async def replayed() -> Message:
            nonlocal handed
            if handed:  # the body has been read: what comes next is the client's going
                return await receive()
            handed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replayed, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, refused: Refused) -> None:
        response = refusal_response(refused, self.language(Request(scope)), 413)
        await response(scope, receive, send)


#: What every HTTP answer carries: the page loads only its own files (no inline script, nothing from
#: elsewhere), is never shown inside another site's frame (a hidden overlay could make a player's
#: clicks), and no answer is taken for another kind of file; API answers, some with a seat's secret,
#: are never cached.
SAFETY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
                                 b" form-action 'self'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
NO_STORE = (b"cache-control", b"no-store")
#: The header that names, on the API's answers, the version of the page the server serves
#: (:func:`~loveletter.web.app.page_version`).
PAGE_HEADER = "X-Loveletter-Page"


class SafetyHeaders:
    """ASGI middleware: :data:`SAFETY_HEADERS` on every HTTP answer, and under ``/api/`` no caching
    and the version of the page served (``page``, :data:`PAGE_HEADER`), which a page left open
    across an upgrade of the server compares with its own.
    A redirect to this server itself (a path's trailing slash dropped) names the path alone: its
    whole address, made from the ``Host`` the server was sent, led a friend behind a reverse proxy to
    the proxy's internal address (``http://localhost/api/tables``)."""

    def __init__(self, app: ASGIApp, page: str) -> None:
        self.app = app
        self.api = [NO_STORE, (PAGE_HEADER.lower().encode(), page.encode())]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = SAFETY_HEADERS + (self.api if scope["path"].startswith("/api/") else [])

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(name, _path_alone(value) if name == b"location" else value)
                           for name, value in message.get("headers", [])]
                message = {**message, "headers": [*headers, *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def _path_alone(location: bytes) -> bytes:
    """A redirect's address as a path (and query) on the same server: ours only ever redirect there."""
    parts = urlsplit(location.decode("latin-1"))
    # (one slash first: "//evil.example/" is an address on another server)
    return urlunsplit(("", "", "/" + parts.path.lstrip("/"), parts.query, parts.fragment)).encode("latin-1")


def same_origin(origin: str, host: str) -> bool:
    """Whether a browser's ``Origin`` header names the host the request was sent to (``host``: its
    ``Host``, or any of the ``X-Forwarded-Host`` a proxy in front passes on; ports aside, which
    proxies rewrite): a page of another site may open a WebSocket to any server its visitor can
    reach, a server on the visitor's own machine too."""
    _, _, netloc = origin.partition("://")
    names = {_name(part) for part in host.split(",") if part.strip()}
    return bool(netloc) and _name(netloc) in names


#: The names a server on this machine's loopback address answers to.
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


class LoopbackOnly:
    """ASGI middleware for a server on the loopback address (the default): requests must name it as
    this machine does (``Host: localhost:8000``). A page of another site whose name its owner points
    at 127.0.0.1 (DNS rebinding) would otherwise be the server's own origin in the visitor's browser,
    and could use it as its own pages do."""

    def __init__(self, app: ASGIApp, language: Callable[[Request], Translator],
                 names: Iterable[str] = ()) -> None:
        """``names``: the server's own names besides :data:`LOOPBACK_NAMES` (the ``--host`` it was
        given, the address it is bound to: ``127.0.0.2`` is this machine's too)."""
        self.app = app
        self.language = language
        self.names = LOOPBACK_NAMES | {_name(name) for name in names}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = dict(scope.get("headers", ())).get(b"host", b"").decode("latin-1")
        # (no Host at all: no browser, which always names one; so no other site's page)
        if scope["type"] not in ("http", "websocket") or not host.strip() or _name(host) in self.names:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4003})  # (before it is accepted: a 403)
            return
        response = refusal_response(Refused("web_bad_host"), self.language(Request(scope)), 421)
        await response(scope, receive, send)


def _name(host: str) -> str:
    """A host as ``Host`` or ``Origin`` writes it, without its port or a final dot, in small letters
    (``[::1]`` keeps its brackets)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return (host.rsplit(":", 1)[0] if host.count(":") == 1 else host).rstrip(".")


class Seldom:
    """Whether a line of the log may be said now: at most once every so many seconds for each kind,
    where clients can bring it about again and again (a flood of the same line fills a disk)."""

    def __init__(self) -> None:
        self._last: dict[str, float] = {}

    def due(self, kind: str, every: float) -> bool:
        """Whether ``kind`` was last said ``every`` seconds ago or more (or never): if so, it is said now."""
        now = time.monotonic()
        if now - self._last.get(kind, -math.inf) < every:
            return False
        self._last[kind] = now
        return True
