"""The command-line options shared by the benchmarks that play lines of single rounds
(strength.py, ceiling.py)."""

from __future__ import annotations

import argparse

from loveletter.tournament import default_jobs


def add_line_options(parser: argparse.ArgumentParser, rounds: int) -> None:
    """``--rounds`` (default ``rounds``), ``--jobs``, ``--seed`` and ``--only``."""
    parser.add_argument("--rounds", type=int, default=rounds, help=f"single rounds per line (default {rounds})")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="play only the lines whose title contains TEXT (repeatable)")


def jobs_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The number of processes, after checking ``--rounds`` and ``--jobs`` (a usage error if bad)."""
    if args.rounds < 1 or (args.jobs is not None and args.jobs < 1):
        parser.error("--rounds and --jobs must be at least 1")
    return int(args.jobs or default_jobs())
