"""The expert bot: an exact belief over the hidden cards, and information-set Monte Carlo tree search.

Each iteration samples a deal of the hidden cards from the :class:`~loveletter.bots.belief.Belief`
(never from the true state, which the bot does not have), then walks one tree shared by all samples
(single-observer ISMCTS, Cowling, Powley & Whitehouse 2012): at each decision the moves legal in this
sample are weighed by UCB with availability counts, one new move is added, and the round is played out
with a light policy. The result is scored at the level of the match: what the round's outcome does to
each player's chance of winning the match (near the end, stopping a player one token from the target
matters as much as winning), estimated by assuming every player is equally likely to win each later
round.

The budget is a number of iterations (reproducible with a seed), optionally capped by a time limit.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from loveletter.bots.belief import Belief
from loveletter.engine import Action, Card, Event, Phase, Round, View

_PLAY = Phase.PLAY

#: Iterations per decision by default: keeps the median think time well under half a second here.
DEFAULT_ITERATIONS = 1200
EXPLORATION = 0.7
MAX_MATCH_STATES = 20_000  # token tables larger than this are not worth it: score rounds only


@dataclass
class Node:
    """A move in the tree, from the point of view of the player who made it."""

    player: int
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    round_wins: float = 0.0  # the root player's round wins through this node (for hints)
    children: dict[Action, Node] = field(default_factory=dict)


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
                 time_limit: float | None = None) -> None:
        if budget is not None and budget < 1:
            raise ValueError(f"the thinking budget must be at least 1 iteration, not {budget}")
        self.rng = random.Random(seed)
        self.iterations = budget or DEFAULT_ITERATIONS
        self.time_limit = time_limit
        self.stats = SearchStats()
        self._belief: Belief | None = None
        self._read_events: tuple[Event, ...] = ()

    # ------------------------------------------------------------------------------ protocol

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            self.stats = SearchStats()
            return legal[0]
        root = self.search(view)
        return max(root.children.items(), key=lambda item: (item[1].visits, item[1].reward))[0]

    def belief(self, view: View) -> Belief:
        """The belief for ``view``, kept between decisions of the same round."""
        # The same round only if the events read so far are where they were (a new match or a
        # new round starts over, even with the same round number).
        stale = self._belief is None or view.events[: self._belief.read] != self._read_events
        if stale:
            self._belief = Belief(view)
        else:
            assert self._belief is not None
            self._belief.update(view)
        assert self._belief is not None
        self._read_events = view.events[: self._belief.read]
        return self._belief

    def move_odds(self, view: View) -> dict[Action, float]:
        """For each legal move, the estimated chance of winning the round after it (for hints).
        Every move is searched here, even Guard guesses the bot would not consider."""
        root = self.search(view, prune=False)
        return {
            action: (node.round_wins / node.visits if node.visits else 0.0)
            for action, node in root.children.items()
        }

    # ------------------------------------------------------------------------------ search

    def search(self, view: View, prune: bool = True) -> Node:
        """Search from ``view`` for the budget; the root's children hold the statistics per move.
        With ``prune``, a Guard names only one of the two likeliest cards per target."""
        assert view.seat is not None
        start = time.perf_counter()
        belief = self.belief(view)
        me = view.seat
        root = Node(player=me)
        root_moves = _sensible_guesses(view.legal_actions, belief.hand_odds) if prune else view.legal_actions
        score = _scorer(view)
        deadline = start + self.time_limit if self.time_limit else math.inf
        rng = self.rng
        done = 0
        while done < self.iterations:
            state = _determinise(view, belief, rng)
            path = self._descend(root, state, rng, root_moves)
            _play_out(state, rng)
            rewards, mine = score(state)
            for node in path:
                node.visits += 1
                node.reward += rewards[node.player]
            if path:
                path[0].round_wins += mine
            done += 1
            if done % 64 == 0 and time.perf_counter() > deadline:
                break
        self.stats = SearchStats(done, time.perf_counter() - start, len(belief), belief.exact)
        # every legal move gets a node, even if the budget was too small to try it
        for action in view.legal_actions:
            root.children.setdefault(action, Node(player=me))
        return root

    def _descend(self, root: Node, state: Round, rng: random.Random,
                 root_moves: tuple[Action, ...]) -> list[Node]:
        """Walk down the tree in this sample until a new move of ours is added (or the round ends).

        Our moves are chosen by UCB. The others' moves follow :func:`_policy`, which sees only
        what they could see: a tree statistic for their moves would be learnt across samples that
        all share *our* true hand, as if they could see it.
        """
        me = root.player
        node, path = root, []
        while not state.over:
            if state.current != me:
                action = _policy(state, rng)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = Node(player=state.current)
                state.apply_unchecked(action)
                node = child
                path.append(child)
                continue
            if node is root:
                legal = root_moves
            else:
                legal = _sensible_guesses(state.legal_actions(), lambda seat: _unseen_odds(state))
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[int(rng.random() * len(untried))]
                child = children[action] = Node(player=state.current)
                child.available = 1
                state.apply_unchecked(action)
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
            state.apply_unchecked(best)
            path.append(node)
        return path


# ---------------------------------------------------------------------------------- helpers


GUESSES_KEPT = 1


def _sensible_guesses(legal: tuple[Action, ...], odds_of: Callable[[int], dict[Card, float]]
                      ) -> tuple[Action, ...]:
    """The moves worth searching: a Guard names only the likeliest card(s) for its target (by
    ``odds_of(seat)``; cards equally likely all stay), never one it knows cannot be there. Other
    moves are all kept. (The search cannot tell close guesses apart within its budget, and naming
    the likeliest card is what a strong player does.)"""
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


def _unseen_counts(state: Round) -> list[int]:
    """How many of each card (by number) the player to move has not seen: not discarded, not
    face up, not in its own hand."""
    unseen = [0] * len(_CARDS)
    for card, n in state.edition.copies.items():
        unseen[card] = n
    for pile in state.discards:
        for card in pile:
            unseen[card] -= 1
    for card in state.face_up:
        unseen[card] -= 1
    for card in state.hands[state.current]:
        unseen[card] -= 1
    return unseen


def _unseen_odds(state: Round) -> dict[Card, float]:
    """:func:`_unseen_counts` as odds."""
    unseen = _unseen_counts(state)
    total = sum(unseen)
    return {_CARDS[c]: n / total for c, n in enumerate(unseen) if n > 0} if total else {}


def _determinise(view: View, belief: Belief, rng: random.Random) -> Round:
    """A full round: the view's public state with hidden cards sampled from the belief."""
    world = belief.sample(rng)
    return Round.from_parts(
        view.edition,
        hands=world.hands,
        discards=view.discards,
        deck=world.deck,
        set_aside=world.set_aside,
        face_up=view.face_up,
        alive=view.alive,
        protected=view.protected,
        knocked_out=view.knocked_out,
        current=view.current,
        phase=view.phase,
        turn=view.turn,
    )


def _play_out(state: Round, rng: random.Random) -> None:
    """Finish the round, every player following :func:`_policy`."""
    while not state.over:
        state.apply_unchecked(_policy(state, rng))


def _policy(state: Round, rng: random.Random) -> Action:
    """A fast player for play-outs and for the others' moves, in the manner of the beginner bot:
    it uses only what the player to move could see (its hand, the discards, the face-up cards), weighs
    each move by the cards still unseen, never throws away its own Princess, and keeps its higher card.
    Ties are broken at random."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    value = state.edition.value
    if state.phase is not _PLAY:  # a Chancellor's choice: keep the highest card
        return max(legal, key=lambda a: value(a.keep))  # type: ignore[arg-type]
    me = state.current
    hand = state.hands[me]
    unseen = _unseen_counts(state)
    total = sum(unseen)
    best: list[Action] = []
    best_score = -math.inf
    for action in legal:
        score = _policy_score(action, hand, unseen, total, value, me)
        if score > best_score + 1e-9:
            best, best_score = [action], score
        elif score > best_score - 1e-9:
            best.append(action)
    return best[int(rng.random() * len(best))]


def _policy_score(action: Action, hand: list[Card], unseen: list[int], total: int,
                  value: Callable[[Card], int], me: int) -> float:
    card, target = action.card, action.target
    kept = hand[1] if hand[0] is card else hand[0]
    base = 0.1 * value(kept)
    if card is Card.PRINCESS:
        return -1000.0
    if target is None:
        return base + _UNTARGETED_BONUS.get(card, 0.0)
    if card is Card.GUARD:
        assert action.guess is not None
        n = unseen[action.guess]
        return base + (10.0 * n / total if n > 0 and total else -100.0)
    if card is Card.PRIEST:
        return base + 2.0
    if card is Card.BARON:
        mine = value(kept)
        win = lose = 0
        for other, n in enumerate(unseen):
            if n > 0 and other <= 9:
                v = value(_CARDS[other]) if _CARDS[other] in _VALUED else 0
                if v < mine:
                    win += n
                elif v > mine:
                    lose += n
        return base + (10.0 * (win - 2.0 * lose) / total if total else 0.0)
    if card is Card.PRINCE:
        if target == me:
            return -1000.0 if kept is Card.PRINCESS else (0.5 if value(kept) <= 2 else -2.0)
        return base + 1.5
    # King: trade the kept card for an average unseen one
    if kept is Card.PRINCESS:
        return -5.0
    expected = sum(n * value(_CARDS[c]) for c, n in enumerate(unseen) if n > 0 and _CARDS[c] in _VALUED)
    return 0.5 * ((expected / total if total else 0.0) - value(kept))


_CARDS = tuple(Card)
_VALUED = frozenset(Card)
_UNTARGETED_BONUS = {Card.HANDMAID: 3.0, Card.SPY: 1.0, Card.CHANCELLOR: 1.0, Card.COUNTESS: 0.5}


def _scorer(view: View):  # type: ignore[no-untyped-def]
    """Scores a finished round for every seat: the change it makes to that seat's chance of winning
    the match, scaled so the worst single-winner outcome is 0 and the best 1. Also returns the
    viewer's round-win share (for hints)."""
    players, me = view.players, view.seat
    tokens = view.tokens
    target = view.target
    if target is None or target**players > MAX_MATCH_STATES:  # no match to speak of: rounds only
        def round_only(state: Round) -> tuple[list[float], float]:
            share = 1.0 / len(state.winners)
            rewards = [share if s in state.winners else 0.0 for s in range(players)]
            return rewards, rewards[me] if me is not None else 0.0

        return round_only
    value = _match_value_function(players, target)
    outcomes = [value(_capped(tokens, (i,), None, target)) for i in range(players)]
    low = [min(o[s] for o in outcomes) for s in range(players)]
    span = [max(o[s] for o in outcomes) - low[s] for s in range(players)]
    cache: dict[tuple[tuple[int, ...], int | None], tuple[list[float], float]] = {}

    def score(state: Round) -> tuple[list[float], float]:
        key = (state.winners, state.spy_bonus)
        found = cache.get(key)
        if found is None:
            after = value(_capped(tokens, state.winners, state.spy_bonus, target))
            rewards = [
                (after[s] - low[s]) / span[s] if span[s] > 1e-12 else (1.0 if s in state.winners else 0.0)
                for s in range(players)
            ]
            mine = 1.0 / len(state.winners) if me in state.winners else 0.0
            found = cache[key] = (rewards, mine)
        return found

    return score


def _capped(tokens: tuple[int, ...], winners: tuple[int, ...], spy: int | None, target: int) -> tuple[int, ...]:
    after = list(tokens)
    for s in winners:
        after[s] += 1
    if spy is not None:
        after[spy] += 1
    return tuple(min(t, target) for t in after)


def _match_value_function(players: int, target: int):  # type: ignore[no-untyped-def]
    """``value(tokens)``: each seat's chance of winning the match from these tokens, if every player
    wins each later round with the same chance (a shared match win counts as a fraction)."""
    @cache
    def value(tokens: tuple[int, ...]) -> tuple[float, ...]:
        reached = [s for s in range(players) if tokens[s] >= target]
        if reached:
            return tuple(1.0 / len(reached) if s in reached else 0.0 for s in range(players))
        total = [0.0] * players
        for winner in range(players):
            nxt = tuple(t + 1 if s == winner else t for s, t in enumerate(tokens))
            for s, v in enumerate(value(nxt)):
                total[s] += v / players
        return tuple(total)

    return value
