"""Reading the others' play (bots/reading.py): which way they play is learnt from their plays, and
reading a sensible player's choices puts more weight on the cards it really holds."""

from __future__ import annotations

import itertools
import math
import pickle
import random
import statistics

import pytest
from scenarios import cards, play

from loveletter.bots import make_bot
from loveletter.bots.belief import Belief
from loveletter.bots.reading import Reading
from loveletter.engine import CLASSIC, EDITION_2019, Action, Card, Match, Round, view


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
    picks = [reading.pick(rng)[1] != 0 for _ in range(2000)]
    assert 0.25 < sum(picks) / len(picks) < 0.35


def test_a_seat_whose_level_is_shown_is_read_by_it():
    """At a table that shows a random bot and a beginner (seats 1 and 2), both tables read seat 1 at
    random and seat 2 sensibly, and the samples let each play that way; without the levels, the two
    tables read both seats their own way."""
    from loveletter.bots.reading import read_at_random, read_sensibly

    levels = {1: "random", 2: "beginner"}
    checked = 0
    for match in decisions(CLASSIC, 3, "random", rounds=10, seed=4):
        v = view(match, 0)
        shown, plain = Reading(v, levels), Reading(v)
        only_random = Belief(v, lambda ed, hand, play, seat, others, seen, known, tells, odds: (
            read_at_random if seat == 1 else read_sensibly)(ed, hand, play, seat, others, seen, known, tells, odds))
        for seat in (1, 2):
            if match.round.is_alive(seat):
                for table in (shown.sensible, shown.wild):
                    assert table.hand_odds(seat) == pytest.approx(only_random.hand_odds(seat))
                checked += 1
        assert plain.wild.hand_odds(1) == pytest.approx(Belief(v, read_at_random).hand_odds(1))
        rng = random.Random(0)
        assert {shown.pick(rng)[1] for _ in range(50)} == {0b010}  # seat 1 plays at random in every sample
        assert {plain.pick(rng)[1] for _ in range(200)} <= {0, 0b110}  # all sensibly, or all at random
    assert checked > 20


def test_a_reading_by_the_levels_shown_can_be_pickled():
    """(Its reader was a closure, which pickle refused: the hints' expert could not be copied.)"""
    match = Match(CLASSIC, 3, seed=2)
    reading = Reading(view(match, 0), levels={1: "random", 2: "beginner"})
    copied = pickle.loads(pickle.dumps(reading))
    assert copied.all_odds() == reading.all_odds()


def _after_two_guards():
    """Seat 0's view of a classic two-player round after each seat has played a Guard and missed
    (seat 1 keeping its Priest), and the round: set aside a Guard; face up Handmaid, Handmaid, Baron;
    seat 0 King, seat 1 Priest; then Guard, Guard."""
    words = ("guard", "handmaid", "handmaid", "baron", "king", "priest", "guard", "guard")
    cards = [Card.from_word(w) for w in words]
    rest = list(CLASSIC.full_deck)
    for card in cards:
        rest.remove(card)
    rnd = Round(CLASSIC, 2, cards + sorted(rest))
    rnd.apply(Action(Card.GUARD, 1, Card.BARON))
    rnd.apply(Action(Card.GUARD, 0, Card.PRIEST))
    return view(rnd, 0), rnd


def test_an_expert_bot_is_read_with_less_care_than_a_beginner():
    """The expert searches, and only about three of its choices in five are the policy's: read as a
    beginner, a card it really held was put under 1% in one reading of eight (two players) and
    another shown as certain. Here seat 1 keeps its Priest and plays the Guard it drew, which a
    beginner would not do (it looks first)."""
    from loveletter.bots.reading import CARE, CARE_OF_EXPERT, read_as_expert

    assert CARE_OF_EXPERT < CARE
    v, _ = _after_two_guards()
    as_beginner = Reading(v, {1: "beginner"}).hand_odds(1)
    as_expert = Reading(v, {1: "expert"}).hand_odds(1)
    assert as_beginner[Card.PRIEST] < 0.01 < as_expert[Card.PRIEST]
    assert Reading(v, {1: "expert"}).sensible.hand_odds(1) == pytest.approx(Belief(v, read_as_expert).hand_odds(1))


def play_match(bots, match: Match, readings: list[Reading], expert) -> None:
    """Play ``match`` to its end, keeping the expert's reading at its first decision of each round."""
    while not match.over:
        if match.round.over:
            match.next_round()
            continue
        seat = match.round.current
        seen = view(match, seat)
        if bots[seat] is expert and len(seen.legal_actions) > 1:
            reading = expert.belief(seen)
            if not readings or readings[-1] is not reading:
                readings.append(reading)
        match.apply(bots[seat].choose(seen))


@pytest.mark.parametrize("opponent", ["random", "beginner"])
def test_a_match_carries_how_far_the_others_play_at_random_to_its_next_round(opponent):
    """Each round's reading starts where the last one left it (no surer than 99% either way), and so
    learns over a match against the random bot that it plays at random, against the beginner that it
    does not; a new match starts afresh."""
    last = []
    for seed in range(3):
        expert = make_bot("expert", seed=5 + seed, budget=20)
        bots = [expert, make_bot(opponent, seed=6)]
        readings: list[Reading] = []
        play_match(bots, Match(CLASSIC, 2, seed=7 + seed, target=7), readings, expert)
        assert len(readings) >= 6
        assert readings[0].prior == pytest.approx(math.log(0.3 / 0.7))  # WILD_AT_FIRST
        for before, after in itertools.pairwise(readings):
            assert after.round_number > before.round_number
            assert after.prior == pytest.approx(max(-math.log(99), min(math.log(99), before.log_odds_wild())))
        last.append(1 / (1 + math.exp(-readings[-1].prior)))
        again: list[Reading] = []
        play_match(bots, Match(CLASSIC, 2, seed=seed, target=1), again, expert)
        assert again[0].prior == pytest.approx(math.log(0.3 / 0.7))
    assert statistics.mean(last) > 0.9 if opponent == "random" else statistics.mean(last) < 0.1


def test_a_reading_s_carried_chance_is_no_surer_than_99_percent():
    match = Match(CLASSIC, 2, seed=3)
    for prior, carried in ((-20.0, -math.log(99)), (20.0, math.log(99)), (1.5, 1.5)):
        reading = Reading(view(match, match.current), prior=prior)
        assert reading.log_odds_wild() == pytest.approx(prior)  # nobody has played: the prior alone
        assert reading.carried() == pytest.approx(carried)


def test_the_chance_of_wild_play_follows_its_log_odds_however_sure():
    """The chance that the others play at random is the logistic of its log-odds: even very sure
    (ten points either way: 1 in 22 000), it is not rounded to certainty; beyond any float's reach it is
    certain, and nothing overflows."""
    match = Match(CLASSIC, 2, seed=3)
    seen = view(match, match.current)
    for prior in (-30.0, -10.0, -1.0, 0.0, 10.0, 30.0):
        assert Reading(seen, prior=prior).chance_wild() == pytest.approx(1 / (1 + math.exp(-prior)), rel=1e-9, abs=0)
    assert Reading(seen, prior=-1000.0).chance_wild() == 0.0
    assert Reading(seen, prior=1000.0).chance_wild() == 1.0


def test_a_hands_odds_mix_the_two_ways_of_playing_by_their_chance():
    """The odds shown for a hand are the sensible and the wild table's, weighed by the chance of each
    way of playing (here about 0.3 wild), however unequal the two weights."""
    seen, _ = _after_two_guards()
    reading = Reading(seen)
    wild = reading.chance_wild()
    sensible_odds, wild_odds = reading.sensible.hand_odds(1), reading.wild.hand_odds(1)
    assert 0.05 < wild < 0.95 and sensible_odds != pytest.approx(wild_odds)
    mixed = reading.hand_odds(1)
    for card in set(sensible_odds) | set(wild_odds):
        expected = (1 - wild) * sensible_odds.get(card, 0.0) + wild * wild_odds.get(card, 0.0)
        assert mixed.get(card, 0.0) == pytest.approx(expected)


def test_a_hand_assumed_holds_in_both_ways_of_playing():
    """Assuming seat 1's hand (as a benchmark that knows it does) keeps only the deals with that hand in
    both tables, so its odds are certain whichever way the others play; the hypotheses counted are both
    tables'."""
    seen, rnd = _after_two_guards()
    reading = Reading(seen)
    assert len(reading) == len(reading.sensible) + len(reading.wild)
    held = rnd.hands[1][0]
    reading.assume(1, rnd.hands[1])
    assert reading.hand_odds(1) == pytest.approx({held: 1.0})
    assert reading.wild.hand_odds(1) == pytest.approx({held: 1.0})


def test_the_readers_own_level_changes_nothing():
    """Levels shown for the whole table may include the reader's own seat: it is never read, and in
    the sampled ways of playing it never plays at random."""
    seen, _ = _after_two_guards()
    plain, shown = Reading(seen), Reading(seen, {0: "random", 1: "beginner"})
    by_level = Reading(seen, {1: "beginner"})
    for seed in range(20):
        assert shown.pick(random.Random(seed))[1] == by_level.pick(random.Random(seed))[1]
        assert shown.pick(random.Random(seed))[1] & 1 == plain.pick(random.Random(seed))[1] & 1 == 0
    assert shown.hand_odds(1) == pytest.approx(by_level.hand_odds(1))


def test_a_player_told_a_card_by_a_king_is_read_as_knowing_it():
    """Bram (seat 1) played his King at Cas (seat 2), so Cas knows Bram holds her old card; she then
    drew, and her Guard named that card, a Baron, and knocked Bram out. Her Guard says nothing of the
    card she kept: she would have played it beside any card. Read as if she had only guessed, her
    play looked like one forced by two Guards: the reading put her Guard at 90% and the Princess she
    really held (Bram's, given away by his King) at 3%, and the hints showed "Guard >99%"."""
    rnd = play(Round(CLASSIC, 3, cards("priest | prince king baron | prince countess princess guard handmaid guard"
                                        " guard guard handmaid priest guard baron"), 0, log=True),
               "prince 0; king 2; guard 1 baron")
    assert rnd.hands[2] == [Card.PRINCESS]
    odds = Reading(view(rnd, 0), {1: "beginner", 2: "beginner"}).hand_odds(2)
    # Bram's King is read too: beside a Priest or the Princess a beginner plays it, beside most cards not
    assert odds[Card.PRINCESS] > 0.25 and odds[Card.PRIEST] > 0.5 and odds[Card.GUARD] < 0.05


def test_a_player_that_may_still_know_a_card_it_saw_is_not_read_as_wild():
    """Bram (seat 1) looked at Cas's Countess (seat 2); Cas drew a Priest and played it, keeping the
    Countess (or so she may have: seat 0 cannot tell which card she played). Bram's Guard then named
    the Countess, the one card of its kind. Read as if Bram no longer knew Cas's card, that was a wild
    guess, and the reading took him for a player at random (76%, from 5.5% before it); read as a
    player who may still know it (even odds: either of Cas's cards may have been the one seen), the
    play says he is sensible."""
    rnd = play(Round(CLASSIC, 3, cards("baron | handmaid priest countess | guard princess priest handmaid guard"
                                        " guard guard guard baron prince prince king"), 0, log=True),
               "handmaid; priest 2; priest 1; handmaid")
    assert Reading(view(rnd, 0)).chance_wild() > 0.05
    rnd = play(rnd, "guard 2 countess")
    assert rnd.hands[1] == [Card.PRINCESS] and not rnd.is_alive(2)
    assert Reading(view(rnd, 0)).chance_wild() < 0.05
