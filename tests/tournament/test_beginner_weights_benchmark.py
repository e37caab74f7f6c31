"""benchmarks/beginner_weights.py: trials share their deals, and the script prints the defaults' win
rate, each change it keeps and the check on other deals."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from loveletter.bots.rule_based import WEIGHTS

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_the_same_weights_win_the_same_rounds_and_other_weights_others(load_script):
    script = load_script("beginner_weights")
    once = script._play((WEIGHTS, 0, 300))
    assert script._play((WEIGHTS, 0, 300)) == once  # the same deals, the same bots
    assert 0.55 * 300 < once < 0.95 * 300  # the beginner beats the random bot
    reckless = dataclasses.replace(WEIGHTS, baron_risk=-2.0, handmaid=-5.0)
    assert script._play((reckless, 0, 300)) != once
    assert script._play((WEIGHTS, 300, 600)) != once  # other deals


def test_prints_the_search_and_the_check_on_other_deals(load_script):
    script = load_script("beginner_weights")
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "beginner_weights.py"), "--rounds", "64",
                           "--factors", "0,2", "--jobs", "1"], capture_output=True, text=True, timeout=300,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert re.fullmatch(r"beginner vs random, classic 2p, 64 rounds per trial: the default weights win \d+\.\d\d%",
                        lines[0])
    # each weight times 0 and times 2 (a weight at 0: at 2 alone; times 0 would not change it)
    weights = [getattr(WEIGHTS, f.name) for f in dataclasses.fields(WEIGHTS)]
    trials = sum(script.trial_value(w, factor) != w for w in weights for factor in (0.0, 2.0))
    assert trials == 2 * len(weights) - weights.count(0.0)  # a weight at 0: tried at 2, not times 0
    assert (script.trial_value(1.5, 2.0), script.trial_value(0.0, 2.0), script.trial_value(0.0, 0.0)) == (3.0, 2.0, 0.0)
    assert re.fullmatch(rf"after sweep 1: \d+\.\d\d% \[{trials} trials, \d+ s\]", lines[-2])
    assert re.fullmatch(r"on 64 other deals \(95% intervals\): the weights found \d+\.\d\d% \(\d+\.\d\d-\d+\.\d\d%\),"
                        r" the defaults \d+\.\d\d% \(\d+\.\d\d-\d+\.\d\d%\); the difference [+-]\d+\.\d\d points"
                        r" \(±\d+\.\d\d, the deals shared\) \(changed: .*\)", lines[-1]), lines[-1]
    bad = subprocess.run([sys.executable, str(BENCHMARKS / "beginner_weights.py"), "--factors", "x"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "argument --factors: numbers separated by commas, not 'x'" in bad.stderr


def test_the_difference_on_shared_deals_has_its_interval(load_script):
    """Two sets of weights on the same blocks of deals: the difference of their win rates, and half
    its 95% interval from how the blocks' differences spread (a known case, worked by hand)."""
    script = load_script("beginner_weights")
    rounds = script.PARTS * 10  # ten rounds a block
    a = [6.0, 8.0] * (script.PARTS // 2)  # a block's wins
    b = [5.0, 7.0] * (script.PARTS // 2)
    difference, margin = script.paired_difference(a, b, rounds)
    assert difference == pytest.approx(0.1) and margin == pytest.approx(0.0)  # one more win in every block
    c = [7.0, 7.0] * (script.PARTS // 2)  # one block ahead by 0.2, the next level: mean 0.1, sd 0.1016
    difference, margin = script.paired_difference(c, b, rounds)
    sd = (sum((x - 0.1) ** 2 for x in [0.2, 0.0] * (script.PARTS // 2)) / (script.PARTS - 1)) ** 0.5
    assert difference == pytest.approx(0.1) and margin == pytest.approx(1.96 * sd / script.PARTS ** 0.5)
