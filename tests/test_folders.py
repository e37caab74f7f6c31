"""The folder a user's files go to (records, the web app's database)."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from loveletter.folders import NoHomeFolder, data_folder
from loveletter.web.process import free_port


def test_an_absolute_xdg_data_home_is_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_folder() == tmp_path / "loveletter"


@pytest.mark.parametrize("given", ["", "relative/data", "."])
def test_an_empty_or_relative_xdg_data_home_is_passed_over(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                            given: str) -> None:
    # (the spec says to ignore a relative one: taken as it was, records went under the current folder)
    monkeypatch.setenv("XDG_DATA_HOME", given)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert data_folder() == tmp_path / ".local" / "share" / "loveletter"


@pytest.mark.parametrize("home", ["", "somewhere"])
def test_an_empty_or_relative_home_is_the_accounts_own(monkeypatch: pytest.MonkeyPatch, home: str) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", home)
    folder = data_folder()
    assert folder.is_absolute()
    assert folder == Path(pwd.getpwuid(os.getuid()).pw_dir) / ".local" / "share" / "loveletter"


def _no_account(uid: int) -> pwd.struct_passwd:
    raise KeyError(f"getpwuid(): uid not found: {uid}")


@pytest.mark.parametrize("home", [None, "", "somewhere"])
def test_no_home_at_all_is_said_so(monkeypatch: pytest.MonkeyPatch, home: str | None) -> None:
    """A user id with no account entry (a container's made-up one) and no HOME that is a full path:
    Python's Path.home() raised RuntimeError, a traceback for the player."""
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    if home is None:
        monkeypatch.delenv("HOME", raising=False)
    else:
        monkeypatch.setenv("HOME", home)
    monkeypatch.setattr(pwd, "getpwuid", _no_account)
    with pytest.raises(NoHomeFolder):
        data_folder()
    monkeypatch.setenv("XDG_DATA_HOME", "/data")  # which is enough
    assert data_folder() == Path("/data/loveletter")


@pytest.mark.parametrize(("command", "told"), [
    (["play", "--players", "2", "--seed", "1"], "loveletter play: no folder to save the game's record in: HOME is"
                                                " unset or not a full path, and your account has no home folder; set"
                                                " HOME or XDG_DATA_HOME, or give --records DIR\n"),
    (["serve", "--port", "PORT", "--lang", "nl"], "loveletter serve: geen map voor de database van de tafels: HOME is"
                                                  " niet gezet of geen volledig pad, en je account heeft geen thuismap;"
                                                  " stel HOME of XDG_DATA_HOME in, of geef --db BESTAND\n"),
])
def test_the_games_commands_say_in_one_line_that_there_is_no_home(tmp_path: Path, command: list[str],
                                                                   told: str) -> None:
    command = [str(free_port()) if word == "PORT" else word for word in command]  # (checked before the folder)
    no_account = ("import pwd, sys; pwd.getpwuid = lambda uid: {}[uid];"
                  f" sys.argv = ['loveletter', *{command!r}]; from loveletter.cli.start import run; run()")
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_DATA_HOME") and not k.startswith(("LANG", "LC_"))}
    done = subprocess.run([sys.executable, "-c", no_account], cwd=tmp_path, env=env, input="", capture_output=True,
                          text=True, timeout=120, check=False)
    assert (done.returncode, done.stderr) == (1, told)
    assert not list(tmp_path.iterdir())  # nothing made
