"""Checked number types for the benchmarks' options: a bad value is a one-line usage error
(``argument --rounds: must be at least 1, not 0``), never a traceback, a hang or a figure made of
nothing."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterable


def whole(low: int) -> Callable[[str], int]:
    """A whole number of at least ``low``."""

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if number < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {number}")
        return number

    return parse


def seconds(zero: bool = False) -> Callable[[str], float]:
    """A finite number of seconds above 0 (``zero``: or 0)."""

    def parse(text: str) -> float:
        try:
            number = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not math.isfinite(number) or number < 0 or (number == 0 and not zero):
            raise argparse.ArgumentTypeError(f"must be a finite number {'of at least 0' if zero else 'above 0'},"
                                             f" not {text}")
        return number

    return parse


def check_only(parser: argparse.ArgumentParser, only: Iterable[str], titles: Iterable[str]) -> None:
    """Refuse an ``--only`` text that names none of the ``titles`` (it would print figures for nothing)."""
    titles = list(titles)
    for text in only:
        if not any(text in title for title in titles):
            parser.error(f"--only {text!r} matches none of: {'; '.join(titles)}")
