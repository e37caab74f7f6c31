"""The expert bot: a belief over the hidden cards that reads the others' play, and information-set
Monte Carlo tree search over it.

Each iteration first draws how the others play (sensibly, or at random, by how well each has
explained their plays so far: :class:`~loveletter.bots.reading.Reading`), then a deal of the hidden
cards from that way's :class:`~loveletter.bots.belief.Belief` (never from the true state, which the
bot does not have). It then walks one tree shared by all samples (information-set MCTS, Cowling,
Powley & Whitehouse 2012): at our decisions the moves legal in this sample are weighed by UCB with
availability counts, the others move as the simulated players of :mod:`~loveletter.bots.playout`
(each with its memory of what it has seen), one new move of ours is added, and the round is played
out by the same simulated players. Our later decisions in the tree are kept apart by what we would
know then (our hand and memory), so the tree never plays as if it had seen the sampled cards.

The result is scored at the level of the match: what the round's outcome does to each player's
chance of winning the match (near the end, stopping a player one token from the target matters as
much as winning), estimated by assuming every player is equally likely to win each later round.

The budget is a number of iterations (reproducible with a seed), optionally capped by a time limit.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple

from loveletter.bots.base import check_turn, seeded
from loveletter.bots.belief import Belief, Following
from loveletter.bots.playout import Memory, memory_at, move, play_out, remember, step, unseen_odds
from loveletter.bots.reading import Reading
from loveletter.engine import Action, Card, Round, View
from loveletter.engine.errors import is_whole
from loveletter.engine.round import Phase

if TYPE_CHECKING:
    import numpy as np

#: Iterations per decision by default: keeps the median think time well under half a second here.
DEFAULT_ITERATIONS = 1200
#: For hints, every legal move is tried at least this often (each figure is then within about five
#: points of the search's long-run estimate, 95% of the time).
HINT_TRIES = 400
#: The largest thinking budget the expert takes (iterations per decision): far more than any use, and
#: still a think that ends (10**12 made it think for ever).
MAX_BUDGET = 10**7
#: The UCB exploration constant (rewards are scaled to 0..1); other values tried did no better against
#: the beginner.
EXPLORATION = 0.7


def check_budget(budget: int | None, time_limit: float | None = None) -> None:
    """Refuse a thinking budget that is not a whole number from 1 to :data:`MAX_BUDGET` (``None``: the
    default). With a time limit, a budget past the cap is the way to say "until the clock runs out"."""
    if budget is not None and (not is_whole(budget) or not (
            1 <= budget <= MAX_BUDGET or (budget > 0 and time_limit is not None))):
        raise ValueError(f"the thinking budget must be a whole number from 1 to {MAX_BUDGET:,} iterations,"
                         f" not {budget!r}")


@dataclass
class Node:
    """A move in the tree, from the point of view of the player who made it."""

    player: int
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    round_wins: float = 0.0  # the root player's round wins through this node (for hints)
    sure: bool = False  # the move decides the round, whatever the hidden cards (for hints: see _try_evenly)
    children: dict[Action, Node] = field(default_factory=dict)
    # Our later decisions, one per thing we could know then (hand and memory): see _descend.
    infos: dict[tuple[object, ...], Node] = field(default_factory=dict)


class Estimate(NamedTuple):
    """A hint: the estimated chance of winning the round after a move, and its uncertainty."""

    chance: float
    margin: float  # half the width of the 95% interval (normal approximation)
    # whether the move itself decides the round, whatever the hidden cards (it ends the round, or
    # knocks us out): only then is a chance of 0 or 1 certain, rather than never seen otherwise in the tries
    sure: bool = False

    @classmethod
    def of(cls, wins: float, tries: int, sure: bool = False) -> Estimate:
        if not tries:
            return cls(0.0, 1.0)
        chance = wins / tries
        return cls(chance, 1.96 * math.sqrt(chance * (1.0 - chance) / tries), sure)


@dataclass
class SearchStats:
    """What the last decision cost."""

    iterations: int = 0
    seconds: float = 0.0
    hypotheses: int = 0
    exact: bool = True

    @property
    def rate(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


class ExpertBot:
    level = "expert"

    def __init__(self, seed: int | None = None, budget: int | None = None,
                 time_limit: float | None = None, levels: Mapping[int, str] | None = None) -> None:
        """``levels``: the bot level of the seats whose level is public, for the hints (a bot
        player is not told them; see :class:`~loveletter.bots.reading.Reading`)."""
        check_budget(budget, time_limit)
        self.rng = seeded(seed)
        self.iterations = int(budget) if budget is not None else DEFAULT_ITERATIONS
        self.time_limit = time_limit
        self.stats = SearchStats()
        self._reading = Following(_MatchReading(dict(levels or {})))

    # ------------------------------------------------------------------------------ protocol

    def choose(self, view: View) -> Action:
        check_turn(view)
        legal = view.legal_actions
        if len(legal) == 1:
            self.stats = SearchStats()
            return legal[0]
        return ranked(self.search(view))[0][0]

    def belief(self, view: View) -> Reading:
        """What the bot makes of the others at ``view``, kept between decisions of the same round
        (and how far they play at random, carried to the match's next round)."""
        return self._reading.at(view)

    def go_on_as(self, searched: ExpertBot) -> None:
        """Go on as ``searched``, a copy of this bot that searched elsewhere (in another process), has
        left it: what it has read, and its random numbers."""
        vars(self).update(vars(searched))

    def catch_up(self, views: Iterable[View]) -> None:
        """Read the decisions made before, as a bot made anew for a match under way (a table read
        back from storage): ``views`` are the views at each of them, in order (a reading trimmed to a
        size, as with many players in the 2019 edition, depends on every step it was read in). The
        bot then goes on as it was, its chance that the others play at random too
        (:meth:`~loveletter.bots.reading.Reading.carried`)."""
        for seen in views:
            self.belief(seen)

    def move_odds(self, view: View, tries: int = HINT_TRIES, stop: Callable[[], bool] | None = None
                  ) -> dict[Action, Estimate]:
        """For each legal move, the estimated chance of winning the round after it, with its margin
        (for hints). Every move is tried here, even Guard guesses the bot would not consider, and all
        equally often: the budget, or ``tries`` per move if that is more; after it, the round is played
        out by the simulated players (us too), so each figure estimates one well-defined chance and
        the margin says how closely. ``stop``: asked between rounds of tries whether to stop early
        (the figures are then from fewer tries)."""
        root = self.search(view, prune=False, even=True,
                           iterations=max(self.iterations, tries * len(view.legal_actions)), stop=stop)
        return {action: Estimate.of(node.round_wins, node.visits, node.sure)
                for action, node in root.children.items()}

    # ------------------------------------------------------------------------------ search

    def search(self, view: View, prune: bool = True, even: bool = False, iterations: int | None = None,
               stop: Callable[[], bool] | None = None) -> Node:
        """Search from ``view`` for the budget (or ``iterations``), or until the time limit or until
        ``stop()`` says so; the root's children hold the statistics per move. With ``prune``, a Guard
        names only one of the two likeliest cards per target; with ``even``, every root move is
        tried equally often and the round then played out (for estimates of each, rather than
        finding the best)."""
        check_turn(view)
        assert view.seat is not None
        start = time.perf_counter()
        reading = self.belief(view)
        me = view.seat
        root = Node(player=me)
        # the guesses worth searching, by the table's own odds: the approximate tables' floor (a
        # share for every card still possible) would tie every unlikely card and keep them all
        root_moves = (_sensible_guesses(view.legal_actions, lambda seat: reading.hand_odds(seat, floor=False))
                      if prune else view.legal_actions)
        deadline = start + self.time_limit if self.time_limit else math.inf

        def enough() -> bool:  # (asked every so often, not at every try)
            return time.perf_counter() > deadline or (stop is not None and stop())

        budget = iterations or self.iterations
        if even:
            done = self._try_evenly(view, reading, root, root_moves, budget, enough)
        else:
            done = self._search_tree(view, reading, root, root_moves, budget, enough)
        self.stats = SearchStats(done, time.perf_counter() - start, len(reading), reading.exact)
        # every legal move gets a node, even if the budget was too small to try it
        for action in view.legal_actions:
            root.children.setdefault(action, Node(player=me))
        return root

    def _search_tree(self, view: View, reading: Reading, root: Node, root_moves: tuple[Action, ...],
                     budget: int, enough: Callable[[], bool]) -> int:
        """Grow ``root``'s tree for ``budget`` iterations (or until ``enough()``, asked every 64);
        how many were done."""
        score = _scorer(view)
        known, links = memory_at(view)
        rng = self.rng
        keeping = Card.PRINCESS in view.hand  # (see _keeping_the_princess)
        done = 0
        while done < budget:
            belief, wild = reading.pick(rng)
            state = _determinise(view, belief, rng)
            memory = remember(known, links, state, rng.random() if links.unsure else 0.0)  # (a draw only where needed)
            path = self._descend(root, state, memory, rng, root_moves, wild, keeping)
            play_out(state, memory, rng, wild)
            rewards, mine = score(state)
            for node in path:
                node.visits += 1
                node.reward += rewards[node.player]
            if path:
                path[0].round_wins += mine
            done += 1
            if done % 64 == 0 and enough():
                break
        return done

    def _try_evenly(self, view: View, reading: Reading, root: Node, root_moves: tuple[Action, ...],
                    budget: int, enough: Callable[[], bool]) -> int:
        """Try the ``root_moves`` in turn, each on the same deal, for ``budget`` tries in all (or until
        ``enough()``, asked after each round of tries), and play the round out after each by the
        simulated players (us included: a tree below would mix its exploration into the figures,
        which then drift up with the budget). The statistics go to ``root``'s children; returns the
        number of tries.

        Every move of a round of tries meets the same deal, and the same chances after it (the
        simulated players' tie-breaks), so two moves that do the same get the same figure. A Guard's
        wrong guesses at one target do nearly the same: they differ only in the card the others then
        rule out of the target's hand (:func:`~loveletter.bots.odds.read_miss`). So the round is played
        out once for them all, with the first wrong guess tried there, an approximation for the others
        (docs/bots.md, "Time"): a Guard with five targets has 45 moves (2019: nine cards to name), of
        which at most five hit.

        A move is ``sure`` where it decided the round in every try, always the same way, and the tries
        met every card the belief leaves possible in the hand its outcome rested on (:func:`_decided_by`):
        a Baron against a King or a Princess, with a Guard 1% likely, lost in all 400 tries and is not sure.
        It is also ``sure`` at the round's end (the last play, or a Prince that makes another player
        draw the deck's last card) where every deal the belief leaves possible, played out, ends it
        the same way (:func:`_certain_at_last_play`), as every try found.
        """
        me = root.player
        score = _scorer(view)
        known, links = memory_at(view)
        rng = self.rng
        children = [root.children.setdefault(action, Node(player=me)) for action in root_moves]
        settled = [0] * len(children)  # tries in which the move itself decided the round
        met: list[set[tuple[int, Card]]] = [set() for _ in children]  # (seat, card) those outcomes rested on
        done = 0
        while done < budget:
            belief, wild = reading.pick(rng)
            deal = _determinise(view, belief, rng)
            luck = rng.random()
            # a Guard's target: what a miss there does
            missed: dict[int, tuple[tuple[list[float], float], tuple[int, ...] | None]] = {}
            for i, (action, child) in enumerate(zip(root_moves, children, strict=True)):
                if done == budget:
                    break
                target = action.target
                missing = (target if action.card is Card.GUARD and target is not None
                           and deal.hands[target][0] is not action.guess else None)  # the target a Guard misses
                found = missed.get(missing) if missing is not None else None
                if found is None:
                    state = deal.clone()
                    memory = remember(known, links, state, luck)
                    walk = random.Random(luck)
                    step(state, action, memory)
                    decided_by = _decided_by(action, state, me)
                    play_out(state, memory, walk, wild)
                    found = score(state), decided_by
                    if missing is not None:
                        missed[missing] = found
                (rewards, mine), decided_by = found
                child.visits += 1
                child.available += 1
                child.reward += rewards[me]
                child.round_wins += mine
                if decided_by is not None:
                    settled[i] += 1
                    met[i].update((seat, deal.hands[seat][0]) for seat in decided_by)
                done += 1
            if enough():
                break

        @cache
        def possible_in(seat: int) -> frozenset[Card]:  # the cards the belief leaves possible in its hand
            return frozenset(card for card, p in reading.hand_odds(seat).items() if p > 0)

        def all_met(pairs: set[tuple[int, Card]]) -> bool:
            return all((seat, card) in pairs for seat in {seat for seat, _ in pairs} for card in possible_in(seat))

        # (told only where every try won, or every try lost: the others' figures stand as they are)
        alike = [action for action, child in zip(root_moves, children, strict=True)
                 if child.round_wins in (0.0, float(child.visits))]
        certain = _certain_at_last_play(view, alike, possible_in) if alike else {}
        for action, child, decided, pairs in zip(root_moves, children, settled, met, strict=True):
            wins = child.round_wins
            child.sure = ((0 < decided == child.visits and wins in (0.0, float(child.visits)) and all_met(pairs))
                          or (action in certain and wins == (child.visits if certain[action] else 0.0)))
        return done

    def _descend(self, root: Node, state: Round, memory: Memory, rng: random.Random,
                 root_moves: tuple[Action, ...], wild: int, keeping: bool) -> list[Node]:
        """Walk down the tree in this sample until a new move of ours is added (or the round ends).

        Our moves are chosen by UCB. The others' moves follow the simulated players
        (:func:`~loveletter.bots.playout.move`), who see only what they could see: a tree statistic
        for their moves would be learnt across samples that all share *our* true hand, as if they
        could see it. ``wild`` marks the seats that play at random in this sample; with ``keeping`` (we
        hold the Princess at the root), our later decisions keep her (:func:`_keeping_the_princess`).
        """
        me = root.player
        node, path = root, []
        mine = memory[me]

        def odds_of(seat: int) -> dict[Card, float]:  # what we make of a hand in this sample
            return {mine[seat]: 1.0} if seat in mine else unseen_odds(state)

        while not state.over:
            if state.current != me:
                action = move(state, memory, rng, wild)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = Node(player=state.current)
                step(state, action, memory)
                node = child
                path.append(child)
                continue
            if node is root:
                legal = root_moves
            else:
                # what we would know here: our hand and memory (not the sampled hidden cards)
                key = (tuple(sorted(state.hands[me])), tuple(sorted(mine.items())))
                found = node.infos.get(key)
                node = found if found is not None else node.infos.setdefault(key, Node(player=me))
                legal = state.legal_actions()
                if keeping:
                    legal = _keeping_the_princess(legal, state.hands[me], me)
                legal = _sensible_guesses(legal, odds_of)
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[int(rng.random() * len(untried))]
                child = children[action] = Node(player=state.current)
                child.available = 1
                step(state, action, memory)
                path.append(child)
                return path
            best, best_score = legal[0], -math.inf
            for action in legal:
                child = children[action]
                child.available += 1
                value = child.reward / child.visits + EXPLORATION * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if value > best_score:
                    best, best_score = action, value
            node = children[best]
            step(state, best, memory)
            path.append(node)
        return path


# ---------------------------------------------------------------------------------- helpers


def ranked(root: Node) -> list[tuple[Action, Node]]:
    """The root's moves, best first, as the bot chooses: the most searched, and of moves searched as
    often, the one with the higher total reward (as often: the higher mean)."""
    return sorted(root.children.items(), key=lambda item: (item[1].visits, item[1].reward), reverse=True)


@dataclass
class _MatchReading:
    """Starts the :class:`~loveletter.bots.reading.Reading` of each round. In a match's later rounds
    (after the round of the ``last`` reading, which it replaces; a round in which we never searched is
    not read: :meth:`ExpertBot.choose` does not search where there is one legal move, though a bot
    played where people see it does) the chance that the others play at random starts where the last
    reading left it (:meth:`~loveletter.bots.reading.Reading.carried`: what they did after our last
    decision of that round is not read); in a new match, afresh. (An object rather than a closure, so that the bot,
    and an environment holding it, can be pickled.)"""

    levels: dict[int, str]

    def __call__(self, view: View, last: Reading | None) -> Reading:
        if last is not None and last.round_number < view.round_number:  # (a match's first round is 1)
            return Reading(view, self.levels, prior=last.carried())
        return Reading(view, self.levels)


#: Guesses searched per Guard target: the two likeliest. With one, the search cannot weigh a slightly
#: less likely but more dangerous card (one that would win a showdown or a Baron): two do better
#: with four players (about +3.5 points on two seeds of benchmarks/strength.py) and no worse with two.
GUESSES_KEPT = 2


def _sensible_guesses(legal: tuple[Action, ...], odds_of: Callable[[int], dict[Card, float]]
                      ) -> tuple[Action, ...]:
    """The moves worth searching: a Guard names only the :data:`GUESSES_KEPT` likeliest cards for its
    target (by ``odds_of(seat)``; cards as likely as the last kept also stay), never one it knows
    cannot be there unless no card can (then the first guess stays, so the Guard can still be
    played). Other moves are all kept. (The search cannot tell many close guesses apart
    within its budget.)"""
    guards: dict[int, list[Action]] = {}
    for action in legal:
        if action.card is Card.GUARD and action.target is not None:
            guards.setdefault(action.target, []).append(action)
    if not guards:
        return legal
    kept: set[Action] = set()
    for target, actions in guards.items():
        odds = odds_of(target)
        chance = {a: odds.get(a.guess, 0.0) for a in actions}  # type: ignore[arg-type]
        ranked = sorted(actions, key=lambda a: -chance[a])
        cutoff = chance[ranked[min(GUESSES_KEPT, len(ranked)) - 1]]
        best = [a for a in ranked if chance[a] >= cutoff - 1e-9 and chance[a] > 0]  # ties stay in
        kept.update(best or ranked[:1])
    return tuple(a for a in legal if a.card is not Card.GUARD or a.target is None or a in kept)


def _keeping_the_princess(legal: tuple[Action, ...], hand: Sequence[Card], me: int) -> tuple[Action, ...]:
    """The moves that do not throw our own Princess away (played, or discarded to our own Prince:
    out of the round, R5.8), where there are any, for our later decisions in the tree where we hold
    her at the root. Each new one tried every legal move once, so the tree lost a round on our own
    Princess at a good share of them, and every line that kept her looked worse than it was: a
    Princess played at once (a sure loss) was chosen over a Prince at the other player that won a
    third of the rounds (2019, two players). The simulated players never throw her away either (the
    beginner's rule); at the root the search still weighs every move. Only where we hold her at the
    root: there every move but the sure loss keeps her, and all are now weighed alike. Where we do
    not, the lines that gain her (a King's trade) looked better than the lines that keep another
    card, which the tree's first tries still play badly: with four players the expert won about a
    point less on each of five seeds (docs/bots.md, "Our own Princess in the tree")."""
    if Card.PRINCESS not in hand:  # (most of the time: nothing to look at)
        return legal
    princess_kept = tuple(a for a in legal if a.card is not Card.PRINCESS and not (a.card is Card.PRINCE and a.target == me))
    return princess_kept or legal


def _decided_by(action: Action, state: Round, me: int) -> tuple[int, ...] | None:
    """Whether ``action``, just played by ``me`` in ``state``, decided the round in a way the tries
    can vouch for, and if so the other seat (none, or one) whose card, as dealt, decided how; ``None``
    if not. It did if it knocked us out (our own Princess; a Baron: the target's card against ours),
    knocked out the last other player (the target's card), or led to a showdown with one other player
    whose card it left alone or took with a King (that card against ours). Other showdowns are not
    vouched for: with two others or more, tries that met each one's every card need not have met the
    one combination that turns the outcome (the only Princess in neither hand), a player knocked out
    on the way rested on its card too, and a Prince's draw is a card that no hand's odds cover."""
    alive = state.alive_mask
    target = action.target if action.target != me else None
    if not alive >> me & 1:
        return () if target is None else (target,)
    if not state.over:
        return None
    others = [seat for seat in range(state.players) if alive >> seat & 1 and seat != me]
    if not others:  # the last other player knocked out
        return (target,) if target is not None else None
    if len(others) == 1 and action.card is not Card.PRINCE and target in (None, others[0]):
        return (others[0],)
    return None


def _certain_at_last_play(view: View, moves: Iterable[Action], possible: Callable[[int], Set[Card]]
                          ) -> dict[Action, bool]:
    """Near the round's end (the deck empty, or one card left, which only a Prince at another player
    makes that player draw at once), the ``moves`` that end the round in every deal of the unseen
    cards and end it the same way: whether we win it after each (alone or with others). A deal gives
    each hand we do not know a card ``possible`` for it (the belief's cards: every one it leaves
    possible), and the deck's card, if any, and the set-aside card what is left. Every such deal is
    played out, so a Guard that may hit, a Baron that knocks us out or leads to a lost showdown, a
    King among several players or a Prince that makes us or another draw is told as surely as a
    plain showdown (counting the cards unseen, as this did before, told only some of them: "<1%"
    stood beside a certain 0%, marked best). The deals are a superset of those the belief holds
    possible (a Baron tie's twins are drawn apart), which can only make outcomes told rarer; the
    unseen cards are two more than the hands at most, so there are at most 5,040 of them, and a move
    that goes on in the first is not played on the others."""
    if view.phase is not Phase.PLAY or view.deck_size > 1 or view.set_aside_taken or view.seat is None:
        return {}  # (the set-aside card is taken on the round's last play only: never seen here)
    me = view.seat
    hidden = [seat for seat, alive in enumerate(view.alive) if alive and seat != me and seat not in view.known]
    unseen = view.tracker()
    if sum(unseen.values()) != len(hidden) + view.deck_size + 1:
        return {}  # (not what the round's end leaves: say nothing)
    options = [sorted(card for card in possible(seat) if unseen[card]) for seat in hidden]
    deals: list[tuple[dict[int, Card], tuple[Card, ...], Card]] = []  # hands, deck, set-aside card

    def deal(i: int, hands: dict[int, Card]) -> None:
        if i == len(hidden):
            left = sorted((unseen - Counter(hands.values())).elements())
            for order in {tuple(left), tuple(reversed(left))}:  # the deck's card and the set-aside one
                deals.append((dict(hands), order[:-1], order[-1]))
            return
        for card in options[i]:
            if list(hands.values()).count(card) < unseen[card]:
                hands[hidden[i]] = card
                deal(i + 1, hands)
                del hands[hidden[i]]

    deal(0, {})
    outcomes: dict[Action, set[bool]] = {action: set() for action in moves}
    for hands, deck, set_aside in deals:
        base = _round_at(view, [tuple(view.hand) if s == me else (hands[s],) if s in hands else
                                (view.known[s],) if s in view.known and view.alive[s] else ()
                                for s in range(view.players)], deck, set_aside)
        for action, seen in outcomes.items():
            if len(seen) < 2:
                state = base.clone()
                state.apply(action)
                if state.over:
                    seen.add(me in state.winners)
                else:  # the round goes on: nothing to tell
                    seen.update((True, False))
    return {action: seen.pop() for action, seen in outcomes.items() if len(seen) == 1}


def _determinise(view: View, belief: Belief, rng: random.Random) -> Round:
    """A full round: the view's public state with hidden cards sampled from the belief."""
    world = belief.sample(rng)
    return _round_at(view, world.hands, world.deck, world.set_aside)


def _round_at(view: View, hands: Sequence[tuple[Card, ...]], deck: tuple[Card, ...], set_aside: Card | None) -> Round:
    """A full round: the view's public state with ``hands``, ``deck`` and ``set_aside`` for the cards
    it does not show."""
    return Round.from_parts(
        view.edition,
        hands=hands,
        discards=view.discards,
        deck=deck,
        set_aside=set_aside,
        face_up=view.face_up,
        alive=view.alive,
        protected=view.protected,
        knocked_out=view.knocked_out,
        current=view.current,
        phase=view.phase,
        turn=view.turn,
    )


def _scorer(view: View) -> Callable[[Round], tuple[list[float], float]]:
    """Scores a finished round for every seat: the change it makes to that seat's chance of winning
    the match, scaled so the worst outcome with one winner (and the Spy's token, R6.4, to any seat or
    none) is 0 and the best 1; a shared round past those bounds counts as the nearer one. Without a
    match (a game of one round) a round won is 1, alone or with others (R6.3: every tied player wins
    it). Also returns whether the viewer won the round, alone or with others, for the hints' chance
    of winning it."""
    players, me = view.players, view.seat
    tokens = view.tokens
    target = view.target
    if target is None:  # one round, not a match
        def round_only(state: Round) -> tuple[list[float], float]:
            rewards = [1.0 if s in state.winners else 0.0 for s in range(players)]
            return rewards, 1.0 if me in state.winners else 0.0

        return round_only

    def value(winners: tuple[int, ...], spy: int | None) -> tuple[float, ...]:
        return match_chances(_needs(tokens, winners, spy, target))

    spies = (None, *range(players)) if view.edition.has(Card.SPY) else (None,)
    outcomes = [value((i,), spy) for i in range(players) for spy in spies]
    low = [min(o[s] for o in outcomes) for s in range(players)]
    span = [max(o[s] for o in outcomes) - low[s] for s in range(players)]
    scored: dict[tuple[tuple[int, ...], int | None], tuple[list[float], float]] = {}

    def score(state: Round) -> tuple[list[float], float]:
        key = (state.winners, state.spy_bonus)
        found = scored.get(key)
        if found is None:
            after = value(state.winners, state.spy_bonus)
            rewards = [
                min(1.0, max(0.0, (after[s] - low[s]) / span[s])) if span[s] > 1e-12
                else (1.0 if s in state.winners else 0.0)
                for s in range(players)
            ]
            mine = 1.0 if me in state.winners else 0.0
            found = scored[key] = (rewards, mine)
        return found

    return score


def _needs(tokens: tuple[int, ...], winners: tuple[int, ...], spy: int | None, target: int) -> tuple[int, ...]:
    """How many tokens each seat still needs after a round won by ``winners`` (and the Spy's by ``spy``)."""
    after = list(tokens)
    for s in winners:
        after[s] += 1
    if spy is not None:
        after[spy] += 1
    return tuple(max(0, target - t) for t in after)


@lru_cache(maxsize=4096)  # a search asks for the same few outcomes again and again
def match_chances(needs: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's chance of winning the match when seat ``s`` still needs ``needs[s]`` tokens, if one
    player wins each later round, every player as likely as the others. Seats that need none have
    reached the target and share the match (R2.4).

    Exact for any number of players and any target, without a table of every score: seat ``s`` wins
    when it takes its last token in round ``k + 1`` after ``k`` rounds in which it won ``needs[s] - 1``
    and every other seat ``j`` fewer than ``needs[j]``. With ``n`` players each sequence of ``k``
    winners has the chance ``n ** -k``; the sequences are counted seat by seat (a binomial coefficient
    for where one seat's wins fall among the others'), and the last round has the chance ``1 / n``.

    >>> match_chances((1, 1))  # one round left: whoever wins it
    (0.5, 0.5)
    >>> [round(x, 4) for x in match_chances((1, 2, 2))]  # the leader loses only if another wins twice first
    [0.6296, 0.1852, 0.1852]
    """
    # numpy is loaded here rather than with the module: the command line loads the bots, and with
    # numpy loaded at its start a Ctrl-C while the tournament's worker processes started gave a
    # worker's traceback (test_ctrl_c_while_the_workers_start_is_told_once, 5 runs in 6)
    import numpy as np

    players = len(needs)
    reached = [s for s in range(players) if needs[s] <= 0]
    if reached:
        return tuple(1.0 / len(reached) if s in reached else 0.0 for s in range(players))
    chances = []
    for s in range(players):
        others = np.ones(1)  # others[k]: the chance of the k rounds' winners, summed over the ways
        for j in range(players):
            if j != s:
                others = _with_seat(others, needs[j] - 1, players)
        mine = _with_seat(others, needs[s] - 1, players, exactly=True)
        chances.append(float(mine.sum()) / players)  # ... and then seat s wins the round after
    return tuple(chances)


def _with_seat(rounds: np.ndarray, most: int, players: int, exactly: bool = False) -> np.ndarray:
    """``rounds[k]``: the chance that a group of seats won k given rounds within their limits, summed
    over the ways; the same with one more seat that wins up to ``most`` of them (``exactly`` that
    many), its wins falling anywhere among the others'."""
    import numpy as np

    k = np.arange(len(rounds), dtype=float)
    longer = np.zeros(len(rounds) + most)
    ways = np.ones(len(rounds))  # C(k + i, i) / players ** i, for i = 0, 1, ...
    for i in range(most + 1):
        if i:
            ways = ways * (k + i) / (i * players)
        if not exactly or i == most:
            longer[i:i + len(rounds)] += ways * rounds
    return longer
