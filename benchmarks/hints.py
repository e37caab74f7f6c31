"""How long the hints take: the expert's estimate of every legal move (``ExpertBot.move_odds``), as the
terminal and browser games ask it before each of a player's moves.

Plays single rounds of beginner bots; before each decision of seat 0 with more than one legal move it
times seat 0's adviser (an expert at the default budget, kept through the round as the games keep it).
Printed per game: the number of decisions timed, the median, 90th percentile and longest time, and
the median for the decisions with the most legal moves (a Guard with many targets), with the number
of moves tried per second.

    .venv/bin/python benchmarks/hints.py [--rounds 20] [--seed 0] [--only "2019 6p"]
"""

from __future__ import annotations

import random
import statistics
import time

from options import Parser, add_game_options, check_only, count, description, percentile, run, wanted, whole

from loveletter.bots import ExpertBot, make_bot
from loveletter.engine import CLASSIC, EDITION_2019, Edition, Round, view

GAMES = [(CLASSIC, 2), (CLASSIC, 4), (EDITION_2019, 6)]
#: A decision with at least this many legal moves counts as a long one (a Guard with several targets).
MANY_MOVES = 20


def measure(edition: Edition, players: int, rounds: int, seed: int) -> str:
    """One line of figures for seat 0's hints over ``rounds`` rounds."""
    times: list[float] = []
    long_times: list[float] = []
    tries = 0
    for r in range(rounds):
        rnd = Round.shuffled(edition, players, random.Random(seed * 1_000_003 + r), starter=r % players, log=True)
        bots = [make_bot("beginner", seed * 1_000_003 + r * 10 + s) for s in range(players)]
        adviser = ExpertBot(seed * 1_000_003 + r, levels={s: "beginner" for s in range(1, players)})
        while not rnd.over:
            seen = view(rnd, rnd.current)
            if rnd.current == 0 and len(seen.legal_actions) > 1:
                began = time.perf_counter()
                adviser.move_odds(seen)
                took = time.perf_counter() - began
                times.append(took)
                tries += adviser.stats.iterations
                if len(seen.legal_actions) >= MANY_MOVES:
                    long_times.append(took)
            rnd.apply(bots[rnd.current].choose(seen))
    if not times:
        return f"{edition.name} {players}p: no decision with a choice in {count(rounds, 'round')}"
    ordered = sorted(times)
    ninetieth = percentile(ordered, 0.9)
    long = (f"; with {MANY_MOVES} moves or more: median {1000 * statistics.median(long_times):,.0f} ms"
            f" over {len(long_times):,}" if long_times else f"; none with {MANY_MOVES} moves or more")
    return (f"{edition.name} {players}p: {count(len(times), 'hint')},"
            f" median {1000 * statistics.median(times):,.0f} ms,"
            f" 90th percentile {1000 * ninetieth:,.0f} ms, longest {1000 * ordered[-1]:,.0f} ms{long};"
            f" {tries / sum(times):,.0f} tries per second (a move tried on one deal)")


def main() -> None:
    parser = Parser(description=description(__doc__))
    parser.add_argument("--rounds", type=whole(1, 10_000), default=20, help="rounds per game, at most 10,000 (default 20)")
    add_game_options(parser, "2019 6p")
    args = parser.parse_args()
    check_only(parser, args.only, [f"{edition.name} {players}p" for edition, players in GAMES])
    print(f"seat 0's hints (every legal move tried, the expert at its default budget) against beginner bots,"
          f" {count(args.rounds, 'single round')} per game, seed {args.seed}")
    for edition, players in GAMES:
        if not wanted(f"{edition.name} {players}p", args.only):
            continue
        print(measure(edition, players, args.rounds, args.seed), flush=True)


if __name__ == "__main__":
    run(main)
