"""The ``loveletter`` command's entry point: it loads the command line (a third of a second on a busy
machine) and runs it. A Ctrl-C while it loads is told in one line, as one later is, not as a
traceback through the modules being loaded."""

from __future__ import annotations

import io
import os
import sys

from loveletter.plain import PLAINLY

COMMANDS = ("check", "play", "replay", "tournament", "serve")  # loveletter's commands (the command line's, a test checks)


def run() -> None:
    """Load the command line and run it (:func:`loveletter.cli.main.run`)."""
    write_any_character()
    read_any_bytes()
    no_zero_size()
    try:
        from loveletter.cli.main import run as run_command
    except KeyboardInterrupt:
        import signal  # (here: the fewer imports before the try, the shorter the time it misses a Ctrl-C)

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C: the line still gets out
        from loveletter.language import default_language, language_named

        tell_command_interrupted(language_named(sys.argv[1:]) or default_language())
        sys.exit(130)
    run_command()


def command_named(args: list[str]) -> str:
    """``loveletter`` and the command among ``args`` (the command line's words), if any: how that
    command's errors begin, for a line told without click's context (a Ctrl-C, a usage error found
    before the command's own options were read)."""
    words = iter(args)
    for word in words:  # the first word that is not one of loveletter's own options (--lang nl)
        if word == "--lang":
            next(words, None)
        elif not word.startswith("--lang="):
            return f"loveletter {word}" if word in COMMANDS else "loveletter"
    return "loveletter"


def write_any_character() -> None:
    """Let standard output and error write what their encoding lacks as a plain stand-in
    (:func:`loveletter.plain.plain`: a card's heart, a Dutch quote mark in a Windows code page, or
    with PYTHONIOENCODING=cp1252) rather than fail with a traceback, after a whole tournament, in the middle of a game. (In the C locale
    without UTF-8 mode Python writes ASCII with "surrogateescape", which fails on "·" just the same;
    standard error's "backslashreplace" wrote "\\xb7" in the tournament's progress.)"""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors in ("strict", "surrogateescape", "backslashreplace"):
            stream.reconfigure(errors=PLAINLY)


def read_any_bytes() -> None:
    """Let standard input read bytes that are not UTF-8 as Python's stand-ins for them (lone
    surrogates, which the game tells as "not text"), as it does in UTF-8 mode: in a UTF-8 locale
    without it, a byte such as 0xff typed at the prompt ended the game with a traceback."""
    if isinstance(sys.stdin, io.TextIOWrapper) and sys.stdin.errors == "strict":
        sys.stdin.reconfigure(errors="surrogateescape")


def no_zero_size() -> None:
    """A terminal size of 0 (``COLUMNS=0``, ``LINES=0``) means "not known" to the shell's tools and
    Python's :func:`shutil.get_terminal_size`, which then ask the terminal; rich took it as a width of
    0, and the terminal game printed nothing at all while it went on (a prompt never shown). Such a
    value is dropped, so that rich asks the terminal too; so is one of digits other than 0-9
    (``COLUMNS=²``), which rich takes for a number and then cannot read."""
    for var in ("COLUMNS", "LINES"):
        value = os.environ.get(var, "")
        if value.isdigit() and (not value.isascii() or int(value) == 0):
            del os.environ[var]


def tell_interrupted(line: str) -> None:
    """Tell a Ctrl-C in one line on standard error, on a line of its own after a terminal's "^C" (in
    a file, just the line). Here, with nothing to load, for the benchmarks too."""
    after_ctrl_c = "\n" if sys.stderr is not None and sys.stderr.isatty() else ""
    print(f"{after_ctrl_c}{line}", file=sys.stderr)


def tell_command_interrupted(language: str, command: str | None = None) -> None:
    """Tell, in ``language``, that a Ctrl-C stopped ``command`` (by default the one named on the
    command line): "loveletter play: interrupted."."""
    from loveletter.i18n import Translator  # (here: start.py loads nothing before the command line)

    tell_interrupted(f"{command or command_named(sys.argv[1:])}: {Translator(language)('cli_interrupted')}")
