"""The README's Python examples run as written (each in a fresh interpreter): those "For researchers",
and the tournament's, saved as a script."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).parent.parent / "README.md"


def examples(heading: str) -> list[str]:
    """The Python code blocks of the README's section ``heading`` (a level-two heading)."""
    text = README.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def research_examples() -> list[str]:
    return examples("For researchers")


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


def test_the_tournament_example_runs_saved_as_a_script(tmp_path: Path) -> None:
    """Saved as a file and run, the example once crashed: the worker processes start by importing
    the script, which began the tournament again in each (BrokenProcessPool)."""
    (example,) = examples("Tournaments")
    script = tmp_path / "tournament_example.py"
    script.write_text(example.replace("games=2000, seed=0))", "games=40, seed=0), jobs=2)") + "    print(report['rounds_played'])\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["40"]
