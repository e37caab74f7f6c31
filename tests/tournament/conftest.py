"""Shared by the tournament tests: the options of a small tournament run in this process, and a
tournament whose worker died, told in one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

#: The one line a tournament whose worker died ends with, by language.
WORKER_DIED = {"en": "a worker process stopped unexpectedly (out of memory?)",
               "nl": "een van de processen stopte onverwacht (geheugen vol?)"}


@pytest.fixture
def options_for() -> Callable[..., Any]:
    """``options_for(**changes)``: the command's options for a small tournament run in this process
    (beginner against random, four rounds, one process, the local backend, quiet, in English), with
    ``changes``."""
    from loveletter.cli import tournament as command

    def options(**changes: Any) -> command.Options:
        small = dict(bots="beginner,random", players=None, edition="classic", rounds=4, matches=None, seed=0,
                     jobs=1, backend="local", budget=None, as_json=False, csv_path=None, plot_path=None,
                     records=None, language="en", quiet=True)
        return command.Options(**{**small, **changes})

    return options


@pytest.fixture
def told_a_worker_died(capsys, options_for) -> Callable[..., None]:
    """``told_a_worker_died(backend, language, records=None, rounds=10)`` runs a small tournament
    (whose worker the test has made die) through the command and checks that it ends in that one
    line on standard error, nothing on standard output, status 1."""
    from loveletter.cli import tournament as command

    def run(backend: str, language: str, records: Path | None = None, rounds: int = 10) -> None:
        options = options_for(rounds=rounds, jobs=2, backend=backend, records=records, language=language)
        assert command.tournament(options) == 1
        out, err = capsys.readouterr()
        assert out == "" and err == f"loveletter tournament: {WORKER_DIED[language]}\n"

    return run
