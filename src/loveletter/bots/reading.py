"""Reading the other players: what they hold, judged by how they have been playing.

A strong player does not take every hand the cards allow as equally likely: someone who plays a
Guard while holding a Handmaid is rare, and someone who has looked at your card will name it. So the
expert keeps two :class:`~loveletter.bots.belief.Belief` tables over the same events, one for each
way the others might play:

- *sensible*: they mostly follow the play-out policy (:func:`~loveletter.bots.playout.chance_of_play`,
  with :data:`CARE`), which weighs each hand by how likely it was to make the plays seen;
- *wild*: they pick any legal play at random (:func:`~loveletter.bots.playout.chance_at_random`).

Each table also measures how likely the events were under its way of playing (its ``evidence``), so
the chance that the others play one way or the other follows Bayes' rule from :data:`WILD_AT_FIRST`.
A search samples a way of playing, then a deal from that way's table, and lets the others play that
way in the simulated round. (All the others are taken to play the same way: one kind of table.)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

from loveletter.bots.belief import Belief
from loveletter.bots.playout import chance_at_random, chance_of_play
from loveletter.engine import Action, Card, Edition, View

#: How often the sensible model expects a player to follow the policy (otherwise it plays one of its
#: cards at random): high, but not so high that a surprising play rules a hand out.
CARE = 0.97
#: The chance, before anyone has played, that the others play at random.
WILD_AT_FIRST = 0.3


def read_sensibly(edition: Edition, hand: tuple[Card, ...], played: Action, seat: int, others: int,
                  seen: list[int], known: dict[int, Card]) -> float:
    """The sensible way of playing, as a :data:`~loveletter.bots.belief.Reader`."""
    return chance_of_play(edition, hand, played, seat, others, seen, known, CARE)  # type: ignore[arg-type]


def read_at_random(edition: Edition, hand: tuple[Card, ...], played: Action, seat: int, others: int,
                   seen: list[int], known: dict[int, Card]) -> float:
    """The wild way of playing (any legal play), as a :data:`~loveletter.bots.belief.Reader`."""
    return chance_at_random(edition, hand, played, seat, others, seen, known)  # type: ignore[arg-type]


_PRIOR = math.log(WILD_AT_FIRST / (1.0 - WILD_AT_FIRST))


class Reading:
    """What one seat makes of the others: two beliefs, and how far each is borne out."""

    def __init__(self, view: View) -> None:
        self.sensible = Belief(view, read_sensibly)
        self.wild = Belief(view, read_at_random)

    @property
    def exact(self) -> bool:
        return self.sensible.exact and self.wild.exact

    def update(self, view: View) -> None:
        """Read the new events of ``view`` (a later view of the same round)."""
        self.sensible.update(view)
        self.wild.update(view)

    def assume(self, seat: int, hand: Iterable[Card]) -> None:
        """Keep only the deals in which ``seat`` holds ``hand`` (see :meth:`Belief.assume`)."""
        cards = tuple(hand)
        self.sensible.assume(seat, cards)
        self.wild.assume(seat, cards)

    def chance_wild(self) -> float:
        """The chance, given the events so far, that the others play at random."""
        difference = self.wild.evidence - self.sensible.evidence + _PRIOR
        if difference > 50:
            return 1.0
        if difference < -50:
            return 0.0
        ratio = math.exp(difference)
        return ratio / (1.0 + ratio)

    def pick(self, rng: random.Random) -> tuple[Belief, bool]:
        """A way of playing drawn by its chance: its belief, and whether it is the wild one."""
        if rng.random() < self.chance_wild():
            return self.wild, True
        return self.sensible, False

    def hand_odds(self, seat: int, floor: bool = True) -> dict[Card, float]:
        """The chance of each card in ``seat``'s hand, over both ways of playing (``floor``: see
        :meth:`Belief.hand_odds`)."""
        wild = self.chance_wild()
        odds: dict[Card, float] = {}
        for belief, weight in ((self.sensible, 1.0 - wild), (self.wild, wild)):
            if weight > 0:
                for card, p in belief.hand_odds(seat, floor).items():
                    odds[card] = odds.get(card, 0.0) + weight * p
        return odds

    def all_odds(self) -> dict[int, dict[Card, float]]:
        """:meth:`hand_odds` for every other player still in the round."""
        return {seat: self.hand_odds(seat) for seat in self.sensible.all_odds()}

    def __len__(self) -> int:
        """Hypotheses held (both tables)."""
        return len(self.sensible) + len(self.wild)
