"""The bot levels a command line lists (``--bots``), read the same way by ``play`` and ``tournament``."""

from __future__ import annotations

from loveletter.bots import LEVELS
from loveletter.engine.errors import shown
from loveletter.i18n import Translator


class LevelsRefused(ValueError):
    """A ``--bots`` list that cannot be read; its message is the refusal, in the command's language."""


def read_levels(given: str, t: Translator) -> list[str]:
    """The levels listed in ``given``, separated by commas, in either language ("willekeurig" is
    random), as their codes. Refused (:class:`LevelsRefused`): none at all, an empty one among others
    ("expert,,beginner" is a slip, not two bots: said so rather than guessed), an unknown one (a long
    value quoted cut short)."""
    levels = [t.level_word(word.strip()) for word in given.split(",")]
    if not any(levels):
        raise LevelsRefused(t("tour_err_no_bots", levels=tuple(LEVELS)))
    if "" in levels:
        raise LevelsRefused(t("play_err_bots_empty", given=shown(given), levels=tuple(LEVELS)))
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise LevelsRefused(t("tour_err_unknown_level", level=shown(unknown[0]), levels=tuple(LEVELS)))
    return levels
