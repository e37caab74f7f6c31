"""dev.py, the Quick start's set-up: what it tells a developer who is not root."""

import importlib.util
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
    assert said == {"en": "Installing loveletter and its dependencies …",
                    "nl": "loveletter en wat het nodig heeft worden geïnstalleerd …"}[expected]


def test_every_line_of_the_set_up_is_in_both_languages():
    import string

    dev = _dev()
    assert set(dev.WORDS["en"]) == set(dev.WORDS["nl"])
    for key, english in dev.WORDS["en"].items():
        fields = {f for _, f, _, _ in string.Formatter().parse(english) if f}
        assert fields == {f for _, f, _, _ in string.Formatter().parse(dev.WORDS["nl"][key]) if f}, key


@pytest.mark.parametrize("command", ["play", "replay", "serve"])
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
