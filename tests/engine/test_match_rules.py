"""Match rules (docs/rules.md R2.2-R2.4, R3.5, R6.4): tokens, targets, the next starter, the match end."""

from __future__ import annotations

import random
import re

import pytest
from scenarios import FULL_TIE, FULL_TIE_FROM_SEAT0, full_deck, play, quiet_move

from loveletter.engine import CLASSIC, EDITION_2019, Match, Round, view

# Classic, 2 players: seat 0's Guard names seat 1's Priest at once.
SEAT0_WINS = "king | baron baron countess | guard priest | handmaid | ..."
# Classic, 2 players: seat 0's Guard misses, seat 1's Guard names seat 0's Handmaid.
SEAT1_WINS = ("king | baron baron countess | guard priest | handmaid | guard ...", "guard 1 baron; guard 0 handmaid")
FULL_TIE_FROM_SEAT1 = (  # the full tie's turns (scenarios.FULL_TIE) with the seats swapped
    "guard 0 baron; guard 1 baron; priest 0; guard 1 baron; priest 0; guard 1 baron;"
    " handmaid; handmaid; guard; baron 1"
)
# 2019, 2 players: seat 0 plays both Spies, both keep a Prince: a tie and the Spy bonus for seat 0.
BOTH_SPIES_SEAT0 = (
    ("princess | baron chancellor chancellor | prince prince | spy"
    " | guard spy guard guard guard guard guard priest priest baron king countess handmaid handmaid"),
    ("spy; guard 0 baron; spy; guard 0 baron; guard 1 baron; guard 0 baron; guard 1 baron;"
    " guard 0 baron; priest 1; priest 0; baron 1; king 0; countess; handmaid; handmaid"),
)
# 2019, 2 players, played quietly: seat 1's Prince beats seat 0's Baron, seat 0 played both Spies.
SPY_BONUS_TO_THE_LOSER = (
    "princess | baron prince king | baron prince | countess guard spy chancellor guard guard priest"
    " handmaid spy chancellor priest guard guard handmaid guard"
)
# 2019, 3 players from seat 1, played quietly: seats 0 and 2 keep a Prince and tie; seat 1 a Priest.
TIE_0_2_FROM_SEAT1 = (
    "princess | priest prince prince | guard chancellor guard baron countess guard guard king guard"
    " handmaid spy chancellor handmaid baron priest guard spy"
)


def match(text: str, *, edition=CLASSIC, players: int = 2, **options) -> Match:
    return Match(edition, players, deck=full_deck(text, edition), **options)


def finish(m: Match, moves: str | None = None) -> Match:
    """Play the current round through the match (so the tokens are given): the moves, or quietly."""
    if moves is not None:
        play(m, moves)
    while not m.round.over:
        m.apply(quiet_move(m.round))
    return m


# ---------------------------------------------------------------------------------------- R2.3


@pytest.mark.parametrize(
    ("edition", "players", "target"),
    [
        pytest.param(CLASSIC, 2, 7, id="R2.3-classic-2p-7-tokens"),
        pytest.param(CLASSIC, 3, 5, id="R2.3-classic-3p-5-tokens"),
        pytest.param(CLASSIC, 4, 4, id="R2.3-classic-4p-4-tokens"),
        pytest.param(EDITION_2019, 2, 6, id="R2.3-2019-2p-6-tokens"),
        pytest.param(EDITION_2019, 3, 5, id="R2.3-2019-3p-5-tokens"),
        pytest.param(EDITION_2019, 4, 4, id="R2.3-2019-4p-4-tokens"),
        pytest.param(EDITION_2019, 5, 3, id="R2.3-2019-5p-3-tokens"),
        pytest.param(EDITION_2019, 6, 3, id="R2.3-2019-6p-3-tokens"),
    ],
)
def test_R2_3_tokens_needed_per_player_count(edition, players, target):
    m = Match(edition, players, seed=1)
    assert m.target == target and m.tokens == [0] * players
    assert view(m, 0).target == target


def test_R2_3_players_may_agree_on_another_target():
    assert Match(CLASSIC, 2, target=3, seed=1).target == 3
    with pytest.raises(ValueError, match="at least 1, not 0"):
        Match(CLASSIC, 2, target=0, seed=1)
    assert Match(CLASSIC, 2, target=100, seed=1).target == 100  # any: the programme offers up to 99


@pytest.mark.parametrize("starter", [-1, 3, 5])
def test_a_starter_that_is_no_seat_is_refused_with_a_shuffled_deck_as_with_a_given_one(starter):
    # (a shuffled deck once took the starter modulo the players: seat 5 of three started as seat 2)
    for deck in (None, CLASSIC.full_deck):
        with pytest.raises(ValueError, match=f"the starter must be a seat from 0 to 2, not {starter}"):
            Match(CLASSIC, 3, seed=1, starter=starter, deck=deck)
    assert Match(CLASSIC, 3, seed=1, starter=2).round.starter == 2


@pytest.mark.parametrize("kind, value", [("players", 2.5), ("players", "2"), ("target", 1.5), ("target", True),
                                         ("seed", 3.0), ("seed", "3"), ("starter", 1.0), ("starter", True)])
def test_a_match_takes_whole_numbers_only(kind, value):
    """2.5 players failed as a KeyError, a target of 1.5 and a seed of 3.0 were taken (the seed as 3),
    and True started as seat 1."""
    said = " (or None)" if kind == "seed" else ""  # (a match may be dealt with no seed)
    with pytest.raises(TypeError, match=re.escape(f"must be a whole number{said}, not {value!r}")):
        Match(CLASSIC, **{"players": 2, kind: value})


@pytest.mark.parametrize(("players", "starter", "message"), [
    (2.0, 0, "the number of players must be a whole number, not 2.0"),
    (2, True, "the starter must be a whole number, not True"),
])
def test_a_round_takes_whole_numbers_only_too(players, starter, message):
    """The checks are the round's and the edition's own: a round dealt without a match took True
    as seat 1."""
    for deal in (lambda: Round.shuffled(CLASSIC, players, random.Random(1), starter),
                 lambda: Round(CLASSIC, players, CLASSIC.full_deck, starter)):
        with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
            deal()


def test_a_negative_seed_is_refused_and_a_numpy_one_taken():
    """Python's generator deals -5 as 5: two seeds, one game."""
    import numpy as np

    with pytest.raises(ValueError, match="the seed must be a whole number from 0, not -5"):
        Match(CLASSIC, 2, seed=-5)
    taken = Match(CLASSIC, np.int64(3), seed=np.int64(5), target=np.int64(2))
    assert taken.round.deck == Match(CLASSIC, 3, seed=5).round.deck and type(taken.seed) is int


def test_R2_1_match_player_counts():
    with pytest.raises(ValueError, match=r"R2\.1"):
        Match(CLASSIC, 5)
    with pytest.raises(ValueError, match=r"R2\.1"):
        Match(EDITION_2019, 7)


# ---------------------------------------------------------------------------------------- R2.2, R6.4


@pytest.mark.parametrize(
    ("edition", "text", "moves", "tokens"),
    [
        pytest.param(CLASSIC, SEAT0_WINS, "guard 1 priest", [1, 0], id="R2.2-round-winner-gains-a-token"),
        pytest.param(CLASSIC, *SEAT1_WINS, [0, 1], id="R2.2-seat-1-wins-a-token"),
        pytest.param(CLASSIC, FULL_TIE, FULL_TIE_FROM_SEAT0, [1, 1], id="R2.2-R6.3-every-tied-winner-gains"),
        pytest.param(EDITION_2019, *BOTH_SPIES_SEAT0, [2, 1], id="R6.4-spy-bonus-is-one-more-token"),
        pytest.param(EDITION_2019, SPY_BONUS_TO_THE_LOSER, None, [1, 1],
                     id="R6.4-spy-bonus-goes-to-a-surviving-non-winner"),
    ],
)
def test_R2_2_R6_4_tokens_after_a_round(edition, text, moves, tokens):
    m = finish(match(text, edition=edition), moves)
    assert m.round.over and m.tokens == tokens
    assert not m.over  # far from the default target
    assert view(m, 1).tokens == tuple(tokens)


def test_R2_2_tokens_add_up_over_rounds():
    m = finish(match(SEAT0_WINS), "guard 1 priest")
    m.next_round(full_deck(SEAT0_WINS))
    assert m.round.starter == 0 and len(m.rounds) == 2
    finish(m, "guard 1 priest")
    assert m.tokens == [2, 0] and view(m, 1).round_number == 2


# ---------------------------------------------------------------------------------------- R3.5


@pytest.mark.parametrize(
    ("edition", "players", "starter", "text", "moves", "winners", "next_starter"),
    [
        pytest.param(CLASSIC, 2, 0, SEAT0_WINS, "guard 1 priest", (0,), 0, id="R3.5-the-winner-starts"),
        pytest.param(CLASSIC, 2, 0, *SEAT1_WINS, (1,), 1, id="R3.5-the-winner-starts-seat-1"),
        pytest.param(CLASSIC, 2, 0, FULL_TIE, FULL_TIE_FROM_SEAT0, (0, 1), 0,
                     id="R3.5-several-winners-previous-starter-first"),
        pytest.param(CLASSIC, 2, 1, FULL_TIE, FULL_TIE_FROM_SEAT1, (0, 1), 1,
                     id="R3.5-several-winners-counting-from-previous-starter-seat-1"),
        pytest.param(EDITION_2019, 3, 1, TIE_0_2_FROM_SEAT1, None, (0, 2), 2,
                     id="R3.5-several-winners-first-after-starter-in-turn-order"),
    ],
)
def test_R3_5_who_starts_the_next_round(edition, players, starter, text, moves, winners, next_starter):
    m = finish(match(text, edition=edition, players=players, starter=starter), moves)
    assert m.round.winners == winners
    assert m.next_starter() == next_starter
    nxt = m.next_round()
    assert nxt.starter == next_starter and m.current == next_starter and nxt.turn == 1
    assert len(nxt.hands[next_starter]) == 2  # the new starter has drawn (R4.1)


def test_R3_5_first_round_starter_is_chosen():
    assert Match(CLASSIC, 3, seed=2).round.starter == 0
    assert Match(CLASSIC, 3, seed=2, starter=2).round.starter == 2


def test_next_round_only_after_the_round_is_over():
    m = match(SEAT0_WINS)
    with pytest.raises(ValueError, match="still being played"):
        m.next_round()


# ---------------------------------------------------------------------------------------- R2.4


@pytest.mark.parametrize(
    ("edition", "text", "moves", "target", "match_winners"),
    [
        pytest.param(CLASSIC, SEAT0_WINS, "guard 1 priest", 1, (0,), id="R2.4-match-ends-at-the-target"),
        pytest.param(CLASSIC, FULL_TIE, FULL_TIE_FROM_SEAT0, 1, (0, 1),
                     id="R2.4-two-players-reach-target-together-both-win"),
        pytest.param(EDITION_2019, *BOTH_SPIES_SEAT0, 2, (0,), id="R2.4-R6.4-spy-bonus-reaches-target"),
        pytest.param(EDITION_2019, *BOTH_SPIES_SEAT0, 1, (0, 1), id="R2.4-2019-both-over-target-both-win"),
        pytest.param(EDITION_2019, SPY_BONUS_TO_THE_LOSER, None, 1, (0, 1),
                     id="R2.4-R6.4-spy-bonus-makes-a-second-match-winner"),
        pytest.param(CLASSIC, SEAT0_WINS, "guard 1 priest", 2, (), id="R2.4-below-target-match-goes-on"),
    ],
)
def test_R2_4_match_end(edition, text, moves, target, match_winners):
    m = finish(match(text, edition=edition, target=target), moves)
    assert m.winners == match_winners and m.over is bool(match_winners)
    assert view(m, None).match_winners == match_winners
    if match_winners:
        with pytest.raises(ValueError, match="match is over"):
            m.next_round()
    else:
        assert m.next_round().turn == 1


def test_R2_4_match_ends_as_soon_as_a_round_gives_the_last_token():
    m = match(SEAT0_WINS, target=2)
    finish(m, "guard 1 priest")
    assert not m.over
    m.next_round(full_deck(SEAT1_WINS[0]))
    finish(m, SEAT1_WINS[1])
    assert m.tokens == [1, 1] and not m.over
    m.next_round(full_deck(SEAT1_WINS[0]))  # seat 1 starts now (R3.5)
    play(m, "guard 0 priest")  # seat 1's Guard; seat 0 was dealt the Priest
    assert m.tokens == [1, 2] and m.winners == (1,)
