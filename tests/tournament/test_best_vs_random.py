"""benchmarks/best_vs_random.py: the belief-state programme plays by the engine's rules, its layers
add up to the belief they replace, and best play is never worth less than any other."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import pairwise, permutations

import pytest

from loveletter.engine import CLASSIC, Action, Card, Round, view

G, P, B, H, PR, K, C, X = (Card.GUARD, Card.PRIEST, Card.BARON, Card.HANDMAID, Card.PRINCE, Card.KING,
                           Card.COUNTESS, Card.PRINCESS)


@pytest.fixture
def solver(load_script):
    return load_script("best_vs_random")


def _random_play(state: Round) -> tuple[Fraction, Fraction]:
    """Seat 0's exact chance of (winning with no showdown tie, winning or tying) when both seats
    choose uniformly among their legal plays, from ``state`` on."""
    if state.over:
        tie = all(state.alive) and state.hands[0][0] == state.hands[1][0]
        won = 0 in state.winners
        return Fraction(won and not tie), Fraction(won or tie)
    actions = state.legal_actions()
    clean = loose = Fraction(0)
    for action in actions:
        after = state.clone()
        after.apply(action)
        a, b = _random_play(after)
        clean += a
        loose += b
    return clean / len(actions), loose / len(actions)


def _engine(mine: Card, unseen: list[Card], seen: list[Card]) -> tuple[Fraction, Fraction]:
    """The exact chances at the start of seat 0's turn, over every order of the ``unseen`` cards
    (the other seat's card, seat 0's draw, the deck, the set-aside card last)."""
    orders = set(permutations(unseen))
    clean = loose = Fraction(0)
    for order in orders:
        state = Round.from_parts(
            CLASSIC, hands=[[mine, order[1]], [order[0]]], discards=[seen, []], deck=order[2:-1],
            set_aside=order[-1], face_up=(), alive=[True, True], protected=[False, False],
            knocked_out=[], current=0)
        a, b = _random_play(state)
        clean += a
        loose += b
    return clean / len(orders), loose / len(orders)


def _counts(solver, cards: list[Card]) -> tuple[int, ...]:
    return tuple(cards.count(card) for card in solver.CARDS)


@pytest.mark.parametrize("mine, unseen", [
    (B, [G, G, PR, K, X]),
    (PR, [G, P, H, C, X]),
    (X, [G, B, PR, K]),
    (G, [P, B, H, PR, C]),
])
def test_random_play_in_the_programme_is_random_play_in_the_engine(solver, mine, unseen):
    seen = [c for c in CLASSIC.full_deck]
    for card in [mine, *unseen]:
        seen.remove(card)
    clean, loose = _engine(mine, unseen, seen)
    counts = _counts(solver, unseen)
    deck = len(unseen) - 2  # the other seat's card and the set-aside card are not in the deck
    for tie, exact in ((0.0, clean), (1.0, loose)):
        value = solver.Solver(tie, best=False).our_turn(
            solver.INDEX[mine], counts, solver._every(counts), deck, False)
        assert value == pytest.approx(float(exact), abs=1e-9)


@pytest.mark.parametrize("odds", [
    (0.0, 0.5, 0.25, 0.25, 0.0, 0.0, 0.0, 0.0),
    (0.1, 0.2, 0.3, 0.0, 0.15, 0.05, 0.1, 0.1),
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
])
def test_the_layers_add_up_to_the_belief(solver, odds):
    unseen = (3, 1, 2, 2, 1, 1, 1, 1)
    layers = solver._layers(unseen, odds)
    assert sum(share for share, _ in layers) == pytest.approx(1.0)
    total = [0.0] * len(odds)
    for share, kinds in layers:
        for i, p in enumerate(solver._among(unseen, kinds)):
            total[i] += share * p
    assert total == pytest.approx(list(odds))
    kinds_in_order = [kinds for _, kinds in layers]
    assert all(a & b == a for a, b in pairwise(kinds_in_order))  # nested


def test_best_play_is_worth_at_least_random_play(solver):
    counts = _counts(solver, [G, G, P, B, PR, K, X])
    start = (solver.INDEX[H], counts, solver._every(counts), 5, False)
    best = solver.Solver(1.0, best=True).our_turn(*start)
    random_play = solver.Solver(1.0, best=False).our_turn(*start)
    assert 0.0 <= random_play < best <= 1.0


def test_the_best_move_bot_sees_only_its_view(solver):
    """Late in rounds of random play, the best-move bot chooses a legal move, and the same one when
    the hidden cards are dealt otherwise (the view being the same)."""
    rng = random.Random(5)
    bot = solver.BestBot(solver.Solver(1.0))
    checked = 0
    while checked < 6:
        state = Round.shuffled(CLASSIC, 2, rng, starter=rng.randrange(2))
        while not state.over and (state.deck_size > 3 or len(state.legal_actions()) == 1):
            state.apply(rng.choice(state.legal_actions()))
        if state.over:
            continue
        me = state.current
        seen = view(state, me)
        other = state.clone(log=True)
        other.deck, other.set_aside = other.deck[1:] + [other.set_aside], other.deck[0]
        assert view(other, me) == seen
        choice = bot.choose(seen)
        assert choice in seen.legal_actions
        assert bot.choose(view(other, me)) == choice
        checked += 1


def test_the_worth_of_each_move_is_a_chance_and_the_best_is_chosen(solver):
    """Late in rounds of random play: every legal move gets a chance of winning, the best-move bot
    plays the highest, and throwing away the Princess is worth nothing."""
    rng = random.Random(11)
    bot = solver.BestBot(solver.Solver(1.0))
    checked = princess = 0
    while checked < 8:
        state = Round.shuffled(CLASSIC, 2, rng, starter=rng.randrange(2), log=True)
        while not state.over and (state.deck_size > 3 or len(state.legal_actions()) == 1):
            state.apply(rng.choice(state.legal_actions()))
        if state.over:
            continue
        seen = view(state, state.current)
        worth = bot.worth(seen)
        assert set(worth) == set(seen.legal_actions)
        assert all(0.0 <= value <= 1.0 for value in worth.values())
        assert worth[bot.choose(seen)] == max(worth.values())
        for action, value in worth.items():
            if action.card is X:
                assert value == 0.0
                princess += 1
        checked += 1
    assert princess  # the seed reaches a hand with the Princess


def test_decisions_are_named_by_card_or_by_target_and_guess(solver):
    hand = (G, B)
    guard = Action(G, target=1, guess=X)
    assert solver._decision(hand, guard, Action(G, target=1, guess=H)) == "guard: target or guess"
    assert solver._decision(hand, Action(B, target=1), guard) == "baron + guard: played baron, best guard"


def test_regret_counts_the_bots_losses_by_kind(solver, monkeypatch):
    """A bot that always plays the programme's best move loses nothing. (The bot and the measure share
    one programme: each would otherwise work out the same values, most of the test's time.)"""
    programme = solver.Solver(1.0)
    monkeypatch.setattr(solver, "Solver", lambda tie: programme)  # (regret() asks for Solver(1.0))
    monkeypatch.setattr(solver, "make_bot", lambda level, seed: solver.BestBot(programme))
    per_round, kinds = solver.regret("best", 2, seed=1)
    assert per_round == 0.0 and kinds == {}
