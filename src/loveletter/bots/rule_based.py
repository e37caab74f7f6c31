"""The beginner bot: simple rules, no search, never an obviously losing move.

It never plays or discards its own Princess when it has another choice, never names a card that it
can see is all used up, and uses what it knows (a Priest's look, a King's trade, a Baron tie): a
Guard names the known card, a Baron challenges only a lower known card, a Prince hits a known Princess.
Otherwise it weighs its choices by the cards still unseen, and keeps its higher card.
"""

from __future__ import annotations

import random
from collections import Counter

from loveletter.engine import Action, Card, View
from loveletter.engine.round import Phase

_NEVER = -1000.0


class RuleBasedBot:
    level = "beginner"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

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
        value = view.edition.value
        hand = list(view.hand)
        hand.remove(action.card)
        kept = hand[0]
        card, target = action.card, action.target
        me = view.seat
        base = 0.1 * value(kept)  # keep the higher card for the showdown
        if card is Card.PRINCESS:
            return _NEVER
        if target is None:
            return base + {Card.HANDMAID: 3.0, Card.SPY: 1.0, Card.CHANCELLOR: 1.0,
                           Card.COUNTESS: 0.5}.get(card, 0.0)
        known = view.known.get(target)
        if card is Card.GUARD:
            assert action.guess is not None
            if known is not None:
                return base + (20.0 if action.guess is known else -5.0)
            odds = hidden_odds(view, target)
            p = odds.get(action.guess, 0.0)
            return base + (10.0 * p if p > 0 else -100.0) + 0.01 * value(action.guess)
        if card is Card.PRIEST:
            return base + (0.5 if known is not None else 2.0)
        if card is Card.BARON:
            mine = value(kept)
            if known is not None:
                theirs = value(known)
                return base + (20.0 if mine > theirs else (-100.0 if mine < theirs else 0.0))
            odds = hidden_odds(view, target)
            win = sum(p for c, p in odds.items() if value(c) < mine)
            lose = sum(p for c, p in odds.items() if value(c) > mine)
            return base + 10.0 * (win - 2.0 * lose)
        if card is Card.PRINCE:
            if target == me:
                if kept is Card.PRINCESS:
                    return _NEVER
                return 0.5 if value(kept) <= 2 else -2.0
            if known is Card.PRINCESS:
                return base + 50.0
            return base + 1.5
        if card is Card.KING:
            if kept is Card.PRINCESS:
                return -5.0
            if known is not None:
                return value(known) - value(kept)
            odds = hidden_odds(view, target)
            expected = sum(p * value(c) for c, p in odds.items())
            return 0.5 * (expected - value(kept))
        return base


def hidden_odds(view: View, seat: int) -> dict[Card, float]:
    """A simple estimate of what ``seat`` holds: the unseen cards, less those known elsewhere."""
    counts: Counter[Card] = view.unseen()
    for other, card in view.known.items():
        if other != seat:
            counts[card] -= 1
    counts = +counts
    total = sum(counts.values())
    return {c: n / total for c, n in counts.items()} if total else {}
