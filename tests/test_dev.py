"""dev.py, the Quick start's set-up: what it tells a developer who is not root."""

import contextlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

DEV = Path(__file__).resolve().parent.parent / "dev.py"


def _dev():  # dev.py is a script, not a module of the package
    spec = importlib.util.spec_from_file_location("dev", DEV)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("answers", "told"), [(False, True), (True, False)])
def test_a_developer_not_root_is_told_when_postgresql_does_not_answer(monkeypatch, capsys, answers, told):
    dev = _dev()
    monkeypatch.setattr(dev, "language", lambda args: "en")
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000)
    monkeypatch.delenv("LOVELETTER_TEST_POSTGRES", raising=False)
    monkeypatch.setattr(dev, "_answers", lambda host, port: answers)
    dev.start_postgres()  # as not root, it starts nothing
    err = capsys.readouterr().err
    assert ("no PostgreSQL server answers at 127.0.0.1:5432" in err) is told
    assert ("LOVELETTER_TEST_POSTGRES" in err) is told


def test_a_server_of_ones_own_is_taken_as_it_is(monkeypatch, capsys):
    dev = _dev()
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000)
    monkeypatch.setenv("LOVELETTER_TEST_POSTGRES", "postgresql+psycopg://me@elsewhere/db")
    monkeypatch.setattr(dev, "_answers", lambda host, port: pytest.fail("the named server is not ours to check"))
    dev.start_postgres()
    assert capsys.readouterr().err == ""


def test_with_a_server_of_ones_own_no_postgresql_is_installed_or_started(monkeypatch):
    """(dev.py asked a developer without Debian's postgresql to install it, whatever server they named.)"""
    dev = _dev()
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000)
    monkeypatch.setenv("LOVELETTER_TEST_POSTGRES", "postgresql+psycopg://me@elsewhere/db")
    monkeypatch.setattr(dev, "_has", lambda command: command != "pg_ctlcluster")
    monkeypatch.setattr(dev, "start_postgres", lambda: pytest.fail("the named server is not ours to start"))
    dev.ensure_test_tools()  # no exit asking for the package, nothing started


def test_answers_tells_a_listening_port_from_a_closed_one():
    import socket

    dev = _dev()
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert dev._answers("127.0.0.1", port)
    assert not dev._answers("127.0.0.1", port)  # closed now


@pytest.mark.parametrize(("args", "env", "expected"), [
    (["play", "--lang", "nl"], {}, "nl"), (["serve", "--lang=nl"], {"LANG": "en_GB.UTF-8"}, "nl"),
    (["play"], {"LANG": "nl_BE.UTF-8"}, "nl"), (["play", "--lang", "en"], {"LANG": "nl_NL.UTF-8"}, "en"),
    (["play"], {"LANG": "C.UTF-8"}, "en"), (["play", "--lang", "fr"], {"LANGUAGE": "nl"}, "nl"),
    # chosen as the game chooses (test_i18n checks the game's rule): here English, the game Dutch
    (["play"], {"LANGUAGE": "fr:nl"}, "nl"),
])
def test_the_set_up_speaks_the_games_language(monkeypatch, args, env, expected):
    """The first run's lines ("Installing ...") came in English after `python3 dev.py play --lang nl`."""
    dev = _dev()
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert dev.language(args) == expected
    monkeypatch.setattr(dev.sys, "argv", ["dev.py", *args])
    said = dev.say("installing")
    assert said.startswith({"en": "Installing loveletter and its dependencies (the first time",
                            "nl": "loveletter en wat het nodig heeft worden geïnstalleerd (de eerste keer"}[expected])


def test_every_line_of_the_set_up_is_in_both_languages():
    import string

    dev = _dev()
    assert set(dev.WORDS["en"]) == set(dev.WORDS["nl"])
    for key, english in dev.WORDS["en"].items():
        fields = {f for _, f, _, _ in string.Formatter().parse(english) if f}
        assert fields == {f for _, f, _, _ in string.Formatter().parse(dev.WORDS["nl"][key]) if f}, key


@pytest.mark.parametrize("command", ["play", "replay", "check", "serve"])
def test_the_games_commands_read_paths_from_the_users_folder(monkeypatch, tmp_path, command):
    """dev.py went to the project's folder before every command, so ``python3 dev.py replay
    game.json`` run elsewhere looked for the record in the project's folder."""
    dev = _dev()
    ran = {}
    monkeypatch.setattr(dev, "ensure_environment", lambda: None)
    monkeypatch.setattr(dev.os, "execv", lambda path, cmd: ran.update(cmd=cmd, cwd=Path.cwd()))
    monkeypatch.setattr(dev.sys, "argv", ["dev.py", command, "game.json"])
    monkeypatch.chdir(tmp_path)
    dev.main()
    assert ran == {"cmd": [str(dev.BIN / "loveletter"), command, "game.json"], "cwd": tmp_path}


def test_the_tests_and_the_benchmark_run_from_the_projects_folder(monkeypatch, tmp_path):
    dev = _dev()
    ran = []
    monkeypatch.setattr(dev, "ensure_environment", lambda: None)
    monkeypatch.setattr(dev, "ensure_test_tools", lambda: None)
    monkeypatch.delenv("LOVELETTER_TEST_POSTGRES", raising=False)  # (set back as it was afterwards)
    monkeypatch.setattr(dev.os, "execv", lambda path, cmd: ran.append((cmd, Path.cwd())))
    for command in ("test", "bench"):
        monkeypatch.chdir(tmp_path)
        monkeypatch.setattr(dev.sys, "argv", ["dev.py", command, "-x"])
        dev.main()
    (suite, suite_cwd), (bench, _) = ran
    assert suite[1:] == ["-m", "pytest", "-n", "auto", "-x"] and suite_cwd == dev.ROOT
    assert dev.os.environ["LOVELETTER_TEST_POSTGRES"] == dev.POSTGRES_URL
    assert Path(bench[1]) == dev.ROOT / "benchmarks" / "engine.py" and Path(bench[1]).is_file()


def test_test_paths_are_read_from_the_users_folder_and_one_not_there_is_refused(monkeypatch, capsys):
    """Under pytest-xdist's workers a test path that is not there, or a test not found in a file, was
    told only as "no tests ran"; and dev.py, which runs the tests in the project's folder, read a test
    path given from another folder from there."""
    dev = _dev()
    monkeypatch.setenv("LANGUAGE", "en")
    engine = dev.ROOT / "tests" / "engine"
    python = [str(dev.PYTHON), "-m", "pytest"]
    assert dev.pytest_command(["test_rules_classic.py", "-x"], engine) == [
        *python, "-n", "auto", "tests/engine/test_rules_classic.py", "-x"]
    assert dev.pytest_command(["tests/engine", "-k", "guard"], dev.ROOT) == [
        *python, "-n", "auto", "tests/engine", "-k", "guard"]
    # a test named runs without workers, so that pytest says so where it is not found
    assert dev.pytest_command(["../test_dev.py::test_answers_tells_a_listening_port_from_a_closed_one"],
                              engine) == [*python, "tests/test_dev.py::test_answers_tells_a_listening_port_from_a_closed_one"]
    for own in (["-n", "2"], ["-n4"], ["--numprocesses=3"], ["-p", "no:xdist"], ["-pno:xdist"]):
        assert dev.pytest_command(own, dev.ROOT) == [*python, *own], own
    # a folder named from inside another; an option's value, a file to be made, is left as it is;
    # tests left out do not take the workers away
    assert dev.pytest_command(["web", "--junitxml", "out/r.xml", "-k", "engine"], dev.ROOT / "tests") == [
        *python, "-n", "auto", "tests/web", "--junitxml", "out/r.xml", "-k", "engine"]
    assert dev.pytest_command(["--deselect", "test_dev.py::test_answers_tells_a_listening_port_from_a_closed_one"],
                              dev.ROOT / "tests") == [
        *python, "-n", "auto", "--deselect", "tests/test_dev.py::test_answers_tells_a_listening_port_from_a_closed_one"]
    with pytest.raises(SystemExit) as refused:
        dev.pytest_command(["-x", "test_rules_clasic.py"], engine)
    assert refused.value.code == 4
    assert capsys.readouterr().err == "dev.py: there is no test file or folder 'test_rules_clasic.py'\n"


def test_the_games_language_choice_needs_only_the_standard_library():
    """dev.py chooses its language with the game's own code before anything is installed: it imports
    with no site-packages on the path (-S)."""
    src = DEV.parent / "src"
    done = subprocess.run([sys.executable, "-I", "-S", "-c", f"import sys; sys.path.insert(0, {str(src)!r});"
                           " import loveletter.language"], capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("args", "status", "out", "err"), [
    (["--help"], 0, "Usage: python3 dev.py serve [options] | play", ""),
    (["-h"], 0, "Usage: python3 dev.py serve [options] | play", ""),
    (["frob"], 2, "", "dev.py: there is no command 'frob'\nUsage: python3 dev.py serve"),
    ([], 2, "", "Usage: python3 dev.py serve"),
])
def test_help_and_a_wrong_command(monkeypatch, capsys, args, status, out, err):
    """--help gave only the usage line, on standard error with status 1, and a wrong command was not named."""
    dev = _dev()
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setattr(dev, "ensure_environment", lambda: pytest.fail("nothing is set up"))
    monkeypatch.setattr(dev.sys, "argv", ["dev.py", *args])
    with pytest.raises(SystemExit) if status else contextlib.nullcontext() as stopped:
        dev.main()
    said = capsys.readouterr()
    assert (stopped.value.code if status else 0) == status
    assert said.out.startswith(out) and said.err.startswith(err)
    assert ("runs the test suite" in said.out) == (status == 0)


def test_the_language_may_come_before_the_command(monkeypatch, capsys):
    """`python3 dev.py --lang nl --help` said there was no command '--lang': the game's commands take
    --lang there, and it goes on to the game with its command."""
    dev = _dev()
    monkeypatch.setattr(dev, "ensure_environment", lambda: None)
    monkeypatch.setattr(dev.sys, "argv", ["dev.py", "--lang", "nl", "--help"])
    dev.main()
    assert capsys.readouterr().out.startswith("Gebruik: python3 dev.py serve")
    ran = {}
    monkeypatch.setattr(dev.os, "execv", lambda path, cmd: ran.update(cmd=cmd))
    monkeypatch.setattr(dev.sys, "argv", ["dev.py", "--lang=nl", "--lang", "en", "play", "--seed", "1"])
    dev.main()
    assert ran["cmd"] == [str(dev.BIN / "loveletter"), "--lang=nl", "--lang", "en", "play", "--seed", "1"]


def test_help_to_a_reader_that_went_away_is_quiet():
    """``python3 dev.py --help | head -2`` ended in a BrokenPipeError traceback."""
    import os

    reader, writer = os.pipe()
    os.close(reader)  # gone before dev.py writes
    try:
        done = subprocess.run([sys.executable, str(DEV), "--help"], stdout=writer, stderr=subprocess.PIPE,
                              text=True, timeout=60, check=False)
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize(("failure", "told"), [
    (subprocess.CalledProcessError(1, ["/p/.venv/bin/python", "-m", "pip", "install", "-e", ".[test,ray]"]),
     "dev.py: pip install failed with exit status 1"),
    (subprocess.CalledProcessError(100, ["apt-get", "update", "-qq"]), "dev.py: apt-get update failed with exit status 100"),
    (subprocess.CalledProcessError(2, ["runuser", "-u", "postgres", "--", "psql", "-tAc", "SELECT 1"],
                                   stderr="psql: error: could not connect\n"),
     "dev.py: psql failed with exit status 2: psql: error: could not connect"),
    (subprocess.CalledProcessError(1, ["pg_ctlcluster", "15", "main", "start"]),
     "dev.py: pg_ctlcluster 15 main start failed with exit status 1"),
    (KeyboardInterrupt(), "dev.py: interrupted."),
])
def test_a_failed_set_up_is_told_in_one_line(monkeypatch, capsys, failure, told):
    """pip, apt-get or PostgreSQL failing, or Ctrl-C while they ran, ended in a Python traceback."""
    dev = _dev()
    monkeypatch.setenv("LANGUAGE", "en")

    def fail() -> None:
        raise failure

    monkeypatch.setattr(dev, "ensure_environment", lambda: None)
    monkeypatch.setattr(dev, "ensure_test_tools", fail)
    monkeypatch.setattr(dev.os, "execv", lambda path, cmd: pytest.fail("nothing is run"))
    monkeypatch.setattr(dev.sys, "argv", ["dev.py", "test"])
    monkeypatch.chdir(Path.cwd())  # (the test command goes to the project's folder)
    with pytest.raises(SystemExit) as stopped:
        dev.main()
    if isinstance(failure, KeyboardInterrupt):
        assert stopped.value.code == 130 and capsys.readouterr().err == f"{told}\n"
    else:
        assert stopped.value.code == told


def test_a_venv_that_cannot_be_made_is_told_and_taken_away(monkeypatch, tmp_path):
    """Without Debian's python3-venv, venv.create fails in ensurepip: a traceback, and a .venv left
    with no pip in it, which the next run took for made."""
    dev = _dev()
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setattr(dev, "VENV", tmp_path / ".venv")
    monkeypatch.setattr(dev, "PYTHON", tmp_path / ".venv" / "bin" / "python")
    monkeypatch.setattr(dev, "STAMP", tmp_path / ".venv" / ".installed")

    def half_made(where, with_pip):
        (where / "bin").mkdir(parents=True)
        (where / "bin" / "python").touch()
        raise subprocess.CalledProcessError(1, ["python", "-m", "ensurepip"])

    monkeypatch.setattr(dev.venv, "create", half_made)
    with pytest.raises(SystemExit) as stopped:
        dev.ensure_environment()
    assert stopped.value.code == ("dev.py: could not create .venv (exit status 1); on Debian and Ubuntu, install"
                                  " python3-venv first: sudo apt-get install python3-venv")
    assert not (tmp_path / ".venv").exists()
    monkeypatch.setenv("LANGUAGE", "nl")
    with pytest.raises(SystemExit) as stopped:
        dev.ensure_environment()
    assert str(stopped.value.code).startswith("dev.py: kan .venv niet maken (afsluitstatus 1)")

    def not_allowed(where, with_pip):
        raise PermissionError(13, "Permission denied", str(where))

    monkeypatch.setattr(dev.venv, "create", not_allowed)
    with pytest.raises(SystemExit) as stopped:  # (python3-venv is no cure for that)
        dev.ensure_environment()
    assert stopped.value.code == f"dev.py: kan .venv niet maken: [Errno 13] Permission denied: '{tmp_path / '.venv'}'"

    def interrupted(where, with_pip):
        (where / "bin").mkdir(parents=True)
        raise KeyboardInterrupt

    monkeypatch.setattr(dev.venv, "create", interrupted)
    with pytest.raises(KeyboardInterrupt):  # (told by main)
        dev.ensure_environment()
    assert not (tmp_path / ".venv").exists()


def test_a_python_too_old_is_told_in_the_users_language(tmp_path):
    """A Python older than 3.11 cannot read the game's code, which dev.py asks for its language: it
    is told in one line, in the locale's language (it came in English whatever the locale)."""
    (tmp_path / "dev.py").write_bytes(DEV.read_bytes())
    game = tmp_path / "src" / "loveletter"
    game.mkdir(parents=True)
    (game / "__init__.py").write_text("")
    (game / "language.py").write_bytes((DEV.parent / "src" / "loveletter" / "language.py").read_bytes())
    (game / "i18n.py").write_text("match x:\n    case 1 if := 2: pass\n")  # stands for the game's newer syntax
    pretend = ("import runpy, sys; sys.version_info = (3, 10, 4); sys.version = '3.10.4 (a test)';"
               f" sys.argv = ['dev.py', 'serve']; runpy.run_path({str(tmp_path / 'dev.py')!r}, run_name='__main__')")
    done = subprocess.run([sys.executable, "-I", "-c", pretend], capture_output=True, text=True, check=False,
                          timeout=60, env={"LANGUAGE": "nl", "PATH": "/usr/bin:/bin"})
    assert (done.returncode, done.stderr) == (1, "loveletter heeft Python 3.11 of nieuwer nodig, niet 3.10.4\n")
    assert not (tmp_path / ".venv").exists()  # nothing was made
    done = subprocess.run([sys.executable, "-I", "-c", pretend.replace("'serve'", "'serve', '--lang', 'en'")],
                          capture_output=True, text=True, check=False, timeout=60, env={"LANGUAGE": "fy:nl"})
    assert done.stderr == "loveletter needs Python 3.11 or newer, not 3.10.4\n"
    # `test` too, before root's part (apt-get, PostgreSQL: a PATH with neither, and not root, says so)
    done = subprocess.run([sys.executable, "-I", "-c", pretend.replace("'serve'", "'test'")], capture_output=True,
                          text=True, check=False, timeout=60, env={"LANGUAGE": "en", "PATH": str(tmp_path)})
    assert (done.returncode, done.stderr) == (1, "loveletter needs Python 3.11 or newer, not 3.10.4\n")


@pytest.mark.parametrize("path", [DEV, DEV.parent / "src" / "loveletter" / "language.py"], ids=["dev", "language"])
def test_dev_py_and_what_it_asks_the_language_are_read_by_a_python_as_old_as_3_6(path):
    """Python 3.6 (Ubuntu 18.04's) could not read dev.py at all ("future feature annotations is not
    defined"), so never said that it is too old."""
    import ast

    source = path.read_text()
    read = ast.parse(source, feature_version=(3, 6))
    assert not [node for node in read.body if isinstance(node, ast.ImportFrom) and node.module == "__future__"]
    # an annotation is evaluated where its function is defined: "list[str]" unquoted fails before 3.9
    annotations = [node.returns for node in ast.walk(read) if isinstance(node, ast.FunctionDef)] + \
        [arg.annotation for node in ast.walk(read) if isinstance(node, ast.arguments)
         for arg in node.args + node.kwonlyargs]
    unquoted = [ast.unparse(a) for a in annotations if a is not None and not isinstance(a, (ast.Constant, ast.Name))]
    assert unquoted == []


def _venv_here(dev, monkeypatch, tmp_path):
    """dev.py's .venv in ``tmp_path``, made without pip and installed with nothing (what is run, listed)."""
    monkeypatch.setattr(dev, "VENV", tmp_path / ".venv")
    monkeypatch.setattr(dev, "PYTHON", tmp_path / ".venv" / "bin" / "python")
    monkeypatch.setattr(dev, "STAMP", tmp_path / ".venv" / ".installed")
    made = []

    def create(where, with_pip):
        (where / "bin").mkdir(parents=True, exist_ok=True)
        (where / "bin" / "python").touch()
        (where / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.11.2\n")
        made.append(where)

    monkeypatch.setattr(dev.venv, "create", create)
    monkeypatch.setattr(dev, "GAME", tmp_path / ".venv" / "bin" / "loveletter")
    # pip's install, as far as dev.py looks: the game's command made
    monkeypatch.setattr(dev.subprocess, "run", lambda *args, **kwargs: dev.GAME.touch())
    return made


def test_a_venv_that_cannot_be_used_as_it_is_is_made_again_saying_why(monkeypatch, tmp_path, capsys):
    """A project moved after its first run: .venv's scripts named the old folder, the stamp still
    matched, and every command ended in a traceback. A .venv made by Python 3.10 failed in pip, a page
    long, at every run; one whose Python link led nowhere was taken away with a misleading line."""
    dev = _dev()
    monkeypatch.setenv("LANGUAGE", "en")
    made = _venv_here(dev, monkeypatch, tmp_path)
    dev.ensure_environment()
    assert len(made) == 1 and dev.STAMP.read_text().splitlines()[1] == str(dev.ROOT)
    capsys.readouterr()
    dev.ensure_environment()  # as it should be: used as it is
    assert len(made) == 1 and capsys.readouterr().err == ""
    breakages = [
        (lambda: dev.STAMP.write_text(dev.STAMP.read_text().replace(str(dev.ROOT), "/home/ann/old place")),
         "was made for the project in /home/ann/old place (moved since)"),
        (lambda: (dev.VENV / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.10.13\n"),
         "was made by Python 3.10.13"),
        (lambda: (dev.PYTHON.unlink(), dev.PYTHON.symlink_to(tmp_path / "gone")),
         "has no Python (a link to one since removed?)"),
        # root's, made by `sudo python3 dev.py test` before it went on as the user (the test runs as
        # root, to whom any file may be written: the check's answer stood in for)
        (lambda: monkeypatch.setattr(dev.os, "access", lambda path, mode: Path(path) != dev.VENV),
         "may not be changed by you (another user's: root's?)"),
    ]
    for n, (breaking, why) in enumerate(breakages, start=2):
        breaking()
        (dev.VENV / "left over").touch()
        dev.ensure_environment()
        assert capsys.readouterr().err.startswith(f"dev.py: .venv {why}: making it again …\n")
        assert len(made) == n and not (dev.VENV / "left over").exists()  # (made anew, not over the old)


def test_a_venv_without_the_games_command_installs_it_again(monkeypatch, tmp_path, capsys):
    """After `pip uninstall loveletter` in .venv (the stamp still matching), `dev.py play` ended in a
    traceback (no such file: the game's command) and `dev.py test` in an ImportError."""
    dev = _dev()
    monkeypatch.setenv("LANGUAGE", "en")
    made = _venv_here(dev, monkeypatch, tmp_path)
    dev.ensure_environment()
    dev.GAME.unlink()
    capsys.readouterr()
    dev.ensure_environment()
    assert dev.GAME.exists() and len(made) == 1  # installed again, in the same .venv
    assert capsys.readouterr().err.startswith("Installing loveletter")


def test_giving_a_folder_gives_all_under_it_and_links_themselves(monkeypatch, tmp_path):
    dev = _dev()
    given = []
    monkeypatch.setattr(dev.os, "chown", lambda path, uid, gid, follow_symlinks: given.append(
        (os.path.relpath(path, tmp_path), uid, gid, follow_symlinks)))
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "pyvenv.cfg").touch()
    (tmp_path / ".venv" / "bin" / "python").symlink_to("/usr/bin/python3")
    dev._give(tmp_path / ".venv", 1000, 1001)
    dev._give(tmp_path / "none", 1000, 1001)  # (nothing there: nothing given)
    assert sorted(given) == [(name, 1000, 1001, False) for name in
                             (".venv", ".venv/bin", ".venv/bin/python", ".venv/pyvenv.cfg")]


def test_a_language_before_the_command_that_we_do_not_have_is_refused(monkeypatch, capsys):
    """`python3 dev.py --lang` said there was no command '--lang'; `--lang de --help` was passed over."""
    dev = _dev()
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setattr(dev, "ensure_environment", lambda: pytest.fail("nothing is set up"))
    for args, told in ((["--lang"], "dev.py: --lang needs a language: en or nl"),
                       (["--lang", "--help"], "dev.py: --lang needs a language: en or nl"),
                       (["--lang", "de", "--help"], "dev.py: there is no language 'de': en or nl"),
                       (["--lang=", "test"], "dev.py: --lang needs a language: en or nl")):
        monkeypatch.setattr(dev.sys, "argv", ["dev.py", *args])
        with pytest.raises(SystemExit) as stopped:
            dev.main()
        assert stopped.value.code == 2 and capsys.readouterr() == ("", f"{told}\n"), args


def test_under_sudo_the_tests_go_on_as_the_user_once_roots_part_is_done(monkeypatch):
    """`sudo python3 dev.py test`, as the README says to run it once, left .venv and the tests'
    caches root's, and the user's own runs then failed in pip. Root installs and starts what needs
    root; the rest is done as the user who ran sudo, in their project (a project of root's stays root's)."""
    import pwd
    import types

    dev = _dev()
    done = []

    class Project(type(Path())):  # the project's folder, the user's (its stat alone stood in for)
        owner = 1000

        def stat(self, **_):
            return types.SimpleNamespace(st_uid=Project.owner)

    monkeypatch.setattr(dev, "ROOT", Project("/nowhere"))
    monkeypatch.setattr(dev, "VENV", Path("/nowhere/.venv"))
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0)
    for name, value in (("SUDO_USER", "ann"), ("SUDO_UID", "1000"), ("SUDO_GID", "1001")):
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(dev, "_give", lambda path, uid, gid: done.append(("give", path.name, uid, gid)))
    monkeypatch.setattr(dev.os, "initgroups", lambda user, gid: done.append(("groups", user, gid)))
    monkeypatch.setattr(dev.os, "setgid", lambda gid: done.append(("gid", gid)))
    monkeypatch.setattr(dev.os, "setuid", lambda uid: done.append(("uid", uid)))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: types.SimpleNamespace(pw_dir=f"/home/user{uid}"))
    monkeypatch.setenv("HOME", "/root")
    dev.as_the_user_who_ran_sudo()
    # what root made there before (an earlier run as root) is the user's again, then the user goes on
    assert done == [("give", name, 1000, 1001) for name in (".venv", ".pytest_cache", ".hypothesis", "loveletter.egg-info")] \
        + [("groups", "ann", 1001), ("gid", 1001), ("uid", 1000)]
    assert (dev.os.environ["HOME"], dev.os.environ["USER"]) == ("/home/user1000", "ann")
    done.clear()
    Project.owner = 0
    dev.as_the_user_who_ran_sudo()  # root's own project
    Project.owner = 1000
    monkeypatch.delenv("SUDO_UID")
    dev.as_the_user_who_ran_sudo()  # root, not through sudo
    assert done == []
    # and in that order: root's part, then the user's
    monkeypatch.setattr(dev, "ensure_test_tools", lambda: done.append("root's part"))
    monkeypatch.setattr(dev, "as_the_user_who_ran_sudo", lambda: done.append("as the user"))
    monkeypatch.setattr(dev, "ensure_environment", lambda: done.append(".venv"))
    monkeypatch.setattr(dev.os, "execv", lambda path, cmd: done.append("pytest"))
    monkeypatch.setattr(dev.os, "chdir", lambda folder: None)
    monkeypatch.setattr(dev.sys, "argv", ["dev.py", "test"])
    dev.main()
    assert done == ["root's part", "as the user", ".venv", "pytest"]
