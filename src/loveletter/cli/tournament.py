"""``loveletter tournament``: check the options, play the games with a progress bar, print the figures.

Standard output carries only the result (the table, or one JSON object with ``--json``); progress and
notes go to standard error, and only on a terminal (never with ``--quiet``). A mistake in the options
ends in one line on standard error (exit status 2), a game that fails in one line too (status 1).
"""

from __future__ import annotations

import errno
import io
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from loveletter import plain
from loveletter.cli.levels import LevelsRefused, read_levels
from loveletter.cli.numbers import DASH
from loveletter.cli.start import tell_command_interrupted
from loveletter.engine import EDITIONS
from loveletter.folders import through_link
from loveletter.i18n import Translator, grouped
from loveletter.record import FORMAT, save
from loveletter.tournament import (
    GameFailed,
    Settings,
    TournamentError,
    WorkerDied,
    check,
    default_jobs,
    lineup_for,
    plot,
    render,
    run_tournament,
    summarise,
    write_csv,
)
from loveletter.tournament.games import DEFAULT_ROUNDS
from loveletter.tournament.report import say
from loveletter.tournament.runner import ctrl_c_held, stops_heard_as_ctrl_c

USAGE = 2  # exit status for options that cannot be used
RECORD_NAMES = "game-*.json"
FAILED = 1  # exit status when the games or the output files fail
#: Named pipes opened by the write test, kept open until the process ends: closing the only writer
#: would tell a reader already waiting (``cat pipe``) that all was written, and it would leave.
_PIPES_HELD: list[int] = []


@dataclass(frozen=True)
class Options:
    bots: str
    players: int | None
    edition: str
    rounds: int | None
    matches: int | None
    seed: int
    jobs: int | None
    backend: str
    budget: int | None
    as_json: bool
    csv_path: Path | None
    plot_path: Path | None
    records: Path | None
    language: str
    quiet: bool


class Refused(Exception):
    """An option that cannot be used: the message is already translated."""


class _RecordUnsaved(Exception):
    """A record could not be saved (the disk full, the folder gone): its OSError."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


def tournament(o: Options) -> int:
    """Run the command; returns the exit status (128 + the signal's number if a hang-up or SIGTERM
    stopped it; Ctrl-C is the command line's to tell, 130)."""
    with stops_heard_as_ctrl_c() as heard:
        try:
            return _tournament(o)
        except (KeyboardInterrupt, OSError):  # (OSError: a terminal closed, as a hang-up says, fails every write)
            if not heard:
                raise
    with suppress(OSError):
        tell_command_interrupted(o.language, "loveletter tournament")
    return 128 + heard[0]


def _tournament(o: Options) -> int:
    t = Translator(o.language)
    err = plain.console(stderr=True, highlight=False, markup=False, emoji=False)  # a path as written: "[x]", ":smile:"
    chatty = not o.quiet and err.is_terminal
    made: list[Path] = []
    status = None
    try:
        settings = _settings(o, t)
        _check_dashes(o, t)
        if sys.stdout is None and all(p is None or p is STANDARD_OUTPUT for p in (o.csv_path, o.plot_path, o.records)):
            # started with standard output closed (>&-) and no file asked for: the results would be lost
            raise Refused(t("cli_err_output", reason=t("cli_stdout_closed")))
        with ctrl_c_held():  # a Ctrl-C while the records' folder is made comes once it can be removed
            made = _check_outputs(o, t)
        status = _play_and_report(o, t, settings, err, chatty)
        return status
    except Refused as refusal:  # worded like click's own refusals of an option
        _fail(f"{refusal} ({t('cli_see_help', command='loveletter tournament')})")
        return USAGE
    finally:
        if status != 0:  # failed or stopped: leave no empty folders made for the records
            _remove_empty(made)


def record_name(index: int, games: int) -> str:
    """The name of game ``index``'s record among ``games``: numbered from 0, with as many digits as the
    last number has, six at least, so that the names sort in the order played (``game-000000.json``;
    past game 999,999 of the 10,000,000 allowed they had seven digits, and sorted among the six's)."""
    return f"game-{index:0{max(6, len(str(games - 1)))}d}.json"


def _play_and_report(o: Options, t: Translator, settings: Settings, err: Console, chatty: bool) -> int:
    jobs = o.jobs or default_jobs()
    keep = o.records is not None
    folder = o.records

    def save_records(first: int, docs: list[dict[str, Any]]) -> None:  # as the games come back
        assert folder is not None
        try:
            for i, doc in enumerate(docs, start=first):
                save(doc, folder / record_name(i, settings.games), new=True)
        except OSError as error:  # (told apart from a write to a terminal that closed)
            raise _RecordUnsaved(error) from None

    saving = save_records if keep else None
    try:
        if chatty:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("·"), TimeElapsedColumn(), TextColumn("·"), TextColumn(t("tour_eta")),
                          TimeLeftColumn(), console=err, transient=True) as bar:
                task = bar.add_task(t("tour_playing"), total=settings.games)
                results = run_tournament(settings, jobs=jobs, backend=o.backend, records=keep,
                                         on_records=saving,
                                         progress=lambda done: bar.update(task, completed=done))
        else:
            results = run_tournament(settings, jobs=jobs, backend=o.backend, records=keep, on_records=saving)
    except TournamentError as refusal:
        _fail(t.tournament_error(refusal.key, refusal.params))
        return FAILED if refusal.key in ("ray_unreachable", "ray_refused") else USAGE  # not the options: the cluster
    except GameFailed as failure:
        _fail(t("tour_err_game", game=failure.index, seats=", ".join(map(t.level, failure.seats)), error=failure.error))
        return FAILED
    except (BrokenProcessPool, WorkerDied):  # a worker was killed (out of memory) or crashed (either backend)
        _fail(t("tour_err_worker_died"))  # the records saved so far stay: only empty folders go
        return FAILED
    except _RecordUnsaved as unsaved:  # the disk is full, the folder went away, another run writes there
        error = unsaved.error
        _fail(t("tour_err_records_clash", path=error.filename) if isinstance(error, FileExistsError) else
              t("tour_err_records_gone", path=folder) if isinstance(error, FileNotFoundError) else
              t("tour_err_write", option="--records", path=folder, reason=t.os_reason(error)))
        return FAILED
    if chatty:
        say(err, t("tour_done", games=grouped(settings.games), seconds=t.decimal(results.elapsed, 1), jobs=results.jobs,
                    backend=results.backend))
    report = summarise(results)
    status = _write_files(o, t, report, err if chatty else None)
    if o.as_json:
        print(json.dumps(report, ensure_ascii=False))
    elif o.csv_path is STANDARD_OUTPUT:
        if sys.stdout is not None:
            write_csv(report, sys.stdout)
    else:
        out = plain.console(highlight=False)
        if out.is_terminal:
            render(report, t, out)
        else:  # a file or a pipe: 110 columns (or as COLUMNS says), and no spaces at the ends of lines (rich pads titles)
            text = _Text(out.encoding)
            # (COLUMNS of digits only, as rich reads it; a width of 0 was dropped: start.no_zero_size)
            width = out.width if os.environ.get("COLUMNS", "").isdigit() else 110
            render(report, t, Console(highlight=False, width=width, file=text))
            print("".join(line.rstrip() + "\n" for line in text.getvalue().splitlines()), end="")  # (nothing if closed)
    return status


class _Text(io.StringIO):
    """Text kept to be written to an output in ``encoding``, which rich reads to lay it out as that
    output will show it (a StringIO's own is UTF-8: "±" was measured as one column, and written as
    "+/-" to an ASCII pipe, out of line)."""

    def __init__(self, encoding: str) -> None:
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding


class TimeLeftColumn(ProgressColumn):
    """The time left at the pace so far: the games played over the time they took. rich's own column
    takes its pace from the updates of the last 30 seconds, and the games come back in blocks that may
    take longer (up to 250 games each): it showed no estimate for a whole tournament, or one taken from
    two blocks that came back together, a tenth of the time really left."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed
        if not task.completed or not elapsed or task.total is None:
            return Text("-:--:--", style="progress.remaining")
        left = int(elapsed * (task.total - task.completed) / task.completed)
        minutes, seconds = divmod(left, 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"{hours:d}:{minutes:02d}:{seconds:02d}", style="progress.remaining")


def _settings(o: Options, t: Translator) -> Settings:
    if o.rounds is not None and o.matches is not None:
        raise Refused(t("tour_err_rounds_and_matches"))
    try:
        levels = read_levels(o.bots, t)
    except LevelsRefused as refusal:
        raise Refused(str(refusal)) from None
    edition = EDITIONS[o.edition]
    if o.players is not None and not edition.min_players <= o.players <= edition.max_players:
        raise Refused(t.tournament_error("players", {"edition": edition.name, "low": edition.min_players,
                                                     "high": edition.max_players, "players": o.players}))
    try:
        lineup = lineup_for(levels, o.players)
        settings = Settings(
            lineup=lineup, edition=o.edition, mode="matches" if o.matches is not None else "rounds",
            games=o.matches if o.matches is not None else (o.rounds or DEFAULT_ROUNDS), seed=o.seed, budget=o.budget,
        )
        check(settings)
    except TournamentError as refusal:  # told as a fault of the option that set it
        if refusal.key == "players":  # --players was in range (above): the levels listed are too many
            raise Refused(t.tournament_error("bots_players", refusal.params)) from None
        message = t.tournament_error(refusal.key, refusal.params)
        if refusal.key == "too_many_games":
            message = ("--matches: " if o.matches is not None else "--rounds: ") + message
        raise Refused(message) from None
    most = JOBS_PER_CORE * default_jobs()
    on_a_cluster = o.backend == "ray" and bool(os.environ.get("RAY_ADDRESS"))
    if o.jobs is not None and o.jobs > most and not on_a_cluster:
        raise Refused(t("tour_err_too_many_jobs", most=grouped(most), jobs=grouped(o.jobs), per=JOBS_PER_CORE))
    if o.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise Refused(t("tour_err_ray_missing")) from None
    return settings


#: The most processes --jobs may start on this machine, per core: one per core is as fast as it gets,
#: and each process takes some 25 MB (a cluster that RAY_ADDRESS names has no such bound here).
JOBS_PER_CORE = 4

STANDARD_OUTPUT = DASH  # --csv -: the CSV goes to standard output, in place of the tables ("./-" is a file)


def _check_dashes(o: Options, t: Translator) -> None:
    """'-' is standard output for --csv (then it replaces the tables); it is no PNG file nor folder.
    With --json, standard output holds one JSON object: no CSV goes there, as '-' or by a name of it
    (``--csv /dev/stdout``)."""
    if o.plot_path is STANDARD_OUTPUT:
        raise Refused(t("tour_err_dash_plot"))
    if o.records is STANDARD_OUTPUT:
        raise Refused(t("cli_err_dash_records"))
    if o.as_json and o.csv_path is not None and (o.csv_path is STANDARD_OUTPUT or _is_standard_output(o.csv_path)):
        raise Refused(t("tour_err_dash_json", path="-" if o.csv_path is STANDARD_OUTPUT else o.csv_path))


def _is_standard_output(path: Path) -> bool:
    """Whether ``path`` names this process's standard output (a file, a pipe or a terminal)."""
    try:
        return os.path.samestat(os.stat(path), os.fstat(1))
    except OSError:  # nothing there yet, or standard output closed
        return False


def _check_outputs(o: Options, t: Translator) -> list[Path]:
    """Refuse output paths that cannot be written before any game is played. Nothing is created or
    deleted on the way, except the folders for the records, which are made here (a refusal removes
    them again). Returns the folders made, deepest first."""
    _check_distinct(o, t)
    made: list[Path] = []
    if o.records is not None:
        try:
            made = _make_records_folder(o.records, t)
        except OSError as error:  # a name the system refuses (too long, a loop of links) before anything was made
            raise _cannot_write("--records", o.records, error, t) from None
    try:  # after the records' folder is made: a file may go in it (``--csv out/summary.csv``)
        for option, path in (("--csv", o.csv_path), ("--plot", o.plot_path)):
            if path is not None and path is not STANDARD_OUTPUT:
                _check_file(option, path, t)
                if o.records is not None and _is_record_name(path, o.records):
                    raise Refused(t("tour_err_record_name", option=option, path=path))
    except Refused:
        _remove_empty(made)
        raise
    return made


def _is_record_name(path: Path, records: Path) -> bool:
    """Whether ``path`` is in the records' folder with a name a record could take."""
    try:
        same_folder = os.path.samefile(path.parent, records)
    except OSError:
        return False
    return same_folder and path.match(RECORD_NAMES)


def _check_file(option: str, path: Path, t: Translator) -> None:
    """Refuse a file that cannot be written, leaving it (and its folder) as they were."""
    if option == "--plot" and not path.name.lower().endswith(".png"):  # (".png" has no suffix, as --csv .csv)
        raise Refused(t("tour_err_not_png", path=path))
    try:
        # the path itself, through its links: not realpath() first, which turns /dev/stdout on a pipe
        # (or bash's >(...)) into /proc/PID/fd/pipe:[N], a name for nothing; and not Path.exists(),
        # which takes a loop of links for nothing there
        target = path
        try:
            found: os.stat_result | None = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):  # nothing there yet (or its "folder" is a file)
            found = None
            if path.is_symlink():  # a link to nothing yet: the file will be made where it leads
                target = Path(os.path.realpath(path))
        if found is not None and stat.S_ISDIR(found.st_mode):
            raise Refused(t("tour_err_is_folder", option=option, path=path))
        if found is None and target.parent.exists() and not target.parent.is_dir():
            raise Refused(t("tour_err_not_folder", option=option, path=target.parent))
        if found is None and not target.parent.is_dir():
            raise Refused(t("tour_err_no_folder", option=option, path=target.parent))
    except OSError as error:  # the system refuses the name itself (too long, a loop of links)
        raise _cannot_write(option, path, error, t) from None
    try:  # the only sure test is writing (as root every permission check says yes)
        if found is not None:  # opened without O_CREAT or truncating: the file stays as it was; not
            # blocking, so that a named pipe nobody reads is refused (ENXIO) rather than waited on forever
            fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
            if stat.S_ISFIFO(found.st_mode):
                _PIPES_HELD.append(fd)
            else:
                os.close(fd)
        else:  # a file without a name (or one deleted at once) in its folder: none of the user's
            with tempfile.TemporaryFile(dir=target.parent):
                pass
    except OSError as error:
        raise _cannot_write(option, path, error, t) from None


def _check_distinct(o: Options, t: Translator) -> None:
    """Refuse two outputs that name the same path: the one written last would replace the other."""
    seen: dict[str, tuple[str, Any]] = {}  # each file's first option, and the path it gave
    for option, path in (("--csv", o.csv_path), ("--plot", o.plot_path), ("--records", o.records)):
        if path is None or path is STANDARD_OUTPUT:
            continue
        real = os.path.realpath(path)  # through links, and "./a" is "a"
        try:  # two names (hard links) of one file are one file too
            found = os.stat(path)
            real = f"{found.st_dev}:{found.st_ino}"
        except OSError:  # nothing there yet
            pass
        if real in seen:
            first, named = seen[real]
            if os.path.abspath(named) != os.path.abspath(path):  # two names of one file (a link)
                raise Refused(t("tour_err_same_file", option=first, first=named, other=option, path=path))
            raise Refused(t("tour_err_same_path", option=first, other=option, path=path))
        seen[real] = option, path


def _holds_records(folder: Path) -> bool:
    """Whether ``folder`` holds game records: a tournament's (:data:`RECORD_NAMES`), or any ``.json``
    file in it or its folders that begins as a record does (a match's kept under another name, a
    tournament's in a subfolder: ``check`` counted them with the new ones)."""
    if any(folder.glob(RECORD_NAMES)):
        return True
    for file in folder.rglob("*.json"):
        if not file.is_file():  # (a pipe named so would hold the start until something wrote to it)
            continue
        try:
            with file.open("rb") as opened:
                if RECORD_MARK in opened.read(RECORD_START):
                    return True
        except OSError:  # (a folder, a link to nothing, a file not ours to read: no record of ours)
            continue
    return False


#: How much of a file is read to tell a game record: its "format" comes first (loveletter.record.save).
RECORD_START = 256
#: What a game record's format says, of any version (loveletter.record.FORMAT without its number).
RECORD_MARK = f'"{FORMAT.rpartition("/")[0]}/'.encode()


def _make_records_folder(folder: Path, t: Translator) -> list[Path]:
    """Make the records' folder (and its parents) and check it can be written; the folders made,
    deepest first."""
    try:  # a link to nothing yet: the folder is made where it leads, as --csv writes through one
        folder = through_link(folder)
    except OSError as error:  # a loop: "too many levels of symbolic links"
        raise _cannot_write("--records", folder, error, t) from None
    if folder.exists() and not folder.is_dir():
        raise Refused(t("tour_err_not_folder", option="--records", path=folder))
    if folder.is_dir() and _holds_records(folder):  # the new ones would mix with them
        raise Refused(t("tour_err_records_used", path=folder))
    made = [f for f in (folder, *folder.parents) if not os.path.lexists(f)]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:  # a name too long, say, perhaps after making some of the parents
        _remove_empty(made)
        raise _cannot_write("--records", folder, error, t) from None
    return made


def _cannot_write(option: str, path: Path, error: OSError, t: Translator) -> Refused:
    """The refusal, with the system's reason, unless that is "no such file": a pseudo file system
    such as /proc says so of any file it will not make, which would puzzle."""
    if isinstance(error, FileNotFoundError):
        return Refused(t("tour_err_unwritable", option=option, path=path))
    return Refused(t("tour_err_unwritable_because", option=option, path=path, reason=t.os_reason(error)))


def _remove_empty(folders: list[Path]) -> None:
    """Remove these folders (deepest first) while they are empty."""
    for folder in folders:
        if not os.path.lexists(folder):  # never made (mkdir stopped partway), or gone already
            continue
        try:
            folder.rmdir()
        except OSError:
            break


def _write_files(o: Options, t: Translator, report: dict[str, Any], err: Console | None) -> int:
    """The CSV and the plot (the records were saved as the games came back): both, or after a
    Ctrl-C neither. The plot is drawn first, aside (matplotlib takes a while to start: a Ctrl-C
    meanwhile changes no file); then both files are written with Ctrl-C held, which takes an instant."""
    status = 0
    files: list[tuple[str, Path, Callable[[Path], object]]] = []
    if o.csv_path is not None and o.csv_path is not STANDARD_OUTPUT:
        files.append(("--csv", o.csv_path, lambda aside: write_csv(report, aside)))
    if o.plot_path is not None:
        try:
            with tempfile.TemporaryDirectory() as folder:
                plot(report, Path(folder) / "plot.png", t)
                drawn = (Path(folder) / "plot.png").read_bytes()
        except OSError as error:  # no room for it in the temporary folder
            _fail(t("tour_err_write", option="--plot", path=o.plot_path, reason=t.os_reason(error)))
            status = FAILED
        else:
            files.append(("--plot", o.plot_path, lambda aside: aside.write_bytes(drawn)))
    with ctrl_c_held():
        for option, path, write in files:
            try:
                _write_whole(path, write)
            except OSError as error:
                _fail(t("tour_err_write", option=option, path=path, reason=t.os_reason(error)))
                status = FAILED
                continue
            if err is not None:
                err.print(t("tour_written", path=path), soft_wrap=True)
    if o.records is not None and err is not None:
        err.print(t("tour_written", path=o.records), soft_wrap=True)
    return status


def _write_whole(path: Path, write: Callable[[Path], object]) -> None:
    """Write ``path`` whole or not at all: into a file beside it, renamed into its place once
    complete, so that a Ctrl-C or a full disk meanwhile leaves the old file as it was. Written
    directly instead where a new file in its place would not be the same thing: a pipe or a device,
    a file that is this process's standard output or error (``--csv /dev/stdout > out.txt``),
    a file with other names (hard links), or one whose folder takes no new file or rename."""
    try:
        found: os.stat_result | None = os.stat(path)  # through links; not realpath() first (see _check_file)
    except FileNotFoundError:
        found = None
    standard = _standard_fd(found) if found is not None and stat.S_ISREG(found.st_mode) else None
    if standard is not None:  # reopening it would write over what is printed there: write through it
        _write_through(standard, write, path.name)
        return
    if found is not None and (not stat.S_ISREG(found.st_mode) or found.st_nlink > 1):
        write(path)
        return
    target = Path(os.path.realpath(path))  # through links: the file they lead to is replaced
    try:
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except OSError:  # a folder we may not write in (the file itself we may): write the file
        write(path)
        return
    os.close(fd)
    aside = Path(name)
    try:
        write(aside)
        if found is not None:
            mode = stat.S_IMODE(found.st_mode)
        else:  # as a new file would be made: everyone may read and write, less the umask
            mask = os.umask(0)
            os.umask(mask)
            mode = 0o666 & ~mask
        os.chmod(aside, mode)
        try:
            os.replace(aside, target)
        except OSError as error:  # a file mounted on its own (EBUSY), another file system (EXDEV)
            if error.errno not in (errno.EBUSY, errno.EXDEV):
                raise
            aside.unlink(missing_ok=True)
            write(path)
    except BaseException:
        aside.unlink(missing_ok=True)
        raise


def _write_through(fd: int, write: Callable[[Path], object], name: str) -> None:
    """Write through a temporary file, then add it to the open file ``fd`` (this process's standard
    output or error) where its printing has got to."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryDirectory() as folder:
        aside = Path(folder) / name
        write(aside)
        data = aside.read_bytes()
    while data:
        data = data[os.write(fd, data):]


def _standard_fd(found: os.stat_result) -> int | None:
    """The standard output or error (1 or 2) that is the file ``found``, if one is. (Not standard
    input, which is only read, and from the old file: that file is replaced like any other.)"""
    for fd in (1, 2):
        try:
            std = os.fstat(fd)
        except OSError:  # closed
            continue
        if os.path.samestat(std, found):
            return fd
    return None


def _fail(message: str) -> None:
    """One line on standard error."""
    print(f"loveletter tournament: {message}", file=sys.stderr)
