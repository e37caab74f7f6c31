"""benchmarks/strength.py runs through the tournament API: with no expert level it says so and skips
those lines; with one (here a stand-in that takes a budget and counts iterations) it prints them all,
with the think time and the iteration rate."""

from __future__ import annotations

import re
import sys

import pytest

from loveletter.bots import LEVELS, RandomBot
from loveletter.engine import Action, View


@pytest.fixture
def strength(load_script):
    return load_script("strength")


class Stats:
    def __init__(self, iterations: int) -> None:
        self.iterations = iterations


class StandIn:
    """An expert stand-in: takes a budget; ``stats.iterations`` is what its last decision searched."""

    level = "expert"
    budgets: list[int | None] = []  # noqa: RUF012

    def __init__(self, seed: int | None = None, budget: int | None = None) -> None:
        self.bot = RandomBot(seed)
        self.budget = budget or 50
        self.stats = Stats(0)
        StandIn.budgets.append(budget)

    def choose(self, view: View) -> Action:
        self.stats = Stats(self.budget if len(view.legal_actions) > 1 else 0)
        return self.bot.choose(view)


def test_without_an_expert_its_lines_are_skipped(strength, monkeypatch, capsys):
    monkeypatch.delitem(LEVELS, "expert", raising=False)
    monkeypatch.setattr(sys, "argv", ["strength.py", "--rounds", "40", "--jobs", "1"])
    strength.main()
    out = capsys.readouterr().out
    assert "the expert level is not in loveletter.bots.LEVELS yet" in out
    assert re.search(r"classic 2p: beginner vs random +beginner wins \d+\.\d% \(\d+\.\d%-\d+\.\d%\); "
                     r"rating [+-]\d+ ± \d+ Elo", out)
    assert out.count("skipped: no 'expert' level yet") == 5


def test_with_an_expert_every_line_and_its_speed(strength, monkeypatch, capsys):
    monkeypatch.setitem(LEVELS, "expert", StandIn)
    StandIn.budgets.clear()
    monkeypatch.setattr(sys, "argv", ["strength.py", "--rounds", "20", "--jobs", "1", "--budget", "7"])
    strength.main()
    out = capsys.readouterr().out
    assert "skipped" not in out
    for title in ("classic 2p: expert vs beginner", "classic 2p: expert vs random",
                  "classic 4p: expert vs beginner ×3", "2019 2p: expert vs beginner",
                  "2019 5p: expert vs beginner ×4"):
        assert title in out
    assert "an equal share is 25.0%" in out and "an equal share is 20.0%" in out
    assert re.search(r"expert: median think time \d+\.\d ms per move over \d+ moves \(\d+\.\d ms per move that"
                     r" searched, \d+ moves\); [\d,]+ iterations per second \(7 per searching move\)", out)
    assert set(StandIn.budgets) == {7}
