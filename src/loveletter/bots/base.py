"""The bot protocol."""

from __future__ import annotations

from typing import Protocol

from loveletter.engine import Action, View


class Bot(Protocol):
    """A player that chooses one of ``view.legal_actions`` from its own seat's view only."""

    level: str

    def choose(self, view: View) -> Action: ...
