"""Where the game keeps a user's files: the XDG data folder (records of terminal games, the web
app's SQLite database)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def data_folder() -> Path:
    """``$XDG_DATA_HOME/loveletter``, or ``~/.local/share/loveletter`` where that is unset, empty or
    relative (the XDG Base Directory spec: a relative path is to be ignored; taken as it is, it put
    the user's records under whatever folder the game was started in); :class:`NoHomeFolder` where
    neither is known."""
    given = os.environ.get("XDG_DATA_HOME", "")
    base = Path(given) if os.path.isabs(given) else _home() / ".local" / "share"
    return base / "loveletter"


class NoHomeFolder(Exception):
    """Nothing says where the user's files go: no absolute ``XDG_DATA_HOME`` nor ``HOME``, and no
    home folder for the account (a container's made-up user id has no account entry)."""


def _home() -> Path:
    """The user's home folder: ``$HOME``, or the account's own where HOME is unset, empty or relative
    (an empty HOME put the records under ``/.local``, a relative one under the current folder);
    :class:`NoHomeFolder` where neither gives one (Python's own error was a traceback)."""
    home = os.environ.get("HOME", "")
    if not os.path.isabs(home):
        home = _account_home()
    if not os.path.isabs(home):
        raise NoHomeFolder
    return Path(home)


def _account_home() -> str:
    """The home folder of the account running the game; "" where it has none."""
    try:
        import pwd
    except ImportError:  # Windows, where Path.home() reads USERPROFILE
        with contextlib.suppress(RuntimeError):
            return str(Path.home())
        return ""
    try:
        return pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:  # no account entry for this user id (a container's made-up one)
        return ""


def through_link(folder: Path) -> Path:
    """``folder``, or where it leads if it is a link to nothing yet (a folder is to be made there, as a
    file is written through such a link); ``OSError`` if it is a loop of links. (``mkdir`` on such a
    link says only that it exists.)"""
    if folder.is_symlink() and not folder.exists():
        try:
            folder.stat()
        except FileNotFoundError:
            return Path(os.path.realpath(folder))
    return folder
