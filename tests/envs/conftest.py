"""Environment tests: the engine tests' scenario helpers (``permuted_copy``, for the leak checks)
importable (pytest runs in importlib mode)."""

import sys
from pathlib import Path

ENGINE_TESTS = str(Path(__file__).parent.parent / "engine")
if ENGINE_TESTS not in sys.path:
    sys.path.insert(0, ENGINE_TESTS)
