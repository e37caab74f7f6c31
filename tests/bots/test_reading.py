"""Reading the others' play (bots/reading.py): which way they play is learnt from their plays, and
reading a sensible player's choices puts more weight on the cards it really holds."""

from __future__ import annotations

import random
import statistics

import pytest

from loveletter.bots import make_bot
from loveletter.bots.belief import Belief
from loveletter.bots.reading import Reading
from loveletter.engine import CLASSIC, EDITION_2019, Match, view


def decisions(edition, players: int, opponents: str, rounds: int, seed: int):
    """Seat 0 (playing at random) at each of its decisions, with the true round, against bots."""
    for g in range(rounds):
        match = Match(edition, players, seed=seed * 1000 + g, starter=g % players)
        bots = [make_bot("random", seed=g)] + [make_bot(opponents, seed=g * 10 + s) for s in range(1, players)]
        rnd = match.round
        while not rnd.over:
            if rnd.current == 0:
                yield match
            match.apply(bots[rnd.current].choose(view(match, rnd.current)))


@pytest.mark.parametrize("edition", [CLASSIC, EDITION_2019], ids=lambda e: e.name)
def test_the_way_the_others_play_is_learnt_from_their_plays(edition):
    late: dict[str, list[float]] = {"beginner": [], "random": []}
    for opponents, found in late.items():
        for match in decisions(edition, 2, opponents, rounds=80, seed=1):
            plays = sum(1 for e in match.round.log or () if e.kind == "play" and e.seat != 0)
            if plays >= 3:
                found.append(Reading(view(match, 0)).chance_wild())
    assert statistics.mean(late["beginner"]) < 0.15
    assert len(late["random"]) >= 20 and statistics.mean(late["random"]) > 0.5


@pytest.mark.parametrize(("edition", "players"), [(CLASSIC, 2), (CLASSIC, 4), (EDITION_2019, 3)])
def test_reading_a_sensible_player_finds_its_card_more_often(edition, players):
    plain, read = [], []
    for match in decisions(edition, players, "beginner", rounds=30, seed=2):
        rnd = match.round
        v = view(match, 0)
        belief, reading = Belief(v), Reading(v)
        odds = reading.all_odds()
        for seat, held in odds.items():
            assert sum(held.values()) == pytest.approx(1.0)
            card = rnd.hands[seat][0]
            plain.append(belief.hand_odds(seat).get(card, 0.0))
            read.append(held.get(card, 0.0))
    assert statistics.mean(read) > statistics.mean(plain) + 0.03


def test_the_chance_of_wild_play_is_a_probability_and_starts_low():
    match = Match(CLASSIC, 2, seed=3)
    reading = Reading(view(match, match.current))
    assert reading.chance_wild() == pytest.approx(0.3)  # WILD_AT_FIRST: nobody has played yet
    rng = random.Random(0)
    picks = [reading.pick(rng)[1] for _ in range(2000)]
    assert 0.25 < sum(picks) / len(picks) < 0.35
