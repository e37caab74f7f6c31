"""Reading the other players: what they hold, judged by how they have been playing.

A strong player does not take every hand the cards allow as equally likely: someone who plays a
Guard while holding a Handmaid is rare, and someone who has looked at your card will name it. So the
expert keeps two :class:`~loveletter.bots.belief.Belief` tables over the same events, one for each
way the others might play:

- *sensible*: they mostly follow the play-out policy (:func:`~loveletter.bots.playout.chance_of_play`,
  with :data:`CARE`), which weighs each hand by how likely it was to make the plays seen;
- *wild*: they pick any legal play at random (:func:`~loveletter.bots.playout.chance_at_random`).

Each table also measures how likely the events were under its way of playing (its ``evidence``), so
the chance that the others play one way or the other follows Bayes' rule from :data:`WILD_AT_FIRST`
(in a match's later rounds, from where the round before left it: :meth:`Reading.carried`).
A search samples a way of playing, then a deal from that way's table, and lets the others play that
way in the simulated round. (All the others are taken to play the same way: one kind of table.)

Where the way a player plays is public (a bot's level, shown at the table), both tables read that
player that way: a random bot at random, a beginner sensibly, and an expert sensibly but with less
care (:data:`CARE_OF_EXPERT`: it searches, and its choice is one the policy would make only about
three times in five). Only the others (people) are read by the two ways and Bayes' rule. The hints
do this; a bot player is not told the levels.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from loveletter.bots.belief import Belief, Reader, summing_to_one
from loveletter.bots.odds import PlayOdds
from loveletter.bots.playout import chance_at_random, chance_of_play
from loveletter.engine import Action, Card, Edition, View

#: How often the sensible model expects a player to follow the policy (otherwise it plays one of its
#: cards at random): high, but not so high that a surprising play rules a hand out.
CARE = 0.97
#: How often the expert bot is taken to follow the policy. Its choice is one the policy would make in
#: 55-61% of its decisions with a choice, and its other choices are not random: read with :data:`CARE`,
#: the card an expert really held got under 1% in 7-13% of the hints' readings (classic with two and
#: four players, 2019 with four), and another card was shown as certain. Of the values tried (0.1 to
#: 0.97), 0.1-0.4 gave the card held the best mean log-chance, within 0.03 of each other; at 0.3 it
#: never got under 1% (``benchmarks/reading.py``).
CARE_OF_EXPERT = 0.3
#: The chance, before anyone has played in a match, that the others play at random.
WILD_AT_FIRST = 0.3
#: In a match's later rounds the chance starts where the round before left it (as a person learns
#: who they play against), but never surer than this either way: the others may change their play.
SUREST_CARRIED = 0.99


def read_sensibly(edition: Edition, hand: tuple[Card, ...], played: Action, seat: int, others: int,
                  seen: list[int], known: dict[int, Card], tells: int = 0, odds: PlayOdds | None = None) -> float:
    """The sensible way of playing, as a :data:`~loveletter.bots.belief.Reader`."""
    return chance_of_play(edition, hand, played, seat, others, seen, known, CARE, tells, odds)  # type: ignore[arg-type]


def read_as_expert(edition: Edition, hand: tuple[Card, ...], played: Action, seat: int, others: int,
                   seen: list[int], known: dict[int, Card], tells: int = 0, odds: PlayOdds | None = None) -> float:
    """The expert bot's way of playing: sensibly, with :data:`CARE_OF_EXPERT`."""
    return chance_of_play(edition, hand, played, seat, others, seen, known, CARE_OF_EXPERT, tells, odds)  # type: ignore[arg-type]


def read_at_random(edition: Edition, hand: tuple[Card, ...], played: Action, seat: int, others: int,
                   seen: list[int], known: dict[int, Card], tells: int = 0, odds: PlayOdds | None = None) -> float:
    """The wild way of playing (any legal play), as a :data:`~loveletter.bots.belief.Reader`."""
    return chance_at_random(edition, hand, played, seat, others, seen, known, tells, odds)  # type: ignore[arg-type]


_PRIOR = math.log(WILD_AT_FIRST / (1.0 - WILD_AT_FIRST))
_SUREST = math.log(SUREST_CARRIED / (1.0 - SUREST_CARRIED))


def _way_of(level: str) -> Reader:
    """How a bot of ``level`` is read."""
    return read_at_random if level == "random" else read_as_expert if level == "expert" else read_sensibly


@dataclass(frozen=True)
class _ByLevel:
    """A :data:`~loveletter.bots.belief.Reader` that reads each seat its own way (``ways``, by seat).
    (A class rather than a closure, so that a belief holding it can be pickled.)"""

    ways: tuple[Reader, ...]

    def __call__(self, edition: Edition, hand: tuple[Card, ...], played: Action, seat: int, others: int,
                 seen: list[int], known: dict[int, Card], tells: int = 0, odds: PlayOdds | None = None) -> float:
        return self.ways[seat](edition, hand, played, seat, others, seen, known, tells, odds)


def _reader(players: int, levels: Mapping[int, str], default: Reader) -> Reader:
    """Read the seats whose level is known by their level (:func:`_way_of`), the others by ``default``."""
    if not levels:
        return default
    return _ByLevel(tuple(_way_of(levels[seat]) if seat in levels else default for seat in range(players)))


class Reading:
    """What one seat makes of the others: two beliefs, and how far each is borne out.

    ``levels`` gives the bot level of the seats whose level is public (``"random"`` plays at random,
    ``"expert"`` sensibly with less care, any other level sensibly); the others are read both ways.
    ``prior`` is the log-odds, before this round's events, that they play at random (by default
    those of :data:`WILD_AT_FIRST`; see :meth:`carried`)."""

    def __init__(self, view: View, levels: Mapping[int, str] | None = None, prior: float = _PRIOR) -> None:
        self.prior = prior
        self.round_number = view.round_number
        levels = {seat: level for seat, level in (levels or {}).items() if seat != view.seat}
        wild = frozenset(seat for seat, level in levels.items() if level == "random")
        sensible = frozenset(levels) - wild
        self.sensible = Belief(view, _reader(view.players, levels, read_sensibly))
        self.wild = Belief(view, _reader(view.players, levels, read_at_random))
        everyone = ((1 << view.players) - 1) & ~(1 << view.seat) if view.seat is not None else 0
        self._wild_masks = (sum(1 << seat for seat in wild),  # who plays at random in each way
                            everyone & ~sum(1 << seat for seat in sensible))

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

    def log_odds_wild(self) -> float:
        """The log-odds, given the events so far, that the others play at random."""
        return self.wild.evidence - self.sensible.evidence + self.prior

    def carried(self) -> float:
        """The ``prior`` for the match's next round: :meth:`log_odds_wild`, no surer than
        :data:`SUREST_CARRIED` either way."""
        return max(-_SUREST, min(_SUREST, self.log_odds_wild()))

    def chance_wild(self) -> float:
        """The chance, given the events so far, that the others play at random."""
        difference = self.log_odds_wild()
        if difference > 50:
            return 1.0
        if difference < -50:
            return 0.0
        ratio = math.exp(difference)
        return ratio / (1.0 + ratio)

    def pick(self, rng: random.Random) -> tuple[Belief, int]:
        """A way of playing drawn by its chance: its belief, and the seats that play at random in it
        (a bit mask)."""
        if rng.random() < self.chance_wild():
            return self.wild, self._wild_masks[1]
        return self.sensible, self._wild_masks[0]

    def hand_odds(self, seat: int, floor: bool = True) -> dict[Card, float]:
        """The chance of each card in ``seat``'s hand, over both ways of playing (``floor``: see
        :meth:`Belief.hand_odds`)."""
        wild = self.chance_wild()
        odds: dict[Card, float] = {}
        for belief, weight in ((self.sensible, 1.0 - wild), (self.wild, wild)):
            if weight > 0:
                for card, p in belief.hand_odds(seat, floor).items():
                    odds[card] = odds.get(card, 0.0) + weight * p
        return summing_to_one(odds)

    def all_odds(self) -> dict[int, dict[Card, float]]:
        """:meth:`hand_odds` for every other player still in the round."""
        return {seat: self.hand_odds(seat) for seat in self.sensible.all_odds()}

    def __len__(self) -> int:
        """Hypotheses held (both tables)."""
        return len(self.sensible) + len(self.wild)
