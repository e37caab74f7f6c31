"""The beginner bot: simple rules, no search, never an obviously losing move.

It never plays or discards its own Princess when it has another choice, never names a card that it
can see is all used up, and uses what it knows (a Priest's look, a King's trade, a Baron tie): a
Guard names the known card, a Baron challenges only a lower known card, a Prince hits a known Princess.
Otherwise it weighs its choices by the cards still unseen, and keeps its higher card. Between equally
likely guesses its Guard names the card that threatens the one it keeps (:func:`threat`); beside a
Guard it would rather look with its Priest first (the Guard then names what it saw), and beside a
Priest it would rather play the King (the other then holds a card it knows).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from loveletter.engine import Action, Card, View
from loveletter.engine.round import Phase

# Scores that no weight tunes (the simulated players of playout.py use the same):
NEVER = -1000.0  # throwing the Princess away
HOPELESS = -100.0  # a Guard naming a card that cannot be there (wasted), a Baron against a known higher one
WRONG_GUESS = -5.0  # a Guard naming another card than the one it knows is there
PRINCESS_HIT = 50.0  # a Prince at a known Princess


@dataclass(frozen=True)
class Weights:
    """How much the beginner likes each kind of move (see :meth:`RuleBasedBot.score`); the expert's
    simulated players use the same (:mod:`~loveletter.bots.playout`). ``benchmarks/beginner_weights.py``
    varies each one against the random bot (README: what it found). ``guess_threat``, ``priest_for_guard``
    and ``king_for_priest`` are the three rules added last (README: what they gained)."""

    keep: float = 0.1  # per point of the card kept (for the showdown)
    handmaid: float = 3.0
    spy: float = 1.0
    chancellor: float = 1.0
    countess: float = 0.5
    guard_known: float = 20.0  # naming a card it knows is there
    guard_chance: float = 10.0  # per unit of the chance that the named card is there
    guess_value: float = 0.01  # per point of the named card (the tie-break between equal chances)
    guess_threat: float = 0.1  # naming the card that threatens the card kept (before the value)
    priest: float = 2.0  # a look at an unknown hand
    priest_for_guard: float = 1.0  # ... when the Guard kept can then name the card seen
    priest_known: float = 0.5  # a look at a hand it already knows
    baron_known: float = 20.0  # a sure win against a lower known card
    baron_chance: float = 10.0  # per unit of (chance of winning - risk * chance of losing)
    baron_risk: float = 2.0
    prince_self_low: float = 0.5  # on itself, throwing away a Guard or a Priest
    prince_self_high: float = -2.0  # on itself, throwing away anything higher
    prince_other: float = 1.5
    king_chance: float = 0.5  # per point the expected card gains over the card given
    king_with_princess: float = -5.0  # trading the Princess away
    king_for_priest: float = 2.0  # trading a Priest away: the other then holds a card it knows

    @cached_property
    def untargeted(self) -> dict[Card, float]:
        """The bonus of each card played without a target."""
        return {Card.HANDMAID: self.handmaid, Card.SPY: self.spy, Card.CHANCELLOR: self.chancellor,
                Card.COUNTESS: self.countess}


WEIGHTS = Weights()


class RuleBasedBot:
    level = "beginner"

    def __init__(self, seed: int | None = None, weights: Weights = WEIGHTS) -> None:
        self.rng = random.Random(seed)
        self.weights = weights

    def choose(self, view: View) -> Action:
        actions = view.legal_actions
        if view.phase is Phase.CHANCELLOR:
            return self._keep_best(view)
        scored = [(self.score(view, a), self.rng.random(), a) for a in actions]
        return max(scored, key=lambda s: (s[0], s[1]))[2]

    def _keep_best(self, view: View) -> Action:
        value = view.edition.value
        best = max(view.legal_actions, key=lambda a: (value(a.keep), self.rng.random()))  # type: ignore[arg-type]
        return best

    def score(self, view: View, action: Action) -> float:
        """How much the bot likes ``action`` (higher is better)."""
        w = self.weights
        value = view.edition.value
        hand = list(view.hand)
        hand.remove(action.card)
        kept = hand[0]
        card, target = action.card, action.target
        me = view.seat
        base = w.keep * value(kept)  # keep the higher card for the showdown
        if card is Card.PRINCESS:
            return NEVER
        if target is None:
            return base + w.untargeted.get(card, 0.0)
        known = view.known.get(target)
        if card is Card.GUARD:
            assert action.guess is not None
            if known is not None:
                return base + (w.guard_known if action.guess is known else WRONG_GUESS)
            odds = hidden_odds(view, target)
            p = odds.get(action.guess, 0.0)
            return (base + (w.guard_chance * p if p > 0 else HOPELESS) + w.guess_value * value(action.guess)
                    + (w.guess_threat if action.guess is threat(kept) else 0.0))
        if card is Card.PRIEST:
            if known is not None:
                return base + w.priest_known
            return base + w.priest + (w.priest_for_guard if kept is Card.GUARD else 0.0)
        if card is Card.BARON:
            mine = value(kept)
            if known is not None:
                theirs = value(known)
                return base + (w.baron_known if mine > theirs else (HOPELESS if mine < theirs else 0.0))
            odds = hidden_odds(view, target)
            win = sum(p for c, p in odds.items() if value(c) < mine)
            lose = sum(p for c, p in odds.items() if value(c) > mine)
            return base + w.baron_chance * (win - w.baron_risk * lose)
        if card is Card.PRINCE:
            if target == me:  # no keep bonus: the card kept is discarded
                if kept is Card.PRINCESS:
                    return NEVER
                return w.prince_self_low if value(kept) <= 2 else w.prince_self_high
            if known is Card.PRINCESS:
                return base + PRINCESS_HIT
            return base + w.prince_other
        if card is Card.KING:  # no keep bonus: the card kept is traded for the one that counts
            if kept is Card.PRINCESS:
                return w.king_with_princess
            if known is not None:
                return value(known) - value(kept)
            odds = hidden_odds(view, target)
            expected = sum(p * value(c) for c, p in odds.items())
            return w.king_chance * (expected - value(kept)) + (w.king_for_priest if kept is Card.PRIEST else 0.0)
        return base


def threat(kept: Card) -> Card:
    """The card that most threatens a player keeping ``kept``: a Prince makes a Princess be
    discarded; against anything else a Baron is the danger."""
    return Card.PRINCE if kept is Card.PRINCESS else Card.BARON


def hidden_odds(view: View, seat: int) -> dict[Card, float]:
    """A simple estimate of what ``seat`` holds: the unseen cards, less those known elsewhere."""
    counts: Counter[Card] = view.unseen()
    for other, card in view.known.items():
        if other != seat:
            counts[card] -= 1
    counts = +counts
    total = sum(counts.values())
    return {c: n / total for c, n in counts.items()} if total else {}
