"""Signal handlers set for a while and set back (loveletter.signals)."""

from __future__ import annotations

import signal

from loveletter.signals import set_back


def test_a_handler_not_set_from_python_is_set_back_as_the_default() -> None:
    """``signal.getsignal`` gives None for a handler not set from Python: it cannot be set again,
    so it is set back as SIG_DFL (``signal.signal(signum, None)`` is a TypeError)."""
    before = signal.getsignal(signal.SIGUSR1)
    try:
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)
        set_back({signal.SIGUSR1: None})
        assert signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL
    finally:
        set_back({signal.SIGUSR1: before})
