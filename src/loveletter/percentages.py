"""How chances are shown to people: whole percentages that stay near their chances and add up to
about 100, for the expert's belief of what each player holds, and one chance alone, for the hints'
estimate of each move (:func:`hint_text`, with the best moves marked: :func:`best_moves`). The
terminal and the browser both show what these give (the page computes no figure of its own)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, TypeVar

from loveletter.engine import Card

if TYPE_CHECKING:
    from loveletter.bots.expert import Estimate
    from loveletter.i18n import Translator

Move = TypeVar("Move", bound=Hashable)

EQUAL_CHANCE = 1e-6  # percentage points: chances closer than this are equal


def shown_chance(chance: float, sure: bool = True) -> str:
    """A chance as a whole percentage, without its sign: ``<1`` for one above 0 that would round to
    0, ``>99`` for one below 1 that would round to 100 (shown as 0 or 100 they would look certain).
    Not ``sure``: an estimate of 0 or 1 is only what was seen in the tries (a hint's
    :class:`~loveletter.bots.expert.Estimate`), ``<1`` and ``>99``.

    >>> shown_chance(0.0025), shown_chance(0), shown_chance(0.4449), shown_chance(0.998), shown_chance(1)
    ('<1', '0', '44', '>99', '100')
    >>> shown_chance(0, sure=False), shown_chance(1, sure=False), shown_chance(0.5, sure=False)
    ('<1', '>99', '50')

    Halves round up (Python's ``round`` takes them to the even number: 10 wins in 400 tries showed 2%
    in the terminal and 3% in the browser, when the browser rounded its own):
    >>> shown_chance(10 / 400), shown_chance(2 / 400), shown_chance(50 / 400)
    ('3', '1', '13')
    """
    n = math.floor(100 * chance + 0.5)
    if n == 0 and (chance > 0 or not sure):
        return "<1"
    if n == 100 and (chance < 1 or not sure):
        return ">99"
    return str(n)


def is_estimate(shown: str) -> bool:
    """Whether a figure of :func:`shown_chance` is an estimate between 0 and 100 (shown with "≈" and
    its margin), not a bound (``<1``, ``>99``) nor a certain 0 or 100.

    >>> is_estimate("45"), is_estimate("<1"), is_estimate("100")
    (True, False, False)
    """
    return shown.isdigit() and shown not in ("0", "100")


def shown_margin(shown: str, margin: float) -> int | None:
    """Half a hint's 95% interval in whole points, where it is shown (``± m``): beside a figure of
    :func:`shown_chance` (``shown``) between 0 and 100, once it is a point or more. Not beside ``<1``
    or ``>99``, whose bound says how near the chance is, nor beside a certain 0 or 100. Halves round up.

    >>> shown_margin("45", 0.05), shown_margin("45", 0.004), shown_margin("45", 0.025)
    (5, None, 3)
    >>> shown_margin("<1", 0.03), shown_margin(">99", 0.03), shown_margin("100", 0)
    (None, None, None)
    """
    if not is_estimate(shown):
        return None
    points = math.floor(100 * margin + 0.5)
    return points if points >= 1 else None


def hint_text(estimate: Estimate, t: Translator, spoken: bool = False) -> str:
    """A hint in words: ``win ≈ 45% ± 5``, the chance and half its 95% interval (when that shows);
    ``win <1%`` and ``win >99%`` for a chance that would show as certain (:func:`shown_chance`);
    ``win 0%`` and ``win 100%``, without the ``≈``, for a certain one. ``spoken``: for a screen
    reader, without symbols (``win about 45%, give or take 5 points``)."""
    said = "sr_" if spoken else ""
    p = shown_chance(estimate.chance, estimate.sure)
    if spoken and p[0] in "<>":  # ("<" read out as "less", or not at all)
        return t("sr_hint_win_below" if p[0] == "<" else "sr_hint_win_above", p=p[1:])
    if not is_estimate(p):  # the bound says how near; a certain figure needs no margin
        return t(f"{said}hint_win_plain", p=p)
    m = shown_margin(p, estimate.margin)
    if m is None:
        return t(f"{said}hint_win", p=p)
    # (spoken, the margin's unit named: "give or take 1" said not of what)
    return t(f"{said}hint_win_margin{'_one' if spoken and m == 1 else ''}", p=p, m=m)


def best_moves(odds: Mapping[Move, Estimate]) -> set[Move]:
    """The moves marked best among hints: those whose figure shows highest (``<1%`` above 0%,
    ``>99%`` below 100%), and none where every move shows the same figure.

    >>> from loveletter.bots.expert import Estimate
    >>> sorted(best_moves({"a": Estimate(0.4449, 0.0), "b": Estimate(0.44, 0.0), "c": Estimate(0.3, 0.0)}))
    ['a', 'b']
    >>> best_moves({"a": Estimate(0.3, 0.0), "b": Estimate(0.3, 0.0)})
    set()
    >>> best_moves({"a": Estimate(0.0, 0.0, sure=True), "b": Estimate(0.002, 0.0)})
    {'b'}
    >>> best_moves({"a": Estimate(1.0, 0.0, sure=True), "b": Estimate(0.998, 0.0)})
    {'a'}
    """
    shown = {move: _chance_order(shown_chance(e.chance, e.sure)) for move, e in odds.items()}
    if len(set(shown.values())) < 2:
        return set()
    top = max(shown.values())
    return {move for move, figure in shown.items() if figure == top}


def _chance_order(shown: str) -> float:
    """Where a figure of :func:`shown_chance` stands among the others (``<1`` above 0, below 1)."""
    return 0.5 if shown == "<1" else 99.5 if shown == ">99" else float(shown)


def spoken_percentage(shown: str, t: Translator) -> str:
    """A card's chance as :func:`shown_percentages` shows it, for a screen reader: ``>99%`` in words
    ("more than 99%": the sign is left out, and "99 percent" is not what is meant)."""
    return t("sr_chance_above", p=shown[1:-1]) if shown.startswith(">") else shown


def shown_percentages(odds: Mapping[Card, float]) -> list[tuple[Card, str]]:
    """The possible cards, likeliest first (those shown alike in card order), each with its chance as
    shown: a whole percentage, the exact one rounded down or up, so that the figures are near their
    chances and their total near 100 (:func:`_rounded`). Equal chances always show equal, and a
    likelier card never less than a less likely one. Rounding each to the nearest alone could show
    102% in all, and making the total 100 at any price could show 1% for a card at 0.001% beside
    three at a third; three cards at a third show 33% each (99%), six at a sixth 17% (102%). A card
    that is possible but gets nothing shows ``<1%`` (left out or shown as 0%, it would look
    impossible), and one that gets everything while others are possible ``>99%``."""
    ranked = sorted(((card, p) for card, p in odds.items() if p > 0), key=lambda item: -item[1])
    total = sum(p for _, p in ranked)
    # Cards whose chances differ only by float rounding are one group: they are shown alike.
    groups: list[list[Card]] = []
    exact: list[float] = []
    for card, p in ranked:
        x = 100 * p / total
        if groups and exact[-1] - x < EQUAL_CHANCE:
            groups[-1].append(card)
        else:
            groups.append([card])
            exact.append(x)
    whole = [math.floor(x) for x in exact]
    shown = _rounded(exact, whole, [len(group) for group in groups])
    sure = len(ranked) == 1  # 100% only for a certain card: a likely one beside possible others is ">99%"
    # cards shown alike come in card order, so each opponent's line reads the same way
    figures = sorted(((n, card) for group, n in zip(groups, shown, strict=True) for card in group),
                     key=lambda item: (-item[0], item[1]))
    return [(card, "<1%" if not n else ">99%" if n == 100 and not sure else f"{n}%") for n, card in figures]


def _rounded(exact: list[float], whole: list[int], sizes: list[int]) -> list[int]:
    """Each group's figure, ``whole`` (its ``exact`` chance rounded down, likeliest first) or one
    more: the choice with the least error, counting each card's distance from its chance and half
    the total's distance from 100 (so a card moves away from its nearest whole number only where
    that brings the total nearer 100 by more than twice the distance it adds to the card), then the
    likelier groups raised.
    Groups rounded down alike form runs; as a likelier group never shows less than a less likely
    one, a run raises a first part of itself, so there are few choices to try."""
    runs: list[list[int]] = []
    for i, w in enumerate(whole):
        if runs and whole[runs[-1][0]] == w:
            runs[-1].append(i)
        else:
            runs.append([i])
    # in each run, how many of its first groups rise (never one whose chance is a whole number)
    choices = [range(sum(exact[i] > whole[i] for i in run) + 1) for run in runs]
    best: tuple[float, list[int]] | None = None
    for counts in itertools.product(*choices):
        shown = list(whole)
        for run, k in zip(runs, counts, strict=True):
            for i in run[:k]:
                shown[i] += 1
        off = abs(sum(n * k for n, k in zip(shown, sizes, strict=True)) - 100)
        error = round(sum(abs(n - x) * k for n, x, k in zip(shown, exact, sizes, strict=True)) + off / 2, 9)
        key = (error, [-n for n in shown])
        if best is None or key < best:
            best = key
    assert best is not None
    return [-n for n in best[1]]
