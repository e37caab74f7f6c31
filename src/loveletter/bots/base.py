"""The bot protocol, and what every bot checks of its seed and of the view it is asked to choose in."""

from __future__ import annotations

import random
from typing import Protocol

from loveletter.engine import Action, View
from loveletter.engine.errors import is_whole


class Bot(Protocol):
    """A player that chooses one of ``view.legal_actions`` from its own seat's view only."""

    level: str

    def choose(self, view: View) -> Action: ...


def seeded(seed: int | None) -> random.Random:
    """A bot's random numbers from ``seed`` (``None``: unseeded): a whole number, numpy's too. Python's
    generator would take 3.0 as 3, True as 1, text by its hash, and -5 as 5. So a negative seed is
    read apart from its positive one; a seed from 0 is read as Python reads it, so the bots of every
    such seed choose as they always did."""
    if seed is None:
        return random.Random()
    if not is_whole(seed):
        raise TypeError(f"a bot's seed must be a whole number (or None), not {seed!r}")
    seed = int(seed)
    return random.Random(seed if seed >= 0 else f"negative seed {seed}")


def check_turn(view: View) -> None:
    """Refuse, in words, a view a bot cannot choose in: a spectator's, or one with no legal move for
    its seat (not its turn, or the round over). The expert made up a move there, the others failed
    with Python's own errors ("max() arg is an empty sequence")."""
    if view.seat is None:
        raise ValueError("a bot chooses for a seat, not in a spectator's view")
    if not view.legal_actions:
        raise ValueError(f"seat {view.seat} has no move to choose in this view (not its turn, or the round is over)")
