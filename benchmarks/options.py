"""What the benchmarks' command lines share: checked number types, so that a bad value is a one-line
usage error (``strength.py: argument --rounds: must be at least 1, not 0``), never a traceback, a hang
or a figure made of nothing; a parser whose errors are that one line; and :func:`run`, which tells a
Ctrl-C, or figures that cannot be written (a full disk), in one line too."""

from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing
import multiprocessing.pool
import os
import re
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import FrameType
from typing import NoReturn, TextIO, cast

from loveletter.cli.start import tell_interrupted  # (light: loaded before the handler below is set)


def _interrupted_while_loading(signum: int, frame: FrameType | None) -> None:
    """A Ctrl-C before :func:`run` starts, while the modules load (up to seconds): one line too."""
    tell_interrupted(f"{os.path.basename(sys.argv[0])}: interrupted")
    raise SystemExit(130)


if (os.path.dirname(os.path.abspath(sys.argv[0])) == os.path.dirname(os.path.abspath(__file__))
        and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN):  # (ignored: a worker of quiet_pool)
    # a benchmark script run (not the tests, not its worker processes, which ignore Ctrl-C): from
    # before loading the game's modules, the slow part
    signal.signal(signal.SIGINT, _interrupted_while_loading)

from loveletter.i18n import on_one_line  # noqa: E402
from loveletter.tournament.runner import CHUNKS, ctrl_c_ignored, stops_heard_as_ctrl_c  # noqa: E402

#: The most processes a benchmark starts: as many as the tournament runner's chunks of work.
MOST_JOBS = CHUNKS


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on standard error (argparse prints its whole usage
    first), naming the script and where to find its options."""

    def error(self, message: str) -> NoReturn:
        # on one line: argparse names an unrecognised argument as typed, a newline or an escape too
        self.exit(2, f"{self.prog}: {on_one_line(message)} (see {self.prog} --help)\n")


class FiguresLost(Exception):
    """Standard output could not be written (a full disk, a device error): not an OSError, which
    argparse would swallow while it writes the help, and which :func:`run` could not tell apart from a
    benchmark's own (load.py's connections)."""


@contextlib.contextmanager
def _lost_if_unwritten() -> Iterator[None]:
    """A failed write of standard output as :class:`FiguresLost` (a reader gone away stays a
    BrokenPipeError, which ends a benchmark quietly)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as err:
        raise FiguresLost(err.strerror or str(err)) from None


class _Output:
    """Standard output, whose failed writes raise :class:`FiguresLost`."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        with _lost_if_unwritten():
            return self.stream.write(text)

    def flush(self) -> None:
        with _lost_if_unwritten():
            self.stream.flush()

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


def run(main: Callable[[], None]) -> None:
    """Run a benchmark's ``main``: Ctrl-C stops it with one line, status 130 (not a traceback from
    wherever it was), and so do a hang-up and SIGTERM (which ended it alone, with no word, and left
    the workers of its own pool playing: :func:`quiet_pool`); a reader that stops reading (``| head``)
    ends it quietly, and standard output that cannot be written (a full disk) is one line, status 1."""
    name = os.path.basename(sys.argv[0])
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # (ignored: a script's & job, not for the terminal's Ctrl-C)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a Ctrl-C is a KeyboardInterrupt again
    if sys.stdout is None:  # started with standard output closed (>&-): the figures would be lost
        print(f"{name}: standard output is closed: the figures would go nowhere", file=sys.stderr)
        raise SystemExit(2)
    stdout = sys.stdout
    sys.stdout = cast(TextIO, _Output(stdout))
    try:
        try:
            with stops_heard_as_ctrl_c():
                main()
        finally:  # here, not at exit, where a failed write is lost (--help too, which ends in SystemExit)
            sys.stdout.flush()
    except KeyboardInterrupt:
        tell_interrupted(f"{name}: interrupted")
        raise SystemExit(130) from None
    except (BrokenPipeError, FiguresLost) as err:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())  # no second error at exit
        if isinstance(err, BrokenPipeError):
            raise SystemExit(0) from None
        print(f"{name}: cannot write the figures: {err}", file=sys.stderr)
        raise SystemExit(1) from None
    finally:
        sys.stdout = stdout


def quiet_pool(processes: int) -> multiprocessing.pool.Pool:
    """A pool of ``processes`` worker processes (spawned: a clean interpreter each) that ignore
    Ctrl-C: a terminal's Ctrl-C reaches every process of its group, and only the benchmark itself
    answers it, in one line (:func:`run`); leaving its ``with`` block, the pool stops its workers."""
    with ctrl_c_ignored():  # the workers inherit it as they start, and Python then leaves it so
        return multiprocessing.get_context("spawn").Pool(processes)


def percentile(ordered: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of ``ordered`` (sorted, not empty): the least value with at least
    ``share`` of them at or below it (the 90th of ten times is the ninth, not the longest)."""
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def count(n: int, one: str, many: str | None = None) -> str:
    """``1 round``, ``2,000 rounds`` (``many``: the plural, if not ``one`` + s)."""
    return f"{n:,} {one}" if n == 1 else f"{n:,} {many or one + 's'}"


def processes(n: int) -> str:
    """``1 process``, ``2 processes``."""
    return count(n, "process", "processes")


def description(doc: str | None) -> str:
    """The ``--help`` description: a script's docstring's first paragraph, whole (its first line
    may stop mid-sentence), without the reST markup (``code``, :class:`~name`) argparse shows as is."""
    first = " ".join((doc or "").split("\n\n", 1)[0].split())
    return re.sub(r":\w+:`~?([^`]*)`", r"\1", first).replace("``", "")


def whole(low: int | None, high: int | None = None) -> Callable[[str], int]:
    """A whole number of at least ``low`` (any, if ``None``; at most ``high``, if given)."""

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if low is not None and number < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {number}")
        if high is not None and number > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}, not {number:,}")
        return number

    return parse


def seconds(zero: bool = False, most: float | None = None) -> Callable[[str], float]:
    """A finite number of seconds above 0 (``zero``: or 0), and at most ``most`` if given."""

    def parse(text: str) -> float:
        try:
            number = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        text = text.strip()  # (float() reads " 5\n" as 5: the refusal names the number alone, on one line)
        if not math.isfinite(number) or number < 0 or (number == 0 and not zero):
            raise argparse.ArgumentTypeError(f"must be a finite number {'of at least 0' if zero else 'above 0'},"
                                             f" not {text}")
        if most is not None and number > most:
            raise argparse.ArgumentTypeError(f"must be at most {most:g}, not {text}")
        return number

    return parse


def add_game_options(parser: argparse.ArgumentParser, example: str) -> None:
    """``--seed`` (of the deals and bots) and ``--only`` (the games by name, ``example`` one), as the
    benchmarks that play named games take them; :func:`check_only` checks the texts."""
    parser.add_argument("--seed", type=whole(None), default=0, help="seed of the deals and bots (default 0)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help=f"only the games whose name contains TEXT, e.g. {example!r} (repeatable)")


def wanted(title: str, only: Iterable[str]) -> bool:
    """Whether the ``--only`` texts keep the line ``title``: there are none, or it contains one."""
    texts = list(only)
    return not texts or any(text in title for text in texts)


def check_only(parser: argparse.ArgumentParser, only: Iterable[str], titles: Iterable[str]) -> None:
    """Refuse an ``--only`` text that names none of the ``titles`` (it would print figures for nothing)."""
    titles = list(titles)
    for text in only:
        if not text:  # in every title: a mistake (an unset shell variable), not a choice
            parser.error("argument --only: an empty text would match every line")
        if not any(text in title for title in titles):
            parser.error(f"--only {text!r} matches none of: {'; '.join(titles)}")
