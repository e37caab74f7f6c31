"""Property tests over random games (docs/rules.md, docs/record.md).

Every game is drawn as (edition, players, seed) and played with ``random.Random(seed)`` choosing
uniformly among ``legal_actions()``. The properties:

a. every card is accounted for at every step, and hand sizes are right (R3, R4.1, R5.9, R5.11);
b. every round and every match ends, and the match winners are those who reached the target (R2.4);
c. ``legal_actions()`` agrees with ``apply()``: legal actions are accepted, others are refused with
   :class:`IllegalActionError` and change nothing (R4.7);
d. a seat's view does not change when the cards it cannot know are permuted (R7);
e. play -> record -> JSON -> replay gives the same match, and the record written again is the same;
f. what a seat knows of another player's hand is in that hand (R7).
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenarios import all_cards, permuted_copy

from loveletter.engine import (
    CLASSIC,
    EDITION_2019,
    TARGETED,
    Action,
    Card,
    Edition,
    IllegalActionError,
    Match,
    Phase,
    Round,
    view,
)
from loveletter.engine.errors import MESSAGES
from loveletter.record import replay, summary, to_record

CONFIGS = [(CLASSIC, p) for p in range(2, 5)] + [(EDITION_2019, p) for p in range(2, 7)]

games = st.tuples(
    st.sampled_from(CONFIGS),
    st.integers(min_value=0, max_value=2**64 - 1),
)

SETTINGS: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
    "database": None,
}


def _ids(config: tuple[Edition, int]) -> str:
    return f"{config[0].name}-{config[1]}p"


# ------------------------------------------------------------------------------------ helpers


def max_rounds(match: Match) -> int:
    """Every round gives at least one token (R2.2), so a match cannot last longer than this."""
    return match.players * (match.target - 1) + 1


def max_steps(edition: Edition) -> int:
    """Every turn takes a card from the deck for the next draw (a Chancellor puts back as many as it
    drew), so a round has fewer turns than cards, and at most two decisions per turn."""
    return 2 * len(edition.full_deck)


def steps(match: Match, rng: random.Random) -> Iterator[Round]:
    """Play ``match`` to its end with uniformly random legal moves; yield the round before every
    decision and once more after each round has ended (after its tokens are given)."""
    rounds = 0
    while True:
        rnd = match.round
        rounds += 1
        assert rounds <= max_rounds(match), "the match does not end"
        n = 0
        while not rnd.over:
            yield rnd
            actions = rnd.legal_actions()
            assert actions, "a round that is not over must offer a move"
            match.apply(actions[rng.randrange(len(actions))])
            n += 1
            assert n <= max_steps(rnd.edition), "the round does not end"
        assert rnd.turn <= len(rnd.edition.full_deck)
        yield rnd
        if match.over:
            return
        match.next_round()


def new_match(edition: Edition, players: int, seed: int, *, log: bool = True) -> tuple[Match, random.Random]:
    rng = random.Random(seed)
    match = Match(edition, players, seed=rng.randrange(2**32), starter=rng.randrange(players), log=log)
    return match, rng


def check_cards(rnd: Round) -> None:
    assert all_cards(rnd) == Counter(rnd.edition.full_deck)
    assert len(rnd.face_up) == (3 if rnd.players == 2 else 0)  # R3.3
    for seat in range(rnd.players):
        size = len(rnd.hands[seat])
        if not rnd.is_alive(seat):
            assert size == 0, f"seat {seat} is out but holds {rnd.hands[seat]}"  # R5.11
        elif rnd.over or seat != rnd.current:
            assert size == 1, f"seat {seat} holds {rnd.hands[seat]}"
        elif rnd.phase is Phase.PLAY:
            assert size == 2, f"seat {seat} holds {rnd.hands[seat]} on its turn"  # R4.1
        else:
            assert rnd.phase is Phase.CHANCELLOR
            assert 2 <= size <= 3, f"seat {seat} holds {rnd.hands[seat]} choosing for the Chancellor"
    assert set(rnd.knocked_out) == {s for s in range(rnd.players) if not rnd.is_alive(s)}
    assert len(set(rnd.knocked_out)) == len(rnd.knocked_out)
    if not rnd.over:
        assert rnd.is_alive(rnd.current)
        assert rnd.alive_mask.bit_count() >= 2


def snapshot(rnd: Round) -> tuple[Any, ...]:
    return (
        [h[:] for h in rnd.hands],
        [d[:] for d in rnd.discards],
        rnd.deck[:],
        rnd.set_aside,
        rnd.face_up,
        rnd.alive_mask,
        rnd.protected_mask,
        rnd.knocked_out[:],
        rnd.current,
        rnd.phase,
        rnd.turn,
        rnd.winners,
        rnd.spy_bonus,
        len(rnd.log) if rnd.log is not None else None,
    )


# ------------------------------------------------------------------------------------ a


@settings(max_examples=80, **SETTINGS)
@given(games)
def test_every_card_is_accounted_for_at_every_step(game: tuple[tuple[Edition, int], int]) -> None:
    (edition, players), seed = game
    match, rng = new_match(edition, players, seed)
    for rnd in steps(match, rng):
        check_cards(rnd)


# ------------------------------------------------------------------------------------ b


@settings(max_examples=200, **SETTINGS)
@given(games)
def test_every_round_and_every_match_ends(game: tuple[tuple[Edition, int], int]) -> None:
    (edition, players), seed = game
    match, rng = new_match(edition, players, seed, log=False)
    tokens = [0] * players
    finished: list[Round] = []
    for rnd in steps(match, rng):
        if not rnd.over:
            continue
        finished.append(rnd)
        assert rnd.winners and list(rnd.winners) == sorted(set(rnd.winners))
        assert all(rnd.is_alive(s) for s in rnd.winners)
        for s in rnd.winners:
            tokens[s] += 1  # R2.2
        if rnd.spy_bonus is not None:
            assert rnd.is_alive(rnd.spy_bonus)
            tokens[rnd.spy_bonus] += 1  # R6.4
        assert match.tokens == tokens
        reached = tuple(s for s in range(players) if tokens[s] >= match.target)
        assert match.winners == reached  # R2.4: the match ends as soon as someone reaches it
    assert match.over
    assert match.winners and all(match.tokens[s] >= match.target for s in match.winners)
    assert set(match.winners) == {s for s in range(players) if match.tokens[s] >= match.target}
    assert [r for r in match.rounds] == finished
    with pytest.raises(ValueError):
        match.next_round()


# ------------------------------------------------------------------------------------ c


def candidate_actions(rnd: Round, rng: random.Random, count: int) -> list[Action]:
    """Random actions over every card, seats -1..players and guesses, with Chancellor choices made
    of the cards in hand and of any card; legal ones included (they are filtered later)."""
    cards = list(Card)
    seats: list[int | None] = [None, *range(-1, rnd.players + 1)]
    guesses: list[Card | None] = [None, *cards]
    hand = rnd.hands[rnd.current]
    found: list[Action] = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.55:
            found.append(Action(rng.choice(cards), rng.choice(seats), rng.choice(guesses)))
        elif kind < 0.7:  # a card from the hand, no guess: near the legal moves
            found.append(Action(rng.choice(hand), rng.choice(seats), None))
        else:  # a Chancellor choice: from the hand, or from anything
            pool = hand if rng.random() < 0.6 else cards
            keep = rng.choice(pool)
            size = rng.choice([0, 1, 2, 2, 3])
            bottom = tuple(rng.choice(pool if rng.random() < 0.8 else cards) for _ in range(size))
            if rng.random() < 0.1:
                bottom = None  # type: ignore[assignment]
            card = Card.CHANCELLOR if rng.random() < 0.85 else rng.choice(cards)
            target = None if rng.random() < 0.8 else rng.choice(seats)
            guess = None if rng.random() < 0.9 else rng.choice(guesses)
            found.append(Action(card, target, guess, keep, bottom))
    if rnd.phase is Phase.CHANCELLOR:  # right choice, wrong extras; and a choice left out
        for legal in rnd.legal_actions()[:2]:
            found.append(legal._replace(target=rng.randrange(rnd.players)))
            found.append(legal._replace(guess=Card.PRIEST))
            found.append(legal._replace(bottom=legal.bottom[::-1] + (Card.GUARD,)))  # type: ignore[index]
        found.append(Action(Card.CHANCELLOR))
    return found


@settings(max_examples=80, **SETTINGS)
@given(games)
def test_legal_actions_agree_with_apply(game: tuple[tuple[Edition, int], int]) -> None:
    (edition, players), seed = game
    match, rng = new_match(edition, players, seed)
    refused = 0
    for rnd in steps(match, rng):
        if rnd.over:
            before = snapshot(rnd)
            with pytest.raises(IllegalActionError):
                rnd.apply(Action(Card.GUARD, 0, Card.PRIEST))
            assert snapshot(rnd) == before
            continue
        legal = rnd.legal_actions()
        assert len(set(legal)) == len(legal), "legal_actions() lists a move twice"
        for action in legal:
            assert rnd.is_legal(action)
            trial = rnd.clone(log=True)
            trial.apply(action)  # accepted
            check_cards(trial)
        legal_set = set(legal)
        for action in candidate_actions(rnd, rng, 12):
            if action in legal_set:
                continue
            assert not rnd.is_legal(action)
            before = snapshot(rnd)
            with pytest.raises(IllegalActionError) as info:
                rnd.apply(action)
            refused += 1
            assert info.value.key in MESSAGES and "\n" not in str(info.value)
            assert snapshot(rnd) == before, f"refusing {action!r} changed the round"
            assert rnd.legal_actions() == legal
    assert refused > 0


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_refusal_names_the_countess_rule(config: tuple[Edition, int]) -> None:
    """R4.4: playing the King or Prince while holding the Countess is refused for the Countess rule."""
    edition, players = config
    seen = 0
    for seed in range(200):
        match, rng = new_match(edition, players, seed, log=False)
        for rnd in steps(match, rng):
            hand = rnd.hands[rnd.current] if not rnd.over else []
            if rnd.phase is not Phase.PLAY or Card.COUNTESS not in hand:
                continue
            other = hand[1] if hand[0] is Card.COUNTESS else hand[0]
            if other not in (Card.KING, Card.PRINCE):
                continue
            assert rnd.legal_actions() == (Action(Card.COUNTESS),)
            for target in [None, *range(rnd.players)]:
                with pytest.raises(IllegalActionError) as info:
                    rnd.apply(Action(other, target))
                assert info.value.key == "countess", str(info.value)
                assert str(info.value) == (
                    f"seat {rnd.current} must play the Countess while holding the {other.name.title()} (R4.4)"
                )
                seen += 1
        if seen >= 5:
            return
    pytest.fail("no Countess with a King or Prince came up")


# ------------------------------------------------------------------------------------ d


@settings(max_examples=60, **SETTINGS)
@given(games)
def test_views_do_not_depend_on_hidden_cards(game: tuple[tuple[Edition, int], int]) -> None:
    (edition, players), seed = game
    match, rng = new_match(edition, players, seed)
    for rnd in steps(match, rng):
        if rnd.over or rng.random() > 0.35:
            continue
        for seat in [None, *range(players)]:
            seen = view(rnd, seat)
            for _ in range(2):
                copy = permuted_copy(rnd, seat, rng)
                assert view(copy, seat) == seen, f"seat {seat}'s view depends on hidden cards"


def test_permuted_copy_really_moves_hidden_cards() -> None:
    """The permutation above is not a no-op (a sanity check on the test itself)."""
    match, rng = new_match(EDITION_2019, 4, 12345)
    rnd = match.round
    moved = any(permuted_copy(rnd, 0, rng).hands[1:] != rnd.hands[1:] for _ in range(20))
    assert moved
    assert all(permuted_copy(rnd, 0, rng).hands[0] == rnd.hands[0] for _ in range(20))


# ------------------------------------------------------------------------------------ e


def outcome(match: Match) -> tuple[Any, ...]:
    return (
        match.tokens,
        match.winners,
        match.target,
        [(r.starter, r.over, r.winners, r.knocked_out, r.spy_bonus, r.initial_deck) for r in match.rounds],
        snapshot(match.round),
    )


@settings(max_examples=100, **SETTINGS)
@given(games, st.booleans())
def test_record_round_trip(game: tuple[tuple[Edition, int], int], stop_early: bool) -> None:
    (edition, players), seed = game
    match, rng = new_match(edition, players, seed)
    stop_at = rng.randrange(200) if stop_early else -1
    for i, rnd in enumerate(steps(match, rng)):
        # stop in the middle (a match in progress) only between turns, not inside a Chancellor choice
        if i >= stop_at >= 0 and rnd.phase is not Phase.CHANCELLOR:
            break
    names = [f"player {s}" for s in range(players)]
    doc = to_record(match, names)
    text = json.dumps(doc)
    doc2 = json.loads(text)
    assert doc2 == doc
    first = replay(doc2)
    assert first.names == names
    assert outcome(first.match) == outcome(match)
    expected = summary(type(first)(match, names))
    assert summary(first) == expected
    assert summary(replay(json.loads(text))) == expected  # stable
    assert json.loads(json.dumps(summary(first))) == expected
    assert to_record(first.match, names) == doc  # the record written again is the same
    # the summary agrees with the match
    assert expected["tokens"] == match.tokens
    assert expected["finished"] == match.over
    assert expected["winners"] == sorted(match.winners)
    assert [r["winners"] for r in expected["rounds"]] == [sorted(r.winners) for r in match.rounds]
    assert [r["out"] for r in expected["rounds"]] == [list(r.knocked_out) for r in match.rounds]


def test_record_of_a_match_paused_in_a_chancellor_choice_replays() -> None:
    """R5.9: a match saved while a Chancellor's choice is open replays to just before it."""
    for seed in itertools.count():
        match, rng = new_match(EDITION_2019, 3, seed)
        for rnd in steps(match, rng):
            if rnd.phase is Phase.CHANCELLOR:
                break
        else:
            continue
        break
    # docs/record.md wants 'keep' on every Chancellor turn that drew, so the open turn is left out:
    # the replay stands just before the Chancellor was played, the same player to move with it.
    doc = json.loads(json.dumps(to_record(match, ["a", "b", "c"])))
    replayed = replay(doc).match.round
    assert replayed.phase is Phase.PLAY
    assert replayed.current == match.round.current and replayed.turn == match.round.turn
    assert Card.CHANCELLOR in replayed.hands[replayed.current]
    assert len(replayed.deck) == len(match.round.deck) + len(match.round.hands[match.round.current]) - 1


# ------------------------------------------------------------------------------------ misc


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_targeted_cards_have_a_target_when_anyone_is_choosable(config: tuple[Edition, int]) -> None:
    """R4.5/R4.6 over many random positions: a targeted card goes without a target exactly when no
    one may be chosen (never for a Prince), and a Guard always names a non-Guard card of the edition."""
    edition, players = config
    for seed in range(15):
        match, rng = new_match(edition, players, seed, log=False)
        for rnd in steps(match, rng):
            if rnd.phase is not Phase.PLAY:
                continue
            choosable = rnd.choosable(rnd.current)
            for a in rnd.legal_actions():
                assert a.keep is None and a.bottom is None
                if a.card not in TARGETED:
                    assert a.target is None and a.guess is None
                elif a.card is Card.PRINCE:
                    assert a.target in [*choosable, rnd.current]
                elif a.target is None:
                    assert not choosable and a.guess is None
                else:
                    assert a.target in choosable
                    if a.card is Card.GUARD:
                        assert a.guess is not None and a.guess is not Card.GUARD and edition.has(a.guess)
                    else:
                        assert a.guess is None


# ------------------------------------------------------------------------------------ f


@settings(max_examples=80, **SETTINGS)
@given(games)
def test_what_a_seat_knows_of_another_hand_is_true(game: tuple[tuple[Edition, int], int]) -> None:
    """Every card in a view's ``known`` is in that player's hand, at every step: a Priest's look, a
    Baron tie, a King trade, and a card the seat put under the deck that another player drew."""
    (edition, players), seed = game
    match, rng = new_match(edition, players, seed)
    for rnd in steps(match, rng):
        if rnd.over:
            continue
        for seat in range(players):
            for other, card in view(rnd, seat).known.items():
                assert card in rnd.hands[other], f"seat {seat} takes seat {other} to hold the {card}: {rnd.hands[other]}"
