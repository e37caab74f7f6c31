"""A batched simulator: many rounds of Love Letter at once, compiled with numba, for rollouts at scale.

The rules are those of the engine (docs/rules.md, :class:`loveletter.engine.Round`), both editions and
every player count; moves are numbered in the shared numbering of :mod:`loveletter.encoding`, so a
round played here can be replayed in the engine move by move (``actions_for(...).action(number,
round.legal_actions())``), with the same outcome. Decks are given top card first, as card numbers
(``int(Card)``: Spy 0 ... Princess 9).

Three ways in:

:func:`random_rounds` — the fast path. ``count`` rounds with the edition's cards shuffled in the
kernel and every move drawn uniformly among the legal action numbers (as the engine's random play
draws among ``legal_actions()``), reproducible from ``seed`` (from 0 to 2**63 - 1, as everywhere
here). ``record=True`` also returns each round's deck and moves.

:func:`play_rounds` — given decks (``[count, deck length]``, top card first) and starting seats,
random moves as above, each round's moves recorded (padded with -1).

:class:`Batch` — a learner's policy plays: ``legal_mask()`` (bool ``[count, actions.size]``, all
False for finished rounds), ``current`` seats, ``observation()`` (only what the current seat may
know), ``step(numbers)``, ``done`` and ``results``; :meth:`Batch.run` loops a policy (any callable
``(masks, observation) -> numbers``, or one per seat) until every round is over.

Every one of them gives :class:`RoundResults`: per round the winners as a bit mask (bit ``s`` for
seat ``s``), the seat that gains the Spy's token (R6.4; -1 if none), the number of turns (the
engine's ``Round.turn`` at the end) and the seats still in the round.

>>> results = random_rounds(1000, edition="classic", players=2, seed=7)
>>> results.winners.shape, bool(((results.winners & 3) > 0).all())
((1000,), True)
>>> 0.3 < results.win_rate(0) < 0.7, bool((random_rounds(1000, seed=7).winners == results.winners).all())
(True, True)
>>> batch = Batch("2019", 3, count=4, seed=1)
>>> results = batch.run(lambda masks, observation: masks.argmax(axis=1))  # the lowest legal number
>>> bool(batch.done.all()), results.spy_bonus.shape
(True, (4,))

The random numbers come from splitmix64 in the kernel; a draw below ``n`` takes the top 32 bits
times ``n`` (a bias below ``n / 2**32``, under 1e-7 here).
"""

from __future__ import annotations

import contextlib
import copy
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from loveletter.extras import missing_extra

try:
    from numba import njit
except ModuleNotFoundError as missing:
    raise missing_extra("batch", missing) from None

from loveletter.encoding import actions_for
from loveletter.engine import TARGETED, Action, Card, Edition, edition_named
from loveletter.engine.errors import check_true_or_false, check_whole, quoted

__all__ = ["Batch", "Observation", "Policy", "RoundResults", "play_rounds", "random_rounds"]

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]
State = npt.NDArray[np.int64]
Table = npt.NDArray[np.int16]

_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(fn: _F, **options: Any) -> _F:
    """``numba.njit(cache=True, **options)``, keeping the function's type for the type checker; where
    numba finds no folder to keep its cache in (installed read-only, with no home folder that can be
    written: a container's, a service account's), compiled anew in each process: the import failed
    with numba's traceback ("cannot cache function …: no locator available")."""
    try:
        return cast(_F, njit(cache=True, **options)(fn))
    except RuntimeError as err:
        if "cannot cache" not in str(err):
            raise
        return cast(_F, njit(**options)(fn))


def _compiled(fn: _F) -> _F:
    """A kernel: compiled by :func:`_jit`, run without Python's lock."""
    return _jit(fn, nogil=True)


def _inlined(fn: _F) -> _F:
    """A helper that works on a round's state, inlined into the kernels by numba: a call that hands
    over an array costs atomic reference counts, which would cost more than the game itself."""
    return _jit(fn, inline="always")


# ----------------------------------------------------------------------------- the round's state
# One round is one row of int64: these fields, then the deck. Cards are int(Card); -1 is "none".
# The kernels keep everything in the row (no other array in the hot path): numba counts references
# to every array handed from function to function, and those atomic counts cost more than the game.

CURRENT = 0  # the seat whose decision it is
PHASE = 1  # 0 play a card, 1 the Chancellor's choice (R5.9), 2 the round is over
TURN = 2  # the engine's Round.turn
ALIVE = 3  # bit mask: seats still in the round
PROTECTED = 4  # bit mask: seats protected by a Handmaid (R5.4)
SPIES = 5  # bit mask: seats with a Spy in their discard pile (R6.4)
TOP = 6  # index (in the deck part) of the deck's top card
END = 7  # one past the bottom card: the Chancellor puts cards back here
SET_ASIDE = 8  # the set-aside card (R3.2), -1 once a Prince gave it out (R5.5)
WINNERS = 9  # bit mask, when over
SPY_BONUS = 10  # seat, or -1
PLAYERS = 11
DRAWN = 12  # the current seat's second card (its first is in HAND + seat)
EXTRA = 13  # the third card during the Chancellor's choice (-1 if the deck gave only one)
RANDOM = 14  # the random stream's state (splitmix64), for the random moves
HAND = 16  # HAND + seat: the card seat holds (-1 once out)
TOTAL = 24  # TOTAL + seat: the value of seat's discard pile (the classic tie-break, R6.3)
DECK = 32  # the deck: DECK + TOP .. DECK + END, top first; room for the Chancellor's 4 returns
MOVES = DECK + 21 + 4  # the random moves' codes, in order (see _play_code)
MOST_MOVES = 21 + 4 + 2  # every turn draws a card (the Chancellor's returns add up to 4), + 2 choices
WIDTH = MOVES + MOST_MOVES

PLAY, CHOICE, OVER = 0, 1, 2
SPY, GUARD, PRIEST, BARON, HANDMAID, PRINCE, CHANCELLOR, KING, COUNTESS, PRINCESS = range(10)
_TARGETED_BITS = sum(1 << int(card) for card in TARGETED)

# Random numbers: splitmix64 (Steele, Lea, Flood 2014).
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)


@_compiled
def _mix(x: np.uint64) -> np.uint64:
    x = (x ^ (x >> _S30)) * _MIX1
    x = (x ^ (x >> _S27)) * _MIX2
    return x ^ (x >> _S31)


@_inlined
def _random64(s: State) -> np.uint64:
    x = np.uint64(s[RANDOM]) + _GOLDEN
    s[RANDOM] = np.int64(x)
    return _mix(x)


@_inlined
def _below(s: State, n: int) -> int:
    """A number from 0 to n - 1 (n below 2**32)."""
    return np.int64(((_random64(s) >> _S32) * np.uint64(n)) >> _S32)  # type: ignore[return-value]


@_inlined
def _shuffle(s: State, length: int) -> None:
    """Fisher-Yates on the deck part (any arrangement in, a uniform one out), 32 bits a swap."""
    i = length - 1
    while i > 0:
        bits = _random64(s)
        j = np.int64(((bits >> _S32) * np.uint64(i + 1)) >> _S32)
        s[DECK + i], s[DECK + j] = s[DECK + j], s[DECK + i]
        i -= 1
        if i > 0:
            j = np.int64(((bits & _LOW32) * np.uint64(i + 1)) >> _S32)
            s[DECK + i], s[DECK + j] = s[DECK + j], s[DECK + i]
            i -= 1


# ----------------------------------------------------------------------------- the rules


@_inlined
def _setup(s: State, players: int, starter: int, length: int) -> None:
    """R3: the deck is in place (top first); set aside, remove 3 face up with two players, deal."""
    s[SET_ASIDE] = s[DECK]
    top = 4 if players == 2 else 1  # the face-up cards stay in the deck part, unused (R3.3)
    for seat in range(8):
        s[HAND + seat] = -1
        s[TOTAL + seat] = 0
    for i in range(players):  # R3.4: from the starter, in turn order
        seat = starter + i
        if seat >= players:
            seat -= players
        s[HAND + seat] = s[DECK + top]
        top += 1
    s[DRAWN] = s[DECK + top]  # R4.1: the starter's first draw
    s[TOP] = top + 1
    s[END] = length
    s[EXTRA] = -1
    s[CURRENT] = starter
    s[PHASE] = PLAY
    s[TURN] = 1
    s[ALIVE] = (1 << players) - 1
    s[PROTECTED] = 0
    s[SPIES] = 0
    s[WINNERS] = 0
    s[SPY_BONUS] = -1
    s[PLAYERS] = players


@_compiled
def _value(card: int, classic: bool) -> int:
    """The card's value in its edition: the classic King, Countess and Princess are one lower."""
    return card - 1 if classic and card >= KING else card


@_inlined
def _discard(s: State, seat: int, card: int, classic: bool) -> None:
    s[TOTAL + seat] += _value(card, classic)
    if card == SPY:
        s[SPIES] |= 1 << seat


@_compiled
def _only_seat(mask: int) -> int:
    """The seat of a one-seat mask."""
    seat = 0
    while not mask >> seat & 1:
        seat += 1
    return seat


@_inlined
def _highest(s: State, seats: int, at: int) -> int:
    """The seats of the mask ``seats`` whose entry ``s[at + seat]`` is the highest (a mask)."""
    best, found = -1, 0
    for seat in range(s[PLAYERS]):
        if seats >> seat & 1:
            value = s[at + seat]
            if value > best:
                best, found = value, 1 << seat
            elif value == best:
                found |= 1 << seat
    return found


@_inlined
def _end_turn(s: State, classic: bool) -> None:
    alive = s[ALIVE]
    top = s[TOP]
    if alive & (alive - 1) != 0 and top < s[END]:  # the round goes on: the next seat in draws
        players = s[PLAYERS]
        seat = s[CURRENT]
        while True:
            seat += 1
            if seat == players:
                seat = 0
            if alive >> seat & 1:
                break
        s[PROTECTED] &= ~(1 << seat)  # R4.2: protection ends as the turn starts
        s[CURRENT] = seat
        s[TURN] += 1
        s[DRAWN] = s[DECK + top]  # R4.1
        s[TOP] = top + 1
        return
    winners = alive  # R6.1: one player left
    if alive & (alive - 1) != 0:  # R6.2: the deck is empty at the end of a turn: the highest card
        winners = _highest(s, alive, HAND)
        if classic and winners & (winners - 1) != 0:  # R6.3: the highest discard total
            winners = _highest(s, winners, TOTAL)
    s[PHASE] = OVER
    s[WINNERS] = winners
    spies = alive & s[SPIES]
    if spies != 0 and spies & (spies - 1) == 0:  # R6.4: exactly one player still in with a Spy
        s[SPY_BONUS] = _only_seat(spies)


@_inlined
def _play(s: State, card: int, target: int, guess: int, classic: bool) -> None:
    """The current seat plays ``card`` (on ``target`` naming ``guess``; -1: none) - a legal play."""
    cur = s[CURRENT]
    kept = s[DRAWN] if s[HAND + cur] == card else s[HAND + cur]
    s[HAND + cur] = kept
    s[DRAWN] = -1
    _discard(s, cur, card, classic)
    out = -1  # the seat knocked out of the round by this play
    if target < 0:
        if card == HANDMAID:  # R5.4
            s[PROTECTED] |= 1 << cur
        elif card == PRINCESS:  # R5.8
            out = cur
        elif card == CHANCELLOR and s[TOP] < s[END]:  # R5.9: draw up to 2, then choose
            top = s[TOP]
            s[DRAWN] = s[DECK + top]
            top += 1
            if top < s[END]:
                s[EXTRA] = s[DECK + top]
                top += 1
            s[TOP] = top
            s[PHASE] = CHOICE
            return
        # the Spy, the Countess, a Chancellor on an empty deck, targeted cards with nobody to choose
        # (R4.6): no effect
    elif card == GUARD:  # R5.1
        if s[HAND + target] == guess:
            out = target
    elif card == BARON:  # R5.3: the lower card is out, a tie does nothing
        theirs = s[HAND + target]
        if kept < theirs:
            out = cur
        elif theirs < kept:
            out = target
    elif card == PRINCE:  # R5.5: discard without effect, draw (the set-aside card on an empty deck)
        dropped = s[HAND + target]
        if dropped == PRINCESS:  # R5.8
            out = target
        else:
            _discard(s, target, dropped, classic)
            top = s[TOP]
            if top < s[END]:
                s[HAND + target] = s[DECK + top]
                s[TOP] = top + 1
            else:
                s[HAND + target] = s[SET_ASIDE]
                s[SET_ASIDE] = -1
    elif card == KING:  # R5.6
        s[HAND + cur] = s[HAND + target]
        s[HAND + target] = kept
    # the Priest (R5.2) only shows a card
    if out >= 0:  # R5.11: out of the round, the hand discarded without effect
        bit = 1 << out
        s[ALIVE] &= ~bit
        s[PROTECTED] &= ~bit
        _discard(s, out, s[HAND + out], classic)
        s[HAND + out] = -1
    _end_turn(s, classic)


@_inlined
def _choose(s: State, keep: int, first: int, classic: bool) -> None:
    """The Chancellor's choice (R5.9): keep ``keep``, put ``first`` under the deck, then the third
    card (if any) under it - a legal choice."""
    cur = s[CURRENT]
    held, drawn, extra = s[HAND + cur], s[DRAWN], s[EXTRA]
    end = s[END]
    s[DECK + end] = first
    end += 1
    if extra >= 0:
        s[DECK + end] = held + drawn + extra - keep - first  # the card neither kept nor returned first
        end += 1
    s[END] = end
    s[HAND + cur] = keep
    s[DRAWN] = -1
    s[EXTRA] = -1
    s[PHASE] = PLAY
    _end_turn(s, classic)


# ----------------------------------------------------------------------------- legal actions


@_inlined
def _choosable(s: State) -> int:
    """Seats the current seat's Guard, Priest, Baron or King may choose (R4.5)."""
    return s[ALIVE] & ~s[PROTECTED] & ~(1 << s[CURRENT])  # type: ignore[no-any-return]


@_compiled
def _forced_countess(a: int, b: int) -> bool:
    """R4.4: the Countess with a King or a Prince must be played."""
    return (a == COUNTESS and b in (KING, PRINCE)) or (b == COUNTESS and a in (KING, PRINCE))


@_compiled
def _count(seats: int) -> int:
    """How many seats are in the mask (at most 8)."""
    n = seats - ((seats >> 1) & 0x55)
    n = (n & 0x33) + ((n >> 2) & 0x33)
    return (n + (n >> 4)) & 0x0F


@_compiled
def _guesses(classic: bool) -> int:
    """How many cards a Guard may name (R5.1): every card of the edition but the Guard."""
    return 7 if classic else 9


@_compiled
def _guess(index: int, classic: bool) -> int:
    """The ``index``-th card a Guard may name, by value (the Spy first in 2019, never the Guard)."""
    if classic:  # priest, baron, handmaid, prince, king, countess, princess
        return index + 2 if index < 4 else index + 3
    return 0 if index == 0 else index + 1


@_compiled
def _ways(card: int, choosable: int, classic: bool) -> int:
    """How many legal action numbers play ``card`` (R4.5, R4.6)."""
    if not _TARGETED_BITS >> card & 1:
        return 1
    if card == PRINCE:  # anyone, itself included
        return _count(choosable) + 1
    n = _count(choosable)
    if n == 0:
        return 1  # R4.6: played without effect
    return n * _guesses(classic) if card == GUARD else n


@_compiled
def _nth_seat(mask: int, n: int) -> int:
    seat = 0
    while True:
        if mask >> seat & 1:
            if n == 0:
                return seat
            n -= 1
        seat += 1


@_compiled
def _way(card: int, way: int, choosable: int, cur: int, classic: bool) -> tuple[int, int]:
    """The ``way``-th play of ``card``: (target, guess), -1 for none."""
    if not _TARGETED_BITS >> card & 1:
        return -1, -1
    if card == PRINCE:
        return _nth_seat(choosable | (1 << cur), way), -1
    if choosable == 0:
        return -1, -1
    if card == GUARD:
        guesses = _guesses(classic)
        seat = 0
        while way >= guesses:  # way // guesses, without a division
            way -= guesses
            seat += 1
        return _nth_seat(choosable, seat), _guess(way, classic)
    return _nth_seat(choosable, way), -1


# A move as one number for every player count (the action tables map it to the encoding's numbers):
# a play (card, target, guess) or a Chancellor's choice (keep, first returned).
CHOICES = 10 * 8 * 11


@_compiled
def _play_code(card: int, target: int, guess: int) -> int:
    return (card * 8 + target + 1) * 11 + guess + 1


@_inlined
def _choices(s: State) -> tuple[int, int]:
    """The Chancellor's distinct (keep, first returned) pairs: how many, and ``keep * 10 + first``
    for each, packed 7 bits apiece."""
    cur = s[CURRENT]
    cards = (s[HAND + cur], s[DRAWN], s[EXTRA])
    held = 3 if cards[2] >= 0 else 2
    n, packed = 0, 0
    for i in range(held):
        for j in range(held):
            if i == j:
                continue
            pair = cards[i] * 10 + cards[j]
            seen = False
            for k in range(n):
                if packed >> (7 * k) & 0x7F == pair:
                    seen = True
            if not seen:
                packed |= pair << (7 * n)
                n += 1
    return n, packed


@_inlined
def _random_round(s: State, classic: bool) -> int:
    """Play the round to its end, each move drawn uniformly among the legal action numbers, the
    moves' codes kept at MOVES; how many moves. (One function for the whole round: numba counts a
    reference to ``s`` each time it enters one.)"""
    moves = 0
    while s[PHASE] != OVER:
        if s[PHASE] == CHOICE:
            n, packed = _choices(s)
            k = _below(s, n) if n > 1 else 0
            pair = packed >> (7 * k) & 0x7F
            _choose(s, pair // 10, pair % 10, classic)
            s[MOVES + moves] = CHOICES + pair
        else:
            cur = s[CURRENT]
            a, b = s[HAND + cur], s[DRAWN]
            if _forced_countess(a, b):
                card, target, guess = COUNTESS, -1, -1
            else:
                choosable = _choosable(s)
                ways_a = _ways(a, choosable, classic)
                ways = ways_a + (_ways(b, choosable, classic) if b != a else 0)
                way = _below(s, ways) if ways > 1 else 0
                card = a
                if way >= ways_a:
                    card = b
                    way -= ways_a
                target, guess = _way(card, way, choosable, cur, classic)
            _play(s, card, target, guess, classic)
            s[MOVES + moves] = _play_code(card, target, guess)
        moves += 1
    return moves


# ----------------------------------------------------------------------------- whole batches


@_compiled
def _random_kernel(
    first: int, last: int, s: State, length: int, players: int, starters: Ints, given: npt.NDArray[np.int8],
    classic: bool, numbers: Table, record: bool, decks_out: npt.NDArray[np.int8], moves_out: Table,
    winners: npt.NDArray[np.uint8], spy_bonus: npt.NDArray[np.int8], turns: npt.NDArray[np.uint8],
    alive: npt.NDArray[np.uint8],
) -> None:
    """Play rounds ``first`` to ``last`` (not included) with uniformly random moves, going on from the
    state ``s`` (as :func:`_run` starts it, then the rounds before), on decks of ``length`` cards: the
    ``given`` decks if it has rows, else decks shuffled here. Rounds start at ``starters[i]`` (one
    entry: the same for all)."""
    shuffle = given.shape[0] == 0
    for r in range(first, last):
        if shuffle:
            _shuffle(s, length)  # the previous round's order in, a uniform order out
        else:
            for i in range(length):
                s[DECK + i] = given[r, i]
        if record:
            for i in range(length):
                decks_out[r, i] = s[DECK + i]
        _setup(s, players, starters[r] if len(starters) > 1 else starters[0], length)
        moves = _random_round(s, classic)
        if record:
            for i in range(moves):
                moves_out[r, i] = numbers[s[MOVES + i]]
        winners[r] = s[WINNERS]
        spy_bonus[r] = s[SPY_BONUS]
        turns[r] = s[TURN]
        alive[r] = s[ALIVE]


@_compiled
def _setup_kernel(states: State, decks: npt.NDArray[np.int8], starters: Ints, players: int) -> None:
    length = decks.shape[1]
    for r in range(states.shape[0]):
        s = states[r]
        for i in range(length):
            s[DECK + i] = decks[r, i]
        _setup(s, players, starters[r], length)


@_compiled
def _legal_kernel(states: State, out: Bools, numbers: Table, classic: bool) -> None:
    """Mark each round's legal action numbers in ``out`` (nothing where the round is over)."""
    for r in range(states.shape[0]):
        s = states[r]
        if s[PHASE] == CHOICE:
            n, packed = _choices(s)
            for k in range(n):
                out[r, numbers[CHOICES + (packed >> (7 * k) & 0x7F)]] = True
        elif s[PHASE] == PLAY:
            cur = s[CURRENT]
            a, b = s[HAND + cur], s[DRAWN]
            if _forced_countess(a, b):
                out[r, numbers[_play_code(COUNTESS, -1, -1)]] = True
                continue
            choosable = _choosable(s)
            for card in (a, b):
                for way in range(_ways(card, choosable, classic)):
                    target, guess = _way(card, way, choosable, cur, classic)
                    out[r, numbers[_play_code(card, target, guess)]] = True


@_compiled
def _step_kernel(states: State, actions: Ints, codes: Table, classic: bool) -> None:
    """Make each running round's move (action numbers known to be legal)."""
    for r in range(states.shape[0]):
        s = states[r]
        if s[PHASE] == OVER:
            continue
        code = codes[actions[r]]
        if code >= CHOICES:
            code -= CHOICES
            _choose(s, code // 10, code % 10, classic)
        else:
            guess = code % 11 - 1
            code //= 11
            _play(s, code // 8, code % 8 - 1, guess, classic)


# ----------------------------------------------------------------------------- tables, from the encoding


@dataclass(frozen=True)
class _Game:
    """An edition and a player count, as the kernels need them."""

    edition: Edition
    players: int
    full_deck: Ints
    numbers: Table  # move code (_play_code, or CHOICES + keep * 10 + first) -> action number (-1: no such action)
    codes: Table  # action number -> move code

    @property
    def classic(self) -> bool:
        return not self.edition.has(Card.SPY)


def _game(edition: str | Edition, players: int) -> _Game:
    """The tables of ``edition`` (its name, or the edition itself, as the environments take it) for
    ``players`` seats, checked: a ``TypeError`` or ``ValueError`` that says what is wrong (a player
    count of ``"2"`` was compared deep inside)."""
    check_whole("players", players)
    return _tables(edition_named(edition).name, int(players))  # (by name, the cache's key)


@cache
def _tables(edition: str, players: int) -> _Game:
    known = edition_named(edition)
    known.check_players(players)
    actions = actions_for(known, players)
    numbers = np.full(CHOICES + 100, -1, dtype=np.int16)
    codes = np.full(actions.size, -1, dtype=np.int16)
    for card in known.cards:
        plays = [] if card is Card.PRINCE else [Action(card)]
        if card in TARGETED:
            guesses: Sequence[Card | None] = known.guessable if card is Card.GUARD else (None,)
            plays += [Action(card, seat, guess) for seat in range(players) for guess in guesses]
        for play in plays:
            target = -1 if play.target is None else play.target
            guess = -1 if play.guess is None else int(play.guess)
            code = (int(card) * 8 + target + 1) * 11 + guess + 1  # as _play_code
            numbers[code] = actions.number(play)
    if known.has(Card.CHANCELLOR):
        for keep in known.cards:
            for first in known.cards:
                code = CHOICES + int(keep) * 10 + int(first)  # a Chancellor's choice, as the kernels code it
                numbers[code] = actions.number(Action(Card.CHANCELLOR, keep=keep, bottom=(first,)))
    known_numbers = numbers >= 0
    codes[numbers[known_numbers]] = np.flatnonzero(known_numbers)
    if (codes < 0).any() or known_numbers.sum() != actions.size:
        raise AssertionError("the batch simulator does not cover the action numbering")
    return _Game(
        edition=known,
        players=players,
        full_deck=np.array([int(c) for c in known.full_deck], dtype=np.int64),
        numbers=numbers,
        codes=codes,
    )


# ----------------------------------------------------------------------------- the public API


@dataclass(frozen=True)
class RoundResults:
    """Per round (index ``i``) of a game of ``players`` seats: ``winners[i]`` bit mask,
    ``spy_bonus[i]`` seat or -1 (R6.4), ``turns[i]`` turns played, ``alive[i]`` bit mask of the
    seats still in at the end.

    When moves were recorded: ``decks[i]`` the deck top card first, ``starters[i]``, and
    ``moves[i]`` the action numbers in order, padded with -1.
    """

    winners: npt.NDArray[np.uint8]
    spy_bonus: npt.NDArray[np.int8]
    turns: npt.NDArray[np.uint8]
    alive: npt.NDArray[np.uint8]
    decks: npt.NDArray[np.int8] | None = None
    starters: npt.NDArray[np.int8] | None = None
    moves: Table | None = None
    players: int | None = None  # None: not known (results built by hand, or pickled before it was kept)

    def __len__(self) -> int:
        return len(self.winners)

    def won(self, seat: int) -> Bools:
        """Whether ``seat`` is among each round's winners."""
        check_whole("seat", seat)  # (True was seat 1)
        # (seat 5 of two won nothing, and -1 failed in numpy's words)
        if self.players is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat must be from 0 to {self.players - 1}, not {seat}")
        return (self.winners >> seat & 1).astype(bool)

    def win_rate(self, seat: int) -> float:
        """The share of rounds ``seat`` won (shared wins count as wins); a ``ValueError`` for no
        rounds (numpy's mean of nothing is NaN, with two warnings)."""
        won = self.won(seat)
        if not len(won):
            raise ValueError("no rounds were played: there is no win rate")
        return float(won.mean())


def _results(count: int, players: int) -> RoundResults:
    return RoundResults(
        winners=np.zeros(count, dtype=np.uint8),
        spy_bonus=np.zeros(count, dtype=np.int8),
        turns=np.zeros(count, dtype=np.uint8),
        alive=np.zeros(count, dtype=np.uint8),
        players=players,
    )


#: Rounds played by one call of the random rounds' kernel: Python handles a Ctrl-C between calls
#: only (30 million rounds, played by one call, went on 18 s past it; a count this machine's memory
#: allows, for an hour), so each call takes a fraction of a second.
KERNEL_ROUNDS = 1 << 20


def _run(
    game: _Game, count: int, starters: Ints, decks: npt.NDArray[np.int8] | None, seed: int, record: bool
) -> RoundResults:
    out = _results(count, game.players)
    length = len(game.full_deck)
    decks_out = np.zeros((count, length) if record else (0, length), dtype=np.int8)
    moves_out = np.full((count, MOST_MOVES) if record else (0, 0), -1, dtype=np.int16)
    given = np.zeros((0, length), dtype=np.int8) if decks is None else decks
    # the state the rounds start from: the seed's random stream (nearby seeds start far apart; the
    # 64 bits as the kernel keeps them), and the deck in the edition's order, each round shuffling
    # the one before it
    s = np.zeros(WIDTH, dtype=np.int64)
    s[RANDOM] = np.uint64(_mix(np.uint64(seed))).view(np.int64)
    s[DECK : DECK + length] = game.full_deck
    for first in range(0, count, KERNEL_ROUNDS):  # (a part at a time: see KERNEL_ROUNDS)
        _random_kernel(
            first, min(first + KERNEL_ROUNDS, count), s, length, game.players, starters, given, game.classic,
            game.numbers, record, decks_out, moves_out, out.winners, out.spy_bonus, out.turns, out.alive,
        )
    if not record:
        return out
    starting = np.broadcast_to(starters, (count,)).astype(np.int8)
    return RoundResults(out.winners, out.spy_bonus, out.turns, out.alive, decks_out, starting, moves_out, game.players)


def random_rounds(
    count: int, *, edition: str | Edition = "classic", players: int = 2, seed: int = 0, starter: int = 0,
    record: bool = False,
) -> RoundResults:
    """``count`` rounds of uniformly random legal moves on decks shuffled from ``seed``, every one
    started by seat ``starter``; ``record``: also the decks and the moves (slower)."""
    for name, value in (("count", count), ("starter", starter)):  # (the players: by _game)
        check_whole(name, value)  # (a starter True was seat 1)
    _check_seed(seed)
    check_true_or_false("record", record)  # (record="no" recorded the moves)
    game = _game(edition, players)
    _check_count(count, 4 + (len(game.full_deck) + 2 * MOST_MOVES if record else 0))  # (see _run)
    if not 0 <= starter < players:
        raise ValueError(f"the starter must be a seat from 0 to {players - 1}, not {starter}")
    return _run(game, count, np.array([starter], dtype=np.int64), None, seed, record)


def play_rounds(
    decks: npt.ArrayLike, starters: npt.ArrayLike = 0, *, edition: str | Edition = "classic", players: int = 2,
    seed: int = 0, record: bool = True,
) -> RoundResults:
    """Play the rounds of ``decks`` (``[count, deck length]`` card numbers, top card first) from
    ``starters`` (a seat, or one per round) with uniformly random legal moves drawn from ``seed``."""
    _check_seed(seed)
    check_true_or_false("record", record)  # (record="no" recorded the moves)
    game = _game(edition, players)
    cards = _check_decks(game, decks)
    count = len(cards)
    starting = _check_starters(game, starters, count)
    return _run(game, count, starting, cards, seed, record)


def _check_decks(game: _Game, decks: npt.ArrayLike) -> npt.NDArray[np.int8]:
    shape = f"decks must be [count, {len(game.full_deck)}] card numbers"
    try:
        cards = np.asarray(decks)
    except ValueError:  # (numpy's "setting an array element with a sequence … inhomogeneous shape")
        raise ValueError(f"{shape}, decks of one length") from None
    if cards.ndim != 2 or cards.shape[1] != len(game.full_deck):
        raise ValueError(f"{shape}, not {cards.shape}")
    _whole_numbers("decks", cards)
    if ((cards < 0) | (cards > max(Card))).any():  # (int8 would wrap 257 round to a Guard)
        raise ValueError(f"decks must hold card numbers from 0 to {int(max(Card))}")
    cards = cards.astype(np.int8)
    if not (np.sort(cards, axis=1) == game.full_deck).all():
        raise ValueError(f"every deck must hold the cards of the {game.edition.name} edition once per copy (R3.1)")
    return np.ascontiguousarray(cards)


MAX_SEED = 2**63 - 1
"""The largest seed (the kernel's random streams start from 63-bit numbers)."""


def _check_seed(seed: int) -> None:
    """A :class:`TypeError` unless ``seed`` is a whole number (a seed of 1.5 played seed 1), a
    :class:`ValueError` unless it is one from 0 to :data:`MAX_SEED` (a seed of 2**63 + 3 played the
    rounds of seed 3, and a negative one was taken here but refused by ``Batch``)."""
    check_whole("seed", seed)
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be from 0 to 2**63 - 1, not {seed}")


def _check_count(count: int, per_round: int) -> None:
    """A :class:`ValueError` for a negative count of rounds (numpy's said "negative dimensions"), or
    for more rounds than fit this machine's memory at ``per_round`` bytes each (10**12 rounds ended in
    numpy's ``MemoryError``; fewer, but still too many, could be lent lazily by the system and run
    until it killed the process)."""
    if count < 0:
        raise ValueError(f"count is a number of rounds, 0 or more, not {count}")
    count = int(count)  # (numpy's int64 of 2**62 wrapped count * per_round round, and passed)
    memory = _memory()
    if memory is not None and count * per_round > memory:
        raise ValueError(f"{count:,} rounds need {count * per_round / 2**30:,.1f} GiB of memory, more than this"
                         f" machine's {memory / 2**30:,.1f} GiB: play them a part at a time")


@cache
def _memory() -> int | None:
    """This machine's memory in bytes, where the system tells it."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # (Windows has no sysconf)
        return None


def _whole_numbers(name: str, values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``values``, or a :class:`TypeError` unless they are whole numbers (not booleans, not fractions)."""
    if values.dtype.kind not in "iu":
        raise TypeError(f"{name} must be whole numbers, not {values.dtype}")
    return values


def _check_starters(game: _Game, starters: npt.ArrayLike, count: int) -> Ints:
    given = _whole_numbers("starters", np.asarray(starters))
    if given.shape not in ((), (1,), (count,)):  # (numpy said "could not be broadcast together")
        many = given.shape[0] if given.ndim == 1 else f"an array of shape {given.shape}"
        raise ValueError(f"starters must be one seat or one per round ({count}), not {many}")
    starting = np.broadcast_to(given.astype(np.int64), (count,)).copy()
    if ((starting < 0) | (starting >= game.players)).any():
        raise ValueError(f"starters must be seats from 0 to {game.players - 1}")
    return starting


@dataclass(frozen=True)
class Observation:
    """What the seat to decide knows (R7), per round: arrays ``[count]``, or ``[count, k]``.

    ``seat`` the seat whose decision it is (-1 where the round is over); ``phase`` 0 play a card,
    1 the Chancellor's choice, 2 over; ``hand`` that seat's cards (2 to play from, 2 or 3 for the
    Chancellor's choice; -1 padded, all -1 where over); public facts: ``alive`` and ``protected``
    bit masks of seats, ``deck_size`` the cards left in the deck, ``discard_totals`` the value of
    each seat's discard pile (``[count, players]``, the edition's values, as in the tie-break R6.3).
    """

    seat: Ints
    phase: Ints
    hand: Ints
    alive: Ints
    protected: Ints
    deck_size: Ints
    discard_totals: Ints


#: A policy: legal masks ``[count, actions.size]`` and the observation -> one action number per round
#: (entries for finished rounds are ignored).
Policy = Callable[[Bools, Observation], npt.ArrayLike]


def _action_numbers(actions: npt.ArrayLike, count: int) -> Ints:
    """``actions`` as one action number for each of ``count`` rounds (a single number is every
    round's); a ``ValueError`` for numbers that are not whole, or not one per round."""
    given = np.asarray(actions)
    if given.dtype.kind not in "iu":  # (numpy would truncate 8.9 to 8, and read True as 1)
        raise ValueError(f"actions are whole numbers (action numbers), not {given.dtype} values")
    if given.dtype.kind == "u" and (given > np.iinfo(np.int64).max).any():  # (int64 would wrap them round)
        raise ValueError(f"there is no action {given.max()}: no action has so large a number")
    try:
        return np.broadcast_to(given.astype(np.int64), (count,)).copy()
    except ValueError:
        raise ValueError(f"one action number, or one per round ({count}), not {given.shape}") from None


class Batch:
    """``count`` rounds played step by step by a policy (see the module's docstring).

    ``decks`` (``[count, deck length]``, top card first; they set the count) and ``starters`` (a
    seat, or one per round) are optional; without decks, ``count`` rounds (default 1) are dealt from
    the edition's cards shuffled with ``numpy.random.default_rng(seed)`` (default 0). With decks, a
    ``count`` must be theirs and no seed is taken (there is nothing to shuffle: one given was
    ignored without a word). ``decks`` and ``starters`` stay readable as attributes, and
    :attr:`moves` holds the numbers played, so that any round can be replayed in the engine.
    """

    def __init__(
        self, edition: str | Edition = "classic", players: int = 2, count: int | None = None,
        seed: int | None = None, *, decks: npt.ArrayLike | None = None, starters: npt.ArrayLike = 0,
    ) -> None:
        self._game = game = _game(edition, players)
        self.edition = game.edition
        self.players = players
        self.actions = actions_for(game.edition, players)
        if count is not None:
            check_whole("count", count)
            # its state, a deck shuffled (and its copy while shuffling) and a mask of its legal moves
            _check_count(count, 8 * WIDTH + 2 * 8 * len(game.full_deck) + self.actions.size)
        if decks is None:
            seed = 0 if seed is None else seed
            _check_seed(seed)
            rng = np.random.default_rng(seed)
            decks = rng.permuted(np.tile(game.full_deck, (1 if count is None else count, 1)), axis=1)
        elif seed is not None:
            raise ValueError(f"a seed shuffles decks, and the decks are given: drop the seed ({quoted(seed)!r})")
        self.decks = _check_decks(game, decks)
        if count is not None and count != len(self.decks):
            raise ValueError(f"count is the number of decks given, {len(self.decks)}, not {count}")
        self.count = len(self.decks)
        self.starters = _check_starters(game, starters, self.count)
        self._states = np.zeros((self.count, WIDTH), dtype=np.int64)
        _setup_kernel(self._states, self.decks, self.starters, players)
        self._moves: list[Ints] = []
        self._stepping = threading.Lock()

    # (a lock is not pickled: a batch pickled, or copied, gets one of its own; and a copy is whole: a
    # shallow one shared the rounds, stepped from two places under two locks)
    def __copy__(self) -> Batch:
        return copy.deepcopy(self)

    def __getstate__(self) -> dict[str, Any]:
        return {name: value for name, value in self.__dict__.items() if name != "_stepping"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._stepping = threading.Lock()

    @contextlib.contextmanager
    def _alone(self) -> Iterator[None]:
        """Meanwhile, the rounds are stepped from here alone: stepped from two threads at once, or by
        a policy that :meth:`run` asked for its moves, they took moves checked against the masks of
        rounds that had moved on, without a word, and their records replayed as illegal."""
        if not self._stepping.acquire(blocking=False):
            raise RuntimeError("this batch is being stepped already (by its run(), or in another thread): a"
                               " policy only chooses, and each thread needs a batch of its own")
        try:
            yield
        finally:
            self._stepping.release()

    @property
    def done(self) -> Bools:
        """Whether each round is over."""
        over: Bools = self._states[:, PHASE] == OVER
        return over

    @property
    def current(self) -> Ints:
        """The seat to decide in each round, -1 where it is over."""
        return np.where(self.done, -1, self._states[:, CURRENT])

    def legal_mask(self) -> Bools:
        """``[count, actions.size]``: the legal action numbers of each round (none where over)."""
        out = np.zeros((self.count, self.actions.size), dtype=np.bool_)
        game = self._game
        _legal_kernel(self._states, out, game.numbers, game.classic)
        return out

    def observation(self) -> Observation:
        """Only what each round's current seat may know (R7): its own hand and public facts."""
        st = self._states
        rows = np.arange(self.count)
        over = self.done
        cur = st[:, CURRENT]
        hand = np.stack([st[rows, HAND + cur], st[:, DRAWN], st[:, EXTRA]], axis=1)
        hand[over] = -1
        players = self.players
        return Observation(
            seat=self.current,
            phase=st[:, PHASE].copy(),
            hand=hand,
            alive=st[:, ALIVE].copy(),
            protected=st[:, PROTECTED].copy(),
            deck_size=st[:, END] - st[:, TOP],
            discard_totals=st[:, TOTAL : TOTAL + players].copy(),
        )

    def step(self, actions: npt.ArrayLike) -> None:
        """Apply one action number per round (ignored where the round is over: once every round is,
        a step is no step, and :attr:`moves` stays as it is, so recorded moves, padded with -1, replay
        to their end); a ``ValueError`` names the first round whose number is no action or not legal,
        and then nothing changes."""
        with self._alone():
            self._apply(_action_numbers(actions, self.count), self.legal_mask())

    def _apply(self, numbers: Ints, mask: Bools) -> None:
        """:meth:`step` with the action ``numbers`` read (:func:`_action_numbers`, a copy of our own)
        and ``mask``, the rounds' legal moves now (:meth:`run` has it already)."""
        running = ~self.done
        if not running.any():  # (it added a step of -1s to the moves)
            return
        numbers[~running] = -1
        size = self.actions.size
        inside = (numbers >= 0) & (numbers < size)
        legal = inside & mask[np.arange(self.count), np.clip(numbers, 0, size - 1)]
        bad = np.flatnonzero(running & ~legal)
        if len(bad):
            r = int(bad[0])
            if not inside[r]:  # (told in Actions.numbered's words)
                try:
                    self.actions.numbered(int(numbers[r]))
                except ValueError as none:
                    raise ValueError(f"round {r}: {none}") from None
            names = self.actions.names
            legal_now = ", ".join(f"{k} ({names[k]})" for k in np.flatnonzero(mask[r]))
            raise ValueError(f"round {r}: action {numbers[r]} ({names[numbers[r]]}) is not legal now for seat"
                             f" {self._states[r, CURRENT]}; the legal actions are: {legal_now}")
        game = self._game
        _step_kernel(self._states, numbers, game.codes, game.classic)
        self._moves.append(numbers)

    @property
    def moves(self) -> Ints:
        """``[count, steps]``: the action number of each round at each step, -1 once it was over."""
        if not self._moves:
            return np.zeros((self.count, 0), dtype=np.int64)
        return np.stack(self._moves, axis=1)

    def run(self, policy: Policy | Sequence[Policy]) -> RoundResults:
        """Step until every round is over; ``policy`` is one callable, or one per seat (each gets
        the masks of all rounds, all False where another seat decides, and the observation with
        the hand only where its own seat decides: -1 elsewhere, R7)."""
        if not callable(policy):
            if not isinstance(policy, Sequence):
                raise TypeError(f"the policy must be a callable, or a list of one per seat, not {type(policy).__name__}")
            if len(policy) != self.players:
                raise ValueError(f"one policy for all seats, or one per seat: {self.players} seats, not {len(policy)}"
                                 " policies")
            if not all(map(callable, policy)):  # ("ab" is a list of two, but of letters)
                raise TypeError("the policy must be a callable, or a list of one per seat, not a list of"
                                f" {', '.join(sorted({type(p).__name__ for p in policy if not callable(p)}))}")
        with self._alone():
            return self._run(policy)

    def _run(self, policy: Policy | Sequence[Policy]) -> RoundResults:
        """:meth:`run`, the policy checked, the batch ours alone."""
        while not self.done.all():
            legal = self.legal_mask()  # (worked out once a step)
            observation = self.observation()
            if callable(policy):  # given a copy: the policy may write on the masks it is given
                self._apply(_action_numbers(policy(legal.copy(), observation), self.count), legal)
                continue
            numbers = np.full(self.count, -1, dtype=np.int64)
            for seat, seat_policy in enumerate(policy):
                mine = observation.seat == seat
                if mine.any():
                    own = replace(observation, hand=np.where(mine[:, None], observation.hand, -1))
                    try:  # (as step() checks one policy's: numpy would read 8.9 as 8, "3" as 3)
                        chosen = _action_numbers(seat_policy(legal & mine[:, None], own), self.count)
                    except ValueError as refused:
                        raise ValueError(f"seat {seat}'s policy: {refused}") from None
                    numbers[mine] = chosen[mine]
            self._apply(numbers, legal)
        return self.results

    @property
    def results(self) -> RoundResults:
        """The outcome so far (meaningful where ``done``)."""
        st = self._states
        return RoundResults(
            winners=st[:, WINNERS].astype(np.uint8),
            spy_bonus=st[:, SPY_BONUS].astype(np.int8),
            turns=st[:, TURN].astype(np.uint8),
            alive=st[:, ALIVE].astype(np.uint8),
            players=self.players,
        )
