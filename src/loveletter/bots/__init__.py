"""Bots: one protocol, ``choose(view) -> action``, and the players.

A bot sees only the :class:`~loveletter.engine.View` of its own seat (RULES.md R7).

>>> from loveletter.engine import Match, view
>>> bot = make_bot("beginner", seed=1)
>>> m = Match(players=2, seed=4)
>>> bot.choose(view(m, m.current)) in m.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable

from loveletter.bots.base import Bot
from loveletter.bots.random_bot import RandomBot
from loveletter.bots.rule_based import RuleBasedBot

LEVELS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "beginner": RuleBasedBot,
}


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot of ``level`` (see :data:`LEVELS`); ``seed`` fixes its choices."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}: choose {', '.join(LEVELS)}") from None
    return factory(seed)


__all__ = ["LEVELS", "Bot", "RandomBot", "RuleBasedBot", "make_bot"]
