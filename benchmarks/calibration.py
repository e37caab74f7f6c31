"""Whether the expert's belief is right where it acts on it: its own Guards and Barons.

Plays single rounds of the expert against beginner (or random) bots, the expert's seat and the
starter going round the table. At each Guard or Baron the expert plays at another player, when it
had a choice, it asks the expert's belief (its reading of the others, as the search samples it)
for the target's hand before the play, and afterwards looks at the card really held: the chance the
belief gave the Guard's guess against how often it hit, and the chance it gave the Baron of winning
(and of losing) against how often it won (and lost). Both are also shown by how sure the belief was.
A belief that is right where it acts gives chances close to what happened, sure or not; one too
sure of itself would show its likeliest plays hitting less often than it said. The intervals are
Wilson's, each play counted apart: the expert's few Guards and Barons of one round are not quite
independent (a second Guard at a player knows the first missed), so they are a little narrow.

    .venv/bin/python benchmarks/calibration.py [--rounds 1000] [--seed 0] [--only "classic 4p"]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from options import Parser, add_game_options, check_only, count, description, run, wanted, whole
from rounds import round_with

from loveletter.engine import CLASSIC, Card, view
from loveletter.tournament.stats import wilson

#: (title, players, the others' level)
GAMES = [("classic 2p vs random", 2, "random"), ("classic 2p vs beginner", 2, "beginner"),
         ("classic 4p vs beginner ×3", 4, "beginner")]
#: How sure the belief was: the lower edges of the groups shown.
GUARD_GROUPS = (0.0, 0.2, 0.35, 0.5, 0.75)
BARON_GROUPS = (0.0, 0.5, 0.7, 0.85, 0.95)


@dataclass
class Said:
    """Chances the belief gave, and what happened: (chance, happened) pairs."""

    pairs: list[tuple[float, bool]] = field(default_factory=list)

    def line(self, what: str, happened: str) -> str:
        n = len(self.pairs)
        if not n:
            return f"{what}: none"
        gave = sum(p for p, _ in self.pairs) / n
        hits = sum(h for _, h in self.pairs)
        low, high = wilson(hits, n)
        return (f"{what}: {count(n, 'play')}, the belief gave {100 * gave:.1f}%, {happened}"
                f" {100 * hits / n:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)")

    def grouped(self, edges: tuple[float, ...], what: str, happened: str) -> list[str]:
        lines = []
        for low, high in zip(edges, (*edges[1:], 1.01), strict=True):
            group = Said([(p, h) for p, h in self.pairs if low <= p < high])
            shown = f"{100 * low:.0f}-{min(100, 100 * high):.0f}%"
            lines.append("    " + group.line(f"{what} {shown}", happened))
        return lines


def measure(players: int, others: str, rounds: int, seed: int) -> tuple[Said, Said, Said]:
    """The expert's Guards (hit), Barons (won) and Barons (lost) over ``rounds`` rounds."""
    guards, won, lost = Said(), Said(), Said()
    value = CLASSIC.value
    for r in range(rounds):
        seat, rnd, bots = round_with("expert", others, players, r, seed)
        expert = bots[seat]
        while not rnd.over:
            seen = view(rnd, rnd.current)
            action = bots[rnd.current].choose(seen)
            target = action.target
            if (rnd.current == seat and action.card in (Card.GUARD, Card.BARON) and target not in (None, seat)
                    and len(seen.legal_actions) > 1):
                assert target is not None
                odds = expert.belief(seen).hand_odds(target, floor=False)  # type: ignore[attr-defined]
                held = rnd.hands[target][0]
                if action.card is Card.GUARD:
                    guards.pairs.append((odds.get(action.guess, 0.0), held is action.guess))
                else:
                    mine = value(seen.hand[1] if seen.hand[0] is Card.BARON else seen.hand[0])
                    won.pairs.append((sum(p for c, p in odds.items() if value(c) < mine), value(held) < mine))
                    lost.pairs.append((sum(p for c, p in odds.items() if value(c) > mine), value(held) > mine))
            rnd.apply(action)
    return guards, won, lost


def main() -> None:
    parser = Parser(description=description(__doc__))
    parser.add_argument("--rounds", type=whole(1, 100_000), default=1000,
                        help="rounds per game, at most 100,000 (default 1,000; four players take about"
                             " 1.3 s a round)")
    add_game_options(parser, "classic 4p")
    args = parser.parse_args()
    check_only(parser, args.only, [title for title, _, _ in GAMES])
    print(f"the expert's belief at its own Guards and Barons, {count(args.rounds, 'single round')} per game,"
          f" seed {args.seed} (95% intervals)")
    for title, players, others in GAMES:
        if not wanted(title, args.only):
            continue
        began = time.perf_counter()
        guards, won, lost = measure(players, others, args.rounds, args.seed)
        print(f"{title} [{time.perf_counter() - began:.0f} s]")
        print("  " + guards.line("Guards", "hit"))
        print("\n".join(guards.grouped(GUARD_GROUPS, "guess given", "hit")))
        print("  " + won.line("Barons, won", "won"))
        print("  " + lost.line("Barons, lost", "lost"))
        print("\n".join(won.grouped(BARON_GROUPS, "win given", "won")), flush=True)


if __name__ == "__main__":
    run(main)
