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

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterable
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from loveletter.bots import ExpertBot, choose_in_sight
from loveletter.engine import Action, View
from loveletter.web.logbook import said

#: The signals a worker leaves to the server: sent to the whole process group (a terminal's Ctrl-C,
#: a hang-up, a service manager's stop), each worker printed a traceback of its own.
LEFT_TO_THE_SERVER = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))

#: The workers: as many as the searches the server runs at once (its threads for the bots' moves,
#: each waiting here for its search), one to a core.
WORKERS = max(2, os.cpu_count() or 2)

_pool: ProcessPoolExecutor | None = None
_none = False  # the system gives no workers: the searches are made in the server's threads
_stopped = False  # stopped with the server: a search still asked for is made in its own thread
_lock = threading.Lock()

log = logging.getLogger(__name__)


def start() -> ProcessPoolExecutor | None:
    """Start the workers now (the server, as it starts: its first search need not wait for them);
    the workers, or None where the system gives none (see :func:`_workers`)."""
    global _stopped
    with _lock:
        _stopped = False
    return _workers()


def _workers() -> ProcessPoolExecutor | None:
    """The workers, started here if they are not (with the signals they leave to the server held
    meanwhile, so that one sent while they start up is not theirs); None once they are stopped, or
    where the system gives none (no shared memory for their locks, as in some containers: said once
    in the log)."""
    global _pool, _none
    with _lock:
        if _pool is not None or _none or _stopped:
            return _pool
        held = hasattr(signal, "pthread_sigmask")
        if held:
            before = signal.pthread_sigmask(signal.SIG_BLOCK, set(LEFT_TO_THE_SERVER))
        try:
            # "spawn": fresh interpreters, safe whatever threads the server runs
            _pool = ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_leave_stopping_to_the_server, initargs=(os.getpid(),))
            for started in [_pool.submit(_ready) for _ in range(WORKERS)]:  # (each submit starts one)
                started.result()
        except (OSError, ImportError, NotImplementedError, BrokenProcessPool) as err:
            if _pool is not None:
                _pool.shutdown(wait=False, cancel_futures=True)
            _pool, _none = None, True
            log.warning(said("log_no_workers", reason=err))
        finally:
            if held:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)
        return _pool


def stop() -> None:
    """Stop the workers once the searches under way in them have ended (the server, as it stops; a
    search asked for later is made in its own thread), until :func:`start`."""
    global _pool, _none, _stopped
    with _lock:
        pool, _pool, _none, _stopped = _pool, None, False, True
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _discard(broken: ProcessPoolExecutor) -> None:
    """Let go of workers found gone (one killed): the next search starts new ones. Only those: two
    searches that found them gone at once let go of them once, not of the new ones too."""
    global _pool
    with _lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def choose(bot: ExpertBot, reading: Iterable[View], seen: View) -> tuple[Action, ExpertBot]:
    """``bot``'s choice from ``seen`` once it has read ``reading`` (the views of its decisions it has
    not read yet), made in a worker; and the bot as the worker left it. Where the workers are gone
    (one killed, the system out of memory) new ones make the search once more; where there are none
    (stopped meanwhile, or none to be had) it is made here."""
    reading = list(reading)
    for last_try in (False, True):
        pool = _workers()
        if pool is None:
            return _choose(bot, reading, seen)
        try:
            return pool.submit(_choose, bot, reading, seen).result()
        except BrokenProcessPool:  # (a RuntimeError too: before the one below)
            _discard(pool)
            if last_try:
                raise
        except (RuntimeError, CancelledError):  # stopped meanwhile ("cannot schedule new futures after shutdown")
            return _choose(bot, reading, seen)
    raise AssertionError("unreachable")


def _choose(bot: ExpertBot, reading: list[View], seen: View) -> tuple[Action, ExpertBot]:
    """In a worker (or here): read, then choose."""
    bot.catch_up(reading)
    return choose_in_sight(bot, seen), bot


def _ready() -> None:
    """In a worker: nothing (a worker started)."""


def _leave_stopping_to_the_server(server: int) -> None:
    """In a worker: the signals of :data:`LEFT_TO_THE_SERVER` ignored, and the worker gone with the
    server (one killed outright left its workers running for good, deaf to SIGTERM)."""
    for signum in LEFT_TO_THE_SERVER:
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # (started with them held: ignored now, let through)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(LEFT_TO_THE_SERVER))
    threading.Thread(target=_gone_with, args=(server,), daemon=True).start()


def _gone_with(server: int) -> None:
    """In a worker: end once ``server`` has (its parent then is another)."""
    while os.getppid() == server:
        time.sleep(1)
    os._exit(0)
