"""How far the beginner's weights are from their best against the random bot: a coordinate search.

The beginner (bots/rule_based.py) scores each move with the constants of
:class:`~loveletter.bots.rule_based.Weights`. This script plays it against the random bot (classic, two
players, single rounds, seats and starter alternating) and varies one weight at a time, by the factors
of ``--factors`` (a weight at 0 is tried at the factors themselves), keeping a change only when it wins
more rounds. Every set of weights meets the same
deals and the same random bot (common random numbers), so a difference is the weights' doing, not the
deal's. The final weights are then played on other deals, beside the defaults, so that what the search
found is not a fit to its own deals. A shared round win counts as a share.

    .venv/bin/python benchmarks/beginner_weights.py [--rounds 100000] [--sweeps 1] [--jobs J]

At 100,000 rounds per trial the 95% interval of a difference between two sets of weights is about
±0.2 points (they share the deals); a trial takes about 11 seconds on two cores (one sweep with
five factors, ``--factors=0,0.5,0.75,1.5,2``: about 100 trials, 19 minutes).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import multiprocessing
import multiprocessing.pool
import random
import statistics
import time

from options import MOST_JOBS, Parser, count, description, quiet_pool, run, whole

from loveletter.bots import RandomBot, RuleBasedBot
from loveletter.bots.rule_based import WEIGHTS, Weights
from loveletter.engine import CLASSIC, Round, view
from loveletter.tournament import default_jobs
from loveletter.tournament.stats import wilson

HELD_OUT = 10**9  # the first deal of the check on other deals
#: The largest factor (in size) a weight may be multiplied by: far beyond any useful change (1e308
#: made a weight infinite, and the beginner's scores of its moves not numbers).
LARGEST_FACTOR = 1000
#: The most factors --factors may list: each is a trial of every weight.
MOST_FACTORS = 20


def _play(task: tuple[Weights, int, int]) -> float:
    """Rounds ``first`` to ``last - 1``: the beginner's wins (shares of shared wins)."""
    weights, first, last = task
    won = 0.0
    for i in range(first, last):
        seat = i % 2
        state = Round.shuffled(CLASSIC, 2, random.Random(i), starter=(i // 2) % 2, log=True)
        beginner, other = RuleBasedBot(i * 7 + 1, weights), RandomBot(i * 7 + 2)
        while not state.over:
            bot = beginner if state.current == seat else other
            state.apply(bot.choose(view(state, state.current)))
        if seat in state.winners:
            won += 1 / len(state.winners)
    return won


PARTS = 32  # blocks of deals a trial is split into (for the processes, and for the interval below)


def win_rate(pool: multiprocessing.pool.Pool, weights: Weights, rounds: int, first: int = 0) -> float:
    return sum(wins_by_block(pool, weights, rounds, first)) / rounds


def wins_by_block(pool: multiprocessing.pool.Pool, weights: Weights, rounds: int, first: int = 0) -> list[float]:
    """The beginner's wins in each of :data:`PARTS` blocks of consecutive deals from ``first``."""
    bounds = [first + rounds * k // PARTS for k in range(PARTS + 1)]
    return pool.map(_play, [(weights, a, b) for a, b in itertools.pairwise(bounds)])


def paired_difference(a: list[float], b: list[float], rounds: int) -> tuple[float, float]:
    """The difference between two win rates on the same deals (blocks of them, ``a`` and ``b``), and
    half its 95% interval: from the spread of the blocks' differences, which shared deals keep small."""
    per_round = [(x - y) * PARTS / rounds for x, y in zip(a, b, strict=True)]  # each block's difference
    mean = statistics.fmean(per_round)
    return mean, 1.96 * statistics.stdev(per_round) / math.sqrt(len(per_round))


def trial_value(now: float, factor: float) -> float:
    """The value a weight at ``now`` is tried at with ``factor``: ``now`` times it, and a weight at 0
    (which no factor would move) the factor itself, as if it were 1."""
    return now * factor if now else factor


def main() -> None:
    parser = Parser(description=description(__doc__))
    parser.add_argument("--rounds", type=whole(32, 10_000_000), default=100_000,
                        help="rounds per trial, 32 to 10,000,000 (default 100,000)")
    parser.add_argument("--sweeps", type=whole(1, 100), default=1,
                        help="passes over the weights, at most 100 (default 1)")
    parser.add_argument("--factors", default="-2,0,0.5,0.75,1.5,2,3",
                        help="what each weight is multiplied by in turn (default -2,0,0.5,0.75,1.5,2,3; a list"
                             " that starts with a minus is given as --factors=-2,…)")
    parser.add_argument("--jobs", type=whole(1, MOST_JOBS), default=None, help="processes (default: every core)")
    args = parser.parse_args()
    try:
        factors = [float(f) for f in args.factors.split(",")]
    except ValueError:
        parser.error(f"argument --factors: numbers separated by commas, not {args.factors!r}")
    if len(factors) > MOST_FACTORS:
        parser.error(f"argument --factors: at most {MOST_FACTORS} numbers, not {len(factors):,}")
    if not all(math.isfinite(f) and abs(f) <= LARGEST_FACTOR for f in factors):
        parser.error(f"argument --factors: finite numbers from -{LARGEST_FACTOR:,} to {LARGEST_FACTOR:,},"
                     f" not {args.factors!r}")
    with quiet_pool(args.jobs or default_jobs()) as pool:
        began = time.perf_counter()
        weights, best = WEIGHTS, win_rate(pool, WEIGHTS, args.rounds)
        print(f"beginner vs random, classic 2p, {args.rounds:,} rounds per trial: the default weights win "
              f"{100 * best:.2f}%", flush=True)
        trials = 0
        for sweep in range(args.sweeps):
            for field in dataclasses.fields(Weights):
                now = getattr(weights, field.name)
                for factor in factors:
                    value = trial_value(now, factor)
                    if value == now:
                        continue
                    tried = dataclasses.replace(weights, **{field.name: value})
                    rate = win_rate(pool, tried, args.rounds)
                    trials += 1
                    if rate > best:
                        print(f"  {field.name}: {now:g} -> {value:g}: {100 * rate:.2f}% "
                              f"(+{100 * (rate - best):.2f})", flush=True)
                        weights, best = tried, rate
            print(f"after sweep {sweep + 1}: {100 * best:.2f}% [{count(trials, 'trial')}, "
                  f"{time.perf_counter() - began:.0f} s]", flush=True)
        changed = {f.name: getattr(weights, f.name) for f in dataclasses.fields(Weights)
                   if getattr(weights, f.name) != getattr(WEIGHTS, f.name)}
        found = wins_by_block(pool, weights, args.rounds, HELD_OUT)
        default = wins_by_block(pool, WEIGHTS, args.rounds, HELD_OUT)
        difference, margin = paired_difference(found, default, args.rounds)
        rates = []
        for wins in (found, default):
            lo, hi = wilson(sum(wins), args.rounds)
            rates.append(f"{100 * sum(wins) / args.rounds:.2f}% ({100 * lo:.2f}-{100 * hi:.2f}%)")
        print(f"on {args.rounds:,} other deals (95% intervals): the weights found {rates[0]}, the defaults"
              f" {rates[1]}; the difference {100 * difference:+.2f} points (±{100 * margin:.2f}, the deals"
              f" shared) (changed: {changed or 'none'})")


if __name__ == "__main__":
    run(main)
