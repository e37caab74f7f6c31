"""The random bot: uniform over the legal actions."""

from __future__ import annotations

import random

from loveletter.engine import Action, View


class RandomBot:
    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        return self.rng.choice(view.legal_actions)
