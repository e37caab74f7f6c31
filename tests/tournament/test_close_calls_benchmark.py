"""benchmarks/close_calls.py: the expert's close decisions, its choice and the runner-up each played
out from the true round on the same bots' seeds."""

from __future__ import annotations

import re
import sys

import pytest

from loveletter.engine import CLASSIC, Action, Card, Round


@pytest.fixture
def close_calls(load_script):
    return load_script("close_calls")


def test_a_decisions_kind_is_told_in_the_cards_words(close_calls):
    kind_of = close_calls.kind_of
    assert kind_of(Action(Card.GUARD, 1, Card.PRIEST), Action(Card.GUARD, 2, Card.PRIEST), 0) == \
        "guard: another target or guess"
    assert kind_of(Action(Card.PRIEST, 1), Action(Card.GUARD, 1, Card.BARON), 0) == "priest rather than guard"
    assert kind_of(Action(Card.PRINCE, 0), Action(Card.PRINCE, 2), 0) == "prince at itself rather than prince"
    assert kind_of(Action(Card.PRINCE, 1), Action(Card.PRINCE, 2), 0) == "prince: another target or guess"


def _dealt(first: list[Card], players: int) -> Round:
    """A classic round whose deck begins with ``first`` (top card first), the rest in order."""
    rest = list(CLASSIC.full_deck)
    for card in first:
        rest.remove(card)
    return Round(CLASSIC, players, [*first, *rest], starter=0)


def test_both_moves_are_played_on_with_the_same_seeds(close_calls):
    # seat 0 holds the Prince and draws the Princess: the Prince at itself throws the Princess away
    rnd = _dealt([Card.GUARD, Card.PRIEST, Card.BARON, Card.HANDMAID, Card.PRINCE, Card.GUARD, Card.PRINCESS], 2)
    assert sorted(rnd.hands[0]) == [Card.PRINCE, Card.PRINCESS] and rnd.current == 0
    at_itself, at_the_other = Action(Card.PRINCE, 0), Action(Card.PRINCE, 1)
    assert close_calls.played_on(rnd, at_itself, 0, "beginner", 5, 4, 20) == 0.0
    played = [close_calls.played_on(rnd, at_the_other, 0, "beginner", seed, 4, 20) for seed in (5, 5, 6)]
    assert played[0] == played[1] and max(played) > 0.0 and not rnd.over  # the same seeds, the same play; rnd untouched


def test_prints_every_close_call_and_their_kinds(close_calls, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["close_calls.py", "--rounds", "6", "--tries", "1", "--budget", "40", "--only", "4p"])
    close_calls.main()
    heading, title, *lines = capsys.readouterr().out.splitlines()
    assert "the expert at 40 iterations per move, 6 single rounds per game, 1 try per move, seed 0;" in heading
    assert re.fullmatch(r"classic 4p vs beginner ×3 \[\d+ s\]", title)
    assert re.fullmatch(r"  every close call: \d+ decisions, [+-]\d+\.\d points \([+-]\d+\.\d to [+-]\d+\.\d\)", lines[0])
    for line in lines[1:]:  # by kind (or the kinds met too seldom), and where the runner-up looked better
        assert re.fullmatch(r" {2,4}[a-z ,:-]+: \d+ decisions?, [+-]\d+\.\d points \(.+\)", line), line


def test_one_decision_has_no_interval(close_calls):
    assert close_calls.summary("x", [0.5]) == "x: 1 decision, +50.0 points (no interval from one)"
    assert close_calls.summary("x", [1.0, 0.0]) == "x: 2 decisions, +50.0 points (-48.0 to +148.0)"
