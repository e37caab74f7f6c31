"""Shared test settings: hypothesis runs derandomized (reproducible) under CI; Ctrl-C heard even
where the suite was started with it ignored; records kept in the test run's own folders; the engine tests' scenarios
importable everywhere; and loading a script of benchmarks/ as a module."""

import importlib.util
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# A suite started in the background by a shell without job control (`cmd &` in a script) inherits
# SIGINT ignored, and so would every program its tests start: the tests of a Ctrl-C would send one
# that nothing hears, and fail. Here (in each worker too) a Ctrl-C is heard as in a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
#: The engine tests' scenarios.py (rounds set up from a deck's text), importable from every test folder.
ENGINE_TESTS = str(Path(__file__).resolve().parent / "engine")
if ENGINE_TESTS not in sys.path:
    sys.path.insert(0, ENGINE_TESTS)


@pytest.fixture(scope="session", autouse=True)
def _records_kept_apart(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The records of games the tests start without a folder of their own (the programs they run
    too) go to a folder of the test run, not to the user's own (``~/.local/share/loveletter``): a
    test that built twenty games left twenty empty records there on every run."""
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data-home"))


@pytest.fixture
def load_script(monkeypatch) -> Callable[[str], ModuleType]:
    """``load_script("strength")`` imports benchmarks/strength.py (registered in ``sys.modules`` for
    the test only: dataclasses look their module up)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # as when run: the scripts import their helpers
    for helper in (path.stem for path in BENCHMARKS.glob("*.py")):  # fresh, from benchmarks/ (its helpers too)
        monkeypatch.delitem(sys.modules, helper, raising=False)

    def load(name: str) -> ModuleType:
        spec = importlib.util.spec_from_file_location(f"{name}_benchmark", BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, spec.name, module)
        spec.loader.exec_module(module)
        return module

    return load
