"""The command-line options shared by the benchmarks that play lines of single rounds
(strength.py, ceiling.py)."""

from __future__ import annotations

import argparse

from options import MOST_JOBS, whole

from loveletter.tournament import default_jobs
from loveletter.tournament.runner import MAX_GAMES


def add_line_options(parser: argparse.ArgumentParser, rounds: int) -> None:
    """``--rounds`` (default ``rounds``), ``--jobs``, ``--seed`` and ``--only``."""
    parser.add_argument("--rounds", type=whole(1, MAX_GAMES), default=rounds,
                        help=f"single rounds per line (default {rounds})")
    parser.add_argument("--jobs", type=whole(1, MOST_JOBS), default=None, help="processes (default: every core)")
    parser.add_argument("--seed", type=whole(None), default=0, help="seed (default 0)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="play only the lines whose title contains TEXT (repeatable)")


def jobs_of(args: argparse.Namespace) -> int:
    """The number of processes: ``--jobs``, or every core."""
    return int(args.jobs or default_jobs())
