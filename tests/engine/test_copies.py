"""Copies and pickles of a round: the round alone, and it plays on as the original does."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from loveletter.engine import CLASSIC, EDITION_2019, Edition, Round


def play_randomly(rnd: Round, rng: random.Random, moves: int | None = None) -> None:
    """Uniformly random legal moves, to the end or for ``moves`` moves."""
    while not rnd.over and moves != 0:
        actions = rnd.legal_actions()
        rnd.apply(actions[int(rng.random() * len(actions))])
        moves = None if moves is None else moves - 1


@pytest.mark.parametrize("edition", [CLASSIC, EDITION_2019], ids=["classic", "2019"])
def test_a_pickled_round_does_not_grow_with_what_the_process_has_played(edition: Edition) -> None:
    """The engine's memo of legal actions, shared by every round of an edition, went into each
    round's pickle: an OpenSpiel state's grew from 7 KB to 1.5 MB once the engine's property tests
    had run in the same process."""
    rnd = Round.shuffled(edition, 4, random.Random(1))
    play_randomly(rnd, random.Random(1), moves=3)
    before = pickle.dumps(rnd)
    rng = random.Random(2)
    for players in range(2, edition.max_players + 1):  # many other rounds: other hands, other tables
        for _ in range(40):
            play_randomly(Round.shuffled(edition, players, rng), rng)
    assert pickle.dumps(rnd) == before
    assert pickle.dumps(copy.deepcopy(rnd)) == before


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda rnd: pickle.loads(pickle.dumps(rnd))],
                         ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("edition", [CLASSIC, EDITION_2019], ids=["classic", "2019"])
def test_a_copied_round_plays_on_as_the_original(edition: Edition, duplicate) -> None:
    for seed in range(20):
        rnd = Round.shuffled(edition, 2 + seed % (edition.max_players - 1), random.Random(seed))
        play_randomly(rnd, random.Random(seed), moves=seed % 7)
        twin = duplicate(rnd)
        assert twin.legal_actions() == rnd.legal_actions()
        play_randomly(rnd, random.Random(100 + seed))
        play_randomly(twin, random.Random(100 + seed))
        assert (twin.log, twin.winners, twin.hands, twin.discards) == (rnd.log, rnd.winners, rnd.hands, rnd.discards)
