"""Where the game keeps a user's files: the XDG data folder (records of terminal games, the web
app's SQLite database)."""

from __future__ import annotations

import os
from pathlib import Path


def data_folder() -> Path:
    """``$XDG_DATA_HOME/loveletter``, or ``~/.local/share/loveletter`` where that is unset, empty or
    relative (the XDG Base Directory spec: a relative path is to be ignored; taken as it is, it put
    the user's records under whatever folder the game was started in)."""
    given = os.environ.get("XDG_DATA_HOME", "")
    base = Path(given) if os.path.isabs(given) else _home() / ".local" / "share"
    return base / "loveletter"


def _home() -> Path:
    """The user's home folder: ``$HOME``, or the account's own where HOME is empty or relative (an
    empty HOME put the records under ``/.local``, a relative one under the current folder)."""
    given = os.environ.get("HOME")
    if given is not None and not os.path.isabs(given):
        try:
            import pwd  # (not on Windows, where Path.home() does not read HOME)

            return Path(pwd.getpwuid(os.getuid()).pw_dir)
        except (ImportError, KeyError):
            pass
    return Path.home()
