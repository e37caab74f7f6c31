"""benchmarks/ceiling.py: the seer is told the others' hands, and the script prints each line with its
interval; benchmarks/reading.py, benchmarks/belief_spread.py, benchmarks/hints.py and benchmarks/calibration.py print
their lines."""

from __future__ import annotations

import random
import re
import sys

import pytest

from loveletter.engine import CLASSIC, Match


@pytest.fixture
def ceiling(load_script):
    return load_script("ceiling")


@pytest.mark.parametrize("players", [2, 4])
def test_the_seer_is_sure_of_every_hand(ceiling, players):
    match = Match(CLASSIC, players, seed=7)
    for _ in range(players + 1):  # a few plays, so that cards have moved
        match.apply(match.legal_actions()[0])
    assert not match.round.over
    seer = ceiling.Seer(1)
    seer.reveal(match)
    rnd = match.round
    me = rnd.current
    reading = seer.belief(ceiling.view(match, me))
    for seat in range(players):
        if seat != me and rnd.is_alive(seat):
            assert reading.hand_odds(seat) == pytest.approx({rnd.hands[seat][0]: 1.0})
    for belief in (reading.sensible, reading.wild):
        world = belief.sample(random.Random(0))
        assert [sorted(h) for s, h in enumerate(world.hands) if s != me and rnd.is_alive(s)] == \
            [sorted(h) for s, h in enumerate(rnd.hands) if s != me and rnd.is_alive(s)]


def test_prints_each_line_with_its_interval(ceiling, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["ceiling.py", "--rounds", "4", "--jobs", "1", "--only", "2p"])
    ceiling.main()
    out = capsys.readouterr().out
    assert re.search(r"classic 2p: seer vs random +seer wins \d+\.\d% \(\d+\.\d%-\d+\.\d%\)", out)
    assert "classic 2p: seer vs beginner" in out and "4p" not in out.split("\n", 1)[1]


def test_the_reading_benchmark_prints_every_line(load_script, monkeypatch, capsys):
    module = load_script("reading")
    monkeypatch.setattr(sys, "argv", ["reading.py", "--rounds", "4"])
    module.main()
    out = capsys.readouterr().out
    for title in ("classic 2p vs beginner", "classic 4p vs beginner", "classic 2p vs random", "2019 3p vs beginner",
                  "classic 2p vs expert", "classic 4p vs expert"):
        assert re.search(title + r" +plain belief 0\.\d{3} ± 0\.\d{3} \(\d+\.\d% under 1%\) +reading 0\.\d{3} ± "
                         r"0\.\d{3} \(\d+\.\d% under 1%\) +by level 0\.\d{3} ± 0\.\d{3} \(\d+\.\d% under 1%\) +"
                         r"\(\d+ readings\)", out), title
    # against beginners, how faithful the model of them is, on the line below each such line's
    faithful = re.findall(r"\n +the model makes the beginners' play at (\d+\.\d)% of ([\d,]+) decisions? with a choice "
                          r"\((\d+\.\d)% told all they knew of the other hands\)", out)
    assert len(faithful) == 3, out  # classic 2p and 4p, 2019 3p
    for told, decisions, everything in faithful:
        assert int(decisions.replace(",", "")) > 0
        assert float(everything) == 100.0  # told all it knew, the model is the beginner itself
        assert float(told) <= 100.0


def test_the_reading_intervals_take_rounds_as_the_units(load_script):
    interval = load_script("reading").interval
    # two rounds, each read twice: as two independent units the mean is known to ± 0.98 (as four, ± 0.57)
    assert interval([[1.0, 1.0], [0.0, 0.0]]) == "0.500 ± 0.980"
    assert interval([[1.0, 0.0], [1.0, 0.0], []]) == "0.500 ± 0.000"  # every round alike: no spread
    # one round: no interval, and the line says so (the heading promises one)
    assert interval([[0.25, 0.75]]) == "0.500 (no interval: readings from one round only)"
    assert interval([[0.25, 0.75], []]) == "0.500 (no interval: readings from one round only)"


def test_one_round_read_is_said_in_the_singular(load_script, monkeypatch, capsys):
    module = load_script("reading")
    monkeypatch.setattr(sys, "argv", ["reading.py", "--rounds", "1", "--only", "classic 2p vs random"])
    module.main()
    heading, line = capsys.readouterr().out.splitlines()
    assert ", 1 round per line, seed 0 " in heading  # not "1 rounds"
    assert line.count("(no interval: readings from one round only)") == 3
    assert re.search(r"\((1 reading|([02-9]|\d\d+) readings)\)$", line), line


def test_the_reading_benchmark_seeds_its_bots_from_the_seed_too(load_script, monkeypatch):
    """Only the deals followed --seed: the bots were seeded by the round's number alone."""
    module = load_script("reading")
    seeded: list[int] = []

    def make_bot(level, seed):
        seeded.append(seed)
        return real(level, seed)

    real = module.make_bot
    monkeypatch.setattr(module, "make_bot", make_bot)
    once = module.measure("classic", 2, "beginner", 3, 0)
    first = seeded[:]
    assert module.measure("classic", 2, "beginner", 3, 0) == once and seeded[len(first):] == first  # the same
    seeded.clear()
    assert module.measure("classic", 2, "beginner", 3, 1) != once
    assert not set(seeded) & set(first)  # other games: other bots too
    assert len(set(first)) == len(first)  # every bot its own numbers


def test_the_belief_spread_benchmark_prints_both_beliefs(load_script, monkeypatch, capsys):
    module = load_script("belief_spread")
    monkeypatch.setattr(sys, "argv", ["belief_spread.py", "--rounds", "2", "--only", "2019 5p"])
    module.main()
    lines = capsys.readouterr().out.splitlines()[1:]
    assert len(lines) == 2
    for line, kind in zip(lines, ("plain", "reading"), strict=True):
        assert re.match(rf"2019 5p, {kind} *: [\d,]+ readings; the card held under 1%: \d+ \(\d+\.\d%\); another"
                        r" card shown as certain: \d+; mean log-chance -?\d+\.\d\d; deals held \(median\) [\d,]+", line)


def test_the_hints_benchmark_times_the_hints(load_script, monkeypatch, capsys):
    module = load_script("hints")
    monkeypatch.setattr(sys, "argv", ["hints.py", "--rounds", "2", "--only", "classic 4p"])
    module.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("seat 0's hints") and len(lines) == 2
    assert re.match(r"classic 4p: \d+ hints, median [\d,]+ ms, 90th percentile [\d,]+ ms, longest [\d,]+ ms; "
                    r"(with 20 moves or more: median [\d,]+ ms over \d+|none with 20 moves or more); "
                    r"[\d,]+ tries per second \(a move tried on one deal\)$", lines[1]), lines[1]


def test_the_calibration_benchmark_pairs_each_chance_with_what_happened(load_script, monkeypatch, capsys):
    module = load_script("calibration")
    guards, won, lost = module.measure(4, "beginner", 6, 0)
    assert guards.pairs and won.pairs and len(won.pairs) == len(lost.pairs)
    assert all(0.0 <= p <= 1.0 for p, _ in guards.pairs + won.pairs + lost.pairs)
    for (p_won, did_win), (p_lost, did_lose) in zip(won.pairs, lost.pairs, strict=True):
        assert p_won + p_lost <= 1.0 + 1e-9 and not (did_win and did_lose)  # a tie is neither
    assert module.measure(4, "beginner", 6, 0) == (guards, won, lost)  # the seed decides it all
    said = module.Said([(0.5, True), (0.3, False), (0.8, True)])
    assert said.line("Guards", "hit") == "Guards: 3 plays, the belief gave 53.3%, hit 66.7% (20.8-93.9%)"
    assert said.grouped((0.0, 0.4, 0.8), "given", "hit") == [
        "    given 0-40%: 1 play, the belief gave 30.0%, hit 0.0% (0.0-79.3%)",
        "    given 40-80%: 1 play, the belief gave 50.0%, hit 100.0% (20.7-100.0%)",
        "    given 80-100%: 1 play, the belief gave 80.0%, hit 100.0% (20.7-100.0%)",
    ]
    assert module.Said().line("Barons", "won") == "Barons: none"
    monkeypatch.setattr(sys, "argv", ["calibration.py", "--rounds", "3", "--only", "2p vs beginner"])
    module.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("the expert's belief at its own Guards and Barons, 3 single rounds per game")
    assert re.fullmatch(r"classic 2p vs beginner \[\d+ s\]", lines[1])
    assert len(lines) == 2 + 1 + len(module.GUARD_GROUPS) + 2 + len(module.BARON_GROUPS)
    assert re.fullmatch(r"  Guards: (none|[\d,]+ plays?, the belief gave \d+\.\d%, hit \d+\.\d% \(\d+\.\d-\d+\.\d%\))",
                        lines[2])
