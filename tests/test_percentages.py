"""Chances as shown (loveletter.percentages): cases the docstring examples and the terminal's tests
leave open."""

from __future__ import annotations

from loveletter.engine import Card
from loveletter.percentages import shown_margin, shown_percentages


def test_a_margin_of_one_point_is_shown() -> None:
    """``± 1`` shows: a margin is left out only under a point (halves round up)."""
    assert shown_margin("45", 0.01) == 1
    assert shown_margin("45", 0.005) == 1
    assert shown_margin("45", 0.0049) is None


def test_a_certain_card_beside_impossible_ones_shows_100_not_over_99() -> None:
    """Cards with no chance are left out, and so are they when deciding whether a card is certain."""
    assert shown_percentages({Card.PRINCESS: 1.0, Card.GUARD: 0.0, Card.KING: 0.0}) == [(Card.PRINCESS, "100%")]
