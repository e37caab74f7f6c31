"""The random bot: uniform over the legal actions."""

from __future__ import annotations

from loveletter.bots.base import check_turn, seeded
from loveletter.engine import Action, View


class RandomBot:
    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = seeded(seed)

    def choose(self, view: View) -> Action:
        check_turn(view)
        return self.rng.choice(view.legal_actions)
