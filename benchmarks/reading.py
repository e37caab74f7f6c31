"""How well the expert reads hands: the chance its belief puts on the card each opponent really holds.

Plays single rounds in which seat 0 plays at random and the others are bots of one level; at each of
seat 0's decisions it compares, for every opponent still in the round, the chance given to the card
that opponent really holds by

- the plain belief (every deal the events allow, weighed only by how many ways it could happen),
- the expert's reading (each deal also weighed by how likely the hands in it were to make the plays
  seen: loveletter.bots.reading), as a bot reads, not told the others' levels, and
- the same told the others' level, as the hints read the bots at a table (a random bot at random, a
  beginner sensibly, an expert sensibly with less care),

and prints the means, with 95% intervals, and how often each put the card held under 1% (a sound
belief rarely does). Higher is better; guessing from the unseen cards alone is about what the plain
belief gets. The readings of one round are not independent (one hand is read at several decisions),
so the intervals take the rounds as the independent units.

Against beginners it also prints how faithful the reading's model of them is: at their decisions
with a choice (before the round's last play, after which nothing is read), how often the play they
made is one the model would make from their true hand, told what the reading tells it (what the
player knows of seat 0's card, and of the cards of others it looked at, traded with or tied with;
where their holder has played a card since, it may know or not: either will do), and told all that
the player knew of the other hands.

    .venv/bin/python benchmarks/reading.py [--rounds N] [--seed S] [--only "vs expert"]
"""

from __future__ import annotations

import math
from itertools import combinations

from options import Parser, check_only, count, description, run, wanted, whole

from loveletter.bots import make_bot
from loveletter.bots.belief import Belief
from loveletter.bots.facts import known_to
from loveletter.bots.odds import play_odds
from loveletter.bots.playout import chance_of_play
from loveletter.bots.reading import Reading
from loveletter.bots.rule_based import countess_tells
from loveletter.engine import EDITIONS, Action, Card, Match, View, view
from loveletter.engine.round import Phase

LINES = [("classic", 2, "beginner"), ("classic", 4, "beginner"), ("classic", 2, "random"),
         ("2019", 3, "beginner"), ("classic", 2, "expert"), ("classic", 4, "expert")]
WAYS = ("plain belief", "reading", "by level")


Rounds = list[list[float]]
Faithful = list[int]  # decisions read; made as the model would, told what the reading tells it; told all


def measure(edition: str, players: int, opponents: str, rounds: int, seed: int) -> tuple[list[Rounds], Faithful]:
    """The chances on the true card, one per opponent per decision, listed by round, for each of
    :data:`WAYS`; and against beginners, how faithful the model of them is (:func:`follows`)."""
    found: list[Rounds] = [[] for _ in WAYS]
    faithful = [0, 0, 0]
    levels = {seat: opponents for seat in range(1, players)}
    for g in range(rounds):
        for way in found:
            way.append([])
        dealt = seed * 1_000_003 + g  # the round's seed: its deal, and (times ten, plus the seat) its bots'
        match = Match(EDITIONS[edition], players, seed=dealt, starter=g % players)
        bots = [make_bot("random", seed=dealt * 10)] + [make_bot(opponents, seed=dealt * 10 + s)
                                                       for s in range(1, players)]
        rnd = match.round
        while not rnd.over:
            if rnd.current == 0:  # single rounds: the round alone, as the tournament shows it
                seen = view(rnd, 0)
                beliefs: tuple[Belief | Reading, ...] = (Belief(seen), Reading(seen), Reading(seen, levels))
                for seat in beliefs[1].all_odds():
                    card = rnd.hands[seat][0]
                    for way, belief in zip(found, beliefs, strict=True):
                        way[-1].append(belief.hand_odds(seat).get(card, 0.0))
            mover = view(rnd, rnd.current)
            action = bots[rnd.current].choose(mover)
            if (opponents == "beginner" and rnd.current != 0 and mover.phase is Phase.PLAY and mover.deck_size
                    and len(mover.legal_actions) > 1):
                faithful[0] += 1
                # what the reading tells it: what it knows of seat 0's card, and of those others' cards
                # whose look, trade or Baron tie with it seat 0 saw (each deal read gives those cards);
                # and perhaps those whose holder played a card since (each way weighed: either will do)
                sure, unsure = known_to(mover.events, 0, rnd.current)
                told = {seat: mover.known[seat] for seat in (0, *sure) if seat in mover.known}
                maybe = {seat: rnd.hands[seat][0] for seat, played in unsure.items() if rnd.hands[seat][0] is not played}
                faithful[1] += any(follows(mover, action, {**told, **dict(kept)})
                                   for n in range(len(maybe) + 1) for kept in combinations(maybe.items(), n))
                faithful[2] += follows(mover, action, dict(mover.known))
            match.apply(action)
    return found, faithful


def follows(mover: View, action: Action, known: dict[int, Card]) -> bool:
    """Whether the reading's model of a sensible player (:func:`~loveletter.bots.playout.chance_of_play`,
    from the true hand, as the belief weighs a play) makes ``action`` at the ``mover``'s view, knowing
    ``known`` of the other hands (with full care its chance is then above 0: the policy's share)."""
    assert mover.seat is not None
    mask = sum(1 << other for other in range(mover.players)
               if other != mover.seat and mover.alive[other] and not mover.protected[other])
    counted = [0] * len(Card)  # the cards every player has seen: face up and discarded
    for card in [*mover.face_up, *(card for pile in mover.discards for card in pile)]:
        counted[card] += 1
    hand = (min(mover.hand), max(mover.hand))
    tells, odds = countess_tells(mover.events), play_odds(mover.events, mover.edition, mover.players)
    return chance_of_play(mover.edition, hand, action, mover.seat, mask, counted, known, 1.0, tells, odds) > 0


def interval(rounds: Rounds) -> str:
    """The mean of every reading, ± half its 95% interval with the rounds as clusters (the standard
    error of a ratio of sums: each round's sum against its count)."""
    sums = [sum(r) for r in rounds if r]
    counts = [len(r) for r in rounds if r]
    total = sum(counts)
    if total == 0:
        return "no readings"
    mean = sum(sums) / total
    k = len(sums)
    if k < 2:  # the rounds are the units: one gives no spread
        return f"{mean:.3f} (no interval: readings from one round only)"
    spread = sum((s - mean * n) ** 2 for s, n in zip(sums, counts, strict=True)) * k / (k - 1)
    return f"{mean:.3f} ± {1.96 * math.sqrt(spread) / total:.3f}"


def under(rounds: Rounds) -> str:
    """How often the card held got under 1%, as a percentage of the readings."""
    chances = [c for r in rounds for c in r]
    return f"{100 * sum(c < 0.01 for c in chances) / max(len(chances), 1):.1f}%"


def main() -> None:
    parser = Parser(description=description(__doc__))
    parser.add_argument("--rounds", type=whole(1, 10_000), default=200,
                        help="single rounds per line, at most 10,000 (default 200)")
    parser.add_argument("--seed", type=whole(0), default=0, help="seed, from 0 (default 0)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="only the lines whose title contains TEXT, e.g. 'vs expert' (repeatable)")
    args = parser.parse_args()
    titles = [f"{edition} {players}p vs {opponents}" for edition, players, opponents in LINES]
    check_only(parser, args.only, titles)
    print(f"reading hands: chance on the card each opponent really holds,"
          f" {count(args.rounds, 'round')} per line, seed {args.seed} (mean ± 95% interval)")
    for edition, players, opponents in LINES:
        title = f"{edition} {players}p vs {opponents}"
        if not wanted(title, args.only):
            continue
        found, faithful = measure(edition, players, opponents, args.rounds, args.seed)
        readings = sum(len(r) for r in found[0])  # one per opponent at each decision: a hand is read many times
        figures = "   ".join(f"{way} {interval(rounds)} ({under(rounds)} under 1%)"
                             for way, rounds in zip(WAYS, found, strict=True))
        print(f"{title:24} {figures}   ({count(readings, 'reading')})", flush=True)
        if faithful[0]:
            decisions, told, everything = faithful
            print(f"{'':24} the model makes the beginners' play at {percent(told, decisions)} of"
                  f" {count(decisions, 'decision')} with a choice ({percent(everything, decisions)} told all"
                  f" they knew of the other hands)", flush=True)


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


if __name__ == "__main__":
    run(main)
