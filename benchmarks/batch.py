"""Random rounds per second of the batched simulator (loveletter.batch) on one core.

Plays rounds in which every move is drawn uniformly among the legal action numbers, decks shuffled in
the kernel, and prints rounds/second — best and median of several repeats, the compilation (or the
load from numba's cache) excluded by a warm-up — for classic 2p (the issue's target: 2,000,000) and
4p and 2019 2p and 6p; then the plain engine's rate on a few rounds, for comparison. The kernel runs
in one thread; the process is also pinned to one CPU (``--no-pin`` to leave it free).

    .venv/bin/python benchmarks/batch.py [--rounds N] [--repeats K] [--engine-seconds S] [--no-pin]
"""

from __future__ import annotations

import os
import random
import statistics
import time

from options import Parser, count, description, run, seconds, whole

from loveletter.batch import random_rounds
from loveletter.engine import CLASSIC, EDITION_2019, Edition, Round

#: The most rounds in one batch: its arrays take memory per round (a billion would not fit).
MOST_ROUNDS = 50_000_000

GAMES = (("classic", 2), ("classic", 4), ("2019", 2), ("2019", 6))
TARGET = 2_000_000  # classic 2p random rounds per second on one core (the issue)


def batch_rates(edition: str, players: int, rounds: int, repeats: int) -> list[float]:
    """Rounds per second of ``repeats`` runs of ``rounds`` rounds each (each with its own seed)."""
    rates = []
    for seed in range(repeats):
        start = time.perf_counter()
        random_rounds(rounds, edition=edition, players=players, seed=seed)
        rates.append(rounds / (time.perf_counter() - start))
    return rates


def engine_rate(edition: Edition, players: int, seconds: float) -> float:
    """The plain engine's random rounds per second (no event log), as benchmarks/engine.py plays them."""
    rng = random.Random(1)
    pick = rng.random
    rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            r = Round.shuffled(edition, players, rng, log=False)
            while not r.over:
                actions = r.legal_actions()
                r.apply(actions[int(pick() * len(actions))])
            rounds += 1
    return rounds / (time.perf_counter() - start)


def main() -> None:
    parser = Parser(description=description(__doc__))
    parser.add_argument("--rounds", type=whole(1, MOST_ROUNDS), default=2_000_000,
                        help=f"rounds per repeat (default 2,000,000; at most {MOST_ROUNDS:,})")
    parser.add_argument("--repeats", type=whole(1, 100), default=5, help="repeats per figure, at most 100 (default 5)")
    parser.add_argument("--engine-seconds", type=seconds(most=600), default=1.0,
                        help="time for each engine figure, at most 600 (default 1)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    args = parser.parse_args()

    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        print(f"pinned to CPU {cpu}")
    start = time.perf_counter()
    for edition, players in GAMES:
        random_rounds(1000, edition=edition, players=players)
    print(f"warm-up (numba compilation, or loading it from the cache): {time.perf_counter() - start:.1f} s")

    repeats = "1 run" if args.repeats == 1 else f"{args.repeats} repeats"
    print(f"random rounds per second, one core, {repeats} of {count(args.rounds, 'round')}")
    print(f"{'game':<14}{'best':>14}{'median':>14}{'plain engine':>16}{'speed-up':>10}")
    for edition, players in GAMES:
        rates = batch_rates(edition, players, args.rounds, args.repeats)
        best, median = max(rates), statistics.median(rates)
        known = CLASSIC if edition == "classic" else EDITION_2019
        engine = engine_rate(known, players, args.engine_seconds)
        print(f"{edition + ' ' + str(players) + 'p':<14}{best:>14,.0f}{median:>14,.0f}{engine:>16,.0f}"
              f"{median / engine:>9,.0f}x")
        if (edition, players) == ("classic", 2):
            verdict = "met" if median >= TARGET else "NOT met"
            print(f"{'':<14}target {TARGET:,} (median): {verdict}")


if __name__ == "__main__":
    run(main)
