"""benchmarks/vs_openspiel.py runs and prints its figures; a bad option is a one-line usage error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parent.parent.parent / "benchmarks" / "vs_openspiel.py"


def run(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *options], capture_output=True, text=True, timeout=300)


def test_a_short_run_prints_the_win_rate_and_both_bots_effort() -> None:
    done = run("--rounds", "4", "--think", "0.01", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "4 rounds" in done.stdout and "equal time" in done.stdout
    assert "expert wins" in done.stdout and "95% CI" in done.stdout
    assert "expert:" in done.stdout and "ISMCTS:" in done.stdout and "simulations per move" in done.stdout


def test_a_fixed_number_of_simulations() -> None:
    done = run("--rounds", "2", "--think", "0.01", "--simulations", "5", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "5 ISMCTS simulations per move" in done.stdout
    assert "mean 5 simulations per move" in done.stdout


def test_bad_options_are_refused_in_one_line() -> None:
    done = run("--rounds", "0")
    assert done.returncode == 2
    assert done.stderr == ("vs_openspiel.py: argument --rounds: must be at least 1, not 0"
                           " (see vs_openspiel.py --help)\n")
