"""Our expert bot against OpenSpiel's information-set MCTS, at equal think time per move.

Plays single rounds of classic two-player Love Letter in the OpenSpiel game ``python_love_letter``
(loveletter.envs.openspiel): chance from a seeded generator, the expert in seat 0 in even rounds and
seat 1 in odd ones (seat 0 always starts). Both bots get the same time per decision (``--think``):

- the expert (loveletter.bots.ExpertBot) searches until the time limit;
- OpenSpiel's ``ISMCTSBot`` (UCT, c = 2, one random rollout per leaf, determinisations from
  ``resample_from_infostate``, which samples our exact belief) gets as many simulations as it ran in
  that time on its earlier moves (it has no time limit of its own), so its mean think time matches.

``--simulations N`` instead gives ISMCTS a fixed N simulations per move, whatever the time they take
(to see how it does with more effort than the expert).

Prints the expert's win rate with a 95% Wilson interval (a round both win counts half), and each bot's
mean think time and search effort per move, so the time is seen to be equal.

``--seed`` fixes the deals and the bots' random numbers, not the figures: the expert searches for a
time (and, without ``--simulations``, so does ISMCTS), so how far each gets, and what it plays, varies
with the machine's speed from one run to the next.

    .venv/bin/python benchmarks/vs_openspiel.py [--rounds N] [--think SECONDS] [--simulations N] [--jobs J] [--seed S]
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass, field

from options import MOST_JOBS, Parser, count, description, processes, quiet_pool, run, seconds, whole

from loveletter.tournament import default_jobs, wilson

#: The fewest simulations ISMCTS can be given: after one alone, OpenSpiel's ISMCTS fails an assertion
#: (``node.total_visits > 0``) as it picks its move.
FEWEST_SIMULATIONS = 2


@dataclass
class Tally:
    rounds: int = 0
    expert: float = 0.0  # rounds won (a shared win counts half)
    ties: int = 0
    expert_times: list[float] = field(default_factory=list)
    expert_iterations: list[int] = field(default_factory=list)
    ismcts_times: list[float] = field(default_factory=list)
    ismcts_simulations: list[int] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.rounds += other.rounds
        self.expert += other.expert
        self.ties += other.ties
        self.expert_times += other.expert_times
        self.expert_iterations += other.expert_iterations
        self.ismcts_times += other.ismcts_times
        self.ismcts_simulations += other.ismcts_simulations


def play(args: tuple[int, int, float, int, int | None]) -> Tally:
    """Rounds ``start`` to ``stop - 1`` (seeded by ``seed``), ``think`` seconds per move each (or
    ``fixed`` simulations per move for ISMCTS)."""
    start, stop, think, seed, fixed = args
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from loveletter.bots import ExpertBot
    from loveletter.encoding import actions_for
    from loveletter.engine import CLASSIC
    from loveletter.envs.openspiel import seeded_resampler  # importing it registers the game

    game = pyspiel.load_game("python_love_letter", {"players": 2})
    numbering = actions_for(CLASSIC, 2)
    tally = Tally()
    rate = 0.0  # ISMCTS simulations per second, from its moves so far
    for i in range(start, stop):
        # every seed of the round from this one (seed + i would give --seed 1 the bots of --seed 0's next
        # round), each random stream apart from the others; numpy takes 0 to 2**32 - 1
        base = seed * 1_000_003 + i
        chance = np.random.RandomState(base % 2**32)
        rollouts = np.random.RandomState((base + 2**31) % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rollouts)
        opponent = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=1,
                                    random_state=np.random.RandomState((base + 2**30) % 2**32))
        opponent.set_resampler(seeded_resampler(2 * base + 1))
        expert = ExpertBot(seed=2 * base, budget=10**9, time_limit=think)
        expert_seat = i % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(chance.choice(outcomes, p=probs)))
                continue
            searching = len(state.legal_actions()) > 1
            began = time.perf_counter()
            if state.current_player() == expert_seat:
                v = state.view_of(expert_seat)
                number = numbering.number(expert.choose(v))
                if searching:
                    tally.expert_times.append(time.perf_counter() - began)
                    tally.expert_iterations.append(expert.stats.iterations)
            else:
                simulations = fixed or (max(FEWEST_SIMULATIONS, int(rate * think)) if rate else 20)
                opponent._max_simulations = simulations  # the bot has no time limit of its own
                number = opponent.step(state)
                if searching:
                    spent = time.perf_counter() - began
                    tally.ismcts_times.append(spent)
                    tally.ismcts_simulations.append(simulations)
                    rate = sum(tally.ismcts_simulations) / sum(tally.ismcts_times)
            state.apply_action(number)
        winners = state.match.round.winners
        tally.rounds += 1
        if expert_seat in winners:
            tally.expert += 1 / len(winners)
            tally.ties += len(winners) > 1
    return tally


def main() -> None:
    parser = Parser(description=description(__doc__))
    parser.add_argument("--rounds", type=whole(1, 100_000), default=600,
                        help="single rounds, at most 100,000 (default 600)")
    parser.add_argument("--think", type=seconds(most=60), default=0.1,
                        help="seconds per move for each bot, at most 60 (default 0.1)")
    parser.add_argument("--simulations", type=whole(FEWEST_SIMULATIONS, 100_000), default=None,
                        help="a fixed number of ISMCTS simulations per move instead of equal time"
                             f" ({FEWEST_SIMULATIONS} to 100,000)")
    parser.add_argument("--jobs", type=whole(1, MOST_JOBS), default=None, help="processes (default: every core)")
    parser.add_argument("--seed", type=whole(None), default=0,
                        help="seed of the deals and the bots' random numbers (default 0); the bots think for a"
                             " time, so the figures still vary a little from run to run")
    args = parser.parse_args()
    jobs = min(args.jobs or default_jobs(), args.rounds)  # no more processes than rounds
    step = max(1, args.rounds // (jobs * 4))
    chunks = [(a, min(a + step, args.rounds), args.think, args.seed, args.simulations)
              for a in range(0, args.rounds, step)]
    counting = sys.stderr.isatty()  # the count of rounds done, on a terminal only
    total = Tally()
    began = time.perf_counter()
    with quiet_pool(jobs) as pool:
        for part in pool.imap_unordered(play, chunks):
            total.add(part)
            if counting:
                print(f"\r{total.rounds}/{args.rounds} rounds", end="", file=sys.stderr, flush=True)
    if counting:
        print(file=sys.stderr)
    lo, hi = wilson(total.expert, total.rounds)  # a shared round counts its share
    effort = f"{args.simulations:,} ISMCTS simulations per move" if args.simulations else "equal time"
    print(f"classic 2p single rounds: expert vs OpenSpiel ISMCTS, expert {args.think:g} s per move, {effort}, "
          f"{count(total.rounds, 'round')}, seats alternating, seed {args.seed}, {processes(jobs)},"
          f" {time.perf_counter() - began:.0f} s")
    print(f"  expert wins {total.expert / total.rounds:.1%} (95% CI {lo:.1%}-{hi:.1%}); shared rounds: {total.ties}")
    for name, times, searched, unit in (
        ("expert", total.expert_times, total.expert_iterations, "iterations"),
        ("ISMCTS", total.ismcts_times, total.ismcts_simulations, "simulations"),
    ):
        if times:
            print(f"  {name:6}: mean {statistics.fmean(times) * 1000:.0f} ms per move "
                  f"(median {statistics.median(times) * 1000:.0f} ms), "
                  f"mean {statistics.fmean(searched):.0f} {unit} per move")


if __name__ == "__main__":
    run(main)
