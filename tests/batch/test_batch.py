"""The batched simulator (loveletter.batch) against the engine: same decks and moves, same rounds.

Every round the simulator plays is replayed in the engine (``Round(edition, players, deck, starter)``
and the recorded action numbers, decoded with the shared encoding): every move must be legal there,
and the winners, the Spy bonus (R6.4), the turns and the seats left in must be the same. The step
API (:class:`~loveletter.batch.Batch`) is checked move by move: its legal masks are the engine's.
Random play is also compared with the engine's random play in distribution (no timings here: see
benchmarks/batch.py).
"""

from __future__ import annotations

import copy
import math
import pickle
import random
import threading
from collections import Counter

import numpy as np
import pytest
from numba import njit

from loveletter import batch as batch_module
from loveletter.batch import Batch, Observation, Policy, RoundResults, play_rounds, random_rounds
from loveletter.encoding import actions_for
from loveletter.engine import CLASSIC, EDITION_2019, TARGETED, Action, Card, Edition, Round

CONFIGS = [(CLASSIC, p) for p in range(2, 5)] + [(EDITION_2019, p) for p in range(2, 7)]
IDS = [f"{edition.name}-{players}p" for edition, players in CONFIGS]


def _mask(seats: tuple[int, ...]) -> int:
    return sum(1 << s for s in seats)


def _replay(
    edition: Edition, players: int, deck: np.ndarray, starter: int, moves: np.ndarray,
    seen: Counter[str] | None = None,
) -> Round:
    """The round of ``deck`` in the engine, the action numbers ``moves`` applied (-1: the end);
    ``seen`` counts the subtle rules the round went through."""
    actions = actions_for(edition, players)
    r = Round(edition, players, [Card(int(c)) for c in deck], starter, log=seen is not None)
    for number in moves:
        if number < 0:
            break
        assert not r.over, "the simulator moved in a round the engine had finished"
        legal = r.legal_actions()
        action = actions.action(int(number), legal)  # a ValueError if it is not legal in the engine
        if seen is not None:
            _count_decision(r, legal, action, seen)
        r.apply(action)
    if seen is not None:
        _count_round(r, seen)
    return r


def _assert_same(r: Round, results: RoundResults, i: int) -> None:
    assert r.over, f"round {i}: the simulator stopped before the engine's round was over"
    spy = -1 if r.spy_bonus is None else r.spy_bonus
    engine = (_mask(r.winners), spy, r.turn, r.alive_mask)
    batch = (int(results.winners[i]), int(results.spy_bonus[i]), int(results.turns[i]), int(results.alive[i]))
    assert batch == engine, f"round {i}: (winners, spy bonus, turns, alive) {batch} != engine {engine}"


def _replay_all(edition: Edition, players: int, results: RoundResults) -> None:
    assert results.decks is not None and results.starters is not None and results.moves is not None
    for i in range(len(results)):
        r = _replay(edition, players, results.decks[i], int(results.starters[i]), results.moves[i])
        _assert_same(r, results, i)


# ------------------------------------------------------------------ the same rounds as the engine


@pytest.mark.parametrize(("edition", "players"), CONFIGS, ids=IDS)
def test_random_rounds_replay_in_the_engine(edition: Edition, players: int) -> None:
    recorded = random_rounds(1000, edition=edition.name, players=players, seed=players, record=True)
    _replay_all(edition, players, recorded)
    # Recording changes nothing: the same seed plays the same rounds without it.
    plain = random_rounds(1000, edition=edition.name, players=players, seed=players)
    for field in ("winners", "spy_bonus", "turns", "alive"):
        assert (getattr(plain, field) == getattr(recorded, field)).all(), field


@pytest.mark.parametrize(("edition", "players"), CONFIGS, ids=IDS)
def test_given_decks_and_starters_replay_in_the_engine(edition: Edition, players: int) -> None:
    rng = np.random.default_rng(100 + players)
    decks = rng.permuted(np.tile([int(c) for c in edition.full_deck], (500, 1)), axis=1)
    starters = rng.integers(0, players, 500)
    played = play_rounds(decks, starters, edition=edition.name, players=players, seed=5)
    assert played.decks is not None and played.moves is not None and played.starters is not None
    assert (played.decks == decks).all() and (played.starters == starters).all()
    _replay_all(edition, players, played)


def test_the_rare_rules_come_up_in_the_replays() -> None:
    """The random rounds reach the subtle rules, so the replays above do test them."""
    seen: Counter[str] = Counter()
    for edition, players in ((CLASSIC, 2), (CLASSIC, 4), (EDITION_2019, 2), (EDITION_2019, 5)):
        recorded = random_rounds(1500, edition=edition.name, players=players, seed=11, record=True)
        assert recorded.decks is not None and recorded.moves is not None
        for i in range(len(recorded)):
            r = _replay(edition, players, recorded.decks[i], 0, recorded.moves[i], seen)
            _assert_same(r, recorded, i)
    missing = [rule for rule in RARE_RULES if not seen[rule]]
    assert not missing, f"never reached: {missing} (seen: {dict(seen)})"


RARE_RULES = (
    "R4.4 countess forced", "R4.6 no one to choose", "R4.6 the prince chooses its player",
    "R5.1 guard hits", "R5.3 baron tie", "R5.5 prince on an empty deck: the set-aside card",
    "R5.8 prince discards the princess", "R5.8 princess played", "R5.9 chancellor draws one",
    "R5.9 chancellor on an empty deck", "R6.1 last standing", "R6.2 showdown",
    "R6.3 discard totals decide", "R6.3 shared win", "R6.4 spy bonus", "R6.4 two with a spy: no bonus",
)


def _count_decision(r: Round, legal: tuple[Action, ...], action: Action, seen: Counter[str]) -> None:
    hand = r.hands[r.current]
    if len(legal) == 1 and action.card is Card.COUNTESS and {Card.KING, Card.PRINCE} & set(hand):
        seen["R4.4 countess forced"] += 1
    if action.card in TARGETED and action.target is None and action.keep is None:
        seen["R4.6 no one to choose"] += 1
    if action.card is Card.PRINCE and not r.choosable(r.current):
        seen["R4.6 the prince chooses its player"] += 1
    if action.card is Card.CHANCELLOR and action.keep is None and r.deck_size == 0:
        seen["R5.9 chancellor on an empty deck"] += 1


def _count_round(r: Round, seen: Counter[str]) -> None:
    assert r.log is not None
    for k, e in enumerate(r.log):
        if e.kind == "play" and e.result == "hit":
            seen["R5.1 guard hits"] += 1
        elif e.kind == "baron" and e.result == "tie":
            seen["R5.3 baron tie"] += 1
        elif e.kind == "draw" and e.result == "set_aside":
            seen["R5.5 prince on an empty deck: the set-aside card"] += 1
        elif e.kind == "out" and e.result == "princess":
            by_prince = r.log[k - 1].kind == "discard"
            seen["R5.8 prince discards the princess" if by_prince else "R5.8 princess played"] += 1
        elif e.kind == "chancellor" and e.result == 1:
            seen["R5.9 chancellor draws one"] += 1
    alive = [s for s in range(r.players) if r.is_alive(s)]
    if len(alive) == 1:
        seen["R6.1 last standing"] += 1
    else:
        seen["R6.2 showdown"] += 1
        best = max(r.hands[s][0] for s in alive)
        if r.edition is CLASSIC and sum(r.hands[s][0] == best for s in alive) > 1:
            seen["R6.3 discard totals decide" if len(r.winners) == 1 else "R6.3 shared win"] += 1
    spies = [s for s in alive if Card.SPY in r.discards[s]]
    if len(spies) == 1 and r.spy_bonus == spies[0]:
        seen["R6.4 spy bonus"] += 1
    if len(spies) > 1 and r.spy_bonus is None:
        seen["R6.4 two with a spy: no bonus"] += 1


# ------------------------------------------------------------------ the step API


@pytest.mark.parametrize(("edition", "players"), CONFIGS, ids=IDS)
def test_batch_legal_masks_and_observations_are_the_engines(edition: Edition, players: int) -> None:
    """A random policy steps a Batch and the engine side by side; at every decision the legal
    numbers, the current seat and what it may know agree."""
    actions = actions_for(edition, players)
    rng = np.random.default_rng(players)
    count = 60
    batch = Batch(edition.name, players, count, seed=players, starters=rng.integers(0, players, count))
    rounds = [Round(edition, players, [Card(int(c)) for c in batch.decks[i]], int(batch.starters[i]), log=False)
              for i in range(count)]
    while not batch.done.all():
        masks = batch.legal_mask()
        seen = batch.observation()
        for i, r in enumerate(rounds):
            assert batch.done[i] == r.over
            if r.over:
                assert not masks[i].any() and batch.current[i] == -1 and (seen.hand[i] == -1).all()
                continue
            assert (masks[i] == actions.mask(r.legal_actions()).astype(bool)).all(), f"round {i}"
            assert batch.current[i] == seen.seat[i] == r.current
            assert sorted(c for c in seen.hand[i] if c >= 0) == sorted(int(c) for c in r.hands[r.current])
            assert seen.phase[i] == int(r.phase)
            assert (seen.alive[i], seen.protected[i]) == (r.alive_mask, r.protected_mask)
            assert seen.deck_size[i] == r.deck_size
            totals = [sum(edition.value(c) for c in r.discards[s]) for s in range(players)]
            assert list(seen.discard_totals[i]) == totals
        chosen = np.array([rng.choice(np.flatnonzero(m)) if m.any() else -1 for m in masks])
        batch.step(chosen)
        for i, r in enumerate(rounds):
            if not r.over:
                r.apply(actions.action(int(chosen[i]), r.legal_actions()))
    results = batch.results
    for i, r in enumerate(rounds):
        _assert_same(r, results, i)


def test_batch_replays_the_moves_of_play_rounds() -> None:
    played = random_rounds(200, edition="2019", players=4, seed=3, record=True)
    assert played.decks is not None and played.moves is not None
    batch = Batch("2019", 4, decks=played.decks, starters=0)
    for step in range(played.moves.shape[1]):
        batch.step(played.moves[:, step])  # -1 where a round is over: ignored
    assert batch.done.all() and batch.moves.shape[1] < played.moves.shape[1]  # (the padding is no step)
    for field in ("winners", "spy_bonus", "turns", "alive"):
        assert (getattr(batch.results, field) == getattr(played, field)).all(), field
    moves = batch.moves
    assert (np.where(moves >= 0, moves, -1) == played.moves[:, : moves.shape[1]]).all()


def test_batch_refuses_an_illegal_action_and_changes_nothing() -> None:
    batch = Batch("classic", 2, 8, seed=1)
    masks = batch.legal_mask()
    before = (batch.current.copy(), batch.observation().hand.copy())
    illegal = np.flatnonzero(~masks[3])[0]
    actions = masks.argmax(axis=1)
    actions[3] = illegal
    # which seat's move it was, named, and the legal ones (a per-seat policy's was not told apart)
    names = actions_for(CLASSIC, 2).names
    legal = ", ".join(f"{k} ({names[k]})" for k in np.flatnonzero(masks[3]))
    with pytest.raises(ValueError) as refused:
        batch.step(actions)
    assert str(refused.value) == (f"round 3: action {illegal} ({names[illegal]}) is not legal now for seat"
                                  f" {batch.current[3]}; the legal actions are: {legal}")
    with pytest.raises(ValueError, match="round 0"):
        batch.step(np.full(8, actions_for(CLASSIC, 2).size))
    # numbers that are not whole are refused, not cut down (8.9 was action 8)
    for wrong, kind in ((actions + 0.9, "float64"), (np.full(8, True), "bool")):
        with pytest.raises(ValueError, match=f"actions are whole numbers \\(action numbers\\), not {kind} values"):
            batch.step(wrong)
    # nor too large for numpy's int64 (it would wrap them round); a small uint64 is a number like any
    with pytest.raises(ValueError, match="there is no action 18446744073709551615: no action has so large a number"):
        batch.step(np.full(8, 2**64 - 1, dtype=np.uint64))
    with pytest.raises(ValueError, match=r"one action number, or one per round \(8\), not \(3,\)"):
        batch.step(actions[:3])
    assert (batch.current == before[0]).all() and (batch.observation().hand == before[1]).all()
    assert (batch.legal_mask() == masks).all() and batch.moves.shape == (8, 0)
    batch.step(masks.argmax(axis=1).astype(np.uint64))
    assert (batch.moves[:, 0] == masks.argmax(axis=1)).all()


def test_batch_runs_one_policy_per_seat() -> None:
    calls: Counter[int] = Counter()

    def lowest(seat: int) -> Policy:
        def policy(masks: np.ndarray, seen: Observation) -> np.ndarray:
            calls[seat] += 1
            assert not masks[seen.seat != seat].any()  # only this seat's rounds
            # and only this seat's hands (R7): the others' rows were shown whole
            assert (seen.hand[seen.seat != seat] == -1).all() and (seen.hand[seen.seat == seat, 0] >= 0).all()
            return masks.argmax(axis=1)
        return policy

    batch = Batch("2019", 3, 50, seed=9)
    results = batch.run([lowest(0), lowest(1), lowest(2)])
    assert batch.done.all() and set(calls) == {0, 1, 2}
    with pytest.raises(ValueError, match="one policy for all seats, or one per seat: 3 seats, not 1 policies"):
        Batch("2019", 3, 5, seed=9).run([lowest(0)])  # it said: "round 0: action -1 is not legal now"
    # The same policy as one callable plays the same rounds.
    again = Batch("2019", 3, 50, seed=9).run(lambda masks, seen: masks.argmax(axis=1))
    assert (again.winners == results.winners).all() and (again.turns == results.turns).all()
    assert (results.winners != 0).all()


@pytest.mark.parametrize("per_seat", [False, True])
def test_a_policy_writing_on_its_masks_makes_no_move_legal(per_seat) -> None:
    """The masks a policy is given are its own: marking every move legal on them, then choosing one
    that is not, is still refused (as step() refuses it), and nothing is played."""

    def cheat(masks: np.ndarray, seen: Observation) -> np.ndarray:
        illegal = (~masks).argmax(axis=1)
        masks[:] = True
        return illegal

    batch = Batch("classic", 2, 4, seed=1)
    with pytest.raises(ValueError, match="is not legal now"):
        batch.run([cheat, cheat] if per_seat else cheat)
    assert batch.moves.shape == (4, 0)


def test_a_number_out_of_the_action_numbers_is_said_so_and_a_step_after_the_end_adds_no_moves() -> None:
    """A number no action has was told "not legal now", and a step once every round was over added
    a step of -1s to the moves."""
    batch = Batch("classic", 2, 4, seed=1)
    for number in (10**6, -7):
        with pytest.raises(ValueError, match=f"^round 0: there is no action {number}: actions are numbered 0 to"
                                             f" {batch.actions.size - 1}$"):
            batch.step(number)
    assert batch.moves.shape == (4, 0)
    batch.run(lambda masks, seen: masks.argmax(axis=1))
    steps = batch.moves.shape[1]
    for number in (0, 10**6, -7):  # (ignored, as in any round over)
        batch.step(number)
    assert batch.moves.shape == (4, steps)


@pytest.mark.parametrize(("chosen", "says"), [
    (lambda masks: masks.argmax(axis=1) + 0.9, "actions are whole numbers \\(action numbers\\), not float64 values"),
    (lambda masks: masks.argmax(axis=1).astype(str), "actions are whole numbers \\(action numbers\\), not <U"),
    (lambda masks: masks.argmax(axis=1)[:2], "one action number, or one per round \\(4\\), not \\(2,\\)"),
])
def test_a_seats_policy_is_held_to_what_one_policy_is(chosen, says) -> None:
    """Numbers that are not whole, or not one per round, are refused as step() refuses them (8.9 was
    cut to 8, "3" read as 3, and a short array failed in numpy's words), naming the seat."""
    batch = Batch("classic", 2, 4, seed=1)
    with pytest.raises(ValueError, match=f"^seat 0's policy: {says}"):
        batch.run([lambda masks, seen: chosen(masks), lambda masks, seen: masks.argmax(axis=1)])
    assert batch.moves.shape == (4, 0)  # nothing played


# ------------------------------------------------------------------ seeds, decks and inputs


def test_the_same_seed_plays_the_same_rounds_and_other_seeds_others() -> None:
    a = random_rounds(3000, edition="2019", players=3, seed=42, record=True)
    b = random_rounds(3000, edition="2019", players=3, seed=42, record=True)
    c = random_rounds(3000, edition="2019", players=3, seed=43, record=True)
    assert a.decks is not None and b.decks is not None and c.decks is not None
    assert a.moves is not None and b.moves is not None and c.moves is not None
    assert (a.decks == b.decks).all() and (a.moves == b.moves).all() and (a.winners == b.winners).all()
    assert (a.decks != c.decks).any(axis=1).mean() > 0.99
    assert (a.winners != c.winners).mean() > 0.3
    # A longer run starts with the same rounds; given decks replay with the same moves from the seed.
    longer = random_rounds(4000, edition="2019", players=3, seed=42)
    assert (longer.winners[:3000] == a.winners).all()
    d = play_rounds(a.decks, 1, edition="2019", players=3, seed=7)
    e = play_rounds(a.decks, 1, edition="2019", players=3, seed=7)
    assert d.moves is not None and e.moves is not None
    assert (d.moves == e.moves).all() and (d.starters == 1).all()


def test_rounds_played_a_part_at_a_time_are_the_rounds_played_at_once(monkeypatch) -> None:
    """The random rounds' kernel plays a part of them at a time, so that Python sees a Ctrl-C between
    parts (played by one call, 30 million rounds ran on 18 s past it): the rounds are the same."""
    at_once = random_rounds(300, edition="2019", players=4, seed=5, record=True)
    given = play_rounds(at_once.decks, 2, edition="2019", players=4, seed=9)
    monkeypatch.setattr(batch_module, "KERNEL_ROUNDS", 7)
    parts = random_rounds(300, edition="2019", players=4, seed=5, record=True)
    assert parts.decks is not None and parts.moves is not None and at_once.moves is not None
    assert (parts.decks == at_once.decks).all() and (parts.moves == at_once.moves).all()
    assert (parts.winners == at_once.winners).all() and (parts.spy_bonus == at_once.spy_bonus).all()
    given_parts = play_rounds(at_once.decks, 2, edition="2019", players=4, seed=9)
    assert given.moves is not None and given_parts.moves is not None
    assert (given_parts.moves == given.moves).all() and (given_parts.winners == given.winners).all()


def test_the_kernels_are_compiled_where_numba_cannot_keep_its_cache() -> None:
    """Installed read-only, with no home folder that can be written (a container's, a service
    account's), numba finds nowhere to cache the kernels: importing the module failed with its
    traceback ("cannot cache function '_mix': no locator available"). A function numba finds no
    folder for (one made from text) stands for it."""
    made: dict[str, object] = {}
    exec("def twice(x):\n    return 2 * x\n", made)  # (no file: numba has no folder to cache it in)
    with pytest.raises(RuntimeError, match="cannot cache"):
        njit(cache=True)(made["twice"])
    assert batch_module._compiled(made["twice"])(21) == 42


def test_a_batch_is_stepped_from_one_place_at_a_time() -> None:
    """Stepped by two threads at once, or by a policy that run() asked for its moves, a batch took
    moves checked against the masks of rounds that had moved on, without a word: its records
    replayed as illegal in the engine (1,702 rounds of 2,000). Now refused, and nothing changes."""
    batch = Batch("classic", 4, 50, seed=3)

    def stepping(masks: np.ndarray, seen: Observation) -> np.ndarray:
        batch.step(masks.argmax(axis=1))
        return masks.argmax(axis=1)

    with pytest.raises(RuntimeError, match=r"^this batch is being stepped already \(by its run\(\), or in another"
                                           r" thread\): a policy only chooses, and each thread needs a batch of its own$"):
        batch.run(stepping)
    assert batch.moves.shape == (50, 0)
    told: list[BaseException] = []

    def elsewhere(masks: np.ndarray, seen: Observation) -> np.ndarray:  # another thread steps it meanwhile
        def step() -> None:
            try:
                batch.step(masks.argmax(axis=1))
            except RuntimeError as refused:
                told.append(refused)

        other = threading.Thread(target=step, daemon=True)  # (daemon: a wait for the batch would hang no one)
        other.start()
        other.join(30)
        assert not other.is_alive()
        return masks.argmax(axis=1)

    results = batch.run(elsewhere)
    assert len(told) == batch.moves.shape[1] > 0  # refused at every step, and the run went on
    for i in range(batch.count):
        _assert_same(_replay(CLASSIC, 4, batch.decks[i], int(batch.starters[i]), batch.moves[i]), results, i)


def test_a_batch_copied_is_whole_with_a_lock_of_its_own() -> None:
    copied = pickle.loads(pickle.dumps(Batch("classic", 2, 5, seed=1)))  # (a lock is not pickled: a new one)
    copied.step(copied.legal_mask().argmax(axis=1))
    assert copied.moves.shape == (5, 1)
    shallow = copy.copy(copied)  # a copy is whole (a shallow one shared the rounds, under a lock of its own)
    shallow.step(shallow.legal_mask().argmax(axis=1))
    assert copied.moves.shape == (5, 1) and shallow.moves.shape == (5, 2)


def test_the_shuffle_is_uniform() -> None:
    """Each position of the deck holds each card as often as its copies say (chi-squared, loose)."""
    for edition in (CLASSIC, EDITION_2019):
        recorded = random_rounds(40_000, edition=edition.name, players=2, seed=1, record=True)
        assert recorded.decks is not None
        cards = sorted(edition.copies)
        expected = np.array([edition.copies[c] for c in cards]) / len(edition.full_deck) * len(recorded)
        for position in (0, 1, len(edition.full_deck) // 2, len(edition.full_deck) - 1):
            counts = np.array([(recorded.decks[:, position] == int(c)).sum() for c in cards])
            chi2 = float(((counts - expected) ** 2 / expected).sum())
            assert chi2 < 40, (edition.name, position, chi2)  # 7-9 degrees of freedom: 40 is far out


def test_random_play_wins_like_the_engines_random_play() -> None:
    """Seat 0's win rate and the mean number of turns in random classic 2-player rounds (seat 0
    starts) agree with the engine playing uniformly among legal_actions()."""
    engine_rounds = 6000
    rng = random.Random(2024)
    wins, turns = 0, []
    for _ in range(engine_rounds):
        r = Round.shuffled(CLASSIC, 2, rng, log=False)
        while not r.over:
            legal = r.legal_actions()
            r.apply(legal[int(rng.random() * len(legal))])
        wins += 0 in r.winners
        turns.append(r.turn)
    batch = random_rounds(200_000, seed=2024)
    p = wins / engine_rounds
    se = math.sqrt(p * (1 - p) / engine_rounds + p * (1 - p) / len(batch))
    assert abs(batch.win_rate(0) - p) < 5 * se, (batch.win_rate(0), p, se)
    t = np.array(turns)
    se_turns = math.sqrt(t.var() / engine_rounds + batch.turns.var() / len(batch))
    assert abs(batch.turns.mean() - t.mean()) < 5 * se_turns, (batch.turns.mean(), t.mean())


def test_bad_inputs_are_refused() -> None:
    deck = [int(c) for c in CLASSIC.full_deck]
    with pytest.raises(ValueError, match=r"R3\.1"):
        play_rounds([deck[:-1] + [1]], edition="classic", players=2)
    with pytest.raises(ValueError, match=r"\[count, 16\]"):
        play_rounds([deck + [1]], edition="classic", players=2)
    with pytest.raises(ValueError, match=r"^decks must be \[count, 16\] card numbers, decks of one length$"):
        play_rounds([deck, deck[:-1]], edition="classic", players=2)  # (numpy's "inhomogeneous shape")
    with pytest.raises(ValueError, match="starters"):
        play_rounds([deck], 2, edition="classic", players=2)
    with pytest.raises(ValueError, match="2-4 players"):
        random_rounds(10, edition="classic", players=5)
    with pytest.raises(ValueError, match="unknown edition"):
        Batch("2020", 2)
    with pytest.raises(ValueError, match="starter"):
        random_rounds(10, players=3, starter=3)
    for negative in (lambda: random_rounds(-1), lambda: Batch(count=-2)):  # (numpy: "negative dimensions")
        with pytest.raises(ValueError, match="count is a number of rounds, 0 or more, not -"):
            negative()
    for too_many in (lambda: random_rounds(10**12), lambda: random_rounds(10**11, record=True),
                     lambda: Batch(count=10**11),  # (numpy's MemoryError)
                     # numpy's integers too (their product wrapped round and passed the check)
                     lambda: random_rounds(np.int64(2**62), record=True), lambda: Batch(count=np.int64(2**60))):
        with pytest.raises(ValueError, match=r"^[\d,]+ rounds need [\d,.]+ GiB of memory, more than this machine's"
                                             r" [\d,.]+ GiB: play them a part at a time$"):
            too_many()
    assert len(random_rounds(0)) == 0 and Batch(count=0).count == 0
    with pytest.raises(ValueError, match=r"^no rounds were played: there is no win rate$"):  # (NaN, two warnings)
        random_rounds(0).win_rate(0)


def test_decks_given_set_the_count_and_take_no_seed() -> None:
    """A count or a seed beside the decks was read by nothing (``seed="junk"`` went through)."""
    decks = random_rounds(3, seed=4, record=True).decks
    assert Batch(decks=decks).count == 3 and Batch(decks=decks, count=3).count == 3
    with pytest.raises(ValueError, match=r"^count is the number of decks given, 3, not 2$"):
        Batch(decks=decks, count=2)
    for seed in (0, 5, "junk"):
        with pytest.raises(ValueError, match=r"^a seed shuffles decks, and the decks are given: drop the seed"):
            Batch(decks=decks, seed=seed)
    assert Batch().count == 1 and (Batch(count=4).decks == Batch(count=4, seed=0).decks).all()


def test_a_seat_of_the_results_is_one_of_the_game() -> None:
    """Seat 5 of two won nothing, True was seat 1, and -1 failed in numpy's words."""
    results = random_rounds(200, players=3, seed=1)
    assert results.players == 3
    assert sum(results.win_rate(seat) for seat in range(3)) >= 1.0
    assert results.win_rate(np.int64(2)) == results.win_rate(2)
    for seat in (3, -1):
        with pytest.raises(ValueError, match=rf"^seat must be from 0 to 2, not {seat}$"):
            results.won(seat)
    with pytest.raises(TypeError, match=r"^seat must be a whole number, not True$"):
        results.win_rate(True)
    batch = Batch("2019", 5, count=2)
    assert batch.run(lambda masks, seen: masks.argmax(axis=1)).players == 5
    # built without the player count (by hand, or pickled before it was kept): any seat, as before
    made = RoundResults(results.winners, results.spy_bonus, results.turns, results.alive)
    assert made.players is None and made.win_rate(2) == results.win_rate(2)


def test_a_long_seed_beside_decks_is_quoted_short() -> None:
    decks = random_rounds(1, seed=4, record=True).decks
    with pytest.raises(ValueError) as refused:
        Batch(decks=decks, seed=10**100)
    assert len(str(refused.value)) < 120 and "1000000000" in str(refused.value)


def test_seeds_and_starters_out_of_range_are_refused_in_words_that_name_them() -> None:
    """A seed is a number from 0 to 2**63 - 1 at every entry point: ``random_rounds`` folded 2**63 + 3
    onto seed 3 (other seeds, the same rounds) and took -1, which ``Batch`` refused with numpy's
    words; starters of the wrong length failed with numpy's "could not be broadcast"."""
    deck = [int(c) for c in CLASSIC.full_deck]
    for call in (lambda s: random_rounds(3, seed=s), lambda s: play_rounds([deck], seed=s),
                 lambda s: Batch(count=3, seed=s)):
        for wrong in (-1, 2**63, 2**63 + 3):
            with pytest.raises(ValueError, match=rf"^seed must be from 0 to 2\*\*63 - 1, not {wrong}$"):
                call(wrong)
    assert len(random_rounds(3, seed=2**63 - 1)) == 3
    for starters, says in (([0, 1], "not 2"), ([[0, 1, 0]], r"not an array of shape \(1, 3\)")):
        with pytest.raises(ValueError, match=rf"^starters must be one seat or one per round \(3\), {says}$"):
            Batch(count=3, starters=starters)
        with pytest.raises(ValueError, match="starters must be one seat or one per round"):
            play_rounds([deck] * 3, starters)
    assert Batch(count=3, starters=[1]).starters.tolist() == [1, 1, 1]  # one seat, in a list


def test_inputs_of_the_wrong_kind_are_refused_not_cut_down() -> None:
    """int8 wrapped a card 257 round to a Guard, a fraction was cut down (a seed of 1.5 played seed
    1), True was seat 1, and a seat "2" or a seed None failed deep inside."""
    deck = [int(c) for c in CLASSIC.full_deck]
    wrapped = [*deck[:-1], 257]
    with pytest.raises(ValueError, match="card numbers from 0 to 9"):
        play_rounds([wrapped])
    for call, says in [
        (lambda: play_rounds([[c + 0.6 for c in deck]]), "decks must be whole numbers"),
        (lambda: play_rounds([deck], 1.7), "starters must be whole numbers"),
        (lambda: play_rounds([deck], [True]), "starters must be whole numbers"),
        (lambda: random_rounds(3, starter=True), "starter must be a whole number, not True"),
        (lambda: random_rounds(3, seed=1.5), "seed must be a whole number, not 1.5"),
        (lambda: random_rounds(3, seed=None), "seed must be a whole number, not None"),
        (lambda: random_rounds(3, players="2"), "players must be a whole number, not '2'"),
        # Batch took its players unchecked: '<=' not supported between 'int' and 'str'
        (lambda: Batch("classic", "2"), "players must be a whole number, not '2'"),
        (lambda: Batch("classic", 2.0), "players must be a whole number, not 2.0"),
        (lambda: play_rounds([deck], players=True), "players must be a whole number, not True"),
        (lambda: Batch().run(None), "the policy must be a callable, or a list of one per seat, not NoneType"),
        # a list of two, but not of policies: "'str' object is not callable" once the rounds began
        (lambda: Batch().run("ab"), "the policy must be a callable, or a list of one per seat, not a list of str"),
        (lambda: Batch().run([1, 2]), "the policy must be a callable, or a list of one per seat, not a list of int"),
        (lambda: random_rounds(2.0), "count must be a whole number"),
        (lambda: random_rounds(3, record="no"), "record must be True or False, not 'no'"),  # it recorded
        (lambda: play_rounds([deck], record=1), "record must be True or False, not 1"),
        (lambda: Batch(decks=[deck], count="x"), "count must be a whole number, not 'x'"),  # taken unread
        (lambda: Batch(edition=["classic"]), "an edition is named by text, 'classic' or '2019', not by list"),
    ]:
        with pytest.raises(TypeError, match=says):
            call()
    # an edition may be given itself, as the environments take it (it failed: "unhashable type")
    assert (random_rounds(20, edition=EDITION_2019, players=3).winners
            == random_rounds(20, edition="2019", players=3).winners).all()
    assert Batch(EDITION_2019, 3, count=2).edition is EDITION_2019
    # numpy's whole numbers are whole numbers
    assert (random_rounds(20, seed=np.int64(3)).winners == random_rounds(20, seed=3).winners).all()
    assert play_rounds(np.array([deck]), np.int32(1)).starters.tolist() == [1]


# ------------------------------------------------------------------ shuffles, and the moves kept


def test_each_shuffle_leaves_a_card_where_it_was_one_time_in_the_decks_length() -> None:
    """Each round's deck is the previous round's shuffled again, so the recorded decks show every
    shuffle's input and output. A uniform shuffle leaves the card at any position there with chance
    1/length; one that skipped its last swap left the top two cards in place twice as often, and one that
    never swapped a card with itself (Sattolo's) never left one. The chi-squared test of each
    position's cards above sees neither: chained rounds still fill each position evenly."""
    for edition in (CLASSIC, EDITION_2019):
        recorded = random_rounds(40_000, edition=edition.name, players=2, seed=1, record=True)
        assert recorded.decks is not None
        decks = recorded.decks.astype(np.int64)
        length = decks.shape[1]
        before, after = [], []
        for card in (Card.KING, Card.COUNTESS, Card.PRINCESS):  # one copy each: it can be followed
            before.append((decks[:-1] == int(card)).argmax(axis=1))
            after.append((decks[1:] == int(card)).argmax(axis=1))
        was, now = np.concatenate(before), np.concatenate(after)
        for position in range(length):
            here = was == position
            expected = here.sum() / length
            stayed = int((now[here] == position).sum())
            sd = math.sqrt(expected * (1 - 1 / length))
            assert abs(stayed - expected) < 5 * sd, (edition.name, position, stayed, expected)


def test_moves_are_minus_one_once_a_round_is_over_and_replay_in_the_engine() -> None:
    """Batch.moves holds -1 for a round once it is over, whatever number the policy gave it (argmax
    of an all-False mask is 0), so that the moves of a run replay in the engine."""
    for edition, players in ((CLASSIC, 4), (EDITION_2019, 3)):
        batch = Batch(edition.name, players, 40, seed=2)
        results = batch.run(lambda masks, seen: masks.argmax(axis=1))
        moves = batch.moves
        assert (moves < 0).any()  # rounds of different lengths
        for i in range(batch.count):
            ended = np.flatnonzero(moves[i] < 0)  # (none for the rounds that ended at the last step)
            assert not ended.size or (moves[i, ended[0]:] == -1).all(), f"round {i}: {moves[i]}"
            r = _replay(edition, players, batch.decks[i], int(batch.starters[i]), moves[i])
            _assert_same(r, results, i)
    # and step() records -1 for a round that is over, whatever number it was given
    batch = Batch("classic", 2, 20, seed=0)
    over_before = []
    while not batch.done.all():
        over_before.append(batch.done.copy())
        batch.step(np.where(batch.done, 5, batch.legal_mask().argmax(axis=1)))
    over = np.stack(over_before, axis=1)
    assert over.any() and (batch.moves[over] == -1).all() and (batch.moves[~over] >= 0).all()
