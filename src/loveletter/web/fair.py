"""Work shared out in turn between those it is done for: the bots' thinking, by the client address
whose play set each table's bots going. One address with twenty tables of experts had every other
table's bots wait behind its twenty searches (a beginner's move came after 5.4 s, not 0.8 s): now
the next search is taken from each address in turn, so another's table waits behind one of them."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import Counter, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

T = TypeVar("T")
_Job = tuple["asyncio.Future[Any]", Callable[[], Any]]


class TakingTurns:
    """Runs functions in ``executor``'s threads, ``workers`` at once at most (the executor's own
    number of threads), the next one taken from the key with jobs waiting that was served longest
    ago (a key that comes with none waiting: before every other)."""

    def __init__(self, executor: Executor, workers: int) -> None:
        self._executor = executor
        self._workers = workers
        self._running = 0
        self._waiting: dict[Hashable, deque[_Job]] = {}  # each key's jobs
        # when each key with jobs waiting or running was last served (a count), and its jobs running
        self._served: dict[Hashable, int] = {}
        self._count = 0
        self._busy: Counter[Hashable] = Counter()

    async def run(self, key: Hashable, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a thread, once it is ``key``'s turn. Cancelled while it waits, it never
        runs; cancelled while it runs, it runs on (a thread cannot be stopped) and its place is
        given to the next once it ends."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._waiting.setdefault(key, deque()).append((done, functools.partial(fn, *args)))
        self._start_next(loop)
        return await done

    def _start_next(self, loop: asyncio.AbstractEventLoop) -> None:
        while self._running < self._workers and self._waiting:
            key = min(self._waiting, key=lambda k: self._served.get(k, -1))
            jobs = self._waiting[key]
            done, job = jobs.popleft()
            if not jobs:
                del self._waiting[key]
            if done.cancelled():
                self._forget_if_idle(key)
                continue
            self._count += 1
            self._served[key] = self._count
            self._busy[key] += 1
            self._running += 1
            self._executor.submit(job).add_done_callback(functools.partial(self._ran, loop, key, done))

    def _forget_if_idle(self, key: Hashable) -> None:
        """(Keys come and go with the addresses: one with nothing waiting or running is forgotten.)"""
        if key not in self._waiting and not self._busy[key]:
            self._served.pop(key, None)
            del self._busy[key]

    def _ran(self, loop: asyncio.AbstractEventLoop, key: Hashable, done: asyncio.Future[Any], ran: Future[Any]) -> None:
        """(In the worker thread.)"""
        _call_soon(loop, self._finished, loop, key, ran, done)

    def _finished(self, loop: asyncio.AbstractEventLoop, key: Hashable, ran: Future[Any],
                  done: asyncio.Future[Any]) -> None:
        self._running -= 1
        self._busy[key] -= 1
        self._forget_if_idle(key)
        if not done.cancelled():
            error = ran.exception()
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(ran.result())
        self._start_next(loop)


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: Any) -> None:
    """``fn(*args)`` on ``loop``, from a worker thread; nothing where the loop has closed (the server
    stopped while a bot thought)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(fn, *args)
