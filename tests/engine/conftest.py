"""Make the scenario helpers (scenarios.py) importable from the tests (pytest runs in importlib mode)."""

import sys
from pathlib import Path

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
