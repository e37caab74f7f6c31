"""The folder a user's files go to (records, the web app's database)."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from loveletter.folders import data_folder


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
