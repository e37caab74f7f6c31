"""How strong the bots are: win rates with 95% intervals, from tournaments with rotating seats.

Plays, through the tournament runner (loveletter.tournament), single rounds of:

- classic, 2 players: beginner vs random, expert vs beginner, expert vs random;
- classic, 4 players: one expert vs three beginners;
- 2019, 2 players and 5 players: one expert vs beginners;

and prints each bot's win rate (95% Wilson interval), the Bradley-Terry rating difference (Elo
scale, ± one standard error), and for the expert its median think time per move and its search
rate (iterations per second of the moves that searched, from ``bot.stats.iterations``: the
iterations of its last decision). Seats rotate every round and the
starting seat too, so no bot gains from going first. Lines with the expert are skipped, with a
message, while the expert level does not exist yet.

    .venv/bin/python benchmarks/strength.py [--rounds N] [--jobs J] [--budget B] [--seed S] [--only TEXT]...

``--only TEXT`` plays only the lines whose title contains TEXT (e.g. ``--only "classic 4p"``).

Think times are measured while ``--jobs`` processes play at once (default: every core), so on a
busy machine they are slower than one game alone; use ``--jobs 1`` for a quiet measurement.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from lines import add_line_options, jobs_of
from options import Parser, check_only, count, description, processes, run, wanted, whole

from loveletter.bots import LEVELS, MAX_BUDGET
from loveletter.bots.expert import DEFAULT_ITERATIONS
from loveletter.tournament import Settings, run_tournament, summarise


@dataclass(frozen=True)
class Line:
    edition: str
    lineup: tuple[str, ...]
    focus: str  # the level whose win rate the line is about

    @property
    def title(self) -> str:
        others = [level for level in self.lineup if level != self.focus]
        versus = f"{others[0]} ×{len(others)}" if len(others) > 1 else others[0]
        return f"{self.edition} {len(self.lineup)}p: {self.focus} vs {versus}"


LINES = [
    Line("classic", ("beginner", "random"), "beginner"),
    Line("classic", ("expert", "beginner"), "expert"),
    Line("classic", ("expert", "random"), "expert"),
    Line("classic", ("expert", "beginner", "beginner", "beginner"), "expert"),
    Line("2019", ("expert", "beginner"), "expert"),
    Line("2019", ("expert", "beginner", "beginner", "beginner", "beginner"), "expert"),
]


def _progress(title: str, total: int) -> Callable[[int], None] | None:
    """A running count on standard error, on a terminal only."""
    if not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        print(f"\r{title}: {done}/{total} rounds", end="", file=sys.stderr, flush=True)

    return show


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def main() -> None:
    parser = Parser(description=description(__doc__))
    add_line_options(parser, rounds=2000)
    parser.add_argument("--budget", type=whole(1, MAX_BUDGET), default=None,
                        help="the expert's thinking budget in iterations (default: its own)")
    args = parser.parse_args()
    check_only(parser, args.only, [line.title for line in LINES])
    chosen = [line for line in LINES if wanted(line.title, args.only)]
    experts = any("expert" in line.lineup for line in chosen)
    if args.budget is not None and not experts:
        parser.error("argument --budget: no line chosen has an expert to give it to")
    jobs = jobs_of(args)
    budget = args.budget
    thinking = f" the expert {budget or DEFAULT_ITERATIONS:,} iterations per move," if experts else ""
    print(f"bot strength: {count(args.rounds, 'single round')} per line, seats and starter rotating, seed {args.seed},"
          f"{thinking} {processes(min(jobs, args.rounds))}; win rate (95% Wilson interval); rating: Bradley-Terry,"
          " Elo scale, ± 1 s.e.")
    if "expert" not in LEVELS:
        print("(the expert level is not in loveletter.bots.LEVELS yet: its lines are skipped)")
    think: list[float] = []
    search_think: list[float] = []
    iterations = 0
    searched = 0.0
    for line in LINES:
        if not wanted(line.title, args.only):
            continue
        missing = [level for level in line.lineup if level not in LEVELS]
        if missing:
            print(f"{line.title:38} skipped: no {missing[0]!r} level yet")
            continue
        settings = Settings(lineup=line.lineup, edition=line.edition, mode="rounds", games=args.rounds,
                            seed=args.seed, budget=budget if "expert" in line.lineup else None)
        began = time.perf_counter()
        results = run_tournament(settings, jobs=jobs, samples=True, progress=_progress(line.title, args.rounds))
        if sys.stderr.isatty():
            print("\r\033[K", end="", file=sys.stderr, flush=True)
        took = time.perf_counter() - began
        report = summarise(results)
        rows = {p["level"]: p for p in report["participants"]}
        focus = rows[line.focus]
        lo, hi = focus["ci95"]
        text = (f"{line.title:38} {line.focus} wins {percent(focus['win_rate'])}"
                f" ({percent(lo)}-{percent(hi)})")
        if len(line.lineup) > 2:
            text += f", an equal share is {percent(1 / len(line.lineup))}"
        if report["ratings"]["finite"]:
            other = next(level for level in rows if level != line.focus)
            diff = focus["rating"] - rows[other]["rating"]
            # both ratings are fitted from the same comparisons: the error of the difference is the
            # sum of the two when there are just two levels (their estimates are perfectly opposed)
            se = focus["rating_se"] + rows[other]["rating_se"]
            text += f"; rating {diff:+.0f} ± {se:.0f} Elo"
        text += f"  [{took:.0f} s]"
        print(text, flush=True)
        timing = results.timing.get("expert")
        if timing is not None:
            think.extend(timing.samples)
            search_think.extend(timing.search_samples)
            iterations += timing.iterations
            searched += timing.iteration_seconds
    if think:
        print(f"expert: median think time {1000 * statistics.median(think):.1f} ms per move"
              f" over {count(len(think), 'move')}", end="")
        if search_think:
            print(f" ({1000 * statistics.median(search_think):.1f} ms per move that searched,"
                  f" {count(len(search_think), 'move')}); {iterations / searched:,.0f} iterations per second"
                  f" ({iterations / len(search_think):,.0f} per searching move)")
        else:
            print("; iterations per second: not reported by the bot (no bot.stats.iterations)")
    sys.stdout.flush()


if __name__ == "__main__":
    run(main)
