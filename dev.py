#!/usr/bin/env python3
"""Set everything up and run: ``python3 dev.py serve [options]`` (the browser game), ``python3 dev.py
play [options]`` (the terminal game), ``python3 dev.py replay RECORD [options]`` (a game record
replayed), ``python3 dev.py check PATH...`` (many records checked), ``python3 dev.py bench [options]``
(the engine's benchmark) or ``python3 dev.py test [pytest options]``.

Needs only Python 3.11+. Creates ``.venv`` beside this file on first use, installs the project
with its pinned dependencies and the test and Ray extras (again whenever pyproject.toml changes),
then runs the command. The tests also need Debian's Chromium for the browser tests (browsers are
never downloaded) and a PostgreSQL server for the storage tests: as root, ``test`` installs both
with apt-get when they are missing and starts PostgreSQL.
"""

# (no "from __future__ import annotations", and the annotations quoted: Python 3.6 could not read
# the file, and answered "future feature annotations is not defined" rather than our one line)
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
GAME = BIN / ("loveletter.exe" if os.name == "nt" else "loveletter")  # the game's command, as pip installs it
STAMP = VENV / ".installed"

# What this script says, in the languages of the game: it runs before the game is installed, so it
# has its own words (loveletter.i18n holds the game's); it picks the language as the game does.
WORDS = {
    "en": {
        "old_python": "loveletter needs Python 3.11 or newer, not {version}",
        "creating": "Creating .venv …",
        "installing": "Installing loveletter and its dependencies (the first time, and after pyproject.toml"
                      " changes: a minute or two) …",
        "need_packages": "the tests need Debian's {packages}: sudo apt-get install {words}",
        "apt": "Installing {packages} with apt-get …",
        "no_postgres": "Note: no PostgreSQL server answers at 127.0.0.1:5432, so the storage tests will fail. Run"
                       " `sudo python3 dev.py test` once (it starts the server and makes the tests' role and"
                       " database), or set LOVELETTER_TEST_POSTGRES to a server where the role may create schemas.",
        "usage": "Usage: python3 dev.py serve [options] | play [options] | test [pytest options] | replay FILE"
                 " | check PATH... | bench",
        "help": "Sets everything up on first use (.venv beside dev.py, with the pinned dependencies), then runs the"
                " command: serve starts the browser game, play the terminal game, replay tells a game record,"
                " check checks many records (files, or folders of them), bench measures the rules engine's speed"
                " and test runs the test suite. A command's options: python3 dev.py play --help.",
        "unknown_command": "dev.py: there is no command '{command}'",
        "failed": "dev.py: {command} failed with {status}{detail}",
        "exit_status": "exit status {status}",
        "no_venv": "dev.py: could not create .venv ({reason}); on Debian and Ubuntu, install python3-venv first:"
                   " sudo apt-get install python3-venv",
        "no_venv_os": "dev.py: could not create .venv: {reason}",
        "interrupted": "dev.py: interrupted.",
        "venv_no_python": "has no Python (a link to one since removed?)",
        "venv_old": "was made by Python {version}",
        "venv_moved": "was made for the project in {folder} (moved since)",
        "venv_not_yours": "may not be changed by you (another user's: root's?)",
        "venv_again": "dev.py: .venv {problem}: making it again …",
        "venv_stuck": "dev.py: .venv {problem}, and could not be taken away ({reason}): remove it (rm -rf .venv,"
                      " or sudo rm -rf .venv where it is another user's) and run again",
        "lang_missing": "dev.py: --lang needs a language: en or nl",
        "lang_unknown": "dev.py: there is no language '{lang}': en or nl",
        "no_test_path": "dev.py: there is no test file or folder '{path}'",
    },
    "nl": {
        "old_python": "loveletter heeft Python 3.11 of nieuwer nodig, niet {version}",
        "creating": ".venv wordt gemaakt …",
        "installing": "loveletter en wat het nodig heeft worden geïnstalleerd (de eerste keer, en als"
                      " pyproject.toml verandert: een minuut of twee) …",
        "need_packages": "de tests hebben Debians {packages} nodig: sudo apt-get install {words}",
        "apt": "{packages} wordt geïnstalleerd met apt-get …",
        "no_postgres": "Let op: geen PostgreSQL-server antwoordt op 127.0.0.1:5432, dus de opslagtests zullen"
                       " mislukken. Draai eenmaal `sudo python3 dev.py test` (dat start de server en maakt de rol"
                       " en de database voor de tests), of zet LOVELETTER_TEST_POSTGRES op een server waar de rol"
                       " schema's mag maken.",
        "usage": "Gebruik: python3 dev.py serve [opties] | play [opties] | test [pytest-opties] | replay BESTAND"
                 " | check PAD... | bench",
        "help": "Zet bij het eerste gebruik alles klaar (.venv naast dev.py, met de vastgelegde afhankelijkheden) en"
                " voert dan de opdracht uit: serve start het spel in de browser, play het spel in de terminal, replay"
                " vertelt een spelverslag, check controleert veel spelverslagen (bestanden, of mappen ervan), bench"
                " meet hoe snel de spelregels uitgevoerd worden en test draait de tests. De opties van een opdracht:"
                " python3 dev.py play --help.",
        "unknown_command": "dev.py: er is geen opdracht '{command}'",
        "failed": "dev.py: {command} is mislukt met {status}{detail}",
        "exit_status": "afsluitstatus {status}",
        "no_venv": "dev.py: kan .venv niet maken ({reason}); installeer op Debian en Ubuntu eerst python3-venv:"
                   " sudo apt-get install python3-venv",
        "no_venv_os": "dev.py: kan .venv niet maken: {reason}",
        "interrupted": "dev.py: onderbroken.",
        "venv_no_python": "heeft geen Python (een link naar een die sindsdien weg is?)",
        "venv_old": "is gemaakt door Python {version}",
        "venv_moved": "is gemaakt voor het project in {folder} (sindsdien verplaatst)",
        "venv_not_yours": "mag niet door jou veranderd worden (van een andere gebruiker: root?)",
        "venv_again": "dev.py: .venv {problem}: wordt opnieuw gemaakt …",
        "venv_stuck": "dev.py: .venv {problem} en kon niet weggehaald worden ({reason}): haal hem weg"
                      " (rm -rf .venv, of sudo rm -rf .venv als hij van een andere gebruiker is) en probeer het"
                      " opnieuw",
        "lang_missing": "dev.py: --lang heeft een taal nodig: en of nl",
        "lang_unknown": "dev.py: de taal '{lang}' bestaat niet: kies en of nl",
        "no_test_path": "dev.py: er is geen testbestand of testmap '{path}'",
    },
}


def language(args: "list[str]") -> str:
    """``--lang`` among ``args`` (the last one), else the locale's: chosen by the game's own code,
    which needs nothing but Python's standard library and reads under Python 3.6, so that a Python
    too old for the game is told so in the user's language (tests check both)."""
    sys.path.insert(0, str(ROOT / "src"))
    try:
        from loveletter.language import default_language, language_named
    finally:
        sys.path.remove(str(ROOT / "src"))
    return language_named(args) or default_language()


def say(key: str, **params: object) -> str:
    return WORDS[language(sys.argv[1:])][key].format(**params)


def venv_problem() -> "str | None":
    """Why the ``.venv`` here cannot be used as it is, if it cannot (in words to follow ".venv"): its
    Python gone (a link to one since removed), too old (made by an older Python: pip then failed, a
    page long, at every run), or made for the project in another folder (moved since: its scripts
    name the old one, and every command failed with a traceback). None where there is none."""
    if not VENV.exists():
        return None
    if not PYTHON.exists():  # (exists() follows the link)
        return say("venv_no_python")
    if not os.access(VENV, os.W_OK):  # (root's, made by `sudo python3 dev.py test` before it went on as the user)
        return say("venv_not_yours")
    try:
        said = (VENV / "pyvenv.cfg").read_text().splitlines()
    except OSError:
        said = []
    made_by = next((value.strip() for key, _, value in (line.partition("=") for line in said)
                    if key.strip() == "version"), "")
    major, _, minor = made_by.partition(".")
    minor = minor.partition(".")[0]
    if major == "3" and minor.isdigit() and int(minor) < 11:
        return say("venv_old", version=made_by)
    made_for = STAMP.read_text().splitlines()[1:2] if STAMP.exists() else []
    if made_for and made_for[0] != str(ROOT):
        return say("venv_moved", folder=made_for[0])
    return None


def ensure_environment() -> None:
    problem = venv_problem()
    if problem:
        print(say("venv_again", problem=problem), file=sys.stderr)
        try:
            shutil.rmtree(VENV)
        except OSError as err:  # (made by another user, say)
            sys.exit(say("venv_stuck", problem=problem, reason=err.strerror or err))
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    # the stamp: what was installed, and for which folder (see venv_problem)
    stamp = f"{wanted}\n{ROOT}"
    # (the game's command gone, as after `pip uninstall loveletter`: installed again, not a traceback)
    if STAMP.exists() and STAMP.read_text() == stamp and PYTHON.exists() and GAME.exists():
        return
    if not PYTHON.exists():
        print(say("creating"), file=sys.stderr)
        try:
            venv.create(VENV, with_pip=True)
        except BaseException as err:  # (Ctrl-C too)
            shutil.rmtree(VENV, ignore_errors=True)  # half made: the next run would take it for made, with no pip
            if isinstance(err, subprocess.CalledProcessError):  # no ensurepip: Debian's python3-venv missing
                sys.exit(say("no_venv", reason=say("exit_status", status=err.returncode)))
            if isinstance(err, OSError):  # (a folder it may not write, say: python3-venv is not the cure)
                sys.exit(say("no_venv_os", reason=err))
            raise
    print(say("installing"), file=sys.stderr)
    subprocess.run(
        [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", ".[test,ray]"],
        cwd=ROOT, check=True,
    )
    STAMP.write_text(stamp)


# command: Debian package, for the browser tests (Chromium) and the storage tests (PostgreSQL)
DEBIAN_PACKAGES = {"chromium": "chromium", "pg_ctlcluster": "postgresql"}
POSTGRES_URL = "postgresql+psycopg://loveletter:loveletter@127.0.0.1:5432/loveletter_test"


def ensure_test_tools() -> None:
    """Debian's Chromium and PostgreSQL, installed when missing (as root, with apt-get); the
    PostgreSQL server started, with a role and a database for the tests. With LOVELETTER_TEST_POSTGRES
    set, the tests use that server: no PostgreSQL is installed or started here."""
    own_server = "LOVELETTER_TEST_POSTGRES" in os.environ
    missing = [package for command, package in DEBIAN_PACKAGES.items()
               if not _has(command) and not (own_server and package == "postgresql")]
    if missing:
        if shutil.which("apt-get") is None or os.geteuid() != 0:
            sys.exit(say("need_packages", packages=", ".join(missing), words=" ".join(missing)))
        print(say("apt", packages=", ".join(missing)), file=sys.stderr)
        quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=quiet)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True,
                       env=quiet, stdout=subprocess.DEVNULL)
    if not own_server:
        start_postgres()


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def _has(command: str) -> bool:
    return shutil.which(command) is not None or Path("/usr/bin", command).exists()


def start_postgres() -> None:
    """Start every PostgreSQL cluster (Debian's pg_ctlcluster) and make the tests' role and database."""
    if os.geteuid() != 0:  # a developer's own server: the tests use it as it is, so say what it needs
        if "LOVELETTER_TEST_POSTGRES" not in os.environ and not _answers("127.0.0.1", 5432):
            print(say("no_postgres"), file=sys.stderr)
        return
    clusters = subprocess.run(["pg_lsclusters", "--no-header"], capture_output=True, text=True, check=True)
    for line in clusters.stdout.splitlines():
        version, name, _port, status = line.split()[:4]
        if status != "online":
            subprocess.run(["pg_ctlcluster", version, name, "start"], check=True)

    def psql(sql: str) -> str:
        done = subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-tAc", sql],
                              capture_output=True, text=True, check=True, cwd="/")
        return done.stdout.strip()

    if psql("SELECT 1 FROM pg_roles WHERE rolname = 'loveletter'") != "1":
        psql("CREATE ROLE loveletter LOGIN PASSWORD 'loveletter'")
    if psql("SELECT 1 FROM pg_database WHERE datname = 'loveletter_test'") != "1":
        psql("CREATE DATABASE loveletter_test OWNER loveletter")


def _named(cmd: "list[str]") -> str:
    """A command as a failure names it: the program and what it was asked (``pip install``, ``apt-get
    update``, ``pg_ctlcluster 15 main start``, ``psql``: not its SQL)."""
    words = [Path(str(word)).name for word in cmd]
    if words[1:3] == ["-m", "pip"]:
        words = words[2:]
    if "--" in words:  # runuser -u postgres -- psql …
        words = words[words.index("--") + 1:]
    asked = [word for word in words[1:] if not word.startswith("-")]
    shown = {"pip": asked[:1], "apt-get": asked[:1], "pg_ctlcluster": asked}.get(words[0], [])
    return " ".join([words[0], *shown])


def leading_language(argv: "list[str]") -> "tuple[list[str], list[str]]":
    """``--lang X`` (or ``--lang=X``) before the command, as the game takes it there, and the rest.
    It goes on to the game's commands (serve, play, replay) before theirs; test and bench take no
    language, and it words only this script's own lines there. A language we do not have, or none,
    is refused in one line (it was taken for a command, or passed over)."""
    lang = []  # type: list[str]
    while argv and (argv[0] == "--lang" or argv[0].startswith("--lang=")):
        taken = 1 if argv[0].startswith("--lang=") else 2
        value = argv[0][len("--lang="):] if taken == 1 else argv[1] if len(argv) > 1 else ""
        if not value or value.startswith("-"):
            print(say("lang_missing"), file=sys.stderr)
            sys.exit(2)
        if value.lower() not in WORDS:
            print(say("lang_unknown", lang=value), file=sys.stderr)
            sys.exit(2)
        lang, argv = lang + argv[:taken], argv[taken:]
    return lang, argv


def as_the_user_who_ran_sudo() -> None:
    """Under sudo, in a project of the user who ran it: go on as that user, once what needs root
    (apt-get, PostgreSQL) is done. As root, ``sudo python3 dev.py test`` (as the README says to run
    it once) left .venv and the tests' caches root's: the user's own runs then warned at every test
    run, and pip failed at the first change to pyproject.toml."""
    user, uid, gid = (os.environ.get(name, "") for name in ("SUDO_USER", "SUDO_UID", "SUDO_GID"))
    if os.name == "nt" or os.geteuid() != 0 or not (user and uid.isdigit() and gid.isdigit()) or uid == "0":
        return
    if ROOT.stat().st_uid != int(uid):  # (a project that root made stays root's)
        return
    import pwd

    for made in (VENV, ROOT / ".pytest_cache", ROOT / ".hypothesis", ROOT / "src" / "loveletter.egg-info"):
        _give(made, int(uid), int(gid))  # (root's from an earlier `sudo python3 dev.py test`: the user's again)
    os.initgroups(user, int(gid))
    os.setgid(int(gid))
    os.setuid(int(uid))
    os.environ.update(HOME=pwd.getpwuid(int(uid)).pw_dir, USER=user, LOGNAME=user)


def _give(path: Path, uid: int, gid: int) -> None:
    """``path`` (and everything under it, links themselves) to the user ``uid`` and group ``gid``."""
    if not os.path.lexists(path):
        return
    os.chown(path, uid, gid, follow_symlinks=False)
    if path.is_dir() and not path.is_symlink():
        for folder, folders, files in os.walk(path):
            for name in folders + files:
                os.chown(os.path.join(folder, name), uid, gid, follow_symlinks=False)


#: pytest's options whose value, the argument after them, is never a test path (a folder "engine" and
#: "-k engine" from the tests' folder).
OPTIONS_WITH_VALUES = {"-k", "-m", "-p", "-o", "-n", "--numprocesses", "--timeout", "--maxfail", "-W",
                       "--durations", "--dist", "--tb", "-r"}


def pytest_command(args: "list[str]", here: Path) -> "list[str]":
    """pytest's command line for ``dev.py test ARGS``, which runs in the project's folder: a test path
    given (a file or folder there, or a test in a file: ``file.py::test``) is read from the folder
    dev.py was run in, ``here``, as the game's commands read theirs, and a test file that is not
    there is refused in one line (under pytest-xdist's workers pytest's own "file or directory not
    found" was never said: only "no tests ran"). Tests named one by one run without workers, so that
    a name not found is said so; so do runs that say themselves how many workers, or none (``-n``,
    ``-p no:xdist``). (An option's value, ``--junitxml out/r.xml``, is none of these: left as it is.)"""
    given, workers = [], True  # type: list[str], bool
    for number, arg in enumerate(args):
        path, test, _ = arg.partition("::")
        where = here / path  # (a whole path stays as it is)
        before = args[number - 1] if number else None
        a_path = not (arg.startswith("-") or before in OPTIONS_WITH_VALUES)  # (not an option, nor its value: "-k engine")
        there = a_path and where.exists()
        if a_path and (path.endswith(".py") or test or there):
            if not there:
                print(say("no_test_path", path=path), file=sys.stderr)
                sys.exit(4)  # (pytest's own status for a usage error)
            try:
                inside = os.path.relpath(where, ROOT)
            except ValueError:  # (another drive, on Windows)
                inside = ".."
            arg = (inside if not inside.startswith("..") else str(where)) + arg[len(path):]
            workers = workers and not (test and before != "--deselect")
        if arg in ("-n", "--numprocesses") or arg.startswith(("-n=", "--numprocesses=")) or (
                arg[:2] == "-n" and arg[2:3].isalnum()) or arg.replace(" ", "") in ("no:xdist", "-pno:xdist"):
            workers = False
        given.append(arg)
    return [str(PYTHON), "-m", "pytest", *(["-n", "auto"] if workers else []), *given]


def main() -> None:
    for stream in (sys.stdout, sys.stderr):  # ("…" on a terminal that cannot show it: a traceback)
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    commands = {"serve", "play", "test", "replay", "check", "bench"}
    lang, argv = leading_language(sys.argv[1:])  # (said in that language: say() reads every --lang)
    if argv[:1] in (["-h"], ["--help"], ["help"]):
        try:
            print(f"{say('usage')}\n\n{say('help')}", flush=True)
        except BrokenPipeError:  # a reader that went away (| head): nothing more to say, not a traceback
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs before anything checks the version
        # before anything is done: `test` did root's part (apt-get, PostgreSQL) before a Python too
        # old was told, or failed in it with a traceback (Python 3.6)
        sys.exit(say("old_python", version=sys.version.split()[0]))
    if not argv or argv[0] not in commands:
        if argv:
            print(say("unknown_command", command=argv[0]), file=sys.stderr)
        print(say("usage"), file=sys.stderr)
        sys.exit(2)  # (a usage error, as the game's commands give)
    command, args = argv[0], argv[1:]
    here = Path.cwd()  # (the tests run in the project's folder, and read the paths given from here)
    try:
        if command == "test":
            os.chdir(ROOT)  # the suite's settings are in pyproject.toml
            ensure_test_tools()
            as_the_user_who_ran_sudo()
        ensure_environment()
    except KeyboardInterrupt:  # pip or apt-get, told by the terminal too, has stopped
        if sys.stderr.isatty():  # (after the terminal's "^C", on a line of its own)
            print(file=sys.stderr)
        print(say("interrupted"), file=sys.stderr)
        sys.exit(130)
    except subprocess.CalledProcessError as err:  # what it said is above, unless it was caught (psql)
        said = err.stderr.strip().splitlines() if isinstance(err.stderr, str) else []
        sys.exit(say("failed", command=_named(err.cmd), status=say("exit_status", status=err.returncode),
                     detail=f": {said[-1]}" if said else ""))
    if command == "test":
        os.environ.setdefault("LOVELETTER_TEST_POSTGRES", POSTGRES_URL)
        cmd = pytest_command(args, here)
    elif command == "bench":
        cmd = [str(PYTHON), str(ROOT / "benchmarks" / "engine.py"), *args]
    else:  # in the user's folder: the paths given (a record to replay, --records, --db) are read from there
        cmd = [str(GAME), *lang, command, *args]
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    main()
