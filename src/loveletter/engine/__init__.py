"""The rules engine (docs/rules.md): pure rules, no I/O, randomness only from a passed-in seed.

>>> from loveletter.engine import Match, Action, view
>>> m = Match(players=2, seed=1)
>>> v = view(m, m.current)
>>> v.hand, v.legal_actions[0].notation()
((<Card.GUARD: 1>, <Card.COUNTESS: 8>), 'guard 1 priest')
>>> m.apply(v.legal_actions[0])
>>> m.current, view(m, 0).hand, view(m, 0).events[-2].result  # the Guard missed: seat 1's turn
(1, (<Card.COUNTESS: 8>,), 'miss')
"""

from loveletter.engine.actions import Action
from loveletter.engine.cards import (
    CARDS,
    CLASSIC,
    EDITION_2019,
    EDITIONS,
    TARGETED,
    Card,
    Edition,
    edition_named,
)
from loveletter.engine.errors import IllegalActionError, NotationError
from loveletter.engine.events import Event
from loveletter.engine.match import MAX_TARGET, Match
from loveletter.engine.round import Phase, Round, legal_plays
from loveletter.engine.view import View, draws_from_under, known_draws, known_hands, standing_ties, view

__all__ = [
    "CARDS", "CLASSIC", "EDITION_2019", "EDITIONS", "TARGETED", "Action", "Card", "Edition", "Event",
    "MAX_TARGET", "IllegalActionError", "Match", "NotationError", "Phase", "Round", "View", "edition_named",
    "draws_from_under", "known_draws", "known_hands", "legal_plays", "standing_ties", "view",
]
