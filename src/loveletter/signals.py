"""Signals from outside: those that stop a program, and handlers set for a while.

The terminal game saves its record when one of :data:`STOPPING` comes; a tournament stops its
workers as on Ctrl-C (:func:`loveletter.tournament.runner.stops_heard_as_ctrl_c`).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: A hang-up: the terminal a program was started from closed (none on Windows).
HANG_UP = (signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()
#: The signals that stop a program from outside: a hang-up and SIGTERM (``kill``).
STOPPING = (*HANG_UP, signal.SIGTERM)

Handler = Callable[[int, Any], Any] | int


@contextmanager
def handled(signums: tuple[int, ...], handler: Handler, *, over_ignored: bool = False) -> Iterator[None]:
    """``handler`` for ``signums`` meanwhile, then the handlers before; only in the main thread (which
    alone can set handlers: elsewhere, nothing changes). A signal ignored by whoever started us
    (``nohup`` ignores a hang-up; a script's ``&`` job, Ctrl-C) stays ignored, unless ``handler``
    ignores it too, or ``over_ignored`` says that ``handler`` keeps it ignored itself but for what
    it must hear."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {signum: signal.signal(signum, handler) for signum in signums
              if over_ignored or handler is signal.SIG_IGN or signal.getsignal(signum) is not signal.SIG_IGN}
    try:
        yield
    finally:
        set_back(before)


def set_back(handlers: dict[int, Any]) -> None:
    """Set these signals' handlers back, every one even if a Ctrl-C that was waiting comes as one is
    set (``signal.signal`` first runs the handlers of signals already caught): it is raised once they
    are all back, where a handler would otherwise have stayed for good. A handler not set from Python
    (None) cannot be set back: the default then."""
    interrupted: KeyboardInterrupt | None = None
    for signum, old in handlers.items():
        while True:
            try:
                signal.signal(signum, old if old is not None else signal.SIG_DFL)
                break
            except KeyboardInterrupt as ctrl_c:
                interrupted = ctrl_c
    if interrupted is not None:
        raise interrupted
