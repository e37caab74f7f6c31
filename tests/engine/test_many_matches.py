"""Ten thousand seeded random matches, played to the end with uniformly random legal moves.

At the end of every round the cheap invariants are checked: every card accounted for (R3), the
winners (R6.1-R6.3) and the Spy bonus (R6.4) recomputed from the final state, tokens (R2.2, R2.4),
and the next round's starter (R3.5). Most matches run without the event log (``log=False``); one
in fifty keeps it and is also written as a record and replayed (docs/record.md).
"""

from __future__ import annotations

import random

import pytest

from loveletter.engine import CLASSIC, EDITION_2019, Card, Edition, Match, Round
from loveletter.record import replay, summary, to_record

CONFIGS = [(CLASSIC, p) for p in range(2, 5)] + [(EDITION_2019, p) for p in range(2, 7)]
MATCHES_PER_CONFIG = 1250  # 8 configurations: 10,000 matches
CHUNKS = 2  # each configuration in two tests, to spread over pytest-xdist workers


def showdown_of(rnd: Round) -> tuple[tuple[int, ...], str | None]:
    """R6.1-R6.3 from the final state, independently of the engine: the winners, and how a tie for the
    highest card at the deck's end was settled, as the round's end says it (None: there was none)."""
    alive = [s for s in range(rnd.players) if rnd.is_alive(s)]
    if len(alive) == 1:
        return tuple(alive), None
    value = rnd.edition.value
    best = max(value(rnd.hands[s][0]) for s in alive)
    tied = [s for s in alive if value(rnd.hands[s][0]) == best]
    if len(tied) == 1:
        return tuple(tied), None
    if rnd.edition is not CLASSIC:
        return tuple(tied), "tie"
    totals = {s: sum(value(c) for c in rnd.discards[s]) for s in tied}
    top = max(totals.values())
    winners = tuple(s for s in tied if totals[s] == top)
    return winners, "discard_total" if len(winners) < len(tied) else "discard_total_tie"


def spy_bonus_of(rnd: Round) -> int | None:
    """R6.4: exactly one player still in the round with a Spy in their discard pile."""
    if rnd.edition is not EDITION_2019:
        return None
    spies = [s for s in range(rnd.players) if rnd.is_alive(s) and Card.SPY in rnd.discards[s]]
    return spies[0] if len(spies) == 1 else None


def check_round_end(rnd: Round, full_deck: list[Card]) -> None:
    cards = [c for h in rnd.hands for c in h] + [c for d in rnd.discards for c in d]
    cards += list(rnd.face_up) + rnd.deck
    if rnd.set_aside is not None:
        cards.append(rnd.set_aside)
    assert sorted(cards) == full_deck, "cards are missing or doubled"
    assert rnd.winners, "a round ended without a winner"
    winners, settled = showdown_of(rnd)
    assert rnd.winners == winners
    assert rnd.spy_bonus == spy_bonus_of(rnd)
    assert rnd.log is None or (rnd.log[-1].kind == "round_end" and rnd.log[-1].result == settled)
    alive = [s for s in range(rnd.players) if rnd.is_alive(s)]
    assert len(alive) >= 1
    assert len(alive) == 1 or not rnd.deck, "the round ended early"  # R6.1, R6.2
    assert all(len(rnd.hands[s]) == (1 if rnd.is_alive(s) else 0) for s in range(rnd.players))
    assert sorted(rnd.knocked_out) == [s for s in range(rnd.players) if not rnd.is_alive(s)]
    assert rnd.turn <= len(full_deck)
    assert rnd.legal_actions() == ()


def play_match(edition: Edition, players: int, seed: int, log: bool) -> Match:
    rng = random.Random(seed)
    pick = rng.random
    starter = rng.randrange(players)
    match = Match(edition, players, seed=seed, starter=starter, log=log)
    full_deck = list(edition.full_deck)
    tokens = [0] * players
    target = match.target
    max_rounds = players * (target - 1) + 1
    while True:
        rnd = match.round
        assert rnd.starter == starter
        while not rnd.over:
            actions = rnd.legal_actions()
            match.apply(actions[int(pick() * len(actions))])
        check_round_end(rnd, full_deck)
        for s in rnd.winners:
            tokens[s] += 1
        if rnd.spy_bonus is not None:
            tokens[rnd.spy_bonus] += 1
        assert match.tokens == tokens
        reached = tuple(s for s in range(players) if tokens[s] >= target)
        assert match.winners == reached  # R2.4
        if reached:
            assert len(match.rounds) <= max_rounds
            return match
        # R3.5: the first winner in turn order counting from this round's starter
        starter = next(
            (rnd.starter + i) % players for i in range(players) if (rnd.starter + i) % players in rnd.winners
        )
        assert match.next_starter() == starter
        match.next_round()


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize(("edition", "players"), CONFIGS, ids=[f"{e.name}-{p}p" for e, p in CONFIGS])
def test_random_matches(edition: Edition, players: int, chunk: int) -> None:
    per_chunk = MATCHES_PER_CONFIG // CHUNKS
    base = 1_000_000 * players + (0 if edition is CLASSIC else 500_000) + chunk * per_chunk
    for seed in range(base, base + per_chunk):
        log = seed % 50 == 0
        match = play_match(edition, players, seed, log)
        assert match.over
        if log:
            names = [f"p{s}" for s in range(players)]
            doc = to_record(match, names)
            again = replay(doc)
            assert summary(again) == summary(type(again)(match, names))
            assert to_record(again.match, names) == doc
