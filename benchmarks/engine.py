"""Random rounds per second: the engine's speed for simulations (issue: the rules engine).

Plays rounds where every player picks uniformly among the legal actions, in one process, and
prints rounds/second for classic 2p and 4p and 2019 6p, with and without the event log.

    python benchmarks/engine.py [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import time

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    print(f"{'game':<16}{'rounds/s (no log)':>20}{'rounds/s (event log)':>24}")
    for edition, players in ((CLASSIC, 2), (CLASSIC, 4), (EDITION_2019, 6)):
        fast = random_rounds(edition, players, args.seconds, log=False)
        logged = random_rounds(edition, players, args.seconds, log=True)
        print(f"{edition.name + ' ' + str(players) + 'p':<16}{fast:>20,.0f}{logged:>24,.0f}")


if __name__ == "__main__":
    main()
