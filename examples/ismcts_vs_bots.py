"""OpenSpiel's information-set MCTS against our bots, in the OpenSpiel game ``python_love_letter``.

For each level of ``--bots`` (``random``, ``beginner``, ``expert``), plays ``--rounds`` single rounds
of classic Love Letter with ``--players`` seats: OpenSpiel's ``ISMCTSBot`` (UCT with c = 2, one
random rollout per leaf, ``--simulations`` per decision, its determinisations drawn by
``resample_from_infostate`` from the seat's exact belief) in one seat, a bot of that level in each
other seat. The ISMCTS seat moves one place each round (seat 0 always starts a round), so it starts
as often as the others. Chance (the deck) comes from a generator seeded by ``--seed`` and the round's
number, so every matchup gets the same sequence of chance seeds.

Our bots see only their own seat's information: ``state.view_of(seat)`` gives the engine's view of
that seat (in a one-round game the round's, so that a bot plays for the round), ``bot.choose(view)`` the action, and :func:`loveletter.encoding.actions_for` its number in
the game's action space. Every random choice is seeded (the ISMCTS bot's determinisations too, see
:func:`play_round`), so a run is reproducible with ``--seed``.

Prints each matchup's ISMCTS win rate with a 95% Wilson interval (a round won together counts as
half a win); 200 rounds give intervals of about +-7 points (``--rounds`` for more). What it measured
with the defaults, and how long it took: ``examples/README.md``.

Options: ``--bots`` (comma-separated levels, default ``beginner,expert``), ``--rounds`` (per
matchup), ``--simulations`` (ISMCTS per decision, at least 2), ``--budget`` (the expert's iterations per
decision, default its own), ``--seed``, ``--players`` (2 by default), ``--quick`` (a few seconds,
for tests).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from loveletter.bots import LEVELS, MAX_BUDGET, SEARCHING, make_bot
from loveletter.encoding import actions_for
from loveletter.engine import CLASSIC
from loveletter.envs.openspiel import seeded_resampler  # importing it registers the game
from loveletter.tournament import wilson

#: The fewest simulations ISMCTS can be given: after one alone, OpenSpiel's ISMCTS fails an assertion
#: (``node.total_visits > 0``) as it picks its move (as in benchmarks/vs_openspiel.py).
FEWEST_SIMULATIONS = 2


@dataclass
class Tally:
    """One matchup's results, from the ISMCTS seat's side."""

    level: str
    rounds: int = 0
    wins: float = 0.0  # a round won by k seats counts 1/k
    shared: int = 0
    seconds: float = 0.0

    def line(self, simulations: int) -> str:
        lo, hi = wilson(self.wins, self.rounds)  # (a shared round counts its share)
        return (f"ISMCTS ({simulations} simulations) vs {self.level}: {self.rounds} rounds, ISMCTS wins "
                f"{self.wins / self.rounds:.1%} (95% CI {lo:.1%}-{hi:.1%}), shared {self.shared}, "
                f"{self.seconds:.0f} s")


def play_round(
    game: pyspiel.Game, level: str, number: int, players: int, simulations: int, budget: int | None, seed: int
) -> list[int]:
    """One round (the ``number``-th of its matchup): the ISMCTS seat and the round's winners."""
    numbering = actions_for(CLASSIC, players)
    # Seeds from (seed, round): each round is reproducible on its own, and matchups share the deals' seeds.
    base = seed * 1_000_003 + number
    chance = np.random.RandomState(base % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState((base + 1) % 2**32))
    searcher = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=simulations,
                                random_state=np.random.RandomState((base + 2) % 2**32))
    searcher.set_resampler(seeded_resampler(base + 3))  # the same round searches the same each run
    ismcts_seat = number % players
    ours = {seat: make_bot(level, base * 10 + seat, budget) for seat in range(players) if seat != ismcts_seat}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=probabilities)))
            continue
        seat = state.current_player()
        if seat == ismcts_seat:
            action = int(searcher.step(state))
        else:
            action = numbering.number(ours[seat].choose(state.view_of(seat)))
        state.apply_action(action)
    return [ismcts_seat, *state.match.round.winners]


def matchup(level: str, rounds: int, players: int, simulations: int, budget: int | None, seed: int) -> Tally:
    """``rounds`` rounds of ISMCTS against bots of ``level``, printing progress as it goes."""
    game = pyspiel.load_game("python_love_letter", {"players": players})
    tally = Tally(level)
    began = time.perf_counter()
    every = max(10, rounds // 5)  # a few progress lines per matchup, none for tiny runs
    for number in range(rounds):
        ismcts_seat, *winners = play_round(game, level, number, players, simulations, budget, seed)
        tally.rounds += 1
        if ismcts_seat in winners:
            tally.wins += 1 / len(winners)
            tally.shared += len(winners) > 1
        if tally.rounds % every == 0 and tally.rounds < rounds:
            print(f"  vs {level}: {tally.rounds}/{rounds} rounds, ISMCTS wins {tally.wins / tally.rounds:.1%} "
                  f"({time.perf_counter() - began:.0f} s)", flush=True)
    tally.seconds = time.perf_counter() - began
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bots", default="beginner,expert", help="our bot levels, comma-separated "
                        f"({', '.join(LEVELS)}; default beginner,expert)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per matchup (default 200; --quick: 6)")
    parser.add_argument("--simulations", type=int, default=None,
                        help=f"ISMCTS simulations per decision, at least {FEWEST_SIMULATIONS} (default 100; --quick: 10)")
    parser.add_argument("--budget", type=int, default=None,
                        help="the expert's iterations per decision (default: its own; --quick: 30)")
    parser.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    parser.add_argument("--players", type=int, default=2, help="seats, 2 to 4 (default 2)")
    parser.add_argument("--quick", action="store_true", help="a tiny run (seconds), for tests")
    args = parser.parse_args(argv)
    levels = [level.strip() for level in args.bots.split(",") if level.strip()]
    unknown = [level for level in levels if level not in LEVELS]
    if not levels or unknown:
        parser.error(f"--bots: unknown level(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(LEVELS)}")
    rounds = args.rounds if args.rounds is not None else (6 if args.quick else 200)
    simulations = args.simulations if args.simulations is not None else (10 if args.quick else 100)
    budget = args.budget if args.budget is not None else (30 if args.quick else None)
    if rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.seed < 0:  # (as the adapters and the other example refuse it)
        parser.error(f"--seed must be a whole number from 0, not {args.seed}")
    if budget is not None and not 1 <= budget <= MAX_BUDGET:
        parser.error(f"--budget must be from 1 to {MAX_BUDGET:,}")
    if args.budget is not None and not SEARCHING & set(levels):  # it would be ignored without a word
        parser.error(f"--budget: no bot here thinks with a budget (only {', '.join(sorted(SEARCHING))})")
    if simulations < FEWEST_SIMULATIONS:
        parser.error(f"--simulations must be at least {FEWEST_SIMULATIONS}")
    try:
        CLASSIC.check_players(args.players)
    except ValueError as error:
        parser.error(f"--players: {error}")

    print(f"classic, {args.players} players, single rounds, the ISMCTS seat moving round by round; "
          f"ISMCTS: {simulations} simulations per decision", flush=True)
    began = time.perf_counter()
    tallies = []
    for level in levels:
        tallies.append(matchup(level, rounds, args.players, simulations, budget, args.seed))
        print(tallies[-1].line(simulations), flush=True)
    print(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
