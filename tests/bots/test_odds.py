"""The play odds (bots/odds.py): what each player's plays say of its card, read as a random player's
plays: exact for a first play, public only (docs/rules.md R7), kept up by the events, and weighed into
the beginner's chances."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from loveletter.bots.odds import EVEN, even, play_odds, read_king, read_miss, read_play, weighed
from loveletter.bots.rule_based import score_move
from loveletter.engine import CLASSIC, EDITION_2019, Action, Card, Event, Round, legal_plays, view

CARDS = tuple(Card)


@pytest.mark.parametrize("edition", [CLASSIC, EDITION_2019], ids=lambda e: e.name)
@pytest.mark.parametrize("choosable", [0b10, 0b00, 0b110])
def test_a_first_play_is_read_by_bayes_rule(edition, choosable):
    """Before its first play a player's two cards are any two of the pool. Counted over every ordered
    pair, with a random player's chance of each play (the share of its legal plays), the chance of
    each card kept beside the card played is what the odds say (weighed by the pool after the play)."""
    pool = [0] * len(CARDS)
    for card in edition.full_deck:
        pool[card] += 1
    size = sum(pool)
    for played in {card for card in edition.full_deck}:
        kept: Counter[int] = Counter()
        for first in range(len(CARDS)):
            for second in range(len(CARDS)):
                ways = pool[first] * (pool[second] - (first == second))
                if ways <= 0 or played not in (first, second):
                    continue
                plays = legal_plays(edition, (CARDS[first], CARDS[second]), choosable, 0)
                share = sum(1 for p in plays if p.card == played) / len(plays)
                other = second if first == played else first
                kept[other] += ways * share / (size * (size - 1))
        odds = even(3)
        read_play(odds, pool, 0, played, choosable, edition)
        after = list(pool)
        after[played] -= 1
        told = weighed(after, odds[0])
        assert told is not None
        total = sum(kept.values())
        for card in range(len(CARDS)):
            assert told[card] / sum(after) == pytest.approx(kept[card] / total), (played, CARDS[card])


def test_a_random_player_who_played_something_else_rarely_holds_a_guard():
    """Two players, the first play a Priest: beside a Guard a random player plays the Priest once in
    eight plays (the Guard names seven cards), beside anything else once in two (once in three beside a
    Prince, which may also be played on itself)."""
    pool = [0] * len(CARDS)
    for card in CLASSIC.full_deck:
        pool[card] += 1
    odds = even(2)
    read_play(odds, pool, 1, Card.PRIEST, 0b01, CLASSIC)
    weights = odds[1]
    assert weights[Card.GUARD] / weights[Card.BARON] == pytest.approx((1 / 8) / (1 / 2))
    assert weights[Card.PRINCE] / weights[Card.BARON] == pytest.approx((1 / 3) / (1 / 2))
    # two Priests always play a Priest, but are a rarer pair: per copy left, as likely as the Baron
    assert weights[Card.PRIEST] / weights[Card.BARON] == pytest.approx(1.0)


def test_a_miss_rules_a_card_out_a_king_swaps_and_the_weighed_counts_keep_their_sum():
    odds = even(3)
    odds[1] = (0.5,) * len(CARDS)
    read_miss(odds, 2, Card.BARON)
    assert odds[2][Card.BARON] == 0.0 and odds[2][Card.PRIEST] == 1.0
    read_king(odds, 1, 2)
    assert odds[1][Card.BARON] == 0.0 and odds[2] == (0.5,) * len(CARDS)
    unknown = [0, 5, 2, 2, 2, 2, 0, 1, 1, 1]
    told = weighed(unknown, odds[1])
    assert told is not None and sum(told) == pytest.approx(sum(unknown)) and told[Card.BARON] == 0.0
    assert weighed([0, 0, 0, 2, 0, 0, 0, 0, 0, 0], odds[1]) is None  # nothing left: no reading


@pytest.mark.parametrize("edition", [CLASSIC, EDITION_2019], ids=lambda e: e.name)
def test_the_odds_read_only_what_is_public(edition):
    """Every seat, and a spectator, reads the same odds from its own view, at every point of random
    rounds, and the odds do not change when the hidden cards do (docs/rules.md R7)."""
    rng = random.Random(f"odds-{edition.name}")
    read = 0
    for _ in range(60):
        players = rng.randint(2, edition.max_players)
        rnd = Round.shuffled(edition, players, rng, starter=rng.randrange(players), log=True)
        while not rnd.over:
            public = play_odds(view(rnd, None).events, edition, players)
            for seat in range(players):
                assert play_odds(view(rnd, seat).events, edition, players) == public
            read += public != even(players)
            rnd.apply(rng.choice(rnd.legal_actions()))
    assert read > 300


def test_a_discard_and_a_chancellor_forget_a_card():
    """A Prince's discard and a Chancellor's return leave the player a card nothing has been read of."""
    events = (Event("setup", seat=0, cards=()), Event("play", seat=1, card=Card.PRIEST, target=0))
    assert play_odds(events, EDITION_2019, 3)[1] != EVEN
    princed = (*events, Event("play", seat=2, card=Card.PRINCE, target=1), Event("discard", seat=1, card=Card.BARON))
    assert play_odds(princed, EDITION_2019, 3)[1] == EVEN
    returned = (*events, Event("play", seat=1, card=Card.CHANCELLOR), Event("chancellor", seat=1, result=2))
    assert play_odds(returned, EDITION_2019, 3)[1] == EVEN


def test_the_beginner_weighs_its_guess_and_its_baron_by_the_odds():
    """Unknown: two Priests and two Barons (and one Guard). Read evenly, the Guard names the Baron
    (as likely, and higher); with odds that make the Priest three times likelier, the Priest. A Baron
    played beside a Priest beats only the Guard: with odds that make the Guard less likely, it is
    liked less."""
    unknown = [0, 1, 2, 2, 0, 0, 0, 0, 0, 0]
    hand = (Card.GUARD, Card.HANDMAID)
    odds = even(2)
    guesses = [Action(Card.GUARD, 1, card) for card in (Card.PRIEST, Card.BARON)]

    def best(odds):
        return max(guesses, key=lambda a: score_move(a, hand, {}, unknown, 5, CLASSIC.value, 0, odds=odds))

    assert best(odds) == Action(Card.GUARD, 1, Card.BARON)
    weights = [1.0] * len(CARDS)
    weights[Card.PRIEST] = 3.0
    odds[1] = tuple(weights)
    assert best(odds) == Action(Card.GUARD, 1, Card.PRIEST)
    baron = Action(Card.BARON, 1)
    even_score = score_move(baron, (Card.BARON, Card.PRIEST), {}, unknown, 5, CLASSIC.value, 0, odds=even(2))
    weights = [1.0] * len(CARDS)
    weights[Card.GUARD] = 0.1
    odds[1] = tuple(weights)
    assert score_move(baron, (Card.BARON, Card.PRIEST), {}, unknown, 5, CLASSIC.value, 0, odds=odds) < even_score
