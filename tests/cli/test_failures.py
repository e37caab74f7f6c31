"""What the command line does when the machine fails it: a port in use, a database that cannot be
opened, standard output that cannot be written, a reader that goes away. One line in the user's
language, a non-zero exit status where something failed, and nothing left behind."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from loveletter.cli import main, numbers
from loveletter.record import save
from loveletter.web.process import free_port, start_server, stop_server

LOVELETTER = Path(sys.executable).parent / "loveletter"


def run(*args: object, cwd: Path, stdout: object = subprocess.PIPE, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("LANG", "LC_"))}
    environment.update(env)
    return subprocess.run([str(LOVELETTER), *map(str, args)], cwd=cwd, stdout=stdout, stderr=subprocess.PIPE,
                          text=True, env=environment, timeout=120, check=False)


@pytest.fixture
def busy_port():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


def test_serve_on_a_port_in_use_creates_no_database(tmp_path, busy_port):
    for lang, says in (("en", "cannot listen on 127.0.0.1:{}: the address is already in use"),
                       ("nl", "kan niet luisteren op 127.0.0.1:{}: het adres is al in gebruik")):
        done = run("serve", "--port", busy_port, "--db", "web.db", "--lang", lang, cwd=tmp_path)
        assert done.returncode == 1 and done.stderr == f"loveletter serve: {says.format(busy_port)}\n"
    assert list(tmp_path.iterdir()) == []  # the port is checked first


@pytest.mark.parametrize(("args", "says"), [
    (["--db", "."], "kan de database sqlite:///. niet openen: het is een map"),
    (["--db", "nowhere/web.db"], "kan de database sqlite:///nowhere/web.db niet openen: de map nowhere bestaat niet"),
    # (as a URL: told it "could not write the output", once the server made its file itself)
    (["--db", "sqlite:///nowhere/web.db"], "kan de database sqlite:///nowhere/web.db niet openen: de map nowhere bestaat niet"),
    (["--db", "foo://bar"], "kan de database foo://bar niet openen: onbekend soort database 'foo'"),
    (["--host", "no-such-host.invalid"], "kan niet luisteren op no-such-host.invalid:{port}: onbekende hostnaam"),
    # SQLAlchemy's and the drivers' own words were passed on in English (and Python's, for a bad port)
    (["--db", "postgresql://ann@db:abc/x"], "kan de database postgresql://ann@db:abc/x niet openen: het is geen"
                                            " database-URL (bv. postgresql+psycopg://gebruiker@host/db of sqlite:///bestand.db)"),
    (["--db", "://x"], "kan de database ://x niet openen: het is geen database-URL (bv."
                       " postgresql+psycopg://gebruiker@host/db of sqlite:///bestand.db)"),
    (["--db", "notes.txt"], "kan de database sqlite:///notes.txt niet openen: het bestand is geen SQLite-database"),
])
def test_serve_refusals_in_dutch(tmp_path, args, says):
    port = free_port()
    (tmp_path / "notes.txt").write_text("Not a database at all, but long enough to be read as one's header.\n")
    done = run("serve", "--port", port, *args, cwd=tmp_path, LANG="nl_NL.UTF-8")
    assert done.returncode == 1 and done.stderr == f"loveletter serve: {says.format(port=port)}\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt"]  # nothing made
    assert (tmp_path / "notes.txt").read_text().startswith("Not a database")


@pytest.mark.parametrize(("args", "says"), [
    (["--db", ""], "Ongeldige waarde voor '--db': die is leeg: geef een database-URL of het pad van een"
                   " SQLite-bestand (of laat --db weg)"),
    (["--host", " "], "Ongeldige waarde voor '--host': het adres is leeg: geef er een, bv. 127.0.0.1 of 0.0.0.0"),
])
def test_serve_refuses_an_empty_value_as_any_bad_value(tmp_path, args, says):
    """An empty --db or --host was told with status 1 and no pointer to the help page, where every
    other bad value is a usage error (status 2)."""
    done = run("serve", "--port", free_port(), *args, cwd=tmp_path, LANG="nl_NL.UTF-8")
    assert done.returncode == 2
    assert done.stderr == f"loveletter serve: {says} (zie 'loveletter serve --help')\n"
    assert list(tmp_path.iterdir()) == []


def test_a_database_drivers_own_words_are_marked_as_its_own(tmp_path):
    """A server that does not answer: the driver's words (English, most often) were put after the
    Dutch as if they were ours."""
    done = run("serve", "--port", free_port(), "--db", "postgresql+psycopg://ann:pw@127.0.0.1:1/x", cwd=tmp_path,
               LANG="nl_NL.UTF-8")
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("loveletter serve: kan de database postgresql+psycopg://ann:***@127.0.0.1:1/x niet"
                                  " openen: geen verbinding (het stuurprogramma zegt: ")
    assert done.stderr.endswith(")\n") and "127.0.0.1" in done.stderr.partition("zegt: ")[2]


@pytest.mark.parametrize("db", ["postgresql://ann:s3cret@127.0.0.1:1/x", "foo://ann:s3cret@bar/x",
                                "postgresql://ann:s3cret@127.0.0.1:port/x"])  # (SQLAlchemy cannot read this one)
def test_serve_never_shows_the_databases_password(tmp_path, db):
    """A database that cannot be opened is named with its password hidden, as when it opens (the
    error repeated the URL whole, password and all, to the screen and to any log of it)."""
    done = run("serve", "--port", free_port(), "--db", db, "--lang", "en", cwd=tmp_path)
    assert done.returncode == 1 and "s3cret" not in done.stderr
    assert done.stderr.startswith(f"loveletter serve: cannot open the database {db.replace('s3cret', '***')}: ")


def test_serve_says_when_its_data_folder_cannot_be_made(tmp_path):
    (tmp_path / "file").write_text("")
    done = run("serve", "--port", free_port(), "--lang", "en", cwd=tmp_path, XDG_DATA_HOME=str(tmp_path / "file"))
    folder = tmp_path / "file" / "loveletter"
    assert done.returncode == 1
    assert done.stderr == f"loveletter serve: cannot make the data folder {folder}: a part of the path is not a folder\n"


def test_a_full_disk_on_standard_output_is_one_line(tmp_path):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        for lang, says in (("en", "could not write the output: no space left on the device"),
                           ("nl", "kon de uitvoer niet schrijven: geen ruimte meer op het apparaat")):
            done = run("--lang", lang, "--help", cwd=tmp_path, stdout=full)
            assert done.returncode == 1 and done.stderr == f"loveletter: {says}\n"
            # a command's failure begins with its name, as its other errors do
            done = run("tournament", "--lang", lang, "--bots", "random", "--rounds", 2, "--jobs", 1, "--json",
                       cwd=tmp_path, stdout=full)
            assert done.returncode == 1 and done.stderr == f"loveletter tournament: {says}\n"


def test_lang_is_taken_before_the_command_too(tmp_path):
    done = run("--lang", "nl", "tournament", "--bots", "random", "--rounds", 1, "--jobs", 1, "-q", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("Toernooi: 1 losse ronde ·")


@pytest.mark.parametrize(("args", "names"), [
    (["replay", ""], "a file name"),  # a record file (a folder is refused in the command's own words)
    (["tournament", "--records", ""], "a folder name"),
    (["tournament", "--csv", ""], "a file name"),
    (["tournament", "--plot", ""], "a file name"),
    (["play", "--records", ""], "a folder name"),
    (["replay", "  "], "a file name"),  # spaces alone name nothing either
])
def test_an_empty_path_is_refused(tmp_path, args, names):
    done = run(*args, "--lang", "en", cwd=tmp_path)
    assert done.returncode == 2 and f"the path is empty: give {names}" in done.stderr
    assert list(tmp_path.iterdir()) == []
    done = run(*args, "--lang", "nl", cwd=tmp_path)
    assert done.returncode == 2 and "het pad is leeg: geef de naam van een" in done.stderr


@pytest.mark.parametrize("args", [["tournament", "--csv"], ["tournament", "--plot"], ["replay"]])
def test_a_file_name_ending_in_a_slash_is_refused(tmp_path, args):
    """As a path, "out.csv/" was "out.csv": an existing file was written over, and "out/" made a file
    named out, where the user meant a folder."""
    (tmp_path / "old.png").write_text("old")
    for name in ("old.png/", "new.png/"):
        done = run(*args, name, "--lang", "en", "--rounds", 1, "-q", cwd=tmp_path) if args[0] == "tournament" else (
            run(*args, name, "--lang", "en", cwd=tmp_path))
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
        assert f"{name} ends in '/', as a folder's name: give a file name" in done.stderr
        done = run(*args, name, "--lang", "nl", cwd=tmp_path)
        assert done.returncode == 2 and f"{name} eindigt op '/', als de naam van een map" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.png"] and (tmp_path / "old.png").read_text() == "old"


def test_a_record_save_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path, monkeypatch):
    path = tmp_path / "record.json"
    save({"players": ["Ann", "Bob"]}, path)

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save({"players": ["Cy", "Dee"]}, path)
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]
    assert "Ann" in path.read_text(encoding="utf-8")


#: Standard output in a Windows code page (cp1252 has no heart), and in plain ASCII: the C locale
#: with neither UTF-8 mode nor locale coercion, where Python writes with "surrogateescape".
NARROW_OUTPUT = {
    "cp1252": {"PYTHONIOENCODING": "cp1252", "PYTHONUTF8": "0"},
    "ascii": {"LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""},
}


def test_standard_error_writes_plainly_too(monkeypatch):
    """Python writes standard error with "backslashreplace": the tournament's progress showed "\\xb7"."""
    from loveletter.cli.start import write_any_character

    written = io.BytesIO()
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(written, encoding="ascii", errors="backslashreplace"))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict"))
    write_any_character()
    sys.stderr.write("0/20 \u00b7 0:00:00 \u00b7 time left")
    sys.stderr.flush()
    assert written.getvalue() == b"0/20 - 0:00:00 - time left"


def test_characters_the_output_lacks_are_written_plainly():
    """A rating of minus 74 came out as "?74", a hint as "win ? 56% ? 5", a number's thin space as
    "3?600" and every table's lines as "?": each has a plain stand-in, a letter its own without
    the accent, and only what has none is "?"."""
    from loveletter.plain import PLAINLY

    text = "\u221274 \u00b7 3\u2009600 \u2665 \u2192 \u2248 56% \u00b1 5 \u2026 \u2503\u2501\u250f Zo\u00eb \u2660"
    assert text.encode("ascii", PLAINLY) == b"-74 - 3 600 <3 -> ~ 56% +/- 5 ... |-+ Zoe ?"
    assert "Zoe\u0308".encode("ascii", PLAINLY) == b"Zoe"  # (the accent written apart: not "Zoe?")
    assert text.encode("cp1252", PLAINLY) == "-74 \u00b7 3 600 <3 -> ~ 56% \u00b1 5 \u2026 |-+ Zo\u00eb ?".encode("cp1252")


@pytest.mark.parametrize("encoding", NARROW_OUTPUT)
@pytest.mark.parametrize("lang", ["en", "nl"])
def test_output_in_an_encoding_without_the_games_characters(tmp_path, lang, encoding):
    """What the output's encoding lacks comes out as a plain stand-in, never a traceback at the end of
    a tournament or in the middle of a game (in ASCII, the turn's header "Round 1 · turn 1" failed);
    not as "?" where it changes the sense (a rating of minus 74 read "?74", a chance "win ? 56%")."""
    # (without COLUMNS, which pytest-xdist sets to 80 in its workers: the piped tournament keeps to it)
    narrow = {**{k: v for k, v in os.environ.items() if k != "COLUMNS"}, **NARROW_OUTPUT[encoding],
              "XDG_DATA_HOME": str(tmp_path / "xdg")}

    def run_narrow(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([str(LOVELETTER), *args, "--lang", lang], cwd=tmp_path, input=stdin,
                              capture_output=True, env=narrow, timeout=120, check=False)

    played = run_narrow("play", "--seed", "7", "--players", "3", "--starter", "0", "--hints", "--budget", "60",
                        "--records", "records", stdin=b"1\n1\nq\n")
    assert played.returncode == 0 and b"Traceback" not in played.stderr, played.stderr
    assert b"<3" in played.stdout  # the tokens' column, headed by a heart
    assert len(list((tmp_path / "records").iterdir())) == 1
    # the moves' columns in line, a move with an arrow (written "->") beside one without (the second
    # turn's: a Prince on a player, or the Princess)
    turns: list[list[bytes]] = []
    for line in re.findall(rb"^ +\d+\. .*$", played.stdout, re.MULTILINE):
        if line.lstrip().startswith(b"1. "):
            turns.append([])
        turns[-1].append(line)
    moves = turns[1]
    hints = {line.index(b"win" if lang == "en" else b"winkans") for line in moves}
    assert b"->" in moves[0] and b"->" not in moves[-1] and len(hints) == 1, moves
    done = run_narrow("tournament", "--rounds", "20", "--jobs", "1", "-q")
    assert done.returncode == 0 and done.stderr == b"" and done.stdout.count(b"beginner") >= 2
    # a rating below 0, and its error ("±" in cp1252), in columns still in line ("+/-" written after
    # rich had measured "±" pushed the rest of the row out)
    assert re.search(rb"\| +-\d+ \| +(\+/-|\xb1)\d+ \|", done.stdout), done.stdout
    rows = [line for line in done.stdout.splitlines() if line.startswith((b"|", b"+"))]
    assert rows and len({len(row) for row in rows[:5]}) == 1, rows
    # the replay and the help pages too: click's own stream wrote them in UTF-8 to an ASCII output
    # ("één" read "Ã©Ã©n"), where the game wrote plainly
    (record,) = (tmp_path / "records").iterdir()
    codec = "ascii" if encoding == "ascii" else "cp1252"
    for args in (("replay", str(record)), ("--help",), ("play", "--help"), ("replay", "--help"),
                 ("tournament", "--help"), ("serve", "--help")):
        shown = run_narrow(*args)
        assert shown.returncode == 0 and shown.stdout.decode(codec) and "\u00c3" not in shown.stdout.decode(codec), args


def test_serve_leaves_another_programs_table_alone_and_creates_nothing_beside_it(tmp_path):
    """A shared database may hold a table called "tables" (or "seats", "moves") that is not ours: the
    server made its other tables beside it, then failed with a traceback reading it."""
    import sqlite3

    with sqlite3.connect(tmp_path / "shared.db") as db:
        db.execute("CREATE TABLE moves (id INTEGER, chess TEXT)")
    before = (tmp_path / "shared.db").read_bytes()
    done = run("serve", "--port", free_port(), "--db", "shared.db", "--lang", "en", cwd=tmp_path)
    assert done.returncode == 1 and done.stderr == (
        "loveletter serve: cannot open the database sqlite:///shared.db: its table 'moves' is not this app's"
        " (columns missing: code, number, move, by_bot): choose another database, or take that table away;"
        " nothing was changed\n")
    assert (tmp_path / "shared.db").read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["shared.db"]


def test_serve_refuses_a_database_another_server_uses_or_one_it_may_only_read(tmp_path):
    """Two servers on one SQLite file each served their own copy of a table, and a player on one
    never saw the other's moves; a file that may only be read was taken, and every new table was
    refused with "try again", for ever. Both are told at the start, in one line."""
    first = start_server(free_port(), str(tmp_path / "web.db"))
    try:
        done = run("serve", "--port", free_port(), "--db", "web.db", "--lang", "en", cwd=tmp_path)
    finally:
        stop_server(first)
    assert done.returncode == 1 and done.stderr == (
        "loveletter serve: another server is using the database sqlite:///web.db: only one server may use a"
        " database (each keeps its tables in memory); stop that one first, or give this one another --db\n")
    stop_server(start_server(free_port(), str(tmp_path / "web.db")))  # the first gone: the database is free
    read_only = f"sqlite:///file:{tmp_path / 'web.db'}?mode=ro&uri=true"  # (as root, a file's mode is no bar)
    done = run("serve", "--port", free_port(), "--db", read_only, "--lang", "nl", cwd=tmp_path)
    assert done.returncode == 1 and done.stderr == (
        f"loveletter serve: kan de database {read_only} niet openen: er mag alleen in gelezen worden, niet in"
        " geschreven\n")


def test_a_folder_that_may_not_be_written_to_is_told_in_words(monkeypatch, tmp_path):
    """SQLite said only "unable to open database file" (it keeps files of its own beside the database)."""
    from loveletter.i18n import Translator
    from loveletter.web import serve

    monkeypatch.setattr(serve.os, "access", lambda path, mode: path != tmp_path)
    assert serve._sqlite_file_problem(f"sqlite:///{tmp_path / 'web.db'}", Translator("en")) == (
        f"the folder {tmp_path} may not be written to (SQLite keeps files of its own beside the database)")
    assert serve._sqlite_file_problem(f"sqlite:///{tmp_path / 'sub' / 'web.db'}", Translator("en")) == (
        f"the folder {tmp_path / 'sub'} does not exist")


@pytest.mark.parametrize("proxy", [None, "127.0.0.1"])
def test_x_forwarded_for_is_believed_only_from_the_proxies_named(tmp_path, proxy):
    """A client on the server's own machine named itself anyone in X-Forwarded-For and passed the
    limit of 30 codes with no table in ten minutes: the header is believed only from --proxy's
    addresses (then each client it names counts apart)."""
    import urllib.error
    import urllib.request

    port = free_port()
    server = start_server(port, str(tmp_path / "web.db"), options=["--proxy", proxy] if proxy else [])
    keys = []
    try:
        for i in range(31):
            asked = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables/ZZZZZZ/join", method="POST",
                                           data=b'{"name": "Eve"}', headers={
                                               "Content-Type": "application/json", "X-Forwarded-For": f"10.0.0.{i}"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(asked, timeout=10)
            keys.append(json.loads(refused.value.read())["key"])
    finally:
        stop_server(server)
    last = "web_no_table" if proxy else "web_too_many_misses"  # (the 31st: each named apart, or one)
    assert keys == ["web_no_table"] * 30 + [last]


@pytest.mark.parametrize("name", ["games?v2.db", "c%20d.db"])
def test_serve_keeps_its_database_in_the_file_named(tmp_path, name):
    """A file path was made a URL as it was: "games?v2.db" made the file "games" (the rest a URL's
    query), and "c%20d.db" the file "c d.db", while the path given was shown."""
    server = start_server(free_port(), str(tmp_path / name))
    stop_server(server)
    log = server.stdout.read() if server.stdout else ""
    assert f"Database: sqlite:///{tmp_path / name}\n" in log
    assert sorted(path.name for path in tmp_path.iterdir() if not path.name.endswith((".lock", "-wal", "-shm"))) == [name]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_server_stopped_leaves_its_sqlite_file_whole(tmp_path, stop):
    """The server never closed its database: after a Ctrl-C the file held none of its tables (they
    were all in SQLite's log beside it, FILE-wal), so a copy of the file alone, as an operator backs
    it up, was an empty database."""
    import sqlite3
    import urllib.request

    port = free_port()
    server = start_server(port, str(tmp_path / "web.sqlite3"))
    try:
        asked = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", method="POST",
                                       data=b'{"name": "Ann", "players": 2, "bots": {"1": "random"}}',
                                       headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(asked, timeout=10) as answer:
            code = json.loads(answer.read())["code"]
        server.send_signal(stop)
        assert server.wait(15) == -stop  # (ended by the signal raised again, as a shell expects)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes((tmp_path / "web.sqlite3").read_bytes())  # the file alone
    with contextlib.closing(sqlite3.connect(copy)) as db:
        assert db.execute("SELECT code FROM tables").fetchall() == [(code,)]


def test_serve_names_a_database_file_whose_name_is_not_utf8(tmp_path):
    """A file name of bytes that are not UTF-8 (Python's stand-in ``\\udcff`` for the byte 0xff): the
    database was made, and then naming it as the server opened ended it with a traceback."""
    server = start_server(free_port(), str(tmp_path / "\udcff.db"))
    stop_server(server)
    log = server.stdout.read() if server.stdout else ""
    assert "Traceback" not in log
    named = [line for line in log.splitlines() if line.startswith(f"Database: sqlite:///{tmp_path}/")]
    assert len(named) == 1 and named[0].endswith(".db")  # (the byte as standard output's errors write it)


def test_a_websocket_text_frame_that_is_not_utf8_is_logged_on_one_line(tmp_path):
    """uvicorn logged each such frame with a traceback: a client could fill the log with them."""
    from websockets.exceptions import ConnectionClosedError
    from websockets.sync.client import connect

    port = free_port()
    server = start_server(port, str(tmp_path / "web.sqlite3"))
    try:
        with connect(f"ws://127.0.0.1:{port}/ws/ABCDEF") as socket_:
            socket_.send(b'{"type": "hello", "secret": null, "lang": "\xff"}', text=True)
            with pytest.raises(ConnectionClosedError) as closed:
                socket_.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    finally:
        stop_server(server)
    log = server.stdout.read() if server.stdout else ""
    assert "Invalid UTF-8" in log and "Traceback" not in log, log
    # with its time (a server run for weeks said nothing of when)
    line = next(line for line in log.splitlines() if "Invalid UTF-8" in line)
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (INFO|WARNING|ERROR): ", line), line


def test_the_servers_own_log_lines_say_their_time_and_level():
    """The game's own lines ("table X: move 7 not stored: ...") came without a time or a level, as
    Python writes a line that no handler takes. (The configuration is read here, not applied: applied,
    it would hold for the other tests of this process.)"""
    import logging

    from uvicorn.logging import DefaultFormatter

    from loveletter.web.serve import log_config

    config = log_config()
    assert config["loggers"]["loveletter"]["handlers"] == ["default"]
    assert config["handlers"]["default"]["formatter"] == "default"
    shape = config["formatters"]["default"]
    formatter = DefaultFormatter(fmt=shape["fmt"], datefmt=shape["datefmt"], use_colors=False)
    record = logging.LogRecord("loveletter.web.lobby", logging.ERROR, __file__, 1, "table %s: move 7 not stored", ("ABC",), None)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ERROR: +table ABC: move 7 not stored", formatter.format(record))


def test_a_replay_left_unread_is_logged_as_such_not_as_the_applications_error():
    """A replay given up for want of a reader (web.app.READ_WITHIN) is the one answer left
    unfinished: uvicorn logged it as an error of the application's."""
    import logging

    from loveletter.web.app import GIVEN_UP
    from loveletter.web.serve import _client_faults_on_one_line

    def unfinished() -> logging.LogRecord:
        record = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1,
                                   "ASGI callable returned without completing response.", None, None)
        assert _client_faults_on_one_line(record)
        return record

    GIVEN_UP.append(30.0)  # (as _SentThen notes a replay given up)
    record = unfinished()
    assert record.levelname == "WARNING" and record.getMessage() == (
        "A replay's reader took nothing of it for 30 seconds: its connection is closed.")
    # any other answer left unfinished is still an error of the application's
    assert not GIVEN_UP and unfinished().levelname == "ERROR"


@pytest.mark.parametrize("signals", [(signal.SIGINT,), (signal.SIGINT, signal.SIGINT), (signal.SIGTERM,), (signal.SIGHUP,)],
                         ids=["ctrl-c", "ctrl-c twice", "sigterm", "hang-up"])
def test_serve_stopped_by_a_signal_ends_quietly_by_that_signal(tmp_path, signals):
    """A second Ctrl-C (as people press when a server is slow to stop) broke the app's shutdown with
    a traceback; a Ctrl-C ended with status 0, as if nothing had stopped it; and a hang-up (the
    terminal closed) ended the server at once, its players cut off without a word. A player sits at
    a table the while: the server closes their connection as a server going away (1012: the page
    says the server has stopped, and connects again)."""
    if signals == (signal.SIGHUP,) and signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
        pytest.skip("this test run ignores hang-ups (nohup), and the server it starts rightly does too")
    import json
    import urllib.request

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    port = free_port()
    server = start_server(port, str(tmp_path / "web.sqlite3"))
    try:
        asked = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", headers={"Content-Type": "application/json"},
                                       data=json.dumps({"name": "Ann", "bots": {"1": "beginner"}}).encode())
        with urllib.request.urlopen(asked, timeout=10) as answer:
            made = json.load(answer)
        with connect(f"ws://127.0.0.1:{port}/ws/{made['code']}") as player:
            player.send(json.dumps({"type": "hello", "secret": made["secret"], "lang": "en"}))
            assert json.loads(player.recv(timeout=10))["type"] == "state"
            for signum in signals:
                server.send_signal(signum)
                time.sleep(0.05)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    player.recv(timeout=10)
            returned = server.wait(30)
    finally:
        stop_server(server)
    log = server.stdout.read() if server.stdout else ""
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    assert returned == -signals[0] and "Traceback" not in log and "ERROR" not in log, log


def test_a_line_told_without_clicks_context_names_the_command():
    """A Ctrl-C (or a usage error found before the command's options were read) is told as the
    command's other errors are: ``loveletter tournament: …``. The entry point names the command
    before the command line is loaded, from its own list of commands, which must be the command
    line's."""
    from loveletter.cli.main import cli
    from loveletter.cli.start import COMMANDS, command_named

    assert sorted(COMMANDS) == sorted(cli.commands)
    assert command_named(["tournament", "--rounds", "4"]) == "loveletter tournament"
    assert command_named(["--lang", "nl", "play"]) == "loveletter play"
    assert command_named(["--lang=nl", "replay", "x.json"]) == "loveletter replay"
    assert command_named(["--lang", "tournament"]) == "loveletter"  # (there the word is the language)
    assert command_named(["torunament"]) == "loveletter"
    assert command_named([]) == "loveletter"


def _in_this_process(monkeypatch, args: list[str]) -> None:
    """Ready ``main.run()`` to run ``loveletter args`` in this test's process: the language it sets put
    back after, this process's help pages left as they are, and its Ctrl-C left alone."""
    monkeypatch.setattr(main, "_language", main._language)
    monkeypatch.setattr(numbers, "language", numbers.language)
    monkeypatch.setattr(main, "_reword_help", lambda t: None)
    monkeypatch.setattr(main, "_write_defaults", lambda t: None)
    monkeypatch.setattr(main.signal, "signal", lambda *args: None)
    monkeypatch.setattr(sys, "argv", ["loveletter", *args])


@pytest.mark.parametrize(("lang", "told"), [("en", "loveletter tournament: interrupted.\n"),
                                            ("nl", "loveletter tournament: onderbroken.\n")])
def test_a_ctrl_c_before_the_command_runs_is_status_130(monkeypatch, capsys, lang, told):
    """A Ctrl-C while the command line is readied (its help texts put in the user's language), before
    click reads it: one line and status 130, as a Ctrl-C anywhere else."""
    def ctrl_c(t):
        raise KeyboardInterrupt

    _in_this_process(monkeypatch, ["--lang", lang, "tournament"])
    monkeypatch.setattr(main, "_write_defaults", ctrl_c)
    with pytest.raises(SystemExit) as stopped:
        main.run()
    assert stopped.value.code == 130
    assert capsys.readouterr().err == told


class _GoneReader(io.StringIO):
    """Standard output whose reader went away (``| head``) or whose disk is full: its last flush fails."""

    def __init__(self, error: OSError, fd: int) -> None:
        super().__init__()
        self.error, self.fd = error, fd

    def flush(self) -> None:
        raise self.error

    def fileno(self) -> int:
        return self.fd


@pytest.mark.parametrize(("error", "code", "told"), [
    (BrokenPipeError(32, "Broken pipe"), 0, ""),  # the reader had all it wanted: no failure
    (OSError(28, "No space left on device"), 1, "loveletter replay: could not write the output: no space left on the device\n"),
])
def test_the_last_flush_failing_is_status_0_for_a_reader_gone_and_1_for_a_full_disk(monkeypatch, capsys, tmp_path,
                                                                                    error, code, told):
    _in_this_process(monkeypatch, ["--lang", "en", "replay", "game.json"])
    monkeypatch.setattr(main, "_main", lambda language: 0)  # the command ran and wrote its output
    # (undone here, before capsys's teardown: undone after it, it left capsys's closed stream as sys.stdout)
    with open(tmp_path / "out", "w") as out, monkeypatch.context() as patched:
        patched.setattr(sys, "stdout", _GoneReader(error, out.fileno()))
        with pytest.raises(SystemExit) as stopped:
            main.run()
    assert stopped.value.code == code
    assert capsys.readouterr().err == told
