"""The single rounds played by the benchmarks that follow one bot through them (calibration.py,
close_calls.py): that bot's seat and the starter going round the table, the deal and every bot's
seed drawn from the run's seed and the round's number."""

from __future__ import annotations

import random

from loveletter.bots import Bot, make_bot
from loveletter.engine import CLASSIC, Round


def round_with(level: str, others: str, players: int, r: int, seed: int,
               budget: int | None = None) -> tuple[int, Round, list[Bot]]:
    """Round ``r`` (classic, ``players`` seats, its events logged) of a run seeded ``seed``: the seat
    of the bot of ``level`` (round ``r`` modulo ``players``, the starter moving on one seat every
    ``players`` rounds), the round dealt, and one bot per seat (``others`` elsewhere, with ``budget``)."""
    seat = r % players
    rnd = Round.shuffled(CLASSIC, players, random.Random(seed * 1_000_003 + r), starter=(r // players) % players,
                         log=True)
    bots = [make_bot(level if s == seat else others, seed * 1_000_003 + r * 10 + s, budget) for s in range(players)]
    return seat, rnd, bots
