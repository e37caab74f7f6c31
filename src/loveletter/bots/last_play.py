"""The beginner's count of the round's last play: the showdown (R6.2, R6.3) follows at once, so the chance
that each move wins can be counted exactly over the cards the other player may hold.

It applies when the deck is empty (this play ends the round) and one other player is left. The other
holds one of the cards this seat has not seen (or the card it knows they hold); the set-aside card is
one of the rest. Those cards are taken as equally likely, as the beginner's counting does elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence

from loveletter.engine import CARDS, Action, Card, Edition, View
from loveletter.engine.round import Phase

EVEN = 1e-9  # chances closer than this are equal


def last_play_chances(view: View, unknown: Sequence[int]) -> dict[Action, float] | None:
    """The chance that each legal move wins the round, if this is the round's last play with one other
    player left; otherwise ``None``. ``unknown`` counts, by card number, the cards that may be in a
    hand this seat does not know (here: the other's hand, unless known, and the set-aside card). A
    shared win counts as half."""
    me = view.seat
    if me is None or view.phase is not Phase.PLAY or view.deck_size or view.set_aside_taken:
        return None
    others = [s for s in range(view.players) if view.alive[s] and s != me]
    if len(others) != 1:
        return None
    other = others[0]
    value = view.edition.value
    return count_last_play(view.edition, view.hand, view.legal_actions, me, view.known.get(other), unknown,
                           sum(map(value, view.discards[me])), sum(map(value, view.discards[other])))


def count_last_play(edition: Edition, hand: Sequence[Card], legal: Sequence[Action], me: int, known: Card | None,
                    unknown: Sequence[int], my_discards: int, their_discards: int) -> dict[Action, float] | None:
    """:func:`last_play_chances` from its parts (the simulated players' too): seat ``me`` holds ``hand``
    and may play ``legal``; the other's card is ``known``, or one of ``unknown``; the discard piles
    add up to ``my_discards`` and ``their_discards``. ``None`` if the counts cannot hold the other's
    card and the set-aside card."""
    if sum(unknown) < (1 if known is not None else 2):
        return None
    showdown = _Showdown(edition, me, my_discards, their_discards)
    theirs = {known: 1.0} if known is not None else _odds(unknown)
    chances = {}
    for action in legal:
        chance = 0.0
        for card, odds in theirs.items():
            left = unknown if known is not None else _without(unknown, card)
            chance += odds * showdown.after(action, hand, card, _odds(left))
        chances[action] = chance
    return chances


def winning_most(chances: dict[Action, float]) -> tuple[Action, ...]:
    """The moves of ``chances`` that win most often (chances within :data:`EVEN` of each other count
    as equal: they differ only by the rounding of their sums)."""
    most = max(chances.values())
    return tuple(action for action, chance in chances.items() if chance > most - EVEN)


class _Showdown:
    """Who wins the showdown after one play: the higher card; on a tie, in the classic edition, the
    higher discard total (R6.3), and a shared win where that ties too or in the 2019 edition."""

    def __init__(self, edition: Edition, me: int, my_discards: int, their_discards: int) -> None:
        self.me, self.value = me, edition.value
        self.classic = edition.name == "classic"
        self.mine, self.theirs = my_discards, their_discards

    def after(self, action: Action, hand: Sequence[Card], theirs: Card, set_aside: dict[Card, float]) -> float:
        """My chance to win after ``action`` from ``hand``, the other holding ``theirs``; ``set_aside``
        gives the odds of the set-aside card, which a Prince hands out."""
        card, value, compare = action.card, self.value, self.compare
        kept = hand[1] if hand[0] is card else hand[0]
        mine = self.mine + value(card)  # the played card joins my discards
        if card is Card.PRINCESS:
            return 0.0
        if action.target is None or card is Card.PRIEST:  # the hands stay as they are
            return compare(kept, theirs, mine, self.theirs)
        if card is Card.GUARD:
            return 1.0 if action.guess is theirs else compare(kept, theirs, mine, self.theirs)
        if card is Card.BARON:  # the lower card is out at once; a tie goes on to the showdown
            if value(kept) != value(theirs):
                return float(value(kept) > value(theirs))
            return compare(kept, theirs, mine, self.theirs)
        if card is Card.KING:  # I hold theirs, they hold mine
            return compare(theirs, kept, mine, self.theirs)
        assert card is Card.PRINCE
        if action.target == self.me:  # I discard the card kept and take the set-aside card
            if kept is Card.PRINCESS:
                return 0.0
            return sum(odds * compare(new, theirs, mine + value(kept), self.theirs)
                       for new, odds in set_aside.items())
        if theirs is Card.PRINCESS:  # they discard her: out
            return 1.0
        return sum(odds * compare(kept, new, mine, self.theirs + value(theirs)) for new, odds in set_aside.items())

    def compare(self, mine: Card, theirs: Card, my_discards: int, their_discards: int) -> float:
        """My chance to win the showdown holding ``mine`` against ``theirs``."""
        a, b = self.value(mine), self.value(theirs)
        if a != b:
            return float(a > b)
        if self.classic and my_discards != their_discards:
            return float(my_discards > their_discards)
        return 0.5


def _odds(counts: Sequence[int]) -> dict[Card, float]:
    total = sum(counts)
    return {CARDS[i]: n / total for i, n in enumerate(counts) if n}


def _without(counts: Sequence[int], card: Card) -> list[int]:
    left = list(counts)
    left[card] -= 1  # (a card is its number)
    return left
