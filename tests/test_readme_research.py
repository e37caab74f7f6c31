"""The README's "For researchers" examples run as written (each in a fresh interpreter)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).parent.parent / "README.md"


def research_examples() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## For researchers", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_there_is_an_example_for_each_adapter_and_the_simulator() -> None:
    examples = research_examples()
    for needle in ("loveletter.envs.openspiel", "loveletter.envs.pettingzoo", "loveletter.envs.gymnasium",
                   "loveletter.batch"):
        assert sum(needle in example for example in examples) == 1, needle


@pytest.mark.parametrize("example", research_examples(), ids=lambda e: e.split("\n")[0][:40])
def test_the_example_runs(example: str) -> None:
    done = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip()  # every example prints its result
