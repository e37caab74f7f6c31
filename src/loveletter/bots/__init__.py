"""Bots: one protocol, ``choose(view) -> action``, and the players.

A bot sees only the :class:`~loveletter.engine.View` of its own seat (docs/rules.md R7).

>>> from loveletter.engine import Match, view
>>> bot = make_bot("beginner", seed=1)
>>> m = Match(players=2, seed=4)
>>> bot.choose(view(m, m.current)) in m.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeGuard

from loveletter.bots.base import Bot
from loveletter.bots.expert import MAX_BUDGET, ExpertBot, check_budget
from loveletter.bots.random_bot import RandomBot
from loveletter.bots.rule_based import RuleBasedBot
from loveletter.engine import Action, View

#: The levels, weakest first: each makes a bot from a seed and a thinking budget (iterations; only
#: the levels that search use it).
LEVELS: dict[str, Callable[[int | None, int | None], Bot]] = {
    "random": lambda seed, budget: RandomBot(seed),
    "beginner": lambda seed, budget: RuleBasedBot(seed),
    "expert": lambda seed, budget: ExpertBot(seed, budget),
}
#: The levels that search, and so use a thinking budget.
SEARCHING = frozenset({"expert"})


def choose_in_sight(bot: Bot, view: View) -> Action:
    """``bot``'s choice where people see how long it takes: a searching bot searches even when it
    has one legal move. It would answer at once, and the moment of its move would tell that its
    cards left it no choice (R7: two Handmaids; a Countess beside a King or Prince)."""
    if len(view.legal_actions) == 1 and isinstance(bot, ExpertBot):
        bot.search(view)
        return view.legal_actions[0]
    return bot.choose(view)


def keeps_a_reading(bot: Bot) -> TypeGuard[ExpertBot]:
    """Whether ``bot`` keeps what it read of a match from one decision to the next (an expert: how far
    the others play at random, carried from round to round). One made anew for a match under way
    should first :meth:`~loveletter.bots.ExpertBot.catch_up`."""
    return isinstance(bot, ExpertBot)


def make_bot(level: str, seed: int | None = None, budget: int | None = None) -> Bot:
    """A bot of ``level`` (see :data:`LEVELS`); ``seed`` (a whole number) fixes its choices, ``budget``
    is the thinking budget of a searching bot in iterations (``None``: its default). A level that
    does not search takes a budget and does nothing with it (one budget serves a table of mixed
    levels), but a budget no level could take is refused whatever the level."""
    if not isinstance(level, str) or level not in LEVELS:  # (a list failed as "unhashable type")
        raise ValueError(f"unknown bot level {level!r}: choose {', '.join(LEVELS)}")
    check_budget(budget)
    return LEVELS[level](seed, budget)


__all__ = ["LEVELS", "MAX_BUDGET", "SEARCHING", "Bot", "ExpertBot", "RandomBot", "RuleBasedBot",
           "choose_in_sight", "keeps_a_reading", "make_bot"]
