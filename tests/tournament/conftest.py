"""Shared for the benchmark-script tests: load a script of benchmarks/ as a module."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def load_script(monkeypatch) -> Callable[[str], ModuleType]:
    """``load_script("strength")`` imports benchmarks/strength.py (registered in ``sys.modules`` for
    the test only: dataclasses look their module up)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # as when run: the scripts import their helpers
    for helper in ("lines", "options"):  # fresh, from benchmarks/
        monkeypatch.delitem(sys.modules, helper, raising=False)

    def load(name: str) -> ModuleType:
        spec = importlib.util.spec_from_file_location(f"{name}_benchmark", BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, spec.name, module)
        spec.loader.exec_module(module)
        return module

    return load


#: The one line a tournament whose worker died ends with, by language.
WORKER_DIED = {"en": "a worker process stopped unexpectedly (out of memory?)",
               "nl": "een van de processen stopte onverwacht (geheugen vol?)"}


@pytest.fixture
def told_a_worker_died(capsys) -> Callable[..., None]:
    """``told_a_worker_died(backend, language, records=None, rounds=10)`` runs a small tournament
    (whose worker the test has made die) through the command and checks that it ends in that one
    line on standard error, nothing on standard output, status 1."""
    from loveletter.cli import tournament as command

    def run(backend: str, language: str, records: Path | None = None, rounds: int = 10) -> None:
        options = command.Options(
            bots="beginner,random", players=None, edition="classic", rounds=rounds, matches=None, seed=0,
            jobs=2, backend=backend, budget=None, as_json=False, csv_path=None, plot_path=None,
            records=records, language=language, quiet=True)
        assert command.tournament(options) == 1
        out, err = capsys.readouterr()
        assert out == "" and err == f"loveletter tournament: {WORKER_DIED[language]}\n"

    return run
