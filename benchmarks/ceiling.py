"""How strong could an honest bot be? The expert, told the other players' hands, as an upper mark.

A *seer* is the expert bot that, before each decision, is told what every other player holds now
(not the order of the deck, nor the set-aside card). No bot that plays fairly can know that, so the
seer's win rate is far above what fair play can reach: if even the seer barely makes a target, the
target is out of reach for a fair bot with this search. Plays the same deals, seats and starters as
``benchmarks/strength.py`` (same seed, same game numbers), so the two are directly comparable:

- classic, 2 players: seer vs random, seer vs beginner;
- classic, 4 players: one seer vs three beginners.

    .venv/bin/python benchmarks/ceiling.py [--rounds N] [--jobs J] [--seed S] [--only TEXT]
"""

from __future__ import annotations

import itertools

from lines import add_line_options, jobs_of
from options import Parser, check_only, count, description, quiet_pool, run, wanted

from loveletter.bots import make_bot
from loveletter.bots.expert import ExpertBot
from loveletter.engine import EDITIONS, Match, view
from loveletter.tournament import Settings
from loveletter.tournament.games import seating, seeds, starter
from loveletter.tournament.stats import wilson

LINES = [
    ("classic", ("expert", "random")),
    ("classic", ("expert", "beginner")),
    ("classic", ("expert", "beginner", "beginner", "beginner")),
]


class Seer(ExpertBot):
    """The expert, told the others' hands before each decision (see the module's docstring)."""

    def reveal(self, match: Match) -> None:
        rnd = match.round
        me = rnd.current
        reading = self.belief(view(rnd, me))  # single rounds: the round alone, as the tournament shows it
        for seat in range(rnd.players):
            if seat != me and rnd.is_alive(seat):
                reading.assume(seat, rnd.hands[seat])


def play(settings: Settings, start: int, stop: int) -> float:
    """The seer's round wins in games ``start`` to ``stop``; a shared win counts as a win (R6.3), as the
    tournament counts it, and as the seer, shown the round alone, plays for it."""
    wins = 0.0
    for i in range(start, stop):
        seats = seating(settings, i)
        deck_seed, bot_seeds = seeds(settings, i)
        bots = [Seer(bot_seeds[s]) if level == "expert" else make_bot(level, bot_seeds[s])
                for s, level in enumerate(seats)]
        match = Match(EDITIONS[settings.edition], settings.players, seed=deck_seed,
                      starter=starter(settings, i))
        rnd = match.round
        while not rnd.over:
            bot = bots[rnd.current]
            if isinstance(bot, Seer):
                bot.reveal(match)
            match.apply(bot.choose(view(rnd, rnd.current)))
        seer = seats.index("expert")
        if seer in rnd.winners:
            wins += 1.0
    return wins


def title(edition: str, lineup: tuple[str, ...]) -> str:
    others = lineup[1:]
    versus = f"{others[0]} ×{len(others)}" if len(others) > 1 else others[0]
    return f"{edition} {len(lineup)}p: seer vs {versus}"


def main() -> None:
    parser = Parser(description=description(__doc__))
    add_line_options(parser, rounds=1000)
    args = parser.parse_args()
    titles = [title(edition, lineup) for edition, lineup in LINES]
    check_only(parser, args.only, titles)
    jobs = jobs_of(args)
    print(f"ceiling: the expert told the others' hands (a seer), {count(args.rounds, 'single round')} per line,"
          f" seed {args.seed}; win rate (95% Wilson interval)")
    for (edition, lineup), name in zip(LINES, titles, strict=True):
        if not wanted(name, args.only):
            continue
        settings = Settings(lineup=lineup, edition=edition, mode="rounds", games=args.rounds, seed=args.seed)
        if jobs == 1 or args.rounds == 1:
            wins = play(settings, 0, args.rounds)
        else:
            bounds = sorted({args.rounds * k // (4 * jobs) for k in range(4 * jobs + 1)})  # no empty parts
            with quiet_pool(min(jobs, len(bounds) - 1)) as pool:
                wins = sum(pool.starmap(play, [(settings, a, b) for a, b in itertools.pairwise(bounds)]))
        lo, hi = wilson(wins, args.rounds)
        print(f"{name:38} seer wins {100 * wins / args.rounds:.1f}% ({100 * lo:.1f}%-{100 * hi:.1f}%)",
              flush=True)


if __name__ == "__main__":
    run(main)
