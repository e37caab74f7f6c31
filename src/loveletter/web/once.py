"""Requests answered once: a table made, a seat taken or a rematch joined, asked again with the same
``Request-Key`` header, is given the same answer, not done twice.

An answer lost on its way back (a connection cut after the server acted) left the person without the
seat's secret: the browser, or the person, asked again and was refused ("someone at this table is
already called Bob", "you are already in the next game"), the seat theirs and nobody's; a table made
twice stood in the lobby waiting for a creator who never came. The page sends a key of its own with
each such request, the same until an answer reaches it.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request

from loveletter.web.table import Refused

#: The header that names a request, for it to be answered once.
HEADER = "Request-Key"
#: How long an answer is kept for the same request asked again (seconds).
KEPT_FOR = 600.0
#: How many answers are kept at most: past it, the oldest are forgotten.
MOST_KEPT = 10_000
#: What a key looks like: the page's are 32 hexadecimal digits.
_KEY = re.compile("[A-Za-z0-9_-]{16,64}")

Answer = dict[str, Any]


class AnsweredOnce:
    """The answers given lately, by what was asked and its key, and the requests being answered now
    (asked again meanwhile, the same answer is awaited)."""

    def __init__(self) -> None:
        self.given: dict[tuple[str, str], tuple[float, Answer]] = {}
        self.pending: dict[tuple[str, str], asyncio.Future[Answer]] = {}

    async def answer(self, http: Request, work: Callable[[], Awaitable[Answer]]) -> Answer:
        """``work()``'s answer to the request ``http``, done once for its :data:`HEADER` (none: done
        every time). The key goes with what the request asks, its path and its body whole (a
        rematch's with the seat's credential in it): by its path alone, the same key with another
        name or credential was given the answer kept, another person's seat and credential with it.
        A refusal is not kept: nothing was done, and it may be asked again. A key that is no key is
        :class:`Refused`."""
        key = http.headers.get(HEADER)
        if key is None:
            return await work()
        if not _KEY.fullmatch(key):
            raise Refused("web_bad_request_key", header=HEADER)
        named = (f"{http.url.path} {hashlib.sha256(await http.body()).hexdigest()}", key)
        self._forget_old()
        while named not in self.given:
            first = self.pending.get(named)
            if first is None:
                return await self._work(named, work)
            try:  # asked again before the first was answered: its answer
                return await asyncio.shield(first)
            except asyncio.CancelledError:  # the first cancelled (the server stopping), not this one: asked anew
                task = asyncio.current_task()
                if not first.cancelled() or (task is not None and task.cancelling()):
                    raise
        return self.given[named][1]

    async def _work(self, named: tuple[str, str], work: Callable[[], Awaitable[Answer]]) -> Answer:
        """``work()``'s answer, kept as the answer to ``named``, and given meanwhile to it asked again."""
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self.pending[named] = future
        try:
            answer = await work()
        except Exception as err:  # the same refusal for the request asked again meanwhile
            future.set_exception(err)
            future.exception()  # (taken: not "never retrieved" where nobody asked again)
            raise
        except BaseException:  # (the server stopping)
            future.cancel()
            raise
        else:
            future.set_result(answer)
            self.given[named] = (time.monotonic(), answer)
            return answer
        finally:
            del self.pending[named]

    def _forget_old(self) -> None:
        """Forget the answers older than :data:`KEPT_FOR`, and the oldest past :data:`MOST_KEPT` (kept
        in the order given: the old ones are at the front)."""
        now = time.monotonic()
        while self.given:
            named, (given_at, _) = next(iter(self.given.items()))
            if now - given_at < KEPT_FOR and len(self.given) <= MOST_KEPT:
                break
            del self.given[named]
