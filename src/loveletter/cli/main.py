"""The ``loveletter`` command: ``serve``, ``play``, ``replay``, ``tournament``.

Errors a user can make (a wrong flag, a missing or malformed file) end in one line on standard
error and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from loveletter import __version__
from loveletter.bots import LEVELS, MAX_BUDGET, SEARCHING
from loveletter.bots.expert import DEFAULT_ITERATIONS, HINT_TRIES
from loveletter.cli import numbers
from loveletter.cli.click_dutch import speak_dutch
from loveletter.cli.levels import LevelsRefused, read_levels
from loveletter.cli.numbers import DASH, Addresses, Amount, Filled, GivenPath, OneOf, Players, Whole
from loveletter.cli.start import command_named, tell_command_interrupted
from loveletter.engine import EDITIONS, MAX_TARGET
from loveletter.engine.errors import shown
from loveletter.i18n import LANGUAGES, Translator, grouped, on_one_line
from loveletter.language import default_language, language_named
from loveletter.narrate import MAX_NAME, name_length, name_too_long, not_text, one_line, visible
from loveletter.record import RecordError, load, parse, read_at_most, replay, summary
from loveletter.tournament.games import DEFAULT_ROUNDS
from loveletter.tournament.runner import MAX_GAMES

_LOCALE = Translator(default_language())
_language = default_language()  # the language of this run: --lang (anywhere on the line) or the locale
_HELP_KEYS: dict[str, tuple[str, dict[str, object]]] = {}  # each help text: its key and parameters


def _t(key: str, **params: object) -> str:
    """A help text in the locale's language (remembered, so that ``--lang`` can reword it)."""
    text = _LOCALE(key, **params)
    _HELP_KEYS[text] = (key, params)
    return text


class Refused(click.UsageError):
    """An option that cannot be used, worded in the user's language."""

    def __init__(self, message: str, language: str) -> None:
        super().__init__(message)
        self.language = language


def _echo(text: str, err: bool = False) -> None:
    """``click.echo`` to the standard stream itself, which writes what its encoding lacks plainly
    (:func:`loveletter.cli.start.write_any_character`): click's own stream, for one whose encoding
    is ASCII (``PYTHONIOENCODING=ascii``), writes UTF-8, shown garbled ("één" as "Ã©Ã©n")."""
    click.echo(text, file=sys.stderr if err else sys.stdout)


def _show_help(ctx: click.Context, _param: click.Parameter, asked: bool) -> None:
    """``--help``, written as :func:`_echo` writes (click's own callback writes as click.echo does)."""
    if asked and not ctx.resilient_parsing:
        _echo(ctx.get_help())
        ctx.exit()


class _Command(click.Command):
    """A command whose help page is written as :func:`_echo` writes, and whose arguments too many are
    told by the first and their number (click named them all: ``replay games/*.json`` wrote a "line"
    of 115,000 characters, the names of 5,000 files)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        allowed, ctx.allow_extra_args = ctx.allow_extra_args, True
        try:
            rest = super().parse_args(ctx, args)
        finally:
            ctx.allow_extra_args = allowed
        if ctx.args and not allowed and not ctx.resilient_parsing:
            t, first = Translator(_language), repr(shown(ctx.args[0]))
            said = (t("cli_extra_argument", first=first) if len(ctx.args) == 1
                    else t("cli_extra_arguments", n=grouped(len(ctx.args)), first=first))
            ctx.fail(said + (f" {t('cli_replay_one')}" if self.name == "replay" else ""))
        return rest

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)
        if option is not None:
            option.callback = _show_help
        return option


class _Commands(_Command, click.Group):
    """The commands, a Ctrl-C in any of them told in one line (:func:`_main`): click would first
    write an empty line to standard error, into a file too."""

    command_class = _Command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise click.Abort from None


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]},
             options_metavar=_t("meta_options"), subcommand_metavar=_t("meta_command"), invoke_without_command=True)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, help=_t("opt_version"),
              callback=lambda ctx, _, shown: _show_version(ctx) if shown else None)
@click.option("--lang", type=OneOf(LANGUAGES), default=None, expose_value=False, help=_t("opt_lang"))
@click.pass_context
def cli(ctx: click.Context) -> None:
    if ctx.invoked_subcommand is None:  # nothing, or only ``--lang nl``: the help, in that language
        _echo(ctx.get_help())


cli.help = _t("cli_main")


def _show_version(ctx: click.Context) -> None:
    """``--version``, in the language of this run (known only once the command line is read)."""
    if not ctx.resilient_parsing:
        _echo(Translator(_language)("cli_version") % {"prog": "loveletter", "version": __version__})
        ctx.exit()


@cli.command(help=_t("cli_play"), options_metavar=_t("meta_options"))
@click.option("--edition", type=OneOf(sorted(EDITIONS)), default="classic", show_default=True,
              help=_t("opt_edition"))
@click.option("--players", type=Players(), default=None, metavar="N", help=_t("opt_players"))
@click.option("--bots", default="beginner", show_default=True, metavar=_t("meta_levels"),
              help=_t("opt_bots", levels=tuple(LEVELS)))
@click.option("--lang", type=OneOf(LANGUAGES), default=None,
              help=_t("opt_lang"))
@click.option("--seed", type=Whole(0), default=None, metavar="S", help=_t("opt_seed"))  # (-5 dealt as 5)
@click.option("--target", type=Whole(1, MAX_TARGET), default=None, metavar=_t("meta_tokens"),
              help=_t("opt_target"))
@click.option("--name", default=None, metavar=_t("meta_name"), help=_t("opt_name"))
@click.option("--records", type=GivenPath(file_okay=False, path_type=Path, dash=True), default=None,
              metavar=_t("meta_folder"), help=_t("opt_records"))
@click.option("--delay", type=Amount(0, 10), default=None, metavar=_t("meta_seconds"), help=_t("opt_delay"))
@click.option("--starter", default="random", show_default=True, metavar=_t("meta_seat"), help=_t("opt_starter"))
@click.option("--hints", is_flag=True, help=_t("opt_hints"))
@click.option("--screen-reader", is_flag=True, help=_t("opt_screen_reader"))
@click.option("--budget", type=Whole(1, MAX_BUDGET), default=None, metavar="N",
              help=_t("opt_budget", tries=HINT_TRIES, default=grouped(DEFAULT_ITERATIONS)))
def play(edition: str, players: int | None, bots: str, lang: str | None, seed: int | None, target: int | None,
         name: str | None, records: Path | None, delay: float | None, starter: str, hints: bool,
         screen_reader: bool, budget: int | None) -> None:
    from loveletter.tui.game import GameSettings, run_game

    language = lang or _language
    t = Translator(language)

    def refuse(key: str, **params: object) -> NoReturn:
        raise Refused(t(key, **params), language)

    if records is DASH:  # (as the tournament: a folder named "-" is given as ./-)
        refuse("cli_err_dash_records")
    if sys.stdin is None:  # started with standard input closed (<&-): no move could be read
        refuse("play_err_stdin_closed")
    if sys.stdout is None:  # started with standard output closed (>&-): the table could not be shown
        refuse("cli_err_output", reason=t("cli_stdout_closed"))
    try:
        levels = read_levels(bots, t)
    except LevelsRefused as refusal:
        raise Refused(str(refusal), language) from None
    ed = EDITIONS[edition]
    if players is None:  # one seat per level listed, and one for you
        players = len(levels) + 1 if len(levels) > 1 else 2
        if players > ed.max_players:
            refuse("play_err_bots_players", count=len(levels), players=players,
                   edition=t.edition(edition), low=ed.min_players, high=ed.max_players)
    if not ed.min_players <= players <= ed.max_players:
        refuse("tour_err_players", edition=t.edition(edition), low=ed.min_players,
               high=ed.max_players, players=players)
    if budget is not None and not hints and not SEARCHING & set(levels):
        # a budget nothing uses would be silently ignored: refuse it, as the tournament does
        refuse("play_err_budget_unused", searching=tuple(sorted(SEARCHING)))
    if len(levels) == 1:
        levels *= players - 1
    if len(levels) != players - 1:
        refuse("play_err_bot_count", players=players, need=players - 1, count=len(levels))
    if name is not None:  # (the table and the record show it whole)
        as_shown = one_line(name)
        broken = name_too_long(as_shown)
        if not_text(name):
            refuse("play_err_name_bytes")
        elif not visible(as_shown):  # ("" or a zero-width space alone: called "Player" without a word)
            refuse("play_err_name_empty", default=t("player"))
        elif broken == "long":
            refuse("play_err_name_long", most=MAX_NAME, length=name_length(as_shown))
        elif broken == "marks":
            refuse("play_err_name_marks")
    first: int | None = None
    starter = starter.strip(" \t")  # (" 1", " random": the spaces around it taken off, as --target takes them off)
    if t.level_word(starter) != "random":  # ("willekeurig" too, and in any case, as --bots reads it)
        seat = starter.removeprefix("+")
        # (5,000 digits: no int Python reads, and no seat)
        if not (seat.isascii() and seat.isdigit()) or len(seat) > 9 or int(seat) >= players:
            refuse("play_err_starter", last=players - 1)
        first = int(seat)
    settings = GameSettings(edition=ed, players=players, bots=levels, language=language,
                            seed=seed, target=target, name=name, records=records,
                            delay=delay if delay is not None else (0.6 if sys.stdout.isatty() else 0.0),
                            starter=first, budget=budget, hints=hints, screen_reader=screen_reader)
    sys.exit(run_game(settings))


@cli.command("replay", help=_t("cli_replay"), options_metavar=_t("meta_options"))
@click.argument("file", type=GivenPath(dir_okay=True, allow_dash=True, readable=False, names="file"),  # (unreadable: told by load)
                metavar=_t("meta_file"))
@click.option("--json", "as_json", is_flag=True, help=_t("opt_json"))
@click.option("--lang", type=OneOf(LANGUAGES), default=None, help=_t("opt_replay_lang"))
def replay_command(file: str, as_json: bool, lang: str | None) -> None:
    t = Translator(lang or _language)
    _refuse_closed_output("replay", t)  # (the replay would be lost)
    try:
        # "-": the record comes on standard input (loveletter replay - < game.json); "./-" is a file
        replayed = replay(parse(_standard_input(t), t("rec_stdin")) if file == "-" else load(file))
    except RecordError as err:  # the place first, as RECORD.md has it ("round 2, turn 5: ..."), no command name
        _echo(t.record_error(err), err=True)
        sys.exit(1)
    from loveletter.tui.replay import MAX_STORY, tell, wrapped

    story: list[str] = []
    told = 0
    if not as_json:
        for line in tell(replayed, t):  # (all told first: nothing is written of a story refused)
            told += len(line) + 1
            if told > MAX_STORY:
                _echo(f"loveletter replay: {t('replay_too_long', most=MAX_STORY // 1_000_000)}", err=True)
                sys.exit(1)
            story.append(line)
        # on a terminal, broken between words as it is written; to a file or pipe, a line an event
        lines = wrapped(story, shutil.get_terminal_size().columns) if sys.stdout.isatty() else story
    # (a misspelt field, say, is not taken without a word; said once the replay will be written)
    left_out = t.ignored_fields(replayed.ignored)
    if left_out:
        _echo(left_out, err=True)
    for line in [json.dumps(summary(replayed))] if as_json else lines:
        _echo(line)


@cli.command("check", help=_t("cli_check"), options_metavar=_t("meta_options"))
# (a path that is not there, or cannot be read, is told per file, as a record refused: one vanished from
# `check archive/*.json` checked nothing at all)
@click.argument("paths", nargs=-1, required=True, metavar=_t("meta_paths"), type=GivenPath(readable=False))
@click.option("--lang", type=OneOf(LANGUAGES), default=None, help=_t("opt_check_lang"))
def check_command(paths: tuple[str, ...], lang: str | None) -> None:
    """Check many records at once (an archive of a club's games, a tournament's ``--records``): each
    refused one on a line of its own, its file named, then how many were checked. ``replay`` in a
    shell's loop took a quarter of a second a record, and its refusals of a turn named no file."""
    t = Translator(lang or _language)
    _refuse_closed_output("check", t)  # (what it found would be lost, and its status say all was well)
    named = [Path(path) for path in paths]  # (in order: the files are checked so)
    given = set(named)
    # each record once, where it was named first: a file named twice, or with its folder, was counted
    # twice ("8 records checked" of a folder of 4 named twice)
    first_named: dict[str, Path] = {}
    for path in named:
        for file in records_in(path):
            first_named.setdefault(os.path.realpath(file), file)
    files = list(first_named.values())
    if not files:
        _echo(f"loveletter check: {t('check_none', paths=', '.join(on_one_line(p) for p in paths))}", err=True)
        sys.exit(1)
    refused = 0
    for file in files:
        name = on_one_line(str(file))
        try:
            # a folder's pipe or device (see records_in; one named is read, as cat reads it: <(...))
            if file not in given and not file.is_file() and file.exists():
                raise RecordError("rec_not_a_file", path=name)
            left_out = t.ignored_fields(replay(load(file)).ignored)
            if left_out:  # sound, but a misspelt field is not passed over without a word (as replay says it)
                _echo(f"{name}: {left_out}")
        except RecordError as err:
            refused += 1
            said = t.record_error(err)
            # (a refusal of the file itself names it already: "game.json is not valid JSON ...")
            _echo(said if "path" in err.params else f"{name}: {said}")
    key = ("check_one_" if len(files) == 1 else "check_") + ("refused" if refused else "all_sound")
    _echo(t(key, n=grouped(len(files)), sound=grouped(len(files) - refused), refused=grouped(refused)))
    sys.exit(1 if refused else 0)


def records_in(path: Path) -> list[Path]:
    """The record files ``path`` names: itself, or a folder's ``*.json`` files, in its folders too, in
    order of their names (a file named is checked whatever its name; a link among them to nothing, a
    pipe or a device is checked, and so refused, rather than passed over without a word)."""
    if not path.is_dir():
        return [path]
    return sorted(file for file in path.rglob("*.json") if not file.is_dir())


def _refuse_closed_output(command: str, t: Translator) -> None:
    """End the ``command`` with status 1, said on standard error, where it was started with standard
    output closed (``>&-``)."""
    if sys.stdout is None:
        _echo(f"loveletter {command}: {t('cli_err_output', reason=t('cli_stdout_closed'))}", err=True)
        sys.exit(1)


def _standard_input(t: Translator) -> bytes:
    stream = getattr(sys.stdin, "buffer", None)  # None: started with standard input closed
    if stream is None:
        raise RecordError("rec_stdin_closed")
    try:
        return read_at_most(stream, t("rec_stdin"))
    except OSError as err:
        raise RecordError("rec_unreadable", path=t("rec_stdin"), error=err) from None


@cli.command("tournament", help=_t("cli_tournament"), options_metavar=_t("meta_options"))
@click.option("--bots", default="beginner,random", show_default=True, metavar=_t("meta_levels"),
              help=_t("opt_tour_bots", levels=tuple(LEVELS)))
@click.option("--players", type=Players(), default=None, metavar="N", help=_t("opt_tour_players"))
@click.option("--edition", type=OneOf(sorted(EDITIONS)), default="classic", show_default=True,
              help=_t("opt_edition"))
@click.option("--rounds", type=Whole(1), default=None, metavar="N", help=_t("opt_tour_rounds", most=grouped(MAX_GAMES), default=grouped(DEFAULT_ROUNDS)))
@click.option("--matches", type=Whole(1), default=None, metavar="N", help=_t("opt_tour_matches", most=grouped(MAX_GAMES)))
@click.option("--seed", type=Whole(), default=0, show_default=True, metavar="S", help=_t("opt_tour_seed"))
@click.option("--jobs", type=Whole(1), default=None, metavar="J", help=_t("opt_tour_jobs"))
@click.option("--backend", type=OneOf(["local", "ray"]), default="local", show_default=True,
              help=_t("opt_tour_backend"))
@click.option("--budget", type=Whole(1, MAX_BUDGET), default=None, metavar="N", help=_t("opt_tour_budget", default=grouped(DEFAULT_ITERATIONS)))
@click.option("--json", "as_json", is_flag=True, help=_t("opt_tour_json"))
@click.option("--csv", "csv_path", type=GivenPath(path_type=Path, names="file", dash=True), default=None,
              metavar=_t("meta_file"), help=_t("opt_tour_csv"))
@click.option("--plot", "plot_path", type=GivenPath(path_type=Path, names="file", dash=True), default=None,
              metavar=_t("meta_png"), help=_t("opt_tour_plot"))
@click.option("--records", type=GivenPath(path_type=Path, names="folder", dash=True), default=None,
              metavar=_t("meta_folder"), help=_t("opt_tour_records"))
@click.option("--lang", type=OneOf(LANGUAGES), default=None, help=_t("opt_lang"))
@click.option("--quiet", "-q", is_flag=True, help=_t("opt_tour_quiet"))
def tournament_command(bots: str, players: int | None, edition: str, rounds: int | None, matches: int | None,
                       seed: int, jobs: int | None, backend: str, budget: int | None, as_json: bool,
                       csv_path: Path | None, plot_path: Path | None, records: Path | None, lang: str | None,
                       quiet: bool) -> None:
    from loveletter.cli.tournament import Options, tournament

    sys.exit(tournament(Options(
        bots=bots, players=players, edition=edition, rounds=rounds, matches=matches, seed=seed, jobs=jobs,
        backend=backend, budget=budget, as_json=as_json, csv_path=csv_path, plot_path=plot_path,
        records=records, language=lang or _language, quiet=quiet,
    )))


@cli.command("serve", help=_t("cli_serve"), options_metavar=_t("meta_options"))
@click.option("--host", type=Filled("serve_err_host_empty"), default="127.0.0.1", show_default=True,
              metavar=_t("meta_address"), help=_t("opt_serve_host"))
@click.option("--port", type=Whole(1, 65535), default=8000, show_default=True, metavar=_t("meta_port"),
              help=_t("opt_serve_port"))
@click.option("--proxy", type=Addresses(), default=None, metavar=_t("meta_addresses"), help=_t("opt_serve_proxy"))
@click.option("--db", "database", type=Filled("serve_err_db_empty"), default=None, metavar=_t("meta_database"),
              help=_t("opt_serve_db"))
@click.option("--bot-delay", type=Amount(0, 10), default=0.8, show_default=True,
              metavar=_t("meta_seconds"), help=_t("opt_serve_bot_delay"))
@click.option("--budget", type=Whole(1, MAX_BUDGET), default=None, metavar="N",
              help=_t("opt_budget", tries=HINT_TRIES, default=grouped(DEFAULT_ITERATIONS)))
@click.option("--lang", type=OneOf(LANGUAGES), default=None, help=_t("opt_lang"))
def serve_command(host: str, port: int, proxy: str | None, database: str | None, bot_delay: float,
                  budget: int | None, lang: str | None) -> None:
    from loveletter.web.serve import serve

    sys.exit(serve(host, port, database, bot_delay, budget, Translator(lang or _language), proxy=proxy))


def run() -> None:
    """Entry point: click without its multi-line usage errors, in the language of ``--lang`` or the
    locale (its help pages and its own messages too)."""
    global _language
    language = _language = language_named(sys.argv[1:]) or default_language()
    on_a_terminal = sys.stdout is not None and sys.stdout.isatty()
    done = False  # whether the command ran to its end (its status in ``code``)
    try:
        if language != default_language():
            _reword_help(Translator(language))
        _write_defaults(Translator(language))
        numbers.language = language
        if language == "nl":
            speak_dutch()
        code, done = _main(language), True
        # done: a Ctrl-C from here on could only break the last flush, or Python's own exit (a
        # process pool's finalizers, its threads), with a traceback
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if sys.stdout is not None:  # None when started with standard output closed (``>&-``)
            sys.stdout.flush()  # here, so that a failed write is told rather than lost at exit
    except KeyboardInterrupt:  # before the command ran, or just as it ended
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        tell_command_interrupted(language)
        code = 130
    except OSError as err:
        # Nothing more can go to standard output: point it at nothing, so that Python's own flush at
        # exit does not fail again. A reader that went away (``| head``) while a command wrote is
        # click's business (it exits 1, silently); here it can only be the final flush.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if isinstance(err, BrokenPipeError):
            code = 0
        elif done and on_a_terminal and err.errno == errno.EIO:
            pass  # its terminal was closed as it ended (the game saved its record): nobody to tell
        else:  # standard output itself failed (a full disk)
            t = Translator(language)
            _echo(f"{command_named(sys.argv[1:])}: {t('cli_err_output', reason=t.os_reason(err))}", err=True)
            code = 1
    sys.exit(code)


def _main(language: str) -> int | str | None:
    """Run the command line; its exit status."""
    try:
        cli.main(standalone_mode=False, prog_name="loveletter")
    except SystemExit as done:
        return done.code
    except click.UsageError as err:
        command = err.ctx.command_path if err.ctx else command_named(sys.argv[1:])
        t = Translator(getattr(err, "language", None) or language)
        # on one line: click names an unexpected argument as typed, a newline or a terminal's escape too
        _echo(f"{command}: {on_one_line(err.format_message())} ({t('cli_see_help', command=command)})", err=True)
        return 2
    except click.Abort:
        tell_command_interrupted(language)
        return 130
    except click.ClickException as err:
        _echo(f"loveletter: {on_one_line(err.format_message())}", err=True)
        return err.exit_code
    return 0


def _reword_help(t: Translator) -> None:
    """Every help text and placeholder of the command line in ``t``'s language."""
    for command in (cli, *cli.commands.values()):
        for field in ("help", "options_metavar", "subcommand_metavar"):
            text = getattr(command, field, None)
            if text in _HELP_KEYS:
                key, params = _HELP_KEYS[text]
                setattr(command, field, t(key, **params))
        for param in command.params:
            for field in ("help", "metavar"):  # the option's help text and its value's placeholder
                text = getattr(param, field, None)
                if text in _HELP_KEYS:
                    key, params = _HELP_KEYS[text]
                    setattr(param, field, t(key, **params))


def _write_defaults(t: Translator) -> None:
    """The options' defaults as the help pages show them, in ``t``'s language (see :func:`_default_in`)."""
    for command in (cli, *cli.commands.values()):
        for param in command.params:
            if isinstance(param, click.Option) and param.show_default is True:
                param.default = _default_in(param.default, param.name, t)


DUTCH = Translator("nl")


class _DecimalComma(float):
    """A fraction that the help page writes as Dutch does (``0,8``); as a number, the same."""

    def __str__(self) -> str:
        return DUTCH.decimal(self)


def _default_in(default: Any, name: str | None, t: Translator) -> Any:
    """An option's default as the help page should show it in ``t``'s language: bot levels by their
    names there (``willekeurig``, which the options read too), a fraction with a decimal comma in
    Dutch (``0,8``)."""
    if name in ("bots", "starter") and isinstance(default, str):
        return ",".join(t.level(word) for word in default.split(","))
    if isinstance(default, float) and t.language == "nl":
        return _DecimalComma(default)
    return default
