"""OpenSpiel adapter tests: the engine tests' scenarios.py (hidden cards shuffled) importable."""

import sys
from pathlib import Path

ENGINE_TESTS = str(Path(__file__).parent.parent / "engine")
if ENGINE_TESTS not in sys.path:
    sys.path.insert(0, ENGINE_TESTS)
