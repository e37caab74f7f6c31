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
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

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
    """The answers given lately, by what was asked and its key, and
    the requests being answered now (asked again meanwhile, the same answer is awaited)."""

    def __init__(self) -> None:
        self.given: dict[tuple[str, str], tuple[float, Answer]] = {}
        self.pending: dict[tuple[str, str], asyncio.Future[Answer]] = {}

    async def answer(self, asked: str, key: str | None, work: Callable[[], Awaitable[Answer]]) -> Answer:
        """``work()``'s answer to the request ``asked`` (what it asks, its body too: the same key for
        another request is another request), done once for its ``key`` (none: done every time). A refusal is not kept: nothing was done,
        and it may be asked again. A key that is no key is :class:`Refused`."""
        if key is None:
            return await work()
        if not _KEY.fullmatch(key):
            raise Refused("web_bad_request_key", header=HEADER)
        named = (asked, key)
        self._forget_old()
        if named in self.given:
            return self.given[named][1]
        if named in self.pending:  # asked again before the first was answered
            return await asyncio.shield(self.pending[named])
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
