"""benchmarks/vs_openspiel.py runs and prints its figures; a bad option is a one-line usage error."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.fixture
def script(load_script):
    """benchmarks/vs_openspiel.py as a module."""
    return load_script("vs_openspiel")


def test_ismcts_gets_at_least_two_simulations_however_short_the_think_time(script) -> None:
    """A think time that ran one simulation (the rate times the time, below 2) failed ISMCTS's
    assertion (``node.total_visits > 0``): a worker's traceback."""
    tally = script.play((0, 2, 1e-6, 0, None))
    assert tally.rounds == 2 and min(tally.ismcts_simulations) == script.FEWEST_SIMULATIONS == 2


def test_the_rollouts_follow_the_seed(script, monkeypatch) -> None:
    """ISMCTS's random rollouts took the round's number alone as their seed, whatever --seed."""
    from open_spiel.python.algorithms import mcts

    drawn: list[list[int]] = []
    real = mcts.RandomRolloutEvaluator

    def evaluator(n_rollouts, random_state):
        drawn.append(list(copy.deepcopy(random_state).randint(2**31, size=4)))
        return real(n_rollouts=n_rollouts, random_state=random_state)

    monkeypatch.setattr(mcts, "RandomRolloutEvaluator", evaluator)
    for seed in (0, 0, 1):
        script.play((0, 1, 1e-3, seed, 2))
    assert drawn[0] == drawn[1] != drawn[2]
