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
    monkeypatch.delitem(sys.modules, "lines", raising=False)

    def load(name: str) -> ModuleType:
        spec = importlib.util.spec_from_file_location(f"{name}_benchmark", BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, spec.name, module)
        spec.loader.exec_module(module)
        return module

    return load
