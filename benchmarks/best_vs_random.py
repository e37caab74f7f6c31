"""The best any fair player can do against the random bot: classic, 2 players, single rounds.

The random bot picks uniformly among its legal plays, whatever it holds, so the game against it is a
one-player problem under hidden information. At each of its turns a player who cannot see the hidden
cards knows its own card, the cards it has not seen (``unseen``: the random bot's card, the deck and
the set-aside card), the deck's size, whether the random bot is protected, and a chance for each card
the random bot may hold. Given the random bot's card the rest of ``unseen`` lies in a uniformly random
order (nobody has looked at the deck), so nothing else matters: the best play is a dynamic programme
over these *belief states*, solved here by expectimax.

Two things make it an **upper bound** on the best fair player's win rate rather than the exact value:

- a tie at the showdown counts as our win (the R6.3 tie-break on the discard piles is not tracked);
- each belief about the random bot's card is split into *layers*, "any unseen card of these kinds,
  each as likely", of nested sets of kinds (:func:`_layers`), and the layer is treated as known. That
  tells us more than a fair player knows; and the best chance of winning is a convex function of the
  belief (a maximum of linear ones), so the mixture of the layers' values is at least the value of
  the belief. Without this, almost every history would be a state of its own.

For random play (``--check``) the value is linear in the belief, so the layers change nothing and the
programme must agree with the engine: it plays our choices at random too and compares with engine
rounds of random vs random, counting a showdown tie both ways: two full solves, one for each way
(about 7 minutes on two cores). ``--play`` measures, in the engine, a fair bot that plays the
programme's best move (:class:`BestBot`): a lower bound, in practice.

    .venv/bin/python benchmarks/best_vs_random.py [--jobs 2]        # the upper bound (about 2.5 minutes)
    .venv/bin/python benchmarks/best_vs_random.py --play 4000       # the best-move bot against random
    .venv/bin/python benchmarks/best_vs_random.py --check 100000    # the programme against the engine
    .venv/bin/python benchmarks/best_vs_random.py --regret 3000 [--bot expert]   # where a bot loses value
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from itertools import combinations_with_replacement

from options import Parser, count, description, quiet_pool, run, whole

from loveletter.bots import LEVELS, make_bot
from loveletter.bots.belief import Belief
from loveletter.bots.reading import read_at_random
from loveletter.engine import CLASSIC, Action, Card, Round, View, view
from loveletter.engine.round import legal_plays
from loveletter.tournament.stats import wilson

CARDS = CLASSIC.cards  # the eight characters, in order of value: index i is CARDS[i]
INDEX = {card: i for i, card in enumerate(CARDS)}
KINDS = len(CARDS)
VALUE = [CLASSIC.value(card) for card in CARDS]
GUARD, PRIEST, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS = range(KINDS)
ME, THEM = 0, 1  # our seat and the random bot's, for the engine's legal plays

Counts = tuple[int, ...]
Odds = tuple[float, ...]


def _take(counts: Counts, i: int) -> Counts:
    return counts[:i] + (counts[i] - 1,) + counts[i + 1:]


def _give(counts: Counts, i: int) -> Counts:
    return counts[:i] + (counts[i] + 1,) + counts[i + 1:]


def _normal(weights: list[float]) -> Odds:
    total = sum(weights)
    return tuple(x / total for x in weights)


def _sure(i: int) -> Odds:
    return tuple(1.0 if j == i else 0.0 for j in range(KINDS))


def _spread(counts: Counts) -> Odds:
    """The random bot's card when it has just drawn from ``counts`` (all unseen, in random order)."""
    return _normal([float(n) for n in counts])


def _every(unseen: Counts) -> int:
    """The bits of every card kind in ``unseen``."""
    return sum(1 << i for i, n in enumerate(unseen) if n)


def _among(unseen: Counts, kinds: int) -> Odds:
    """The random bot's card when it is any unseen card of the ``kinds``, each card as likely."""
    return _normal([float(n) if kinds >> i & 1 else 0.0 for i, n in enumerate(unseen)])


def _layers(unseen: Counts, odds: Odds) -> list[tuple[float, int]]:
    """``odds`` as a mixture of layers ``(share, kinds)``, each layer any unseen card of its kinds
    with every card as likely (so the layers' sets of kinds are nested).

    With ``r = odds / unseen`` per kind, the layer of the kinds whose ``r`` is at least ``t`` has
    share ``dt`` times its number of cards: integrating over ``t`` gives back ``odds`` exactly."""
    items = sorted(((p / unseen[i], i) for i, p in enumerate(odds) if p > 0), reverse=True)
    total = sum(odds)
    layers = []
    kinds = size = 0
    last = len(items) - 1
    for j, (ratio, i) in enumerate(items):
        kinds |= 1 << i
        size += unseen[i]
        below = items[j + 1][0] if j < last else 0.0
        if ratio - below > 1e-12 * ratio:  # the kinds with equal ratios make one layer
            layers.append(((ratio - below) * size / total, kinds))
    return layers


def _draws(unseen: Counts, odds: Odds) -> list[tuple[float, int, Odds]]:
    """Drawing one unseen card that is not the random bot's: (chance, card, the bot's odds then)."""
    rest = sum(unseen) - 1
    found = []
    for d in range(KINDS):
        weights = [odds[o] * (unseen[d] - (o == d)) for o in range(KINDS)]
        total = sum(weights)
        if total > 1e-15:
            found.append((total / rest, d, _normal(weights)))
    return found


class Solver:
    """Expectimax over belief states. ``tie`` is what a showdown tie is worth to us (1 or 0);
    ``best`` picks our best play, otherwise our plays are averaged (a random player, for checking)."""

    def __init__(self, tie: float, best: bool = True) -> None:
        self.tie = tie
        self.pick: Callable[[list[float]], float] = max if best else (lambda xs: sum(xs) / len(xs))
        self.ours: dict[tuple[object, ...], float] = {}
        self.theirs: dict[tuple[object, ...], float] = {}

    # ---------------------------------------------------------------------------------- helpers

    @staticmethod
    def legal(a: int, b: int, seat: int, open_: bool) -> tuple[Action, ...]:
        """The engine's legal plays (cached there) for ``seat`` holding ``a`` and ``b``; ``open_``:
        the other seat may be chosen."""
        other = THEM if seat == ME else ME
        return legal_plays(CLASSIC, (CARDS[a], CARDS[b]), (1 << other) if open_ else 0, seat)

    def showdown(self, mine: int, odds: Odds) -> float:
        return sum(p * (1.0 if VALUE[mine] > VALUE[o] else self.tie if mine == o else 0.0)
                   for o, p in enumerate(odds) if p > 0)

    def after_ours(self, mine: int, unseen: Counts, odds: Odds, deck: int, guarded: bool) -> float:
        """The end of our turn: the showdown if the deck is empty, else the random bot's turn."""
        if deck == 0:
            return self.showdown(mine, odds)
        return sum(share * self.their_turn(mine, unseen, kinds, deck, guarded)
                   for share, kinds in _layers(unseen, odds))

    def after_theirs(self, mine: int, unseen: Counts, odds: Odds, deck: int, guarded: bool) -> float:
        """The end of the random bot's turn: the showdown, or our turn."""
        if deck == 0:
            return self.showdown(mine, odds)
        return sum(share * self.our_turn(mine, unseen, kinds, deck, guarded)
                   for share, kinds in _layers(unseen, odds))

    # ---------------------------------------------------------------------------------- our turn

    def our_turn(self, mine: int, unseen: Counts, kinds: int, deck: int, guarded: bool) -> float:
        """Our chance of winning at the start of our turn, the random bot's card being any unseen
        card of the ``kinds`` (a bit per card); ``guarded``: the random bot is protected."""
        key = (mine, unseen, kinds, deck, guarded)
        found = self.ours.get(key)
        if found is not None:
            return found
        odds = _among(unseen, kinds)
        value = 0.0
        for chance, drawn, after in _draws(unseen, odds):
            rest = _take(unseen, drawn)
            options = [self.our_play(action, mine, drawn, rest, after, deck - 1)
                       for action in self.legal(mine, drawn, ME, not guarded)]
            value += chance * self.pick(options)
        self.ours[key] = value
        return value

    def our_play(self, action: Action, a: int, b: int, unseen: Counts, odds: Odds, deck: int) -> float:
        """Our chance after playing ``action`` from the hand ``a``, ``b`` (drawn already: ``unseen``
        and ``deck`` are after the draw; ``odds``: the random bot's card)."""
        card = INDEX[action.card]
        kept = b if card == a else a
        target = action.target
        go_on = self.after_ours
        if card == PRINCESS:
            return 0.0
        if target is None or card == COUNTESS:
            return go_on(kept, unseen, odds, deck, card == HANDMAID)
        if card == GUARD:
            assert action.guess is not None
            named = INDEX[action.guess]
            hit = odds[named]
            if hit >= 1.0 - 1e-12:
                return 1.0
            missed = list(odds)
            missed[named] = 0.0
            return hit + (1.0 - hit) * go_on(kept, unseen, _normal(missed), deck, False)
        if card == PRINCE and target == ME:
            return 0.0 if kept == PRINCESS else _we_draw_again(go_on, unseen, odds, deck)
        value = 0.0
        for theirs, p in enumerate(odds):
            if p <= 0:
                continue
            if card == PRIEST:
                value += p * go_on(kept, unseen, _sure(theirs), deck, False)
            elif card == BARON:
                value += p * _baron(go_on, kept, theirs, unseen, deck)
            elif card == PRINCE:  # on the random bot
                value += p * _they_draw_again(go_on, kept, theirs, unseen, deck)
            elif card == KING:
                value += p * _trade(go_on, kept, theirs, unseen, deck)
            else:
                raise AssertionError(action)
        return value

    # ---------------------------------------------------------------------------------- theirs

    def their_turn(self, mine: int, unseen: Counts, kinds: int, deck: int, guarded: bool) -> float:
        """Our chance at the start of the random bot's turn (its card: as in :meth:`our_turn`);
        ``guarded``: we are protected."""
        key = (mine, unseen, kinds, deck, guarded)
        found = self.theirs.get(key)
        if found is not None:
            return found
        odds = _among(unseen, kinds)
        # what the random bot may play, and with what chance for each card it keeps
        seen: dict[Action, list[float]] = {}
        rest = sum(unseen) - 1
        for o, p in enumerate(odds):
            if p <= 0:
                continue
            for d in range(KINDS):
                joint = p * (unseen[d] - (o == d)) / rest
                if joint <= 0:
                    continue
                plays = self.legal(o, d, THEM, not guarded)
                for action in plays:
                    card = INDEX[action.card]
                    kept = d if card == o else o
                    seen.setdefault(action, [0.0] * KINDS)[kept] += joint / len(plays)
        value = 0.0
        for action, weights in seen.items():
            value += self.their_play(action, weights, mine, _take(unseen, INDEX[action.card]), deck - 1)
        self.theirs[key] = value
        return value

    def their_play(self, action: Action, kept: list[float], mine: int, unseen: Counts, deck: int) -> float:
        """Our chance, weighted by the chance of ``action``, after the random bot plays it
        (``kept``: the weight of each card it keeps)."""
        mass = sum(kept)
        card = INDEX[action.card]
        target = action.target
        go_on = self.after_theirs
        if card == PRINCESS:
            return mass
        odds = _normal(kept)
        if target is None or card in (PRIEST, COUNTESS):
            return mass * go_on(mine, unseen, odds, deck, card == HANDMAID)
        if card == GUARD:
            assert action.guess is not None
            return 0.0 if INDEX[action.guess] == mine else mass * go_on(mine, unseen, odds, deck, False)
        if card == PRINCE and target == ME:
            return 0.0 if mine == PRINCESS else mass * _we_draw_again(go_on, unseen, odds, deck)
        value = 0.0
        for theirs, w in enumerate(kept):
            if w <= 0:
                continue
            if card == PRINCE:  # on itself
                value += w * _they_draw_again(go_on, mine, theirs, unseen, deck)
            elif card == BARON:
                value += w * _baron(go_on, mine, theirs, unseen, deck)
            elif card == KING:
                value += w * _trade(go_on, mine, theirs, unseen, deck)
            else:
                raise AssertionError(action)
        return value

    # ---------------------------------------------------------------------------------- a round

    def round(self, we_start: bool) -> float:
        """Our chance of winning a round from the shuffle, starting or not."""
        full = tuple(CLASSIC.copies[card] for card in CARDS)
        total = sum(full)
        deck = total - 1 - 3 - 2  # less the set-aside card, the three face up and the two hands
        start = self.our_turn if we_start else self.their_turn
        value = 0.0
        for face_up in combinations_with_replacement(range(KINDS), 3):
            left, chance = full, float(_orderings(face_up))
            for i, c in enumerate(face_up):
                chance *= left[c] / (total - i)
                if chance == 0:
                    break
                left = _take(left, c)
            if chance == 0:
                continue
            for mine in range(KINDS):
                if left[mine]:
                    unseen = _take(left, mine)
                    p = chance * left[mine] / (total - 3)
                    value += p * start(mine, unseen, _every(unseen), deck, False)
        return value


GoOn = Callable[[int, Counts, Odds, int, bool], float]


def _we_draw_again(go_on: GoOn, unseen: Counts, odds: Odds, deck: int) -> float:
    """A Prince made us discard (not the Princess): we draw from the deck, or the set-aside card."""
    return sum(chance * go_on(new, _take(unseen, new), after, max(deck - 1, 0), False)
               for chance, new, after in _draws(unseen, odds))


def _they_draw_again(go_on: GoOn, mine: int, theirs: int, unseen: Counts, deck: int) -> float:
    """A Prince made the random bot discard ``theirs``: out if the Princess, else it draws."""
    if theirs == PRINCESS:
        return 1.0
    left = _take(unseen, theirs)
    return go_on(mine, left, _spread(left), max(deck - 1, 0), False)


def _baron(go_on: GoOn, mine: int, theirs: int, unseen: Counts, deck: int) -> float:
    """A Baron between our ``mine`` and their ``theirs``: the lower is out; on a tie we know theirs."""
    if VALUE[mine] != VALUE[theirs]:
        return 1.0 if VALUE[mine] > VALUE[theirs] else 0.0
    return go_on(mine, unseen, _sure(theirs), deck, False)


def _trade(go_on: GoOn, mine: int, theirs: int, unseen: Counts, deck: int) -> float:
    """A King trades our ``mine`` for their ``theirs``: each now knows the other's card."""
    return go_on(theirs, _give(_take(unseen, theirs), mine), _sure(mine), deck, False)


def _orderings(cards: tuple[int, ...]) -> int:
    """How many orders the multiset ``cards`` can be dealt in."""
    counts = [cards.count(c) for c in set(cards)]
    return math.factorial(len(cards)) // math.prod(math.factorial(n) for n in counts)


def engine_random_vs_random(rounds: int, seed: int) -> tuple[int, int]:
    """Rounds of the engine with random players on both sides: (wins for seat 0 with no showdown
    tie, wins or showdown ties for seat 0), seat 0 starting every other round."""
    rng = random.Random(seed)
    clean = loose = 0
    for n in range(rounds):
        state = Round.shuffled(CLASSIC, 2, rng, starter=n % 2, log=False)
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
        tie = all(state.alive) and state.hands[0][0] == state.hands[1][0]
        clean += ME in state.winners and not tie
        loose += ME in state.winners or tie
    return clean, loose


class BestBot:
    """Plays, against the random bot, the move the programme finds best: a fair player (it sees only
    its view; the random bot's card is weighed by an exact :class:`Belief` that reads its plays as
    random). Its real win rate is a lower bound on the best fair player's, as the programme's
    figure is an upper bound."""

    level = "best vs random"

    def __init__(self, solver: Solver) -> None:
        self.solver = solver

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        worth = self.worth(view)
        return max(legal, key=lambda action: worth[action])

    def worth(self, view: View) -> dict[Action, float]:
        """The programme's chance of winning after each legal move of ``view``."""
        assert view.seat is not None
        other = 1 - view.seat
        odds_of = Belief(view, read_at_random).hand_odds(other)
        odds = tuple(odds_of.get(card, 0.0) for card in CARDS)
        unseen_of = view.unseen()
        unseen = tuple(unseen_of[card] for card in CARDS)
        a, b = (INDEX[card] for card in view.hand)
        # the view is the engine's (seat 0 or 1); the programme's plays are written for seat ME
        return {action: self.solver.our_play(_as_ours(action, view.seat), a, b, unseen, odds,
                                             view.deck_size)
                for action in view.legal_actions}


def _as_ours(action: Action, seat: int) -> Action:
    if action.target is None or seat == ME:
        return action
    return action._replace(target=ME if action.target == seat else THEM)


def play_best(rounds: int, seed: int) -> int:
    """Rounds of the engine, :class:`BestBot` against the random bot (each starting every other
    round): the best bot's wins (a showdown tie that both win counts)."""
    rng = random.Random(seed)
    best = BestBot(Solver(1.0))
    wins = 0
    for n in range(rounds):
        seat = n % 2
        state = Round.shuffled(CLASSIC, 2, rng, starter=(n // 2) % 2, log=True)
        while not state.over:
            if state.current == seat:
                state.apply(best.choose(view(state, seat)))
            else:
                state.apply(rng.choice(state.legal_actions()))
        wins += seat in state.winners
    return wins


def regret(level: str, rounds: int, seed: int) -> tuple[float, dict[str, tuple[float, int]]]:
    """Where a bot loses against the random bot: rounds of the engine, the bot ``level`` against the
    random bot (each starting every other round); at each of the bot's choices, what the programme's
    best move is worth more than the bot's move. Returns the mean loss per round and, per kind of
    decision, the total loss and how often it happened. (The programme's values are those of its
    upper bound, so the figures are estimates.)"""
    rng = random.Random(seed)
    best = BestBot(Solver(1.0))
    bot = make_bot(level, seed)
    kinds: dict[str, tuple[float, int]] = {}
    total = 0.0
    for n in range(rounds):
        seat = n % 2
        state = Round.shuffled(CLASSIC, 2, rng, starter=(n // 2) % 2, log=True)
        while not state.over:
            if state.current != seat:
                state.apply(rng.choice(state.legal_actions()))
                continue
            seen = view(state, seat)
            chosen = bot.choose(seen)
            if len(seen.legal_actions) > 1:
                worth = best.worth(seen)
                top = max(worth, key=lambda action: worth[action])
                lost = worth[top] - worth[chosen]
                if lost > 1e-9:
                    kind = _decision(seen.hand, chosen, top)
                    sum_, count = kinds.get(kind, (0.0, 0))
                    kinds[kind] = (sum_ + lost, count + 1)
                    total += lost
            state.apply(chosen)
    return total / rounds, kinds


def _decision(hand: tuple[Card, ...], chosen: Action, top: Action) -> str:
    """A kind of decision: which card to play, or (the same card) whom to target and what to name."""
    if chosen.card is top.card:
        return f"{chosen.card.name.lower()}: target or guess"
    pair = " + ".join(sorted(card.name.lower() for card in hand))
    return f"{pair}: played {chosen.card.name.lower()}, best {top.card.name.lower()}"


def solve(task: tuple[float, bool, bool]) -> tuple[float, int]:
    """One round's value for (tie worth, best play?, we start?), and the states it took."""
    tie, best, we_start = task
    solver = Solver(tie, best)
    return solver.round(we_start), len(solver.ours) + len(solver.theirs)


def both_starts(tie: float, best: bool, jobs: int) -> tuple[float, float, int, float]:
    """Starting and second, solved in parallel: (first, second, states, seconds)."""
    began = time.perf_counter()
    tasks = [(tie, best, True), (tie, best, False)]
    if jobs > 1:
        with quiet_pool(2) as pool:
            (first, a), (second, b) = pool.map(solve, tasks)
    else:
        (first, a), (second, b) = map(solve, tasks)
    return first, second, a + b, time.perf_counter() - began


def main() -> None:
    parser = Parser(description=description(__doc__))
    instead = parser.add_mutually_exclusive_group()  # one task at a time
    instead.add_argument("--check", type=whole(1, 10_000_000), default=None, metavar="ROUNDS",
                         help="instead, check the programme (random play) against this many engine rounds, at"
                              " most 10,000,000 (two full solves: about 7 minutes on two cores)")
    instead.add_argument("--play", type=whole(1, 1_000_000), default=None, metavar="ROUNDS",
                         help="instead, play this many engine rounds of the programme's best move vs random,"
                              " at most 1,000,000")
    instead.add_argument("--regret", type=whole(1, 1_000_000), default=None, metavar="ROUNDS",
                         help="instead, play this many engine rounds of --bot vs random and show where it loses,"
                              " at most 1,000,000")
    parser.add_argument("--seed", type=whole(None), default=None,
                        help="seed of the engine rounds (--check, --play, --regret; default 0)")
    parser.add_argument("--bot", default=None, choices=[lv for lv in LEVELS if lv != "random"],
                        help="the bot of --regret (default beginner)")
    parser.add_argument("--jobs", type=whole(1, 2), default=None,
                        help="processes of the solve and --check: 1 or 2, one per starting seat (default 2)")
    args = parser.parse_args()
    if args.bot is not None and not args.regret:  # even the default: it would be ignored
        parser.error("argument --bot: only with --regret (the bot whose choices are weighed)")
    if args.seed is not None and not (args.check or args.play or args.regret):
        parser.error("argument --seed: only with --check, --play or --regret (the solve itself plays no rounds)")
    if args.jobs is not None and (args.play or args.regret):
        # their rounds run one after another in one process, each decision asking the one programme
        parser.error("argument --jobs: only for the solve and --check (--play and --regret run in one process)")
    args.seed = args.seed or 0
    args.bot = args.bot or "beginner"
    args.jobs = args.jobs or 2
    print("classic, 2 players, single rounds against the random bot")
    if args.regret:
        began = time.perf_counter()
        per_round, kinds = regret(args.bot, args.regret, args.seed)
        print(f"{args.bot}: the programme's best moves are worth {percent(per_round)} of a round more than"
              f" its own, over {count(args.regret, 'round')}, seed {args.seed} [{time.perf_counter() - began:.0f} s];"
              f" the {min(SHOWN_KINDS, len(kinds))} kinds of decision that lose most (points of a round's"
              " win chance per round, decisions):")
        ranked = sorted(kinds.items(), key=lambda item: -item[1][0])
        for kind, (lost, times) in ranked[:SHOWN_KINDS]:
            print(f"  {percent(lost / args.regret):>7}  {times:6,}  {kind}")
        return
    if args.play:
        began = time.perf_counter()
        wins = play_best(args.play, args.seed)
        lo, hi = wilson(wins, args.play)
        print(f"the programme's best move, played in the engine: wins {percent(wins / args.play)}"
              f" (95% {percent(lo)}-{percent(hi)}) over {count(args.play, 'round')}, seed {args.seed}"
              f" [{time.perf_counter() - began:.0f} s]")
        return
    if not args.check:
        first, second, states, took = both_starts(1.0, True, args.jobs)
        print(f"best fair player: wins at most {percent((first + second) / 2)} with the start alternating"
              f" (starting: {percent(first)}, second: {percent(second)}; a showdown tie counted as a win);"
              f" {states:,} belief states in {took:.0f} s")
        return
    clean, loose = engine_random_vs_random(args.check, args.seed)
    for tie, wins, what in ((0.0, clean, "a showdown tie counted as a loss"),
                            (1.0, loose, "a showdown tie counted as a win")):
        first, second, states, took = both_starts(tie, False, args.jobs)
        lo, hi = wilson(wins, args.check)
        print(f"random vs random, {what}: the programme says {percent((first + second) / 2)}"
              f" ({states:,} states, {took:.0f} s); the engine, {count(args.check, 'round')}:"
              f" {percent(wins / args.check)} (95% {percent(lo)}-{percent(hi)})", flush=True)


SHOWN_KINDS = 12  # the kinds of decision --regret lists, those that lose most


def percent(x: float) -> str:
    return f"{100 * x:.2f}%"


if __name__ == "__main__":
    run(main)
