"""benchmarks/close_calls.py: the expert's close decisions, its choice and the runner-up each played
out from the true round on the same bots' seeds."""

from __future__ import annotations

import re
import sys

import pytest
from scenarios import deck

from loveletter.engine import Action, Card, Round


@pytest.fixture
def close_calls(load_script):
    return load_script("close_calls")


def test_a_decisions_kind_is_told_in_the_cards_words(close_calls):
    kind_of = close_calls.kind_of
    assert kind_of(Action(Card.GUARD, 1, Card.PRIEST), Action(Card.GUARD, 2, Card.PRIEST), 0) == \
        "guard: another target or guess"
    assert kind_of(Action(Card.PRIEST, 1), Action(Card.GUARD, 1, Card.BARON), 0) == "priest rather than guard"
    assert kind_of(Action(Card.PRINCE, 0), Action(Card.PRINCE, 2), 0) == "prince at itself rather than prince"
    assert kind_of(Action(Card.PRINCE, 1), Action(Card.PRINCE, 2), 0) == "prince: another target"


def test_a_move_is_played_on_for_our_seat_by_the_same_seeds(close_calls):
    # seat 0 holds the Prince and draws the Princess: the Prince at itself throws the Princess away
    rnd = deck("guard priest baron handmaid prince guard princess ...")
    assert sorted(rnd.hands[0]) == [Card.PRINCE, Card.PRINCESS] and rnd.current == 0
    at_itself, at_the_other = Action(Card.PRINCE, 0), Action(Card.PRINCE, 1)
    # our seat's share of the tries: none for seat 0, all four for seat 1 (the other bot plays seat 0)
    assert close_calls.played_on(rnd, at_itself, 0, "beginner", 5, 4, 20) == 0.0
    assert close_calls.played_on(rnd, at_itself, 1, "beginner", 5, 4, 20) == 1.0
    played = [close_calls.played_on(rnd, at_the_other, 0, "beginner", seed, 4, 20) for seed in (5, 5, 6)]
    assert played[0] == played[1] and max(played) > 0.0 and not rnd.over  # the same seeds, the same play; rnd untouched


def test_both_moves_meet_the_same_bots_and_the_expert_plays_on_for_our_seat(close_calls, monkeypatch):
    rnd = deck("guard priest baron handmaid prince guard princess ...")
    made: list[tuple[str, int]] = []
    make_bot = close_calls.make_bot
    monkeypatch.setattr(close_calls, "make_bot", lambda level, seed, budget: (made.append((level, seed)),
                                                                              make_bot(level, seed, budget))[1])
    close_calls.played_on(rnd, Action(Card.PRINCE, 1), 0, "beginner", 5, 3, 20)
    first = made[:]
    made.clear()
    close_calls.played_on(rnd, Action(Card.PRINCESS), 0, "beginner", 5, 3, 20)
    assert made == first and len({seed for _, seed in first}) == 6  # the same bots for either move; new ones each try
    assert [level for level, _ in first] == ["expert", "beginner"] * 3  # (our seat is 0)


def test_each_close_call_is_the_runner_ups_wins_less_the_choices(close_calls, monkeypatch):
    """The difference's sign and its two moves, with the moves' outcomes made up: the choice is the
    move the expert then plays, and the runner-up another searched at least a third as often."""
    from loveletter.bots.expert import ExpertBot

    worth = {card: card.value / 10 for card in Card}
    monkeypatch.setattr(close_calls, "played_on", lambda rnd, action, *rest: worth[action.card])
    searched: list[tuple[object, object]] = []
    search = ExpertBot.search

    def watched(self, view, *args, **kwargs):
        root = search(self, view, *args, **kwargs)
        searched.append(tuple(close_calls.ranked(root)[:2]))
        return root

    monkeypatch.setattr(ExpertBot, "search", watched)
    applied: list[Action] = []
    apply = Round.apply
    monkeypatch.setattr(Round, "apply", lambda rnd, action: (applied.append(action) if rnd.log is not None else None,
                                                              apply(rnd, action))[1])  # (the true rounds' moves)
    calls = close_calls.measure(4, "beginner", 6, 1, 0, 40)
    assert calls
    measured = applied[:]
    played: list[Action] = []  # the same rounds played by the bots' own choices: the same moves
    for r in range(6):
        _, rnd, bots = close_calls.round_with("expert", "beginner", 4, r, 0, 40)
        while not rnd.over:
            action = bots[rnd.current].choose(close_calls.view(rnd, rnd.current))
            played.append(action)
            rnd.apply(action)
    assert measured == played
    for call in calls:
        assert call.difference == pytest.approx(worth[call.runner_up.card] - worth[call.chosen.card])
        (_, mine), (_, theirs) = next(pair for pair in searched if pair[0][0] == call.chosen
                                      and pair[1][0] == call.runner_up)
        assert mine.visits >= theirs.visits >= close_calls.CLOSE * mine.visits
    monkeypatch.setattr(close_calls, "CLOSE", 1.01)  # (nothing is searched more than the choice)
    assert close_calls.measure(4, "beginner", 6, 1, 0, 40) == []


def test_prints_every_close_call_and_their_kinds(close_calls, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["close_calls.py", "--rounds", "6", "--tries", "1", "--budget", "40", "--only", "4p"])
    close_calls.main()
    heading, title, *lines = capsys.readouterr().out.splitlines()
    assert "the expert at 40 iterations per move, 6 single rounds per game, 1 try per move, seed 0;" in heading
    assert re.fullmatch(r"classic 4p vs beginner ×3 \[\d+ s\]", title)
    assert re.fullmatch(r"  every close call: \d+ decisions, [+-]\d+\.\d points \([+-]\d+\.\d to [+-]\d+\.\d\)", lines[0])
    for line in lines[1:]:  # by kind (or the kinds met too seldom), and where the runner-up looked better
        assert re.fullmatch(r" {2,4}[a-z ,:-]+: \d+ decisions?, [+-]\d+\.\d points \(.+\)", line), line


def test_an_interval_is_given_where_one_can_be(close_calls):
    summary = close_calls.summary
    assert summary("x", [0.5]) == "x: 1 decision, +50.0 points (no interval from one)"
    assert summary("x", [0.0] * 11) == "x: 11 decisions, +0.0 points (every one alike: no interval)"
    assert summary("x", [1.0, 0.0]) == "x: 2 decisions, +50.0 points (-48.0 to +100.0)"  # (no more than +100)
    assert summary("x", [1.0, 0.0] * 50) == "x: 100 decisions, +50.0 points (+40.2 to +59.8)"
