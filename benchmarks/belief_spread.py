"""How well the belief gives the card really held its chance, where it is an approximation.

Plays single rounds of random and beginner bots (in turn around the table); at each decision of seat
0 it asks seat 0's belief (``plain``: every play the rules allow is as likely; ``reading``: the
expert's, which reads the others' plays) for each opponent's hand, and compares with the card that
opponent really holds. Printed per game: how often that card got under 1%, how often some other card
was shown as certain (99% or more), the mean log-chance of the card held (higher is better; the
belief of a seat that knew nothing but the card counts would score about -2), the median number of
deals in the table, and the time taken. An exact belief never shows a wrong card as certain; its
"under 1%" readings are the rare surprises of a sound model.

    .venv/bin/python benchmarks/belief_spread.py [--rounds 100] [--seed 0] [--only 2019]
"""

from __future__ import annotations

import math
import random
import statistics
import time

from options import Parser, add_game_options, check_only, count, description, run, wanted, whole

from loveletter.bots import make_bot
from loveletter.bots.belief import Belief
from loveletter.bots.reading import Reading
from loveletter.engine import CLASSIC, EDITION_2019, Edition, Round, view

GAMES = [(CLASSIC, 4), (EDITION_2019, 4), (EDITION_2019, 5), (EDITION_2019, 6)]


def measure(edition: Edition, players: int, kind: str, rounds: int, seed: int) -> str:
    """One line of figures for seat 0's belief of ``kind`` over ``rounds`` rounds."""
    readings = low = wrong_sure = 0
    log_chance = 0.0
    sizes: list[int] = []
    began = time.perf_counter()
    for r in range(rounds):
        rnd = Round.shuffled(edition, players, random.Random(seed * 1_000_003 + r), starter=r % players, log=True)
        bots = [make_bot("random" if (r + s) % 2 else "beginner", seed * 1_000_003 + r * 10 + s)
                for s in range(players)]
        belief: Belief | Reading | None = None
        while not rnd.over:
            seen = view(rnd, rnd.current)
            if rnd.current == 0:
                if belief is None:
                    belief = Belief(seen) if kind == "plain" else Reading(seen)
                else:
                    belief.update(seen)
                sizes.append(len(belief))
                for seat, chances in belief.all_odds().items():
                    held = rnd.hands[seat][0]
                    chance = chances.get(held, 0.0)
                    readings += 1
                    low += chance < 0.01
                    wrong_sure += any(p >= 0.99 and card is not held for card, p in chances.items())
                    log_chance += math.log(max(chance, 1e-6))
            rnd.apply(bots[rnd.current].choose(seen))
    took = time.perf_counter() - began
    return (f"{edition.name} {players}p, {kind:7}: {count(readings, 'reading')}; the card held under 1%: {low:,}"
            f" ({100 * low / max(readings, 1):.1f}%); another card shown as certain: {wrong_sure:,};"
            f" mean log-chance {log_chance / max(readings, 1):.2f}; deals held (median)"
            f" {statistics.median(sizes) if sizes else 0:,.0f} [{took:.0f} s]")


def main() -> None:
    parser = Parser(description=description(__doc__))
    parser.add_argument("--rounds", type=whole(1, 10_000), default=100,
                        help="rounds per game, at most 10,000 (default 100)")
    add_game_options(parser, "2019 5p")
    args = parser.parse_args()
    check_only(parser, args.only, [f"{edition.name} {players}p" for edition, players in GAMES])
    print(f"seat 0's belief against random and beginner bots, {count(args.rounds, 'single round')} per game,"
          f" seed {args.seed}")
    for edition, players in GAMES:
        if not wanted(f"{edition.name} {players}p", args.only):
            continue
        for kind in ("plain", "reading"):
            print(measure(edition, players, kind, args.rounds, args.seed), flush=True)


if __name__ == "__main__":
    run(main)
