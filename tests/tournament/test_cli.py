"""`loveletter tournament` end to end, as a subprocess: the tables in English and Dutch, the same
output for the same seed whatever --jobs, --json and its schema, --csv, --plot, --records, and
one-line refusals of options that cannot be used."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path

import pytest

from loveletter.cli.tournament import record_name
from loveletter.i18n import Translator
from loveletter.record import load, replay, summary
from loveletter.tournament import Settings, plot, run_tournament, summarise
from loveletter.tournament.report import rating_error

LOVELETTER = Path(sys.executable).parent / "loveletter"
ROOT = Path(__file__).resolve().parents[2]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "COLUMNS")}
    env.update({"PYTHONUTF8": "1", "LANG": "C.UTF-8"})
    env.update(extra)
    return env


def run(*args: object, env: dict[str, str] | None = None, cwd: Path | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LOVELETTER), "tournament", *map(str, args)], capture_output=True, text=True,
                          encoding="utf-8", errors="replace", env=env or _env(), cwd=cwd, timeout=timeout,
                          check=False)


def ok(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # not a terminal: no progress bar, no notes, nothing
    return proc.stdout


def refused(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("loveletter tournament: ")
    return lines[0]


# ------------------------------------------------------------------------------------ the table

def test_a_level_may_be_named_as_the_dutch_game_names_it():
    out = ok(run("--bots", "beginner,willekeurig", "--rounds", 4, "--jobs", 1))
    assert "Lineup: beginner, random " in out





def test_table_in_english():
    out = ok(run("--rounds", 200, "--seed", 4, "--jobs", 1))
    assert out.startswith("Tournament: 200 single rounds · classic edition · 2 players · seed 4\n")
    assert "Lineup: beginner, random" in out
    assert "Balanced: every level played every seat" in out
    for word in ("Results per level", "Win rate", "95% interval", "Rating (Elo)", "s.e.", "Head to head",
                 "A won, B not", "Bradley-Terry", "Wilson", "mean 0", "clustered by game",
                 "starting player"):
        assert word in out, word
    assert "\x1b[" not in out  # no colour codes on a pipe
    rows = [line for line in out.splitlines() if line.startswith("│ beginner") or line.startswith("│ random")]
    assert len(rows) == 3  # two levels, one pair


def test_table_in_dutch():
    out = ok(run("--rounds", 90, "--bots", "beginner,random,random", "--lang", "nl", "--jobs", 1))
    assert out.startswith("Toernooi: 90 losse rondes · klassieke editie · 3 spelers · startgetal 0\n")
    for word in ("Opstelling", "In evenwicht", "Resultaten per niveau", "Niveau", "Partijen", "Gewonnen",
                 "Onderling", "startspeler", "standaardfout", "Wilson"):
        assert word in out, word
    for english in ("Win rate", "Level", "Games", "Head to head", "Ratings: Bradley-Terry fitted", "random"):
        assert english not in out
    assert "Opstelling: beginner, willekeurig, willekeurig " in out and "│ willekeurig ×2 " in out
    assert "%" in out and "," in out.split("Winst-%")[1]  # decimal commas
    # and the places in turn order apart from them: "0: 0,0%, 1: 100,0%" ran together
    assert re.search(r"\(0 = startspeler\): 0: \d+,\d%; 1: \d+,\d%; 2: \d+,\d%\n", out)


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("width", [60, 70, 80, 110])
def test_tables_fit_the_terminal_and_cut_no_word(lang, width):
    """Rich shortened what did not fit in 80 columns ("Partij…", "beginn…") or cropped the last
    column; a narrow terminal now gets tables without column lines and stacked headers, and one too
    narrow even for that (60 or 70 columns: rich dropped the "± s.e." column and cut "Neither" to
    "Nei") a paragraph per row, each figure after its header."""
    import io

    from rich.console import Console

    from loveletter.i18n import Translator
    from loveletter.tournament.report import percent, render

    t = Translator(lang)
    report = json.loads(ok(run("--rounds", 12, "--bots", "beginner,random,expert", "--players", 3,
                               "--budget", 20, "--json", "--jobs", 1)))
    text = io.StringIO()
    render(report, t, Console(width=width, file=text, highlight=False))
    out = text.getvalue()
    assert "…" not in out and max(map(len, out.splitlines())) <= width
    words = out.split()
    for level in ("beginner", "random", "expert"):  # named in the table's language: random is willekeurig
        assert any(line.strip(" │┃").startswith((t.level(level) + " ", t.level(level) + ":"))
                   for line in out.splitlines()), level
    header = " ".join(words)  # the words of the headers, however they were wrapped
    for key in ("tour_col_games", "tour_col_wins", "tour_col_rate", "tour_col_ci", "tour_col_rating", "tour_col_se",
                "tour_col_a_only", "tour_col_neither"):
        assert all(word in words for word in t(key).split()), key
    for p in report["participants"]:  # every figure whole
        assert percent(p["win_rate"], t) in words
        assert ("±" + rating_error(p["rating_se"], t) if p["rating_se"] is not None else "—") in words
    for row in report["pairwise"]:
        assert str(row["neither"]) in words
    assert "…" not in header
    assert not re.search(r"± (s\.e\.|st\.fout)", out)  # (the sign by its figure alone: "± s.e. ±14" was said)


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_counts_are_grouped_and_never_broken_over_two_lines(lang):
    """The help and the refusals group large numbers by thousands (a thin space, "10 000 000"); the
    report did not ("12001 single rounds"), as rich wraps lines at any space, the thin one inside a
    number too. Now its counts are grouped, and come out whole at every width."""
    import io

    from rich.console import Console

    from loveletter.i18n import Translator, grouped
    from loveletter.tournament.report import render

    t = Translator(lang)
    report = json.loads(ok(run("--rounds", 2001, "--bots", "random,beginner", "--json", "--jobs", 1)))
    games = grouped(report["settings"]["games"])
    counts = [games, *(grouped(p["wins"]) for p in report["participants"]), *(
        grouped(row[key]) for row in report["pairwise"] for key in ("a_only", "b_only"))]
    assert games == "2\u2009001" and sum("\u2009" in count for count in counts) >= 3  # games, the beginner's wins

    def shown(width: int) -> str:
        text = io.StringIO()
        render(report, t, Console(width=width, file=text, highlight=False))
        return text.getvalue()

    wide = shown(400)
    assert f"{games} " in wide.splitlines()[0]  # "Tournament: 2 001 single rounds", and in the tables
    for width in (34, 50, 60, 80, 110):
        out = shown(width)
        assert [out.count(count) for count in counts] == [wide.count(count) for count in counts], width


def test_piped_tables_end_no_line_with_a_space():
    out = ok(run("--rounds", 12, "--jobs", 1))
    assert not [line for line in out.splitlines() if line.endswith(" ")]
    assert max(map(len, out.splitlines())) > 80  # 110 columns to a file or pipe


def test_piped_tables_are_as_wide_as_columns_says():
    """Piped, the tables were 110 columns wide whatever COLUMNS said (the terminal game keeps to it)."""
    out = ok(run("--rounds", 12, "--jobs", 1, env=_env(COLUMNS="60")))
    assert max(map(len, out.splitlines())) <= 60 and "beginner" in out


def test_matches_and_the_2019_edition():
    out = ok(run("--matches", 8, "--edition", "2019", "--players", 5, "--bots", "beginner,random", "--jobs", 1))
    assert "8 matches · 2019 edition · 5 players" in out
    assert "Not exactly balanced: the number of games, 8, is not a multiple of the 5 players" in out
    assert "Rounds played in all:" in out


def test_an_unbalanced_run_says_who_started_beside_where_each_sat():
    """Three rounds of two bots: "Games per seat: beginner 2/1; random 1/2" alone read as the
    beginner's edge, where the random bot started two of the three."""
    out = ok(run("--rounds", 3, "--bots", "beginner,random", "--jobs", 1))
    assert "Games per seat: beginner 2/1; random 1/2. Games started: beginner 1; random 2" in " ".join(out.split())


def test_one_match_and_one_round_in_words():
    assert ok(run("--matches", 1, "--jobs", 1, "-q")).startswith("Tournament: 1 match · classic edition")
    assert ok(run("--matches", 1, "--jobs", 1, "-q", "--lang", "nl")).startswith("Toernooi: 1 spel · klassieke")
    assert ok(run("--rounds", 1, "--jobs", 1, "-q")).startswith("Tournament: 1 single round · classic edition")
    assert ok(run("--rounds", 1, "--jobs", 1, "-q", "--lang", "nl")).startswith("Toernooi: 1 losse ronde ·")


def test_same_output_twice_and_for_any_number_of_jobs():
    args = ("--rounds", 300, "--bots", "random,beginner,beginner", "--seed", 9)
    first = ok(run(*args, "--jobs", 1))
    assert ok(run(*args, "--jobs", 1)) == first
    assert ok(run(*args, "--jobs", 2)) == first
    assert ok(run(*args, "--seed", 10, "--jobs", 1)) != first


def test_help_in_both_languages():
    en = subprocess.run([str(LOVELETTER), "tournament", "--help"], capture_output=True, text=True,
                        env=_env(), check=True).stdout
    nl = subprocess.run([str(LOVELETTER), "tournament", "--help"], capture_output=True, text=True,
                        env=_env(LANG="nl_NL.UTF-8"), check=True).stdout
    for option in ("--bots", "--players", "--edition", "--rounds", "--matches", "--seed", "--jobs", "--backend",
                   "--budget", "--json", "--csv", "--plot", "--records", "--lang", "--quiet"):
        assert option in en and option in nl
    assert "Bradley-Terry" in en and "onderlinge" in nl


# ------------------------------------------------------------------------------------ --json


def test_json_schema():
    proc = run("--rounds", 120, "--bots", "beginner,random", "--json", "--seed", 2)
    (line,) = ok(proc).splitlines()  # one object on one line, nothing else
    report = json.loads(line)
    assert set(report) == {"format", "settings", "rounds_played", "seating", "participants", "pairwise",
                           "ratings", "positions"}
    assert report["format"] == "loveletter-tournament/1"
    assert report["settings"] == {"edition": "classic", "players": 2, "lineup": ["beginner", "random"],
                                  "mode": "rounds", "games": 120, "seed": 2, "budget": None}
    assert report["rounds_played"] == 120
    assert report["seating"]["balanced"] is True
    assert report["seating"]["levels"]["beginner"] == {"seats": [60, 60], "positions": [60, 60], "starts": 60}
    for p in report["participants"]:
        assert set(p) == {"level", "seats", "games", "wins", "shared_wins", "win_rate", "ci95", "rating",
                          "rating_se"}
        assert p["games"] == 120 and 0 <= p["ci95"][0] <= p["win_rate"] <= p["ci95"][1] <= 1
        assert isinstance(p["rating"], float) and p["rating_se"] > 0
    assert sum(p["rating"] for p in report["participants"]) == pytest.approx(0, abs=1e-9)
    (pair,) = report["pairwise"]
    assert set(pair) == {"a", "b", "games", "a_only", "b_only", "both", "neither"}
    assert pair["a_only"] + pair["b_only"] + pair["both"] + pair["neither"] == pair["games"] == 120
    assert report["ratings"]["model"] == "bradley-terry" and report["ratings"]["anchor"] == "mean 0"
    assert report["ratings"]["errors"] == "cluster-robust by game" and report["ratings"]["finite"]
    assert [p["position"] for p in report["positions"]] == [0, 1]
    assert sum(p["wins"] for p in report["positions"]) >= 120


def test_the_same_json_for_any_number_of_jobs():
    """The whole object, settings included: how the games were spread over processes is not in it."""
    args = ("--matches", 40, "--bots", "beginner,random,random", "--seed", 3, "--json")
    one = json.loads(ok(run(*args, "--jobs", 1)))
    assert json.loads(ok(run(*args, "--jobs", 2))) == one


# ------------------------------------------------------------------------------------ files


def test_csv_plot_and_records(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    proc = run("--matches", 6, "--bots", "beginner,random,random", "--seed", 5, "--jobs", 2,
               "--csv", out / "levels.csv", "--plot", out / "ratings.png", "--records", out / "games", "--quiet")
    text = ok(proc)
    assert "Tournament: 6 matches" in text
    with (out / "levels.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["level"] for r in rows] == ["beginner", "random"] or [r["level"] for r in rows] == ["random", "beginner"]
    assert list(rows[0]) == ["level", "seats", "games", "wins", "shared_wins", "win_rate", "ci95_low",
                             "ci95_high", "rating", "rating_se"]
    by_level = {r["level"]: r for r in rows}
    assert by_level["random"]["seats"] == "2" and by_level["random"]["games"] == "12"
    assert float(by_level["beginner"]["ci95_low"]) <= float(by_level["beginner"]["win_rate"])

    png = (out / "ratings.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert width >= 400 and height >= 150

    files = sorted((out / "games").iterdir())
    assert [f.name for f in files] == [f"game-{i:06d}.json" for i in range(6)]
    for i, path in enumerate(files):
        told = summary(replay(load(path)))
        assert told["finished"] and told["winners"]
        seats = [(s + i) % 3 for s in range(3)]
        levels = ["beginner", "random", "random"]
        assert told["players"] == [f"{levels[e]}-{seat}" for seat, e in enumerate(seats)]
        assert told["rounds"][0]["starter"] == (i // 3) % 3
    # the replay command reads them too
    proc = subprocess.run([str(LOVELETTER), "replay", str(files[0]), "--json"], capture_output=True, text=True,
                          env=_env(), check=False)
    assert proc.returncode == 0 and json.loads(proc.stdout)["finished"]


# ------------------------------------------------------------------------------------ refusals


@pytest.mark.parametrize(("args", "says"), [
    (["--bots", "beginner,grandmaster"], "unknown bot level 'grandmaster'"),
    (["--bots", "grandmaster,random,wizard"], "unknown bot level 'grandmaster'"),  # the first, as read
    (["--bots", "random,GrandMaster"], "unknown bot level 'GrandMaster'"),  # quoted as typed, not lower-cased
    (["--bots", "x" * 5000], f"unknown bot level '{'x' * 40}…': choose from"),  # quoted whole, 5,000 letters
    (["--bots", "random,," + "x" * 5000], f"--bots: empty level in 'random,,{'x' * 32}…'"),
    (["--bots", ","], "list at least one bot level"),
    (["--bots", "expert,,beginner"], "--bots: empty level in 'expert,,beginner'"),
    (["--bots", "beginner,random,"], "--bots: empty level in 'beginner,random,'"),
    (["--rounds", 10, "--matches", 2], "give --rounds or --matches, not both"),
    (["--players", 5], "the classic edition is for 2-4 players, not 5"),
    (["--players", 1], "the classic edition is for 2-4 players, not 1 (R2.1)"),  # its own range, not 2-6
    (["--players", 0], "the classic edition is for 2-4 players, not 0 (R2.1)"),
    (["--edition", "2019", "--players", 7], "the 2019 edition is for 2-6 players, not 7 (R2.1)"),
    (["--edition", "2019", "--bots", ",".join(["random"] * 7)],
     "--bots: 7 levels listed, but the 2019 edition is for 2-6 players (R2.1)"),
    (["--bots", "beginner,random,random", "--players", 2], "lists 3 levels, more than the 2 players"),
    (["--plot", "/no/such/folder/ratings.png"], "--plot: the folder /no/such/folder does not exist"),
    (["--plot", "ratings.svg"], "give a file name ending in .png"),
    (["--plot", "/proc/version.png"], "--plot: cannot write to /proc/version.png"),
    (["--csv", "."], "--csv: . is a folder"),
    (["--csv", "/proc/version/rates.csv"], "--csv: /proc/version is a file, not a folder"),
    (["--records", "/proc/version"], "--records: /proc/version is a file, not a folder"),
    (["--budget", 0], "Invalid value for '--budget'"),
    (["--rounds", 0], "Invalid value for '--rounds'"),
    (["--jobs", 0], "Invalid value for '--jobs'"),
    (["--jobs", 10**6], "--jobs: at most "),  # (some 4,000 processes for 10^6 rounds)
    (["--backend", "spark"], "Invalid value for '--backend'"),
    (["--edition", "1999"], "Invalid value for '--edition'"),
    (["--frobnicate"], "No such option"),
    (["--bots", "beginner,random", "--budget", 50], "--budget: no bot here thinks with a budget (only expert)"),
    (["--rounds", 10**12], "--rounds: play at most 10\u2009000\u2009000 games in one tournament, not 1\u2009000\u2009000\u2009000\u2009000"),
    (["--matches", 10**7 + 1], "--matches: play at most 10\u2009000\u2009000 games"),
    (["--records", "new/deeper", "--bots", "beginner,grandmaster"], "unknown bot level 'grandmaster'"),
    (["--csv", "a" * 300 + ".csv"], f"--csv: cannot write to {'a' * 300}.csv: the name is too long"),
    (["--plot", "a" * 300 + ".png"], f"--plot: cannot write to {'a' * 300}.png: the name is too long"),
    (["--records", "a" * 300], f"--records: cannot write to {'a' * 300}: the name is too long"),
    (["--records", "made/" + "a" * 300 + "/deeper"], "the name is too long"),  # made/ is made and removed
    (["--csv", "same.png", "--plot", "same.png"], "--csv and --plot both name same.png: give each its own"),
    (["--csv", "out", "--records", "./out"], "--csv and --records both name out"),
    (["--plot", "./p.png", "--records", "p.png"], "--plot and --records both name p.png"),
    (["--records", "out", "--csv", "out/game-000003.json"],
     "--csv names out/game-000003.json, where --records would keep a game's record: choose another name"),
])
def test_bad_options_get_one_line(args, says, tmp_path):
    line = refused(run(*args, cwd=tmp_path))
    assert says in line
    assert list(tmp_path.iterdir()) == []  # nothing left behind


def test_a_plot_named_dot_png_is_drawn(tmp_path):
    """(It was refused with "give a file name ending in .png, not .png", as --csv .csv is not.)"""
    ok(run("--rounds", 2, "--jobs", 1, "-q", "--plot", ".png", cwd=tmp_path))
    assert (tmp_path / ".png").read_bytes().startswith(b"\x89PNG")


def test_a_plot_is_drawn_quietly_where_matplotlib_cannot_keep_its_settings(tmp_path):
    """A HOME that cannot be written (a container): matplotlib's warnings about its settings folder
    went to standard error, --quiet or not."""
    env = _env()
    env.pop("MPLCONFIGDIR", None)
    env["HOME"] = str(tmp_path / "not-a-folder")
    (tmp_path / "not-a-folder").write_text("")
    ok(run("--rounds", 2, "--jobs", 1, "--plot", "p.png", env=env, cwd=tmp_path))
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")


def test_a_records_folder_with_earlier_records_is_refused(tmp_path):
    ok(run("--rounds", 4, "--jobs", 1, "--records", "kept", cwd=tmp_path))
    line = refused(run("--rounds", 2, "--jobs", 1, "--records", "kept", cwd=tmp_path))
    assert line.endswith("--records: kept already holds game records; choose a new or empty folder"
                         " (see 'loveletter tournament --help')")
    assert len(list((tmp_path / "kept").iterdir())) == 4  # untouched
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    (tmp_path / "other" / "settings.json").write_text('{"format": "mine"}')
    os.mkfifo(tmp_path / "other" / "pipe.json")  # (opened to be read, it held the start for ever)
    ok(run("--rounds", 2, "--jobs", 1, "--records", "other", cwd=tmp_path))  # other files are no records
    # records under another name, or a tournament's in a subfolder, are records too (they were taken)
    kept = sorted((tmp_path / "kept").iterdir())
    (tmp_path / "elsewhere" / "sub").mkdir(parents=True)
    kept[0].rename(tmp_path / "elsewhere" / "match-a.json")
    kept[1].rename(tmp_path / "elsewhere" / "sub" / "game-000000.json")
    line = refused(run("--rounds", 2, "--jobs", 1, "--records", "elsewhere", cwd=tmp_path))
    assert "--records: elsewhere already holds game records" in line
    (tmp_path / "elsewhere" / "match-a.json").unlink()
    assert "already holds game records" in refused(run("--rounds", 2, "--jobs", 1, "--records", "elsewhere", cwd=tmp_path))
    assert sorted(p.name for p in (tmp_path / "other").iterdir()) == ["game-000000.json", "game-000001.json",
                                                                       "notes.txt", "pipe.json", "settings.json"]


def test_a_records_folder_named_by_a_link_to_nothing_is_made_where_it_leads(tmp_path):
    """A link to nothing was refused as a name that "already exists" (as was a loop of links), where
    --csv writes through such a link."""
    (tmp_path / "link").symlink_to("made")
    ok(run("--rounds", 2, "--jobs", 1, "--records", "link", cwd=tmp_path))
    assert sorted(p.name for p in (tmp_path / "made").iterdir()) == ["game-000000.json", "game-000001.json"]
    (tmp_path / "loop").symlink_to("round")
    (tmp_path / "round").symlink_to("loop")
    line = refused(run("--rounds", 2, "--jobs", 1, "--records", "loop", cwd=tmp_path))
    assert line.endswith("--records: cannot write to loop: too many symbolic links (a loop?)"
                         " (see 'loveletter tournament --help')")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "loop", "made", "round"]


# Long tournaments to stop: one whose first games take seconds (the expert's), and one whose games
# come back a thousand a second, so that records are being written whenever it is stopped.
SLOW_TO_START = ("--bots", "expert,beginner", "--rounds", "2000")
QUICK_GAMES = ("--bots", "beginner,random", "--rounds", "400000")


def _error_once_ended(proc: subprocess.Popen[bytes], timeout: float = 60) -> bytes:
    """What ``proc`` wrote to standard error, once it has ended. One still running after ``timeout``
    seconds is killed, its process group with it where it leads one: a failing test must not leave
    a tournament of 400,000 rounds playing on beside the rest of the suite."""
    try:
        return proc.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        if os.getpgid(proc.pid) == proc.pid:  # started in a session of its own: its workers too
            os.killpg(proc.pid, signal.SIGKILL)
        proc.kill()
        proc.communicate()
        raise


def _stop_with_ctrl_c(tmp_path: Path, jobs: int, when: Callable[[], bool], waiting_for: str,
                      tournament: tuple[str, ...] = SLOW_TO_START) -> None:
    """Start a long ``tournament`` keeping records in made/for/records, and press Ctrl-C as soon as
    ``when()`` holds; it must stop with status 130 and no traceback."""
    proc = subprocess.Popen([str(LOVELETTER), "tournament", *tournament,
                             "--jobs", str(jobs), "-q", "--records", "made/for/records"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    deadline = time.monotonic() + 120
    while not when() and time.monotonic() < deadline:
        time.sleep(0.05)
    if not when():  # then there would be nothing to check: say so rather than pass
        proc.kill()
        proc.communicate()
        pytest.fail(f"no {waiting_for} within 120 s: too slow to test Ctrl-C")
    proc.send_signal(signal.SIGINT)
    err = _error_once_ended(proc)
    assert proc.returncode == 130 and b"Traceback" not in err


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_only_whole_records(tmp_path, jobs):
    """Records are saved as the games come back: stopped with Ctrl-C while it writes them, the
    tournament leaves whole records that replay (never a half-written file)."""
    folder = tmp_path / "made/for/records"
    _stop_with_ctrl_c(tmp_path, jobs, lambda: any(folder.glob("game-*.json")), "game record", QUICK_GAMES)
    files = sorted(folder.iterdir())
    assert files and all(f.suffix == ".json" for f in files)
    for f in files:
        assert replay(load(f)).match.rounds  # whole and valid


def test_ctrl_c_mid_run_is_told_in_one_line(tmp_path):
    """Ctrl-C (to the whole process group, as a terminal sends it) at ten moments of a run: each time
    one line and status 130. The pool's own thread used to race with Python's clearing up at exit
    (a traceback after "interrupted", 2 runs in 20)."""
    told = []
    for n in range(10):
        proc = subprocess.Popen([str(LOVELETTER), "tournament", "--bots", "beginner,random", "--rounds", "400000",
                                 "--jobs", "2", "-q"], cwd=tmp_path, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=_env(), start_new_session=True)
        time.sleep(0.8 + 0.3 * n)  # (after start-up: a Ctrl-C among Python's own imports is Python's)
        os.killpg(proc.pid, signal.SIGINT)
        err = _error_once_ended(proc)
        told.append((proc.returncode, err.decode()))
    # exactly one line: click wrote an empty one first, into a file too (on a terminal it ends the "^C")
    assert told == [(130, "loveletter tournament: interrupted.\n")] * 10


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # (ended meanwhile)
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc (Linux)")
@pytest.mark.parametrize(("signum", "to_group", "a_job"),
                         [(signal.SIGTERM, False, False), (signal.SIGHUP, True, False),
                          (signal.SIGTERM, False, True), (signal.SIGTERM, True, True)],
                         ids=["kill-the-command", "hang-up-to-the-group", "kill-a-job", "kill-a-jobs-group"])
def test_a_hang_up_or_sigterm_stops_the_tournament_as_ctrl_c_does(tmp_path, signum, to_group, a_job):
    """`kill` of the command ended it alone, in silence: its workers played on, orphaned, and held its
    output open for ever. A hang-up to the whole group (a closed terminal) ended the resource tracker
    too, with five tracebacks. Now either is told in one line, the workers and the tracker stop with
    the command, and the status is 128 + the signal's number. So too for a job a script started with
    ``&``, which ignores Ctrl-C (and still does: the terminal's Ctrl-C is not for it); there a `kill`
    of the command alone had left its workers playing on."""
    proc = subprocess.Popen([str(LOVELETTER), "tournament", "--bots", "beginner,random", "--rounds", "400000",
                             "--jobs", "2", "-q"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env(), start_new_session=True,
                            preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if a_job else None)
    deadline = time.monotonic() + 60
    while len(_children(proc.pid)) < 3 and time.monotonic() < deadline:  # two workers and the tracker
        time.sleep(0.1)
    helpers = _children(proc.pid)
    assert len(helpers) == 3
    time.sleep(1)  # (the workers playing)
    if a_job:
        os.killpg(proc.pid, signal.SIGINT)  # a Ctrl-C at the terminal
        time.sleep(1)
        assert proc.poll() is None and all(Path(f"/proc/{pid}").exists() for pid in helpers)
    if to_group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    err = _error_once_ended(proc)
    assert (proc.returncode, err.decode()) == (128 + signum, "loveletter tournament: interrupted.\n")
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in helpers if Path(f"/proc/{pid}").exists()]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_terminal_that_closes_stops_the_tournament_with_129(tmp_path, jobs):
    """A real terminal closing (a hang-up, and then every write to it failing) ended the tournament
    with status 1 and tracebacks: the progress bar's last write failed, and was told as a record
    that could not be saved."""
    import pty

    pid, terminal = pty.fork()
    if pid == 0:  # the child: the tournament, its output the terminal
        os.chdir(tmp_path)
        os.execve(str(LOVELETTER), [str(LOVELETTER), "tournament", "--bots", "beginner,random", "--rounds",
                                    "400000", "--jobs", str(jobs)], _env())
    try:
        deadline = time.monotonic() + 60
        shown = b""
        while b"\xe2\x94\x81" not in shown and time.monotonic() < deadline:  # its progress bar: playing
            if select.select([terminal], [], [], 0.1)[0]:
                shown += os.read(terminal, 4096)
        assert b"\xe2\x94\x81" in shown, shown
    finally:
        os.close(terminal)  # the terminal goes away
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 128 + signal.SIGHUP


def test_ctrl_c_before_any_game_leaves_no_folder(tmp_path):
    """The records' folder is made (and checked) before the first game; stopped before any game came
    back (the first 32 take the expert seconds), the tournament removes the folders it made."""
    _stop_with_ctrl_c(tmp_path, 1, (tmp_path / "made/for/records").exists, "records folder")
    assert list(tmp_path.iterdir()) == []


def test_two_names_of_one_file_are_refused_and_a_file_may_go_in_the_new_records_folder(tmp_path):
    (tmp_path / "rates.csv").write_text("mine")
    os.link(tmp_path / "rates.csv", tmp_path / "rates.png")  # a second name of the same file
    line = refused(run("--rounds", 4, "--csv", "rates.csv", "--plot", "rates.png", cwd=tmp_path))
    # (said as "--csv and --plot both name rates.png", where --csv named rates.csv)
    assert "--csv rates.csv and --plot rates.png are one file (a link): give each its own" in line
    # one file by a path and by its whole path is no link
    line = refused(run("--rounds", 4, "--csv", "rates.csv", "--plot", str(tmp_path / "rates.csv"), cwd=tmp_path))
    assert f"--csv and --plot both name {tmp_path / 'rates.csv'}: give each its own" in line
    assert (tmp_path / "rates.csv").read_text() == "mine"
    ok(run("--rounds", 4, "--jobs", 1, "--records", "new", "--csv", "new/summary.csv", cwd=tmp_path))
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == [
        "game-000000.json", "game-000001.json", "game-000002.json", "game-000003.json", "summary.csv"]


def test_the_records_names_sort_in_the_order_played_up_to_the_most_games():
    """Named with six digits, the records of games past 999,999 (10,000,000 are allowed) sorted among
    the others ("game-1000000.json" before "game-999999.json")."""
    assert [record_name(i, 4) for i in range(4)] == [f"game-00000{i}.json" for i in range(4)]
    for games in (10, 999_999, 1_000_000, 1_000_001, 10_000_000):
        names = [record_name(i, games) for i in (0, 9, 10, 99_999, 100_000, 999_999, 1_000_000, games - 1)
                 if i < games]
        assert sorted(names) == names and len({len(name) for name in names}) == 1, names


def test_the_csv_and_the_plot_are_written_whole_or_not_at_all(tmp_path):
    """Written beside the file and renamed into place: stopped halfway (Ctrl-C), the old file stays
    as it was and nothing is left beside it; once done, the file keeps its permissions."""
    from loveletter.cli.tournament import _write_whole

    old = tmp_path / "rates.csv"
    old.write_text("mine")
    old.chmod(0o640)

    def halfway(aside: Path) -> None:
        aside.write_text("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _write_whole(old, halfway)
    assert old.read_text() == "mine" and [p.name for p in tmp_path.iterdir()] == ["rates.csv"]
    _write_whole(old, lambda aside: aside.write_text("new"))
    assert old.read_text() == "new" and (old.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["rates.csv"]


def test_a_ctrl_c_while_the_plot_is_drawn_changes_neither_file(tmp_path, monkeypatch, options_for):
    """The CSV was written before the plot was drawn (matplotlib takes a second to start): a Ctrl-C
    then left the new CSV beside the old plot. Now the plot is drawn first and both are written
    after it, with Ctrl-C held; stopped while drawing, neither file changes."""
    import loveletter.cli.tournament as command
    from loveletter.i18n import Translator

    report = json.loads(ok(run("--rounds", 4, "--jobs", 1, "--json")))
    (tmp_path / "old.csv").write_text("old figures")
    (tmp_path / "old.png").write_bytes(b"old plot")
    options = options_for(as_json=True, csv_path=tmp_path / "old.csv", plot_path=tmp_path / "old.png")

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "plot", interrupted)
    with pytest.raises(KeyboardInterrupt):
        command._write_files(options, Translator("en"), report, None)
    assert (tmp_path / "old.csv").read_text() == "old figures"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv", "old.png"]
    monkeypatch.undo()
    assert command._write_files(options, Translator("en"), report, None) == 0
    assert (tmp_path / "old.csv").read_text().startswith("level,seats,games")
    assert (tmp_path / "old.png").read_bytes().startswith(b"\x89PNG")


def test_a_csv_to_standard_output_in_a_file_and_a_file_with_two_names(tmp_path):
    """``--csv /dev/stdout > out.txt``: the CSV and the tables both end up in the file (reopening
    it would write over one with the other); a CSV file with a second name is written in place, so
    both names show the new figures."""
    with (tmp_path / "out.txt").open("w") as out:
        proc = subprocess.run([str(LOVELETTER), "tournament", "--rounds", "4", "--jobs", "1", "--csv", "/dev/stdout"],
                              cwd=tmp_path, stdout=out, stderr=subprocess.PIPE, text=True, env=_env(), check=False)
    assert proc.returncode == 0 and proc.stderr == ""
    text = (tmp_path / "out.txt").read_text()
    assert text.startswith("level,seats,games") and "Results per level" in text
    (tmp_path / "rates.csv").write_text("old")
    os.link(tmp_path / "rates.csv", tmp_path / "also.csv")
    ok(run("--rounds", 4, "--jobs", 1, "--csv", "rates.csv", cwd=tmp_path))
    assert (tmp_path / "also.csv").read_text().startswith("level,seats,games")


def test_a_csv_to_the_file_that_is_standard_input(tmp_path):
    """``--csv in.csv < in.csv``: standard input is only read, so the file is replaced as any other
    (it was written through the descriptor of standard input, which is open for reading only)."""
    (tmp_path / "in.csv").write_text("old")
    with (tmp_path / "in.csv").open() as given:
        proc = subprocess.run([str(LOVELETTER), "tournament", "--rounds", "4", "--jobs", "1", "-q", "--csv", "in.csv"],
                              cwd=tmp_path, stdin=given, capture_output=True, text=True, env=_env(), check=False)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert (tmp_path / "in.csv").read_text().startswith("level,seats,games")


def test_the_command_line_loads_without_numpy():
    """The command line loads the bots; numpy loaded with them slowed its start and changed the worker
    processes' start-up enough that the next test failed 5 runs in 6 (a worker's traceback)."""
    loaded = subprocess.run([sys.executable, "-c", "import sys, loveletter.cli.main; print('numpy' in sys.modules)"],
                            capture_output=True, text=True, timeout=60, check=True)
    assert loaded.stdout == "False\n"


def test_ctrl_c_while_the_workers_start_is_told_once(tmp_path):
    """Ctrl-C reaches every process of the terminal's group: pressed while the worker processes are
    still starting up, only the tournament itself answers (one line, no worker tracebacks)."""
    children = Path("/proc/self/task")
    if not children.is_dir():
        pytest.skip("needs /proc to see when the worker processes start")
    interrupted = 0
    for delay in (0.0, 0.01, 0.02, 0.05, 0.1, 0.2):
        proc = subprocess.Popen([str(LOVELETTER), "tournament", "--bots", "expert,beginner", "--rounds", "40",
                                 "--jobs", "2", "-q"], cwd=tmp_path, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=_env(), start_new_session=True)
        started = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        if not started.exists():  # a kernel that does not list children
            proc.kill()
            proc.communicate()
            pytest.skip("needs /proc/PID/task/PID/children to see when the worker processes start")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None and not started.read_text().strip():
            time.sleep(0.01)  # until the first worker process exists
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole group
        err = _error_once_ended(proc)
        if proc.returncode == 0:  # it finished first (a fast machine): nothing to see
            continue
        assert proc.returncode == 130
        assert err.decode() == "loveletter tournament: interrupted.\n"
        interrupted += 1
    assert interrupted  # (40 expert rounds take seconds: the first tries, at least, come before the end)


@pytest.mark.parametrize(("lang", "told"), [("en", "loveletter tournament: interrupted."), ("nl", "loveletter tournament: onderbroken.")])
def test_ctrl_c_while_the_command_line_loads_is_told_in_one_line(tmp_path, lang, told):
    """The command line takes a third of a second to load on a busy machine; a Ctrl-C then gave a
    traceback through the modules being loaded. Here the Ctrl-C comes exactly then: while
    ``loveletter.cli.main`` is imported by the entry point."""
    script = (
        "import sys\n"
        "class CtrlC:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'loveletter.cli.main':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, CtrlC())\n"
        f"sys.argv = ['loveletter', '--lang', {lang!r}, 'tournament']\n"
        "from loveletter.cli.start import run\n"
        "run()\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=_env(), check=False,
                          cwd=tmp_path)
    assert proc.returncode == 130 and proc.stdout == ""
    assert proc.stderr.splitlines() == [told]
    entry = (ROOT / "pyproject.toml").read_text()
    assert 'loveletter = "loveletter.cli.start:run"' in entry  # the command is this entry point


def test_closed_standard_output_is_no_traceback_and_refused_if_nothing_else_is_written(tmp_path):
    proc = subprocess.run([str(LOVELETTER), "tournament", "--rounds", "4", "--jobs", "1", "--csv", "rates.csv"],
                          cwd=tmp_path, stderr=subprocess.PIPE, text=True, env=_env(), check=False,
                          preexec_fn=lambda: os.close(1))  # as `>&-` in a shell
    assert proc.returncode == 0 and proc.stderr == ""
    assert (tmp_path / "rates.csv").read_text().startswith("level,seats,games")
    # with no file asked for, the results would go nowhere: refused before any game is played
    for nowhere in (["--json"], ["--csv", "-"]):  # (--csv - is standard output too)
        proc = subprocess.run([str(LOVELETTER), "tournament", "--rounds", "4", "--jobs", "1", *nowhere],
                              cwd=tmp_path, stderr=subprocess.PIPE, text=True, env=_env(), check=False,
                              preexec_fn=lambda: os.close(1))
        assert proc.returncode == 2
        assert proc.stderr.startswith("loveletter tournament: could not write the output: standard output is closed")
        assert len(proc.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rates.csv"]


def test_a_file_called_dash_is_named_as_given_not_as_standard_output(tmp_path):
    """``--records ./-`` where ./- is a file was told as "--records: - is a file": "-" alone means
    standard output on this command line."""
    (tmp_path / "-").write_text("")
    assert "--records: ./- is a file, not a folder" in refused(run("--rounds", 4, "--records", "./-", cwd=tmp_path))
    (tmp_path / "-x").mkdir()
    assert "--csv: ./-x is a folder" in refused(run("--rounds", 4, "--csv", "./-x", cwd=tmp_path))
    with (tmp_path / "-y").open("w") as out:  # standard output itself, by a file's name
        proc = subprocess.run([str(LOVELETTER), "tournament", "--rounds", "4", "--json", "--csv", "./-y"], stdout=out,
                              stderr=subprocess.PIPE, text=True, env=_env(), cwd=tmp_path, timeout=120, check=False)
    assert proc.returncode == 2 and "--json and --csv ./-y both print to standard output" in proc.stderr
    assert "--json and --csv - both" in refused(run("--rounds", 4, "--json", "--csv", "-"))  # (standard output as "-")


def test_links_are_followed_and_a_refusal_leaves_them_as_they_were(tmp_path):
    """The write test goes through a link, even one to a file not made yet, and neither makes nor
    removes anything: a refused run leaves a dangling link dangling."""
    (tmp_path / "there").mkdir()
    link = tmp_path / "link.csv"
    link.symlink_to(tmp_path / "there" / "target.csv")
    (tmp_path / "afile").write_text("mine")
    line = refused(run("--rounds", 4, "--csv", "link.csv", "--records", "afile", cwd=tmp_path))
    assert "--records: afile is a file, not a folder" in line
    assert link.is_symlink() and not (tmp_path / "there" / "target.csv").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "link.csv", "there"]
    assert list((tmp_path / "there").iterdir()) == []

    (tmp_path / "nowhere.csv").symlink_to(tmp_path / "gone" / "target.csv")
    line = refused(run("--rounds", 4, "--csv", "nowhere.csv", cwd=tmp_path))
    assert f"--csv: the folder {tmp_path / 'gone'} does not exist" in line
    (tmp_path / "loop.csv").symlink_to("loop.csv")
    line = refused(run("--rounds", 4, "--csv", "loop.csv", cwd=tmp_path))
    assert "--csv: cannot write to loop.csv: too many symbolic links (a loop?)" in line
    (tmp_path / "other.png").symlink_to("there/target.png")
    line = refused(run("--rounds", 4, "--plot", "other.png", "--csv", "there/target.png", cwd=tmp_path))
    assert "--csv there/target.png and --plot other.png are one file (a link): give each its own" in line
    assert list((tmp_path / "there").iterdir()) == []

    ok(run("--rounds", 4, "--jobs", 1, "--csv", "link.csv", cwd=tmp_path))
    assert (tmp_path / "there" / "target.csv").read_text(encoding="utf-8").startswith("level,seats,")
    assert link.is_symlink()


def test_csv_to_standard_output_on_a_pipe(tmp_path):
    """/dev/stdout (or bash's >(...)) on a pipe leads to /proc/PID/fd/pipe:[N], a name for nothing:
    the path itself is tested, not where realpath() says it leads."""
    out = ok(run("--bots", "random,beginner", "--rounds", 4, "-q", "--csv", "/dev/stdout", cwd=tmp_path))
    assert out.startswith("level,seats,games,wins,")
    assert "Tournament: 4 single rounds" in out
    assert list(tmp_path.iterdir()) == []


def test_a_dash_is_standard_output_for_the_csv_and_refused_for_the_plot_and_the_records(tmp_path):
    """'--csv -' prints the CSV in place of the tables (it wrote a file named '-'); '-' can be no PNG
    file and no folder of records, and with --json two things would go to standard output."""
    out = ok(run("--bots", "random,beginner", "--rounds", 4, "--jobs", 1, "--csv", "-", cwd=tmp_path))
    rows = list(csv.reader(io.StringIO(out, newline="")))
    assert rows[0][:4] == ["level", "seats", "games", "wins"] and sorted(r[0] for r in rows[1:]) == ["beginner", "random"]
    assert sum(int(r[3]) for r in rows[1:]) >= 4  # every round won by someone
    for args, says in ((["--plot", "-"], "--plot: '-' would be standard output, where no PNG image goes; give a file name ending in .png"),
                       (["--records", "-"], "--records: '-' would be standard output, which holds no records; give a folder name"),
                       (["--csv", "-", "--json"], "--json and --csv - both print to standard output: choose one")):
        line = refused(run("--rounds", 4, *args, cwd=tmp_path))
        assert line == f"loveletter tournament: {says} (see 'loveletter tournament --help')"
    assert list(tmp_path.iterdir()) == []
    # standard output by another name: the CSV was printed before the JSON object
    line = refused(run("--rounds", 4, "--csv", "/dev/stdout", "--json", cwd=tmp_path))
    assert line == ("loveletter tournament: --json and --csv /dev/stdout both print to standard output: choose one"
                    " (see 'loveletter tournament --help')")
    # "./-" names a file called "-" (Path("./-") == Path("-"): the option keeps them apart)
    assert ok(run("--rounds", 4, "--jobs", 1, "--csv", "./-", "--plot", "./-.png", cwd=tmp_path)).startswith("Tournament")
    assert (tmp_path / "-").read_text(encoding="utf-8").startswith("level,seats,")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["-", "-.png"]


def test_a_named_pipe_is_refused_without_a_reader_and_written_with_one(tmp_path):
    """Nobody reading the pipe: one line at once, not a wait for ever. A reader that stops at the end
    of what is written (cat) gets the whole CSV: the write test does not end it first."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs named pipes")
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    args = ("--bots", "random,beginner", "--rounds", 4, "-q", "--csv", pipe)
    line = refused(run(*args, cwd=tmp_path, timeout=30))  # a wait for ever fails here, after 30 s
    assert line.startswith(f"loveletter tournament: --csv: cannot write to {pipe}: ")
    assert sorted(tmp_path.iterdir()) == [pipe]

    reader = subprocess.Popen(["cat", str(pipe)], stdout=subprocess.PIPE, text=True)
    try:
        for _ in range(100):  # until cat has the pipe open: refused before, and cat none the wiser
            proc = run(*args, cwd=tmp_path, timeout=30)
            if proc.returncode != 2:
                break
            time.sleep(0.1)
        ok(proc)
        got, _ = reader.communicate(timeout=30)
    finally:
        reader.kill()
        reader.wait()
    assert got.startswith("level,seats,games,wins,") and len(got.splitlines()) == 3


def test_a_worker_that_dies_ends_it_in_one_line_and_keeps_the_records(tmp_path):
    """A worker killed (as the system's out-of-memory killer would): one line, status 1, and the
    records saved before it stay."""
    children = Path("/proc/self/task") / str(os.getpid()) / "children"
    if not children.exists():
        pytest.skip("needs Linux's /proc/PID/task/PID/children to find the workers")
    proc = subprocess.Popen([str(LOVELETTER), "tournament", *QUICK_GAMES, "--jobs", "2", "-q", "--records", "records"],
                            cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    try:
        folder = tmp_path / "records"
        deadline = time.monotonic() + 60
        while not any(folder.glob("game-*.json")) and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = []
        for pid in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split():
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():  # not the resource tracker
                workers.append(int(pid))
        assert workers
        os.kill(workers[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 1 and out == ""
    assert err == "loveletter tournament: a worker process stopped unexpectedly (out of memory?)\n"
    files = sorted(folder.iterdir())
    assert files and all(f.name.startswith("game-") for f in files)
    for f in files:
        assert replay(load(f)).match.rounds  # whole and valid


def test_a_broken_pool_is_told_in_one_line_in_either_language(tmp_path, monkeypatch, told_a_worker_died):
    """The same, in this process: the runner saves one chunk of records, then the pool breaks."""
    from loveletter.cli import tournament as command

    play = command.run_tournament

    def breaks(settings, *, on_records, **_):
        play(replace(settings, games=2), jobs=1, records=True, on_records=on_records)
        raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    monkeypatch.setattr(command, "run_tournament", breaks)
    for language in ("en", "nl"):
        folder = tmp_path / language
        told_a_worker_died("local", language, records=folder)
        assert sorted(p.name for p in folder.iterdir()) == ["game-000000.json", "game-000001.json"]


@pytest.mark.parametrize(("meanwhile", "says"), [
    (lambda folder: (folder / "game-000001.json").write_text("another run's"),
     "--records: {folder}/game-000001.json was written meanwhile by another run: its records and these would mix;"
     " stopped"),
    (shutil.rmtree, "--records: the folder {folder} went away during the run; stopped"),
], ids=["another-run", "folder-gone"])
def test_records_another_run_writes_or_a_folder_gone_stop_the_run(tmp_path, monkeypatch, capsys, options_for, meanwhile,
                                                                   says):
    """Two runs writing to one new folder mixed their records, each reporting success (a record was
    renamed over the other's); a folder removed during the run was made again, with the later records
    alone, and the run ended with status 0."""
    from loveletter.cli import tournament as command

    play = command.run_tournament
    folder = tmp_path / "records"

    def meanwhile_at_the_second(settings, *, on_records, **_):
        def saving(first, docs):
            if first == 1:
                meanwhile(folder)
            on_records(first, docs)
        return play(replace(settings, games=3), jobs=1, records=True, on_records=saving)

    monkeypatch.setattr(command, "run_tournament", meanwhile_at_the_second)
    options = options_for(rounds=3, as_json=True, records=folder)
    assert command.tournament(options) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"loveletter tournament: {says.format(folder=folder)}\n"
    if meanwhile is shutil.rmtree:  # not made again
        assert not folder.exists()
    else:  # the other run's record as it wrote it, and none of ours after it
        assert sorted(p.name for p in folder.iterdir()) == ["game-000000.json", "game-000001.json"]
        assert (folder / "game-000001.json").read_text() == "another run's"


def test_a_failed_game_is_told_with_the_levels_in_the_language_of_the_command(monkeypatch, capsys, options_for):
    """(In Dutch it named the levels in English: 'partij 37 (random, beginner) mislukt'.)"""
    from loveletter.cli import tournament as command
    from loveletter.tournament import GameFailed

    def fails(settings, **_):
        raise GameFailed(37, ("random", "beginner"), RuntimeError("no idea"))

    monkeypatch.setattr(command, "run_tournament", fails)
    options = options_for(rounds=10, language="nl")
    assert command.tournament(options) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == ("loveletter tournament: partij 37 (willekeurig, beginner) mislukt: "
                                 "RuntimeError: no idea\n")


def test_the_default_number_of_processes_is_the_cores_this_process_may_use(monkeypatch):
    from loveletter.tournament import default_jobs

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert default_jobs() == 1  # (under taskset -c 0 it said 2 processes on this machine's two cores)


def test_refusals_in_dutch(tmp_path):
    line = refused(run("--bots", "beginner,grootmeester", "--lang", "nl", cwd=tmp_path))
    assert line.startswith("loveletter tournament: --bots: onbekend niveau 'grootmeester': kies uit willekeurig, beginner")
    line = refused(run("--bots", ",".join(["random"] * 5), "--lang", "nl", cwd=tmp_path))
    assert line.endswith("--bots: 5 niveaus genoemd, maar de klassieke editie is voor 2-4 spelers (R2.1)"
                         " (zie 'loveletter tournament --help')")
    line = refused(run("--players", 5, "--lang", "nl", cwd=tmp_path))
    assert line.endswith("--players: de klassieke editie is voor 2-4 spelers, niet 5 (R2.1)"
                         " (zie 'loveletter tournament --help')")
    line = refused(run("--rounds", 3, "--matches", 3, env=_env(LANG="nl_NL.UTF-8"), cwd=tmp_path))
    assert "niet allebei" in line


def test_ray_backend_without_ray_says_how_to_install_it(tmp_path):
    fake = tmp_path / "ray"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('No module named ray')\n")
    line = refused(run("--backend", "ray", "--rounds", 10, env=_env(PYTHONPATH=str(tmp_path)), cwd=ROOT))
    # (a wheel installed has no project's folder; the package index's "loveletter" is another project)
    assert line.endswith("needs Ray, which is not installed: pip install -e '.[ray]' in the project's folder (or pip"
                         " install 'WHEEL[ray]' with the wheel installed) (see 'loveletter tournament --help')")


# ------------------------------------------------------------------------------------ on a terminal


def _with_terminal_stderr(*args: object) -> tuple[int, str, str]:
    """Run with standard error on a pseudo-terminal (standard output stays a pipe)."""
    import pty

    leader, follower = pty.openpty()
    try:
        proc = subprocess.run([str(LOVELETTER), "tournament", *map(str, args)], stdout=subprocess.PIPE,
                              stderr=follower, text=True, env=_env(COLUMNS="100"), timeout=120, check=False)
        os.close(follower)
        follower = -1
        chunks = []
        while True:
            try:
                data = os.read(leader, 65536)
            except OSError:  # the terminal is closed: everything has been read
                break
            if not data:
                break
            chunks.append(data)
    finally:
        if follower != -1:
            os.close(follower)
        os.close(leader)
    return proc.returncode, proc.stdout, b"".join(chunks).decode("utf-8", "replace")


def test_progress_and_notes_go_to_a_terminal_only_and_not_with_quiet(tmp_path):
    folder = tmp_path / "[x] [bold] :smile:"  # as written: rich would read markup (and drop it) and emoji codes
    folder.mkdir()
    code, out, err = _with_terminal_stderr("--rounds", 400, "--jobs", 1, "--csv", folder / "a.csv")
    assert code == 0
    assert out.startswith("Tournament: 400 single rounds")
    assert "Games played: 400, in" in err and f"Written: {folder / 'a.csv'}" in err
    assert "Tournament" not in err
    code, quiet_out, err = _with_terminal_stderr("--rounds", 400, "--jobs", 1, "--quiet")
    assert code == 0 and err == "" and quiet_out == out


def test_the_time_left_is_told_at_the_pace_so_far():
    """From the games played and the time they took, once one came back: rich's own column took its
    pace from the last 30 seconds' updates, and showed nothing where a block of games took longer,
    or a tenth of the time left where two blocks came back at once."""
    from rich.progress import Progress

    from loveletter.cli.tournament import TimeLeftColumn

    now = [0.0]
    progress = Progress(get_time=lambda: now[0])
    task = progress.add_task("Playing", total=16_000)
    column = TimeLeftColumn()

    def shown() -> str:
        return column.render(progress.tasks[0]).plain

    now[0] = 38.0
    assert shown() == "-:--:--"  # none played yet
    progress.update(task, completed=250)
    assert shown() == "0:39:54"  # 38 s a block of 250 games, 63 blocks to go
    now[0] = 85.0
    progress.update(task, completed=500)  # two blocks at once, 47 s later
    assert shown() == "0:43:55"  # 85 s for 500 games, 15,500 to go


def test_ctrl_c_while_the_records_folder_is_made_leaves_no_folder(tmp_path, monkeypatch, options_for):
    """A Ctrl-C that comes just after the records' folders are made, before the command knows it made
    them (it once left them behind, 1 run in a few hundred of the test above on a busy machine): it
    waits until they can be removed again."""
    from loveletter.cli import tournament as command

    make = command._make_records_folder

    def made_then_ctrl_c(folder, t):
        made = make(folder, t)
        # Ctrl-C, now: the folders exist, and the caller has no list yet (to this thread, as in the
        # command, which has no other threads yet; pytest's workers may have some)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        return made

    assert threading.current_thread() is threading.main_thread()  # where Python handles signals
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(command, "_make_records_folder", made_then_ctrl_c)
    options = options_for(records=Path("made/for/records"))
    with pytest.raises(KeyboardInterrupt):
        command.tournament(options)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("lang", "one", "two"), [("en", "Thinking budget: 1 iteration per move", "Thinking budget: 2 iterations per move"),
                                                  ("nl", "Denkbudget: 1 zoekstap per zet", "Denkbudget: 2 zoekstappen per zet")])
def test_the_thinking_budget_in_the_header(tmp_path, lang, one, two):
    for budget, says in ((1, one), (2, two)):
        out = ok(run("--bots", "expert,random", "--rounds", 2, "--jobs", 1, "--budget", budget, "--lang", lang, cwd=tmp_path))
        assert out.splitlines()[2] == says


@pytest.mark.parametrize(("lineup", "games", "why"), [
    (("random", "random"), 2, "tour_ratings_one"),
    (("beginner", "random"), 1, "tour_ratings_infinite"),  # one game: its winner won every decisive one
])
@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_plot_without_ratings_says_why(tmp_path, monkeypatch, lineup, games, why, lang):
    """The ratings' panel is left out when there are none, and the picture says why, as the table does
    (it was dropped without a word)."""
    import matplotlib.figure
    import matplotlib.text

    drawn: list[matplotlib.figure.Figure] = []
    save = matplotlib.figure.Figure.savefig
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", lambda fig, *a, **k: (drawn.append(fig), save(fig, *a, **k)))
    t = Translator(lang)
    report = summarise(run_tournament(Settings(lineup=lineup, games=games), jobs=1))
    assert report["ratings"]["finite"] is False or len(report["participants"]) == 1
    plot(report, tmp_path / "ratings.png", t)
    (figure,) = drawn
    assert len(figure.axes) == 1
    texts = [" ".join(x.get_text().split()) for x in figure.findobj(matplotlib.text.Text)]
    assert " ".join(t(why, players=2).split()) in texts
    # a level in two seats is named so, as in the table (the plot said just "random")
    assert (f"{t.level('random')} ×2" in texts) is (lineup == ("random", "random"))


def test_the_header_says_the_table_is_played_both_ways_round_only_once_it_is(tmp_path):
    """expert,beginner,random reads differently the other way round: the reversed table comes in
    games 3 to 5, so three games are played one way only."""
    def header(games: int) -> str:
        return ok(run("--bots", "beginner,random,random", "--players", 3, "--rounds", games, "--jobs", 1,
                      cwd=tmp_path)).splitlines()[1]
    assert "both ways" not in header(4)  # the same both ways round: it only rotates
    def mixed(games: int) -> str:
        return ok(run("--bots", "expert,beginner,random", "--budget", 1, "--rounds", games, "--jobs", 1,
                      cwd=tmp_path)).splitlines()[1]
    assert mixed(3) == "Lineup: expert, beginner, random (seats rotate every game; seat 0 starts every game)"
    assert "both ways round; seat 0 starts every game" in mixed(4)
    assert "both ways round; the starting seat every 6 games" in mixed(7)


def test_the_header_says_when_the_starting_seat_moves_on(tmp_path):
    """It said the starting seat rotated, with the seats, every game; it moves on once a block of
    games is over (games.starter), which a short run never reaches."""
    def header(games: int, *more: object) -> str:
        return ok(run("--bots", "beginner,random", "--rounds", games, "--jobs", 1, *more, cwd=tmp_path)).splitlines()[1]
    assert header(1) == "Lineup: beginner, random (one game, the seats as listed)"
    assert header(2) == "Lineup: beginner, random (seats rotate every game; seat 0 starts every game)"
    assert header(3) == "Lineup: beginner, random (seats rotate every game, the starting seat every 2 games)"
    assert header(3, "--lang", "nl") == ("Opstelling: beginner, willekeurig (de stoelen wisselen elke partij, de"
                                         " startspeler elke 2 partijen)")


def test_a_rating_error_below_one_point_is_not_shown_as_none():
    """200,000 rounds of the beginner against random showed its rating's error, 0.45, as "±0"."""
    assert [rating_error(x, Translator("en")) for x in (0.45, 0.96, 14.4)] == ["0.5", "1", "14"]
    assert rating_error(0.45, Translator("nl")) == "0,5"
