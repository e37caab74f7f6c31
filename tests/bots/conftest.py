"""Bot tests: the engine tests' scenario helpers (``scramble_secrets``, for the checks that a bot sees
only its view) importable (pytest runs in importlib mode)."""

import sys
from pathlib import Path

ENGINE_TESTS = str(Path(__file__).parent.parent / "engine")
if ENGINE_TESTS not in sys.path:
    sys.path.insert(0, ENGINE_TESTS)
