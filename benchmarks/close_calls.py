"""Whether the expert's close calls go the right way: at each decision where the search's runner-up
came close, its choice and the runner-up are both played out from the true round.

Plays single rounds of the expert against beginner bots, the expert's seat and the starter going
round the table. At each decision of the expert where the search's runner-up (by visits) was tried
at least a third as often as the move chosen, both moves are played from the true round, which a
fresh expert (for our seat) and fresh beginners then play to its end, ``--tries`` times each with
other bot seeds, the same for both moves. What is measured is a change of one decision: the
runner-up played once in the choice's place, the expert's own play after it, and the engine says who
won; the true hidden cards are a draw from what the expert could not know. The mean difference (the
runner-up's wins less the choice's, in points per decision) is shown for every such decision and by
kind (the card chosen against the runner-up's), with 95% intervals over the decisions. A decision
where the search lost every try of both moves, or won every try, is left out: it spreads its tries
evenly, and in a scratch run such decisions never changed the outcome.

    .venv/bin/python benchmarks/close_calls.py [--rounds 300] [--tries 2] [--seed 0] [--only "classic 4p"] [--budget B]
"""

from __future__ import annotations

import math
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass

from options import Parser, add_game_options, check_only, count, description, run, wanted, whole
from rounds import round_with

from loveletter.bots import MAX_BUDGET, ExpertBot, make_bot
from loveletter.bots.expert import ranked
from loveletter.engine import Action, Card, Round, view

#: (title, players, the others' level)
GAMES = [("classic 4p vs beginner ×3", 4, "beginner"), ("classic 2p vs beginner", 2, "beginner")]
#: A decision is close where the runner-up was searched at least this share as often as the choice.
CLOSE = 1 / 3
#: Kinds of decision met fewer times than this are shown together.
FEWEST_SHOWN = 10


@dataclass(frozen=True)
class CloseCall:
    """One close decision: the move chosen and the runner-up, its kind, and the runner-up's mean wins
    less the choice's over the tries."""

    chosen: Action
    runner_up: Action
    kind: str
    difference: float
    runner_up_looked_better: bool  # the runner-up had the higher mean in the search


def kind_of(chosen: Action, runner_up: Action, me: int) -> str:
    """The kind of decision, in the cards' words: "guard: another target or guess", "baron: another
    target", "priest rather than guard", "prince at itself rather than baron"."""

    def named(action: Action) -> str:
        return action.card.word + (" at itself" if action.card is Card.PRINCE and action.target == me else "")

    if named(chosen) == named(runner_up):
        return f"{named(chosen)}: another target" + (" or guess" if chosen.card is Card.GUARD else "")
    return f"{named(chosen)} rather than {named(runner_up)}"


def played_on(rnd: Round, action: Action, me: int, others: str, seed: int, tries: int, budget: int | None) -> float:
    """Our seat's share of wins when ``action`` is played in ``rnd`` and fresh bots play the round to
    its end, over ``tries`` seeds drawn from ``seed`` (the same seeds for any ``action``)."""
    won = 0
    for t in range(tries):
        state = rnd.clone(log=True)
        state.apply(action)
        bots = [make_bot("expert" if s == me else others, seed * 1_000 + t * 10 + s, budget) for s in range(rnd.players)]
        while not state.over:
            state.apply(bots[state.current].choose(view(state, state.current)))
        won += me in state.winners
    return won / tries


def measure(players: int, others: str, rounds: int, tries: int, seed: int, budget: int | None) -> list[CloseCall]:
    """The expert's close calls over ``rounds`` rounds."""
    calls = []
    for r in range(rounds):
        me, rnd, bots = round_with("expert", others, players, r, seed, budget)
        expert = bots[me]
        assert isinstance(expert, ExpertBot)
        while not rnd.over:
            seen = view(rnd, rnd.current)
            if rnd.current != me or len(seen.legal_actions) == 1:
                rnd.apply(bots[rnd.current].choose(seen))
                continue
            # the expert's own choice (ExpertBot.choose's, the same search), and the runner-up
            (chosen, mine), (runner_up, theirs) = ranked(expert.search(seen))[:2]
            # (every try of both lost, or every one won: the search spreads its tries evenly, as for a close call)
            settled = mine.reward == theirs.reward == 0.0 or (mine.reward, theirs.reward) == (mine.visits, theirs.visits)
            if theirs.visits >= CLOSE * mine.visits and not settled:
                decision = seed * 1_000_003 + r * 100 + rnd.turn
                difference = (played_on(rnd, runner_up, me, others, decision, tries, budget)
                              - played_on(rnd, chosen, me, others, decision, tries, budget))
                calls.append(CloseCall(chosen, runner_up, kind_of(chosen, runner_up, me), difference,
                                       theirs.reward / theirs.visits > mine.reward / mine.visits))
            rnd.apply(chosen)
    return calls


def summary(what: str, differences: list[float]) -> str:
    """``what``: how many decisions, and the mean difference in points with its 95% interval (a normal
    one, within the -100 to +100 points a difference can take)."""
    n = len(differences)
    mean = statistics.fmean(differences)
    said = f"{what}: {count(n, 'decision')}, {100 * mean:+.1f} points"
    if n == 1:
        return f"{said} (no interval from one)"
    spread = statistics.stdev(differences)
    if spread == 0:
        return f"{said} (every one alike: no interval)"
    margin = 1.96 * spread / math.sqrt(n)
    return f"{said} ({100 * max(-1.0, mean - margin):+.1f} to {100 * min(1.0, mean + margin):+.1f})"


def main() -> None:
    parser = Parser(description=description(__doc__))
    parser.add_argument("--rounds", type=whole(1, 100_000), default=300,
                        help="rounds per game, at most 100,000 (default 300; four players take about 2 s a round)")
    parser.add_argument("--tries", type=whole(1, 100), default=2,
                        help="play-outs of each of the two moves per close decision, at most 100 (default 2)")
    add_game_options(parser, "classic 4p")
    parser.add_argument("--budget", type=whole(1, MAX_BUDGET), default=None,
                        help="the expert's iterations per move (default: its own)")
    args = parser.parse_args()
    check_only(parser, args.only, [title for title, _, _ in GAMES])
    budget = "its default budget" if args.budget is None else f"{count(args.budget, 'iteration')} per move"
    print(f"the expert's close calls (the runner-up searched at least a third as often), the expert at {budget},"
          f" {count(args.rounds, 'single round')} per game, {count(args.tries, 'try', 'tries')} per move, seed {args.seed};"
          " the runner-up's wins less the choice's, 95% intervals over the decisions")
    for title, players, others in GAMES:
        if not wanted(title, args.only):
            continue
        began = time.perf_counter()
        calls = measure(players, others, args.rounds, args.tries, args.seed, args.budget)
        print(f"{title} [{time.perf_counter() - began:.0f} s]")
        if not calls:
            print("  no close calls")
            continue
        print("  " + summary("every close call", [c.difference for c in calls]))
        kinds: dict[str, list[float]] = defaultdict(list)
        for call in calls:
            kinds[call.kind].append(call.difference)
        shown = [(kind, differences) for kind, differences in sorted(kinds.items(), key=lambda item: -len(item[1]))
                 if len(differences) >= FEWEST_SHOWN]
        for kind, differences in shown:
            print("    " + summary(kind, differences))
        rest = [d for kind, differences in kinds.items() if len(differences) < FEWEST_SHOWN for d in differences]
        if shown and rest:  # (with no kind shown, the rest are every close call, said above)
            print("    " + summary("other kinds", rest))
        looked_better = [c.difference for c in calls if c.runner_up_looked_better]
        if looked_better:
            print("  " + summary("where the runner-up had the higher mean in the search", looked_better), flush=True)


if __name__ == "__main__":
    run(main)
