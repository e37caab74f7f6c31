"""The expert's searches in processes of their own. In the server's threads they shared its one
interpreter (Python's global lock) with every table: ten tables of a person against the expert held
every other table's moves up a second at the median (``benchmarks/load.py --expert-tables 10``),
where they took 5 ms without them.

A search is sent to a worker with the bot as it is (what it has read of the match, its random
numbers) and comes back with the choice and the bot as the search left it, so that the table's bot
goes on exactly as it would have in a thread of the server's. The workers are started when the
server starts (:func:`start`), or at the first search (in tests), and leave Ctrl-C, a hang-up and
SIGTERM to the server, which stops them as it stops.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from loveletter.bots import ExpertBot, choose_in_sight
from loveletter.engine import Action, View

#: The signals a worker leaves to the server: sent to the whole process group (a terminal's Ctrl-C,
#: a hang-up, a service manager's stop), each worker printed a traceback of its own.
LEFT_TO_THE_SERVER = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))

#: The workers: as many as the searches the server runs at once (its threads for the bots' moves,
#: each waiting here for its search), one to a core.
WORKERS = max(2, os.cpu_count() or 2)

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def start() -> ProcessPoolExecutor:
    """Start the workers now, if they are not started (the server, as it starts: its first search
    need not wait for them), with the signals they leave to the server held meanwhile, so that one
    sent while they start up is not theirs; the workers."""
    global _pool
    with _lock:
        if _pool is not None:
            return _pool
        held = hasattr(signal, "pthread_sigmask")
        if held:
            before = signal.pthread_sigmask(signal.SIG_BLOCK, set(LEFT_TO_THE_SERVER))
        try:
            # "spawn": fresh interpreters, safe whatever threads the server runs
            _pool = ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_leave_stopping_to_the_server)
            for started in [_pool.submit(_ready) for _ in range(WORKERS)]:  # (each submit starts one)
                started.result()
        finally:
            if held:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)
        return _pool


def stop() -> None:
    """Stop the workers (a search under way is given up: its table's bot is as it was before it)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def choose(bot: ExpertBot, reading: Iterable[View], seen: View) -> tuple[Action, ExpertBot]:
    """``bot``'s choice from ``seen`` once it has read ``reading`` (the views of its decisions it has
    not read yet), made in a worker; and the bot as the worker left it. Where the workers are gone
    (one killed, the system out of memory) they are started again, and the search made once more."""
    reading = list(reading)
    for last_try in (False, True):
        try:
            return start().submit(_choose, bot, reading, seen).result()
        except BrokenProcessPool:
            stop()
            if last_try:
                raise
    raise AssertionError("unreachable")


def _choose(bot: ExpertBot, reading: list[View], seen: View) -> tuple[Action, ExpertBot]:
    """In a worker: read, then choose."""
    bot.catch_up(reading)
    return choose_in_sight(bot, seen), bot


def _ready() -> None:
    """In a worker: nothing (a worker started)."""


def _leave_stopping_to_the_server() -> None:
    for signum in LEFT_TO_THE_SERVER:
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # (started with them held: ignored now, let through)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(LEFT_TO_THE_SERVER))
