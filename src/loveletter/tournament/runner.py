"""Running a tournament: the games in chunks, in this process, in a pool of processes, or on Ray.

The chunks are fixed by the number of games alone and every game by its index (games.py), and the
results are put back in game order, so the outcome is the same for any ``jobs`` and either backend.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import re
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, closing, contextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from loveletter.bots import LEVELS, MAX_BUDGET, SEARCHING
from loveletter.engine import EDITIONS
from loveletter.engine.errors import is_whole, shown
from loveletter.i18n import grouped
from loveletter.signals import STOPPING, handled, set_back
from loveletter.tournament.games import (
    MODES,
    Chunk,
    GameFailed,
    GameResult,
    Settings,
    Timing,
    play_chunk,
)

BACKENDS = ("local", "ray")
CHUNK_GAMES = 250  # at most this many games in one chunk
#: Every game's result is kept in memory (a few hundred bytes each): a tournament stops short of this.
MAX_GAMES = 10_000_000


class TournamentError(ValueError):
    """A tournament that cannot be run as asked. ``key`` and ``params`` name a message of the
    translation catalogue (i18n.py, keys ``tour_err_*``); ``str()`` is the English one."""

    def __init__(self, key: str, **params: Any) -> None:
        from loveletter.i18n import Translator

        self.key = key
        self.params = params
        super().__init__(Translator("en").tournament_error(key, params))


class WorkerDied(RuntimeError):
    """A Ray worker (or its node) died while playing: killed for memory, or crashed. The local
    backend says the same with :class:`concurrent.futures.process.BrokenProcessPool`."""


@dataclass
class Results:
    """Every game's result in game order, the bots' think times per level, and (when kept) the
    records in game order."""

    settings: Settings
    games: list[GameResult]
    timing: dict[str, Timing] = field(default_factory=dict)
    records: list[dict[str, Any]] | None = None
    elapsed: float = 0.0
    # the processes it was played in, or the CPUs asked of the Ray instance it started (never more
    # than its chunks of work)
    jobs: int = 1
    backend: str = "local"


def lineup_for(levels: list[str], players: int | None) -> tuple[str, ...]:
    """The seats' levels: the list itself when it has ``players`` entries, else the list repeated
    cyclically to fill ``players`` seats (``players`` defaults to the list's length, at least 2)."""
    if not levels:
        raise TournamentError("no_bots", levels=tuple(LEVELS))
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise TournamentError("unknown_level", level=shown(unknown[0]), levels=tuple(LEVELS))
    n = players if players is not None else max(2, len(levels))
    if len(levels) > n:
        raise TournamentError("too_many_bots", count=len(levels), players=n)
    return tuple(levels[s % len(levels)] for s in range(n))


def check(settings: Settings) -> None:
    """Refuse settings that cannot be played (:class:`TournamentError`)."""
    # (a budget of 2.5 was played as 2.5 iterations; a seed of None as a fixed one, where a bot's None
    # is no seed at all)
    for name in ("games", "seed", "budget"):
        value = getattr(settings, name)
        if value is None and name == "budget":  # (the bots' own budget)
            continue
        if not is_whole(value):
            raise TournamentError("whole", name=name, value=repr(value)[:40])
    # (the lineup "beginner,random" was fifteen one-letter levels, refused as "--players: ... not 15";
    # None, or a generator, a TypeError)
    if not isinstance(settings.lineup, (tuple, list)) or not all(isinstance(level, str) for level in settings.lineup):
        raise TournamentError("lineup", lineup=repr(settings.lineup)[:60])
    if not isinstance(settings.edition, str) or settings.edition not in EDITIONS:  # (2019 was "'2019 edition'")
        raise TournamentError("edition", given=repr(settings.edition)[:40])
    edition = EDITIONS[settings.edition]
    if not edition.min_players <= settings.players <= edition.max_players:
        raise TournamentError("players", edition=edition.name, low=edition.min_players,
                              high=edition.max_players, players=settings.players)
    for level in settings.lineup:
        if level not in LEVELS:
            raise TournamentError("unknown_level", level=shown(str(level)), levels=tuple(LEVELS))
    if settings.mode not in MODES:
        raise TournamentError("mode", mode=settings.mode)
    if settings.games < 1:
        raise TournamentError("games", games=settings.games)
    if settings.games > MAX_GAMES:
        raise TournamentError("too_many_games", most=grouped(MAX_GAMES), games=grouped(settings.games))
    if settings.budget is not None:
        if not 1 <= settings.budget <= MAX_BUDGET:  # (a larger one thinks for ever)
            raise TournamentError("budget", budget=settings.budget, most=grouped(MAX_BUDGET))
        if not SEARCHING & set(settings.lineup):
            raise TournamentError("budget_unused", searching=tuple(sorted(SEARCHING)))


#: About how many chunks of work a tournament is split into (more only when CHUNK_GAMES caps them):
#: enough to balance the load and show progress.
CHUNKS = 64


def chunks(games: int) -> list[tuple[int, int]]:
    """The chunks of work: about :data:`CHUNKS` of them, each of at most :data:`CHUNK_GAMES` games.
    They depend on the number of games only."""
    size = max(1, min(CHUNK_GAMES, math.ceil(games / CHUNKS)))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def default_jobs() -> int:
    """The cores this process may run on (under ``taskset``, a cpuset or a batch system's limit, fewer
    than the machine has)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def run_tournament(settings: Settings, *, jobs: int | None = None, backend: str = "local",
                   records: bool = False, samples: bool = False,
                   progress: Callable[[int], None] | None = None,
                   on_records: Callable[[int, list[dict[str, Any]]], None] | None = None) -> Results:
    """Play the tournament. ``jobs``: processes (default: every core; 1 plays in this process);
    ``backend``: ``"local"`` or ``"ray"``; ``records``: keep every game's record; ``samples``:
    keep every move's think time; ``progress`` is called with the number of games done so far.
    With ``on_records`` the records are not kept in the results but handed over as each chunk of
    games comes back: ``on_records(first game's index, records in game order)`` (a long tournament
    then holds none in memory, and what it has played is saved even if it is stopped).

    Raises :class:`TournamentError` for settings that cannot be played, and
    :class:`~loveletter.tournament.games.GameFailed` when a game fails.
    """
    check(settings)
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise TournamentError("jobs", jobs=jobs)
    if backend not in BACKENDS:
        raise TournamentError("backend", backend=backend)
    work = chunks(settings.games)
    jobs = min(jobs, len(work))  # no more processes than chunks of work (Ray refuses a CPU count past 10^14)
    began = time.perf_counter()
    if backend == "ray":
        stream = _on_ray(settings, work, jobs, records, samples)
    elif jobs == 1:
        stream = _here(settings, work, records, samples)
    else:
        stream = _in_processes(settings, work, jobs, records, samples)
    done: dict[int, Chunk] = {}
    played = 0
    with closing(stream):  # on an error or Ctrl-C: stop the workers at once
        for chunk in stream:
            if on_records is not None and chunk.records is not None:
                on_records(chunk.start, chunk.records)
                chunk.records = None
            done[chunk.start] = chunk
            played += chunk.stop - chunk.start
            if progress is not None:
                progress(played)
    kept = records and on_records is None
    results = Results(settings, [], {}, [] if kept else None, jobs=jobs, backend=backend)
    for start, _ in work:  # game order, whatever order the chunks came back in
        chunk = done[start]
        results.games.extend(chunk.games)
        for level, timing in sorted(chunk.timing.items()):
            results.timing.setdefault(level, Timing()).add(timing)
        if results.records is not None and chunk.records is not None:
            results.records.extend(chunk.records)
    results.elapsed = time.perf_counter() - began
    return results


def _here(settings: Settings, work: list[tuple[int, int]], records: bool,
          samples: bool) -> Generator[Chunk, None, None]:
    for start, stop in work:
        yield play_chunk(settings, start, stop, records, samples)


def _in_processes(settings: Settings, work: list[tuple[int, int]], jobs: int, records: bool,
                  samples: bool, play: Callable[..., Chunk] = play_chunk) -> Generator[Chunk, None, None]:
    """The chunks of ``work``, played by ``play`` (:func:`~loveletter.tournament.games.play_chunk`;
    another, module-level, in the tests) in a pool of ``jobs`` processes, as they come back. A
    hang-up or SIGTERM meanwhile stops it as Ctrl-C does (the workers leave both to this process)."""
    with stops_heard_as_ctrl_c():
        yield from _in_pool(settings, work, jobs, records, samples, play)


def _in_pool(settings: Settings, work: list[tuple[int, int]], jobs: int, records: bool,
             samples: bool, play: Callable[..., Chunk]) -> Generator[Chunk, None, None]:
    # "spawn": fresh interpreters on every platform, safe whatever threads the caller runs.
    context = multiprocessing.get_context("spawn")
    _start_resource_tracker()
    pool: ProcessPoolExecutor | None = None
    complete = False
    try:
        # The pool is made, and its workers (and its own thread) start, with Ctrl-C blocked: one
        # pressed while they start up tells only this process (which stops them), not each worker
        # with a traceback of its own; and it cannot fall between the pool's naming a lock to the
        # resource tracker and arranging to remove it, which left the tracker warning of a "leaked
        # semaphore" at exit (19 runs in 400, Ctrl-C within a millisecond of the tracker starting).
        # A Ctrl-C meanwhile comes here as soon as the block is lifted. A hang-up or SIGTERM is held
        # too, so that the workers start with it held, until they ignore it.
        with _held((signal.SIGINT, *STOPPING)):
            pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                       initializer=_leave_stopping_to_the_parent, initargs=(stops_passed_on(),))
            pending: set[Future[Chunk]] = {
                pool.submit(play, settings, start, stop, records, samples) for start, stop in work
            }
        while pending:
            # Ctrl-C comes between waits, never inside one: wait() takes the futures' locks one by
            # one, and interrupted there it could leave some held; the pool's thread then waited for
            # ever to cancel those futures, and the run hung after "interrupted" (1 run in 40).
            with ctrl_c_held():
                finished, pending = wait(pending, timeout=WAIT_SECONDS, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
            if not finished and _a_worker_ended(pool):
                raise BrokenProcessPool("A process in the process pool was terminated abruptly")
        complete = True
    finally:
        if pool is not None and not complete:  # a failed game, Ctrl-C, or the caller stopped early
            with ctrl_c_ignored():  # a second Ctrl-C must not break off the clearing up
                workers = dict(getattr(pool, "_processes", None) or {})
                # the pool's own thread: shutdown(wait=False) lets go of it, so a later shutdown no
                # longer waits for it, and Python's clearing up at exit then raced with it closing its
                # pipe ("OSError: Bad file descriptor" after "interrupted", 2 runs in 20)
                manager = getattr(pool, "_executor_manager_thread", None)
                calls = getattr(pool, "_call_queue", None)
                results = getattr(pool, "_result_queue", None)
                pool.shutdown(wait=False, cancel_futures=True)
                for process in workers.values():  # (they may ignore SIGTERM: _leave_stopping_to_the_parent)
                    process.kill()
                for process in workers.values():
                    process.join(10)
                if manager is not None:
                    manager.join(MANAGER_SECONDS)
                    if manager.is_alive():
                        _end_the_half_sent_result(results)
                        manager.join(MANAGER_SECONDS)
                    if manager.is_alive():
                        _unblock_the_queue_of_work(calls)
                        manager.join(10)
                pool.shutdown(wait=True)
        elif pool is not None:
            pool.shutdown(wait=True)


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (a process that removes the named locks of
    processes that end without removing them) before Ctrl-C is held: starting it unblocks Ctrl-C
    (in Python's own code), which would end a hold it started in."""
    if os.name == "posix":
        from multiprocessing import resource_tracker

        # It ignores Ctrl-C and SIGTERM, not a hang-up: held as it starts, that stays held in it (a
        # terminal's hang-up to the group ended it, and with it came five tracebacks of its own).
        with _held(STOPPING):
            resource_tracker.ensure_running()


def _a_worker_ended(pool: ProcessPoolExecutor) -> bool:
    """Whether a worker of ``pool`` has ended while it still had work: killed, or crashed. (The pool's
    own thread says so by failing every future, except where the worker died while it sent a result:
    that thread then waits for ever for the rest of the message, and no future ever ends; see
    :func:`_end_the_half_sent_result`.)"""
    workers = getattr(pool, "_processes", None) or {}
    return any(process.exitcode is not None for process in list(workers.values()))


def _end_the_half_sent_result(results: Any) -> None:
    """A worker killed while it sent a result (a chunk's records: many times the pipe's size) leaves
    the pool's own thread waiting for ever for the rest of that message, since this process keeps a
    writing end of the pipe of results open too (the pool never writes there from this side). With
    the workers gone, closing it ends the wait: the thread reads the end of the pipe, takes the pool
    for broken, and clears up. (The tournament hung once in CI, in the test that kills a worker as
    the first chunk's records are saved; a worker killed while it sends hung it every time.)"""
    writer = getattr(results, "_writer", None)
    if writer is not None:
        with suppress(OSError):
            writer.close()


def _unblock_the_queue_of_work(calls: Any) -> None:
    """With the workers gone, the only reader left of the pool's queue of work is this process: a
    write to it in progress waits for ever, and the pool's thread (which waits for that write) and
    the exit with it. Closing the reading end makes the write fail, and the thread end.

    Only for a thread that is stuck: the pool's thread closes that end itself when it finds a
    worker gone, and two threads closing it at once closed a file twice ("OSError: Bad file
    descriptor" in the pool's thread after "interrupted", 1 run in 10 on a busy machine)."""
    reader = getattr(calls, "_reader", None)
    if reader is not None:
        with suppress(OSError):
            reader.close()


#: How long the pool's own thread may take to end by itself after Ctrl-C, before it is taken to be
#: stuck (see :func:`_unblock_the_queue_of_work`).
MANAGER_SECONDS = 3.0

WAIT_SECONDS = 0.2  # how long Ctrl-C may wait to be heard while the workers play (see _in_processes)


def _leave_stopping_to_the_parent(passed_on: tuple[int, ...]) -> None:
    """In a worker: Ctrl-C, and a hang-up or SIGTERM where the parent passes it on as Ctrl-C
    (``passed_on``; a terminal or ``kill`` of the process group sends each worker one too), are the
    parent's to act on; it stops the workers itself."""
    for signum in (signal.SIGINT, *passed_on):
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # started with them blocked (see _in_processes): ignored is enough
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, *STOPPING})


@contextmanager
def stops_heard_as_ctrl_c() -> Iterator[list[int]]:
    """Meanwhile, a hang-up or SIGTERM stops the tournament as Ctrl-C does: it is passed on to this
    (the main) thread as a Ctrl-C, which comes as soon as Ctrl-C is not held (:func:`ctrl_c_held`),
    so the workers are stopped and the records so far kept. Unhandled, it ended this process alone,
    and its workers played on, orphaned, holding its output open. The list gives the signals heard
    (for the exit status). A signal ignored by whoever started us (``nohup``) stays ignored, and one
    already passed on by an outer such block stays with it (its list hears it). Where Ctrl-C itself
    is ignored (a job a script started with ``&``, which the terminal's Ctrl-C must not stop), it
    stays ignored but for the Ctrl-C passed on (:class:`_PassedOnOnly`)."""
    heard: list[int] = []
    ctrl_c = signal.getsignal(signal.SIGINT)
    if (not hasattr(signal, "pthread_kill") or ctrl_c not in (signal.default_int_handler, signal.SIG_IGN)
            or threading.current_thread() is not threading.main_thread()):  # (only it can set handlers)
        yield heard
        return
    outer = stops_passed_on()
    passed_on_only = (handled((signal.SIGINT,), _PassedOnOnly(heard), over_ignored=True)
                      if ctrl_c is signal.SIG_IGN else nullcontext())
    with passed_on_only, handled(tuple(signum for signum in STOPPING if signum not in outer), _PassedOnAsCtrlC(heard)):
        yield heard


def stops_passed_on() -> tuple[int, ...]:
    """The signals of :data:`STOPPING` that this process now passes on as Ctrl-C
    (:func:`stops_heard_as_ctrl_c`): its workers leave those to it, and die of the others."""
    return tuple(signum for signum in STOPPING if isinstance(signal.getsignal(signum), _PassedOnAsCtrlC))


@dataclass
class _PassedOnOnly:
    """The Ctrl-C handler of :func:`stops_heard_as_ctrl_c` where whoever started us ignores Ctrl-C:
    a Ctrl-C passed on (a stop ``heard``) stops the tournament, one from the terminal stays ignored."""

    heard: list[int]

    def __call__(self, _signum: int, _frame: FrameType | None) -> None:
        if self.heard:
            raise KeyboardInterrupt


@dataclass
class _PassedOnAsCtrlC:
    """The handler of :func:`stops_heard_as_ctrl_c`: notes the signal, and sends the main thread a
    Ctrl-C (the handler runs there; where Ctrl-C is otherwise ignored, :class:`_PassedOnOnly` hears
    it by ``heard``)."""

    heard: list[int]
    main: int = field(default_factory=threading.get_ident)

    def __call__(self, signum: int, _frame: FrameType | None) -> None:
        self.heard.append(signum)
        signal.pthread_kill(self.main, signal.SIGINT)


def ctrl_c_held() -> AbstractContextManager[None]:
    """Ctrl-C (SIGINT) blocked for this thread, and for the threads and processes it starts, until
    the block ends (where signal masks exist: not on Windows)."""
    return _held((signal.SIGINT,))


@contextmanager
def _held(signums: tuple[int, ...]) -> Iterator[None]:
    """``signums`` blocked for this thread, and for the threads and processes it starts, until the
    block ends (where signal masks exist)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set(signums))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def ctrl_c_ignored() -> AbstractContextManager[None]:
    """Ctrl-C ignored meanwhile, if this is the main thread (only it can set signal handlers)."""
    return handled((signal.SIGINT,), signal.SIG_IGN)


def _on_ray(settings: Settings, work: list[tuple[int, int]], jobs: int, records: bool,
            samples: bool) -> Generator[Chunk, None, None]:
    try:
        import ray
    except ImportError:
        raise TournamentError("ray_missing") from None
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # a local tool: no usage reports
    ours = not ray.is_initialized()  # else a caller's instance: left running
    with _redirected((1,), to=2):  # Ray's own notes (a worker that died: a paragraph) are not the result
        try:
            if ours:
                _start_ray(ray, jobs)
            yield from _ray_chunks(ray, settings, work, records, samples)
        finally:  # also after a Ctrl-C that came while Ray started: it is heard once Ray has started;
            # and after a kill then, which broke its start off (the processes it had started)
            if ours:
                with ctrl_c_held():  # stopped halfway, it would leave Ray's processes behind
                    ray.shutdown()


def _start_ray(ray: Any, jobs: int) -> None:
    """Join the cluster that ``RAY_ADDRESS`` names, or start a local instance with ``jobs`` CPUs (a
    new one, even where an earlier ``ray start`` left a cluster or its address file: Ray would join
    that one, which refuses a number of CPUs, with a traceback).
    Its processes do not answer Ctrl-C: a terminal's Ctrl-C reaches every process of its group, and
    Ray's own, stopped by it under a running driver, made it crash at exit (a segmentation fault); the
    driver alone stops, and shuts them down. A Ctrl-C while Ray starts (seconds) is held, not lost:
    it stops the tournament once Ray has started (it was lost, and the tournament played on)."""
    options: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR, "log_to_driver": False}
    address = os.environ.get("RAY_ADDRESS")
    if address:  # a running cluster the user points at
        _check_reachable(address)
        _join_ray(ray, address, options)
    else:
        with _ctrl_c_held_from_ray(), _our_stops_kept():
            ray.init(address="local", num_cpus=jobs, **options)


@contextmanager
def _our_stops_kept() -> Iterator[None]:
    """Ray's start sets handlers of its own for SIGTERM: Python's, which ended the tournament with
    status 15 and not a word, then its core's, which wrote a crash dump and ended it with status 1.
    Ours (:func:`stops_heard_as_ctrl_c`: the records kept, "interrupted", status 143) are set again
    once it has started, and a SIGTERM that came meanwhile is passed to ours (it stops the tournament
    once Ray has started, as a Ctrl-C then does)."""
    if threading.current_thread() is not threading.main_thread():  # (only it can set handlers)
        yield
        return
    ours = {signum: signal.getsignal(signum) for signum in STOPPING}
    try:
        yield
    except SystemExit as stop:  # Ray's Python handler: sys.exit(signum)
        heard = ours.get(signal.SIGTERM)
        if stop.code != signal.SIGTERM or not callable(heard):
            raise
        heard(signal.SIGTERM, None)
    finally:  # (set again, the C-level handler too: Ray's core had replaced it)
        set_back({signum: handler for signum, handler in ours.items() if handler is not None})


@contextmanager
def _ctrl_c_held_from_ray() -> Iterator[None]:
    """A Ctrl-C meanwhile is noted, not acted on (Ray broken off halfway through starting would
    leave its processes behind), and heard as the block ends. It was ignored, so that the processes
    Ray started would ignore it too, and so it was lost. (Blocked as well as ignored, it waits; but
    only where no other thread of ours runs, as the progress bar's does, which may take it and drop
    it.) Ray's processes need no help: Ray blocks Ctrl-C in those it starts."""
    heard: list[int] = []
    with handled((signal.SIGINT,), lambda signum, _frame: heard.append(signum)):
        yield
    if heard:
        raise KeyboardInterrupt


def _join_ray(ray: Any, address: str, options: dict[str, Any]) -> None:
    """Join the cluster at ``address``, or refuse in one line: where no cluster answers, or where
    one answers and will not let us join (its authentication token missing or wrong here). Ray told
    that only as twenty log lines, a line a second, then "no cluster answers" (or, with
    ``RAY_AUTH_MODE=token`` and no token, a traceback); its lines are now held back while it joins,
    and the last one says why it refused."""
    refusals = (ConnectionError, ValueError, TimeoutError,
                getattr(ray.exceptions, "AuthenticationError", ConnectionError))  # (a Ray with tokens)
    with tempfile.TemporaryFile() as held:
        try:
            with _redirected((1, 2), to=held.fileno()), _ctrl_c_held_from_ray(), _our_stops_kept():
                ray.init(address=address, **options)
        except refusals as err:  # no such cluster, no address at all, or one that refused us
            held.seek(0)
            reason = _ray_refusal(held.read().decode(errors="replace"), err)
            if reason:
                raise TournamentError("ray_refused", address=address, reason=reason) from None
            raise TournamentError("ray_unreachable", address=address) from None
        held.seek(0)
        kept = held.read()
        if kept:  # joined: whatever Ray said meanwhile is told after all
            os.write(2, kept)


_RAY_LOG_LINE = re.compile(r"^\[[^\]]*\] [\w.]+:\d+: (?P<said>.+)$", re.MULTILINE)  # "[time W pid tid] file.cc:210: …"


def _ray_refusal(said: str, err: BaseException) -> str:
    """Why a cluster that answered would not let us join, in Ray's words cut short ("" where nothing
    says it answered): Ray's refusal when it raised one (authentication), or else its last log line."""
    if type(err).__name__ == "AuthenticationError":
        reason = str(getattr(err, "message", err)).split(". ")[0]
    else:
        lines = list(_RAY_LOG_LINE.finditer(said))
        reason = lines[-1]["said"] if lines else ""
    return shown(" ".join(reason.split()), 200)


RAY_CONNECT_SECONDS = 10.0  # how long a cluster's address may take to answer before it is given up


def _check_reachable(address: str) -> None:
    """Refuse an address of the form ``host:port`` (or ``ray://host:port``) where nothing answers:
    Ray itself would try to reach it for many minutes."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():  # "auto", "local": Ray's own names, which it answers at once
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_CONNECT_SECONDS).close()
    except (OSError, ValueError):
        raise TournamentError("ray_unreachable", address=address) from None


@contextmanager
def _redirected(fds: tuple[int, ...], to: int) -> Iterator[None]:
    """Whatever is written to the file descriptors ``fds`` meanwhile (1: standard output, 2: error),
    from Python or not (Ray's core writes to them straight), goes to the descriptor ``to``."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    saved: dict[int, int] = {}
    for fd in fds:
        with suppress(OSError):  # one that is closed (``>&-``) stays closed: nothing to keep apart
            saved[fd] = os.dup(fd)
    try:
        for fd in saved:
            os.dup2(to, fd)
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                with suppress(OSError, ValueError):
                    stream.flush()
        for fd, kept in saved.items():
            os.dup2(kept, fd)
            os.close(kept)


def _ray_chunks(ray: Any, settings: Settings, work: list[tuple[int, int]], records: bool,
                samples: bool) -> Generator[Chunk, None, None]:
    """The chunks of games, as Ray's tasks finish them."""
    task = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
    pending = [task.remote(settings, start, stop, records, samples) for start, stop in work]
    while pending:
        finished, pending = ray.wait(pending, num_returns=1)
        for ref in finished:
            try:
                chunk: Chunk = ray.get(ref)
            except ray.exceptions.RayTaskError as err:
                cause = getattr(err, "cause", None)
                if isinstance(cause, GameFailed):
                    raise cause from None
                raise
            except ray.exceptions.RayError as err:  # not the game's: the worker died (out of memory?)
                raise WorkerDied(str(err)) from err
            yield chunk

