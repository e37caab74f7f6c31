"""Random rounds per second: the engine's speed for simulations.

Plays rounds where every player picks uniformly among the legal actions, in one process, and
prints rounds/second for classic 2p and 4p and 2019 6p, with and without the event log.

    .venv/bin/python benchmarks/engine.py [--seconds S] [--trials N]
"""

from __future__ import annotations

import random
import statistics
import time

from options import Parser, count, description, run, seconds, whole

from loveletter.engine import CLASSIC, EDITION_2019, Edition, Round


def random_rounds(edition: Edition, players: int, seconds: float, log: bool, seed: int = 1) -> float:
    """Rounds per second, setup (shuffle and deal) included."""
    rng = random.Random(seed)
    pick = rng.random
    rounds = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            r = Round.shuffled(edition, players, rng, log=log)
            while r.phase != 2:
                actions = r.legal_actions()
                r.apply(actions[int(pick() * len(actions))])
            rounds += 1
        now = time.perf_counter()
        if now >= deadline:
            return rounds / (now - start)


def measure(edition: Edition, players: int, seconds: float, log: bool, trials: int) -> tuple[float, float, float]:
    """Median, lowest and highest rounds/second over ``trials`` runs (the machine is shared: the
    median is the figure to quote, the spread says how noisy it was)."""
    rates = sorted(random_rounds(edition, players, seconds / trials, log, seed=t) for t in range(trials))
    return statistics.median(rates), rates[0], rates[-1]


def main() -> None:
    parser = Parser(description=description(__doc__))
    parser.add_argument("--seconds", type=seconds(most=3600), default=5.0,
                        help="time per figure, split over the trials, at most 3600 (default 5)")
    parser.add_argument("--trials", type=whole(1, 100), default=5, help="runs per figure, at most 100 (default 5)")
    args = parser.parse_args()
    print(f"random rounds per second, one process, median of {count(args.trials, 'run')} (lowest-highest)")
    print(f"{'game':<14}{'no event log (simulation)':>34}{'with event log':>34}")
    for edition, players in ((CLASSIC, 2), (CLASSIC, 4), (EDITION_2019, 6)):
        cells = []
        for log in (False, True):
            median, low, high = measure(edition, players, args.seconds, log, args.trials)
            cells.append(f"{median:,.0f} ({low:,.0f}-{high:,.0f})")
        print(f"{edition.name + ' ' + str(players) + 'p':<14}{cells[0]:>34}{cells[1]:>34}")


if __name__ == "__main__":
    run(main)
