"""A match: rounds until a player has enough tokens of affection (docs/rules.md R2, R3.5, R6.4).

>>> m = Match(players=3, seed=7)
>>> m.target, m.round.starter, m.tokens
(5, 0, [0, 0, 0])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from loveletter.engine.actions import Action
from loveletter.engine.cards import CLASSIC, Card, Edition, edition_named
from loveletter.engine.errors import check_seed, check_whole
from loveletter.engine.round import Round

#: The most tokens a match the programme sets up may need (a game to play: more would be a game of
#: days). A match itself takes any target from 1, as a record may name one (docs/record.md sets no most).
MAX_TARGET = 99


class Match:
    """A series of rounds between ``players`` seats.

    Each round's deck comes from ``rng`` (seeded by ``seed``), unless given: the first round's as
    ``deck``, a later one's to :meth:`next_round`.
    After a round ends, call :meth:`next_round` to deal the next one (unless :attr:`over`).
    """

    def __init__(
        self,
        edition: Edition | str = CLASSIC,
        players: int = 2,
        *,
        target: int | None = None,
        seed: int | None = None,
        starter: int = 0,
        deck: Sequence[Card | str] | None = None,
        log: bool = True,
    ) -> None:
        # or the edition's name, as records and the command line name it ('classic' was an AttributeError)
        edition = edition_named(edition)
        # (Python would take 2.5 players to a KeyError, a seed of 3.0 as 3 and True as a starter)
        edition.check_players(players)
        for name, value in (("token target", target), ("starter", starter)):
            if value is not None:
                check_whole(f"the {name}", value)
        seed = check_seed(seed)
        players, starter = int(players), int(starter)
        target = int(target) if target is not None else None
        if target is not None and target < 1:
            raise ValueError(f"the token target must be at least 1, not {target}")
        self.edition = edition
        self.players = players
        self.target = target if target is not None else edition.default_target(players)
        self.seed = seed
        self.rng = random.Random(seed)
        self.tokens = [0] * players
        self.rounds: list[Round] = []
        self.winners: tuple[int, ...] = ()
        self._log = log
        self._start_round(starter, deck)

    def clone(self) -> Match:
        """An independent copy (for search): finished rounds are shared, the round being played is
        cloned with its log."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.tokens = self.tokens[:]
        other.rounds = self.rounds[:-1] + [self.round.clone(log=self.round.log is not None)]
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> Match:
        return self.clone()

    @property
    def round(self) -> Round:
        """The round being played (or the last one, once the match is over)."""
        return self.rounds[-1]

    @property
    def over(self) -> bool:
        return bool(self.winners)

    @property
    def current(self) -> int:
        return self.round.current

    def legal_actions(self) -> tuple[Action, ...]:
        return self.round.legal_actions()

    def apply(self, action: Action) -> None:
        """Apply ``action`` in the current round; when the round ends, hand out its tokens."""
        self.round.apply(action)
        if self.round.over:
            self._score(self.round)

    def next_starter(self) -> int:
        """Who starts the next round (R3.5): a winner of the last round, the first of them in turn
        order counting from that round's starter."""
        last = self.round
        for i in range(self.players):
            seat = (last.starter + i) % self.players
            if seat in last.winners:
                return seat
        raise AssertionError("a finished round has a winner")

    def next_round(self, deck: Sequence[Card | str] | None = None) -> Round:
        """Deal the next round (the last one must be over, the match not)."""
        if not self.round.over:
            raise ValueError("the round is still being played")
        if self.over:
            raise ValueError("the match is over")
        return self._start_round(self.next_starter(), deck)

    def _start_round(self, starter: int, deck: Sequence[Card | str] | None) -> Round:
        if deck is None:
            self.rounds.append(Round.shuffled(self.edition, self.players, self.rng, starter, log=self._log))
        else:
            self.rounds.append(Round(self.edition, self.players, deck, starter, log=self._log))
        return self.round

    def _score(self, finished: Round) -> None:
        for seat in finished.winners:  # R2.2
            self.tokens[seat] += 1
        if finished.spy_bonus is not None:  # R6.4
            self.tokens[finished.spy_bonus] += 1
        reached = tuple(s for s in range(self.players) if self.tokens[s] >= self.target)
        if reached:  # R2.4: everyone who reached the target wins together
            self.winners = reached
