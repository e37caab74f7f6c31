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


def test_a_spoken_hint_says_its_bounds_and_margin_in_words():
    """For a screen reader (``play --screen-reader``): "win <1%" read out its "<" as "less", or not at
    all, and "≈" and "±" as symbols' names."""
    from loveletter.bots.expert import Estimate
    from loveletter.i18n import Translator
    from loveletter.percentages import hint_text

    en, nl = Translator("en"), Translator("nl")
    assert hint_text(Estimate(0.002, 0.0), en, spoken=True) == "win less than 1%"
    assert hint_text(Estimate(0.998, 0.0), nl, spoken=True) == "winkans meer dan 99%"
    assert hint_text(Estimate(0.45, 0.05), en, spoken=True) == "win about 45%, give or take 5 points"
    # (the margin's unit named: "give or take 1" said not of what)
    assert hint_text(Estimate(0.45, 0.01), nl, spoken=True) == "winkans ongeveer 45%, plus of min 1 procentpunt"
    assert hint_text(Estimate(0.0, 0.0, sure=True), nl, spoken=True) == "winkans 0%"
    assert (hint_text(Estimate(0.002, 0.0), en), hint_text(Estimate(0.45, 0.05), en)) == ("win <1%", "win ≈ 45% ± 5")
