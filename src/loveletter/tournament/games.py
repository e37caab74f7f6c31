"""The games of a tournament: who sits where, who starts, the seeds, and playing one game.

Every game is a pure function of the settings and its index ``i``:

- the seats are a cyclic rotation of the lineup by ``i mod n`` (``n`` players): seat ``s`` is played by
  lineup entry ``(s + i) mod n``; where the lineup read the other way round is another table (as
  ``expert, beginner, random``), every other block of ``n`` games plays it reversed;
- the seat that starts (the first round, R3.5) is ``(i div n) mod n`` (``(i div 2n) mod n`` with the
  reversed blocks), so within each block of ``n`` games the starter stays put while the lineup turns
  once around the table: every lineup entry plays every seat, and every position in turn order
  counting from the starter, once per block;
- the deck shuffles and every bot's choices come from seeds drawn from ``random.Random`` seeded with
  the string ``"loveletter-tournament:{seed}:{i}"`` (string seeds are hashed with SHA-512, the same in
  every process and on every machine).

So the result of a game depends neither on the process that plays it nor on the order of play.

>>> s = Settings(lineup=("beginner", "random"), games=4)
>>> [seating(s, i) for i in range(4)]
[('beginner', 'random'), ('random', 'beginner'), ('beginner', 'random'), ('random', 'beginner')]
>>> [starter(s, i) for i in range(4)]
[0, 0, 1, 1]
>>> play_game(s, 0)[0] == play_game(s, 0)[0]
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from loveletter.bots import Bot, make_bot
from loveletter.engine import EDITIONS, Card, Match, view
from loveletter.record import to_record

MODES = ("rounds", "matches")
#: Single rounds played unless ``--rounds`` or ``--matches`` says otherwise.
DEFAULT_ROUNDS = 1000


@dataclass(frozen=True)
class Settings:
    """What determines a tournament's results (how many processes play it does not).

    ``lineup`` has one bot level per seat (before rotation); ``mode`` is ``"rounds"`` (each game is
    one round; its winners per R6) or ``"matches"`` (each game is a whole match to the token target,
    R2.4); ``budget`` is the thinking budget in iterations, given to ``make_bot`` for every seat
    when set (the levels that do not search ignore it).
    """

    lineup: tuple[str, ...]
    edition: str = "classic"
    mode: str = "rounds"
    games: int = DEFAULT_ROUNDS
    seed: int = 0
    budget: int | None = None

    @property
    def players(self) -> int:
        return len(self.lineup)

    @property
    def levels(self) -> tuple[str, ...]:
        """The distinct levels, in the order they first appear in the lineup."""
        return tuple(dict.fromkeys(self.lineup))


@dataclass(frozen=True)
class GameResult:
    """One game: the level in each seat, the starting seat, the winning seats, rounds played."""

    index: int
    seats: tuple[str, ...]
    starter: int
    winners: tuple[int, ...]
    rounds: int


@dataclass
class Timing:
    """How long one level took to choose its moves (and, if the bot reports it, how much it searched)."""

    moves: int = 0
    seconds: float = 0.0
    samples: list[float] = field(default_factory=list)  # per move, kept only when asked for
    iterations: int = 0  # search iterations, for bots that report them (``bot.stats.iterations``)
    iteration_moves: int = 0  # moves that searched (reported iterations > 0)
    iteration_seconds: float = 0.0  # the time those moves took
    search_samples: list[float] = field(default_factory=list)  # their times, kept only when asked for

    def add(self, other: Timing) -> None:
        self.moves += other.moves
        self.seconds += other.seconds
        self.samples.extend(other.samples)
        self.iterations += other.iterations
        self.iteration_moves += other.iteration_moves
        self.iteration_seconds += other.iteration_seconds
        self.search_samples.extend(other.search_samples)


@dataclass
class Chunk:
    """The results of games ``start`` to ``stop - 1``, as one worker sends them back."""

    start: int
    stop: int
    games: list[GameResult]
    timing: dict[str, Timing]
    records: list[dict[str, Any]] | None


class GameFailed(RuntimeError):
    """A bot or the engine failed during a game; the message says which game and why."""

    def __init__(self, index: int, seats: tuple[str, ...], error: BaseException) -> None:
        self.index = index
        self.seats = seats
        self.error = f"{type(error).__name__}: {error}"
        super().__init__(index, seats, self.error)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_failure, (self.index, self.seats, self.error))

    def __str__(self) -> str:
        return f"game {self.index} ({', '.join(self.seats)}) failed: {self.error}"


def _rebuild_failure(index: int, seats: tuple[str, ...], error: str) -> GameFailed:
    failure = GameFailed(index, seats, RuntimeError())
    failure.error = error
    failure.args = (index, seats, error)
    return failure


# ------------------------------------------------------------------------------------ the schedule


def seating(settings: Settings, i: int) -> tuple[str, ...]:
    """The level in each seat of game ``i``: the lineup rotated by ``i mod n``; in every other block of
    ``n`` games the lineup reversed, where that is another table (see :func:`reverses`)."""
    n = settings.players
    lineup = settings.lineup
    if reverses(settings.lineup) and (i // n) % 2:
        lineup = lineup[::-1]
    return tuple(lineup[(s + i) % n] for s in range(n))


def starter(settings: Settings, i: int) -> int:
    """The seat that starts game ``i`` (its first round): ``(i div n) mod n``, or ``(i div 2n) mod n``
    where the reversed lineup is played too (each starter sees both ways round the table)."""
    n = settings.players
    block = i // n
    if reverses(settings.lineup):
        block //= 2
    return block % n


def reverses(lineup: tuple[str, ...]) -> bool:
    """Whether the lineup the other way round the table is another table: then it is played too,
    so that no level always plays just before the same other level (``expert, beginner, random``
    puts the random bot after the expert, which rotating alone never does). One expert among
    beginners, or any two players, reversed is only rotated."""
    back = lineup[::-1]
    return all(back != lineup[k:] + lineup[:k] for k in range(len(lineup)))


def seeds(settings: Settings, i: int) -> tuple[int, list[int]]:
    """Game ``i``'s shuffle seed and one seed per seat for the bots."""
    rng = random.Random(f"loveletter-tournament:{settings.seed}:{i}")
    deck = rng.getrandbits(64)
    return deck, [rng.getrandbits(64) for _ in range(settings.players)]


def build_bot(level: str, seed: int, budget: int | None = None) -> Bot:
    """A bot of ``level``: ``make_bot(level, seed)``, or with ``budget=`` when a budget is given (the
    levels that do not search ignore it)."""
    if budget is None:
        return make_bot(level, seed)
    return cast(Callable[..., Bot], make_bot)(level, seed, budget=budget)


# ------------------------------------------------------------------------------------ playing


def _search_iterations(bot: Bot) -> int | None:
    """How many search iterations the bot's last decision took, if it says: ``bot.stats.iterations``
    (``stats`` an object or a mapping describing the last decision, as the expert bot keeps it)."""
    stats: Any = getattr(bot, "stats", None)
    value = stats.get("iterations") if isinstance(stats, Mapping) else getattr(stats, "iterations", None)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def play_game(settings: Settings, i: int, timing: dict[str, Timing] | None = None,
              samples: bool = False) -> tuple[GameResult, Match]:
    """Play game ``i``; each bot sees only its own seat's view (R7). Adds think times to ``timing``.
    In single rounds a bot is shown the round alone, not the first round of a match: it plays for the
    round, which is what counts, not for a match's tokens (or the Spy's bonus token, R6.4)."""
    seats = seating(settings, i)
    first = starter(settings, i)
    deck_seed, bot_seeds = seeds(settings, i)
    try:
        bots = [build_bot(level, bot_seeds[s], settings.budget) for s, level in enumerate(seats)]
        match = Match(EDITIONS[settings.edition], settings.players, seed=deck_seed, starter=first,
                      target=_record_target(settings))
        clock = time.perf_counter
        while True:
            rnd = match.round
            while not rnd.over:
                seat = rnd.current
                bot = bots[seat]
                seen = view(rnd if settings.mode == "rounds" else match, seat)
                began = clock()
                action = bot.choose(seen)
                took = clock() - began
                match.apply(action)
                if timing is not None:
                    t = timing.setdefault(seats[seat], Timing())
                    t.moves += 1
                    t.seconds += took
                    if samples:
                        t.samples.append(took)
                    searched = _search_iterations(bot)
                    if searched:  # a decision that searched (not a forced move)
                        t.iterations += searched
                        t.iteration_moves += 1
                        t.iteration_seconds += took
                        if samples:
                            t.search_samples.append(took)
            if settings.mode == "rounds" or match.over:
                break
            match.next_round()
    except Exception as err:
        raise GameFailed(i, seats, err) from err
    winners = tuple(sorted(rnd.winners if settings.mode == "rounds" else match.winners))
    return GameResult(i, seats, first, winners, len(match.rounds)), match


def _record_target(settings: Settings) -> int | None:
    """The token target a game's record carries. A classic single round is kept as a game to one
    token, so that its record replays as a whole game won by the round's winners. Not in 2019: there
    the Spy's bonus token (R6.4) would also reach the target, and the replay would name its holder a
    winner of the game that the round did not make one; that record keeps the edition's target and
    ends after its round. Whole matches play to the edition's target (``None``)."""
    if settings.mode == "rounds" and not EDITIONS[settings.edition].has(Card.SPY):
        return 1
    return None


def play_chunk(settings: Settings, start: int, stop: int, records: bool = False,
               samples: bool = False) -> Chunk:
    """Play games ``start`` to ``stop - 1`` (the unit of work of a process or a Ray task)."""
    timing: dict[str, Timing] = {}
    games: list[GameResult] = []
    docs: list[dict[str, Any]] | None = [] if records else None
    for i in range(start, stop):
        result, match = play_game(settings, i, timing, samples)
        games.append(result)
        if docs is not None:
            docs.append(to_record(match, [f"{level}-{seat}" for seat, level in enumerate(result.seats)]))
    return Chunk(start, stop, games, timing, docs)
