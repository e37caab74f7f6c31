"""An optional extra that is not installed is named, with how to install it: importing an adapter
without its library ended in the library's bare ModuleNotFoundError ("No module named 'pyspiel'",
whose package is open_spiel), which named no extra."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(("module", "library", "extra"), [
    ("loveletter.envs.openspiel", "pyspiel", "openspiel"),
    ("loveletter.envs.gymnasium", "gymnasium", "gymnasium"),
    ("loveletter.envs.pettingzoo", "pettingzoo", "pettingzoo"),
    ("loveletter.batch", "numba", "batch"),
])
def test_importing_without_an_extra_names_the_extra(module, library, extra):
    # (None in sys.modules: the library's import fails as if it were not installed)
    proc = subprocess.run([sys.executable, "-c", f"import sys; sys.modules[{library!r}] = None; import {module}"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == (
        f"ModuleNotFoundError: {library} is not installed: it comes with loveletter's {extra} extra:"
        f" pip install -e '.[{extra}]' in the project's folder (or pip install 'WHEEL[{extra}]' with the wheel"
        " installed)")
