"""The beginner's count of the round's last play (bots/last_play.py): exact against the engine, and
what it changes in the beginner's choice."""

from __future__ import annotations

import itertools
import random

import pytest

from loveletter.bots import RandomBot, RuleBasedBot
from loveletter.bots.last_play import last_play_chances, winning_most
from loveletter.bots.rule_based import view_unknown_counts
from loveletter.engine import CLASSIC, EDITION_2019, Action, Card, Phase, Round, View, view

GAMES = [(CLASSIC, 2), (CLASSIC, 4), (EDITION_2019, 2), (EDITION_2019, 5)]


def last_plays(edition, players: int, seed: int):
    """Views of the round's last play with one other player left, from rounds of random bots."""
    rng = random.Random(seed)
    found = 0
    while found < 150:
        state = Round.shuffled(edition, players, rng, starter=rng.randrange(players), log=True)
        bots = [RandomBot(rng.randrange(10**9)) for _ in range(players)]
        while not state.over:
            seen = view(state, state.current)
            if last_play_chances(seen, view_unknown_counts(seen)) is not None:
                found += 1
                yield seen
                break
            state.apply(bots[state.current].choose(seen))


def engine_chance(seen: View, action: Action) -> float:
    """The chance the engine gives: every way of dealing the cards the view does not show (the other's
    hand, unless known, and the set-aside card), equally likely; the move played; the share won."""
    me = seen.seat
    other = next(s for s in range(seen.players) if seen.alive[s] and s != me)
    unknown = [card for card, n in zip(Card, view_unknown_counts(seen), strict=False) for _ in range(n)]
    known = seen.known.get(other)
    deals = ([(known, s) for s in unknown] if known is not None
             else [(unknown[i], unknown[j]) for i, j in itertools.permutations(range(len(unknown)), 2)])
    won = 0.0
    for theirs, set_aside in deals:
        hands = [list(seen.hand) if s == me else ([theirs] if s == other else []) for s in range(seen.players)]
        state = Round.from_parts(seen.edition, hands=hands, discards=seen.discards, deck=[], set_aside=set_aside,
                                 face_up=seen.face_up, alive=seen.alive, protected=seen.protected,
                                 knocked_out=seen.knocked_out, current=me, phase=Phase.PLAY, turn=seen.turn)
        state.apply(action)
        assert state.over
        won += (me in state.winners) / len(state.winners)
    return won / len(deals)


@pytest.mark.parametrize(("edition", "players"), GAMES, ids=[f"{e.name}-{n}p" for e, n in GAMES])
def test_the_chances_of_the_last_play_are_those_of_the_engine(edition, players):
    """Over the deals the view allows (the counting's own assumption: every unseen card equally likely
    to be the other's or the set-aside one), each legal move's chance is what the engine's showdown
    and card effects give: Guards, Barons, Kings, Princes on either player, ties and discard totals."""
    cards = set()
    for seen in last_plays(edition, players, seed=players):
        chances = last_play_chances(seen, view_unknown_counts(seen))
        assert chances is not None and set(chances) == set(seen.legal_actions)
        for action, chance in chances.items():
            assert chance == pytest.approx(engine_chance(seen, action)), (seen.hand, seen.known, action)
            cards.add(action.card)
    assert {Card.GUARD, Card.BARON, Card.PRINCE} <= cards  # the cards that change the showdown were met


def test_only_the_last_play_with_one_other_player_left_is_counted():
    rnd = Round.shuffled(CLASSIC, 2, random.Random(3), log=True)
    seen = view(rnd, rnd.current)
    assert seen.deck_size > 0 and last_play_chances(seen, view_unknown_counts(seen)) is None
    for seen in last_plays(CLASSIC, 4, seed=1):
        assert sum(seen.alive) == 2 and seen.deck_size == 0


def _last_play(hand: list[Card], theirs: Card, set_aside: Card, seen: list[Card]) -> View:
    """Seat 0's view of the last play of a classic two-player round: the deck is empty, seat 1 holds
    ``theirs``, every card but those three and ``seen`` (seat 0's discards) face up or discarded by seat 1."""
    rest = list(CLASSIC.full_deck)
    for card in [*hand, theirs, set_aside, *seen]:
        rest.remove(card)
    state = Round.from_parts(CLASSIC, hands=[hand, [theirs]], discards=[seen, rest[3:]], deck=[],
                             set_aside=set_aside, face_up=rest[:3], alive=[True, True],
                             protected=[False, False], knocked_out=[], current=0, turn=9)
    return view(state, 0)


def test_on_the_last_play_the_guard_names_the_card_that_would_beat_the_one_kept():
    # seat 1 holds the Princess or a Baron; the Prince kept beats a Baron, so only the Princess must
    # be named: that wins for sure. Before the count, the beginner named the Baron (the Prince's threat).
    seen = _last_play([Card.GUARD, Card.PRINCE], Card.BARON, Card.PRINCESS, [Card.GUARD])
    assert sorted(view_unknown_counts(seen)[i] for i in (Card.BARON, Card.PRINCESS)) == [1, 1]
    chances = last_play_chances(seen, view_unknown_counts(seen))
    assert chances is not None
    assert chances[Action(Card.GUARD, 1, Card.PRINCESS)] == 1.0
    assert chances[Action(Card.GUARD, 1, Card.BARON)] == 0.5
    assert chances[Action(Card.PRINCE, 1)] == 0.5  # the Princess discarded, or the Baron for her
    for seed in range(5):
        assert RuleBasedBot(seed).choose(seen) == Action(Card.GUARD, 1, Card.PRINCESS)


def test_moves_whose_chances_differ_only_by_rounding_win_equally_often():
    """Chances summed in another order may differ in their last digit (0.1 + 0.2 is not 0.3): such
    moves win as often, and the beginner chooses among all of them."""
    guess_baron, guess_priest, handmaid = Action(Card.GUARD, 1, Card.BARON), Action(Card.GUARD, 1, Card.PRIEST), Action(Card.HANDMAID)
    chances = {guess_baron: 0.1 + 0.2, guess_priest: 0.3, handmaid: 0.2}
    assert set(winning_most(chances)) == {guess_baron, guess_priest}
