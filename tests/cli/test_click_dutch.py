"""Click's own words in Dutch (cli/click_dutch.py): the catalogue matches the pinned click's messages,
and help pages and command-line errors are Dutch with ``--lang nl`` or a Dutch locale, English otherwise."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from loveletter import __version__
from loveletter.cli.click_dutch import CATALOGUE, MODULES, PLURALS

LOVELETTER = Path(sys.executable).parent / "loveletter"


def _click_messages() -> tuple[set[str], set[tuple[str, str]]]:
    """Every message click's modules pass to ``_`` and every pair they pass to ``ngettext``."""
    single: set[str] = set()
    plural: set[tuple[str, str]] = set()
    for name in MODULES:
        source = Path(importlib.import_module(name).__file__ or "").read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                if node.func.id == "_" and texts:
                    single.add(texts[0])
                elif node.func.id == "ngettext" and len(texts) == 2:
                    plural.add((texts[0], texts[1]))
    return single, plural


def test_every_translated_message_is_one_click_shows():
    single, plural = _click_messages()
    assert set(CATALOGUE) <= single, set(CATALOGUE) - single
    assert set(PLURALS) <= plural, set(PLURALS) - plural


def test_the_translations_keep_the_placeholders():
    import string

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    for english, dutch in CATALOGUE.items():
        if "%(" not in english:
            assert fields(dutch) <= fields(english), english
    for (one, many), (een, veel) in PLURALS.items():
        assert fields(een) <= fields(one) and fields(veel) <= fields(many)


def run(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update({"LANG": lang, "COLUMNS": "100", "PYTHONUTF8": "1"})
    return subprocess.run([str(LOVELETTER), *args], capture_output=True, text=True, env=env, timeout=60,
                          check=False, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(("args", "lang"), [(["--lang", "nl"], "C.UTF-8"), ([], "nl_NL.UTF-8")])
def test_help_in_dutch(args, lang):
    proc = run("tournament", *args, "--help", lang=lang)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("Gebruik: loveletter tournament [OPTIES]") and "\nOpties:\n" in out
    out = " ".join(out.split())  # as read, whatever the line breaks
    assert "[standaard: beginner,willekeurig]" in out
    assert "Toon deze hulp en stop." in out
    assert "Speel veel partijen tussen bots" in out  # our own texts follow --lang too
    assert "--records MAP " in out and "--plot BESTAND.png " in out and "--rounds N " in out
    assert "Usage:" not in out and "default:" not in out and "Play many games" not in out


def test_help_in_english_by_default():
    out = " ".join(run("tournament", "--help").stdout.split())
    assert out.startswith("Usage: loveletter tournament [OPTIONS]") and "[default: beginner,random]" in out
    assert "Play many games" in out
    assert "--records DIR " in out and "--bots LEVEL[,LEVEL...] " in out and "INTEGER RANGE" not in out


@pytest.mark.parametrize(("args", "line"), [
    (["tournament", "--lang", "nl", "--rounds", "0"],
     "loveletter tournament: Ongeldige waarde voor '--rounds': 0 valt buiten het bereik: het moet minstens 1 zijn."
     " (zie 'loveletter tournament --help')"),
    (["tournament", "--rounds", "abc", "--lang=nl"],
     "loveletter tournament: Ongeldige waarde voor '--rounds': 'abc' is geen geheel getal."
     " (zie 'loveletter tournament --help')"),
    (["tournament", "--lang", "nl", "--edition", "1999"],
     "loveletter tournament: Ongeldige waarde voor '--edition': '1999' is geen keuze: kies '2019' of 'classic'."
     " (zie 'loveletter tournament --help')"),
    (["play", "--lang", "nl", "--rounds", "3"],
     "loveletter play: Optie '--rounds' bestaat niet. Bedoelde je '--records'? (zie 'loveletter play --help')"),
    (["replay", "--lang", "nl"],
     "loveletter replay: Er ontbreekt een argument 'BESTAND'. (zie 'loveletter replay --help')"),
    (["play", "--lang", "nl", "--players"],
     "loveletter play: Optie '--players' heeft een waarde nodig. (zie 'loveletter play --help')"),
    (["play", "--lang", "nl", "x\x1b[2J\ny"],  # click names the argument as typed: here on one line
     "loveletter play: onverwacht argument 'x\\x1b[2J\\ny' (zie 'loveletter play --help')"),
])
def test_command_line_errors_in_dutch(args, line):
    proc = run(*args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == line + "\n"


@pytest.mark.parametrize(("args", "dutch"), [
    (["--lang", "en", "tournament", "--lang", "nl", "--rounds", "0"], True),
    (["tournament", "--lang", "nl", "--lang=en", "--rounds", "0"], False),
])
def test_the_last_lang_given_is_the_language(args, dutch):
    """As click takes the last of a repeated option, so do its own messages (read before click runs)."""
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stderr.startswith("loveletter tournament: Ongeldige waarde" if dutch
                                  else "loveletter tournament: Invalid value"), proc.stderr


def test_command_line_errors_in_english_by_default():
    proc = run("play", "--lang", "fr")  # the choices as a sentence offers them (click joined them with commas)
    assert proc.stderr == ("loveletter play: Invalid value for '--lang': 'fr' is not a choice here: choose 'en' or 'nl'."
                           " (see 'loveletter play --help')\n")
    proc = run("tournament", "--rounds", "0")
    assert proc.stderr.strip() == ("loveletter tournament: Invalid value for '--rounds': 0 is out of range:"
                                   " it must be at least 1. (see 'loveletter tournament --help')")
    proc = run("replay", "a.json", "extra\r\u2028arg")
    assert proc.stderr == ("loveletter replay: unexpected argument 'extra\\r\\u2028arg' (replay tells one record:"
                           " 'loveletter check' checks many) (see 'loveletter replay --help')\n")


def test_the_top_level_help_and_version_in_dutch():
    out = run("--help", lang="nl_NL.UTF-8").stdout
    assert out.startswith("Gebruik: loveletter [OPTIES] OPDRACHT [ARGUMENTEN]...")
    assert "\nOpdrachten:\n" in out and "Toon de versie en stop." in out and "Toon deze hulp en stop." in out
    assert run("--version", lang="nl_NL.UTF-8").stdout.startswith("loveletter, versie ")
    assert run("--version").stdout == f"loveletter, version {__version__}\n"
    assert run("--lang", "nl", "--version").stdout == f"loveletter, versie {__version__}\n"
    assert run("--version", "--lang", "nl", lang="C.UTF-8").stdout == f"loveletter, versie {__version__}\n"
    assert run("--lang", "en", "--version", lang="nl_NL.UTF-8").stdout == f"loveletter, version {__version__}\n"


def test_no_command_shows_the_help_in_the_language_asked():
    """``loveletter`` alone showed the help, but ``loveletter --lang nl`` said a command was missing."""
    for args, lang, start in (((), "C.UTF-8", "Usage: loveletter"), (("--lang", "nl"), "C.UTF-8", "Gebruik: loveletter"),
                              (("--lang", "en"), "nl_NL.UTF-8", "Usage: loveletter")):
        done = run(*args, lang=lang)
        assert (done.returncode, done.stderr) == (0, "") and done.stdout.startswith(start), args
        assert done.stdout == run(*args, "--help", lang=lang).stdout


def test_a_path_of_the_wrong_kind_is_named_in_the_users_language(tmp_path):
    # click names the kind of path when the option is declared, before --lang is read
    a_file = tmp_path / "records.json"
    a_file.write_text("{}", encoding="utf-8")
    dutch = run("--lang", "nl", "play", "--records", str(a_file), "--bots", "random")
    assert dutch.returncode == 2
    assert f"Map '{a_file}' is een bestand." in dutch.stderr and "Directory" not in dutch.stderr
    english = run("play", "--records", str(a_file), "--bots", "random")
    assert f"Folder '{a_file}' is a file." in english.stderr  # the project's word, as elsewhere


@pytest.mark.parametrize(("command", "shown"), [
    ("play", ["[standaard: beginner]", "[standaard: willekeurig]"]),
    ("tournament", ["[standaard: beginner,willekeurig]"]),
    ("serve", ["[standaard: 0,8; van 0 tot en met 10]"]),  # (0.8, with the decimal point of English)
])
def test_dutch_help_writes_the_defaults_as_dutch_does(command, shown):
    """The defaults were click's own: levels in English ("beginner,random") and a decimal point."""
    proc = run("--lang", "nl", command, "--help")
    assert proc.returncode == 0
    page = " ".join(proc.stdout.split())
    assert all(default in page for default in shown), page
    assert "random" not in page.replace("[2019|classic]", "")


@pytest.mark.parametrize("args", [
    ["--lang", "nl", "play", "--starter", "willekeurig"],  # as --bots takes it
    ["--lang", "NL", "play", "--starter", "RANDOM", "--edition", "Classic"],  # any case, as --bots takes it
    ["--lang=Nl", "play", "--starter", "Willekeurig", "--bots", "Willekeurig"],
])
def test_option_words_are_read_in_either_language_and_any_case(args, tmp_path):
    proc = run(*args, "--records", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "Spel gestopt." in proc.stdout  # in Dutch: --lang was read whatever its case
