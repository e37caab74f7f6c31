"""A long soak over many random rounds: every seat's view and narration at every step.

Slow: run with ``python3 dev.py test -m slow``.
"""

from __future__ import annotations

import random

import pytest

from loveletter.engine import CLASSIC, EDITION_2019, Round, view
from loveletter.i18n import Translator
from loveletter.narrate import narrate_all

GAMES = [(CLASSIC, n) for n in (2, 3, 4)] + [(EDITION_2019, n) for n in (2, 3, 4, 5, 6)]


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "players"), GAMES, ids=[f"{e.name}-{n}p" for e, n in GAMES])
def test_views_and_narration_over_many_rounds(edition, players):
    rng = random.Random(f"soak-{edition.name}-{players}")
    tellers = [Translator("en"), Translator("nl")]
    names = [f"P{i}" for i in range(players)]
    for _ in range(3_000):
        rnd = Round.shuffled(edition, players, rng, starter=rng.randrange(players))
        while not rnd.over:
            for seat in [*range(players), None]:
                v = view(rnd, seat)
                # A seat's view shows no secret of an event it is not privy to (R7).
                for event in v.events:
                    if event.secret and (seat is None or seat not in event.privy):
                        assert all(getattr(event, name) is None for name in event.secret)
                assert v.hand == (tuple(rnd.hands[seat]) if seat is not None else ())
                assert bool(v.legal_actions) == (seat == rnd.current)
            rnd.apply(rng.choice(rnd.legal_actions()))
        for t in tellers:
            assert narrate_all(rnd.log, names, t)
