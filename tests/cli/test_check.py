"""`loveletter check PATH...`: many records at once, each refused one told on a line with its file."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from loveletter.engine import CLASSIC
from loveletter.record import save, to_record

from .test_replay import LOVELETTER, NAMES, _env, play_match, run


def check(*args: str | Path, lang: str = "en") -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LOVELETTER), "--lang", lang, "check", *map(str, args)], capture_output=True,
                          text=True, encoding="utf-8", env=_env(LANG="C.UTF-8"), timeout=60, check=False)


def archive(folder: Path, count: int) -> list[Path]:
    """``count`` finished matches' records in ``folder``, as a tournament keeps them."""
    folder.mkdir(parents=True)
    paths = []
    for seed in range(count):
        path = folder / f"game-{seed:06d}.json"
        save(to_record(play_match(CLASSIC, 2, seed, target=2), NAMES[:2]), path)
        paths.append(path)
    return paths


def test_a_folder_of_records_is_checked_each_refusal_on_a_line_with_its_file(tmp_path):
    """A club's archive: records in a folder and a subfolder, a note beside them, and three broken ones.
    ``replay`` took one file a call (a quarter of a second each), and its refusal of a turn named no file."""
    games = tmp_path / "games"
    archive(games / "2026", 5)
    (games / "README.txt").write_text("our club's games\n", encoding="utf-8")
    (games / "cut.json").write_text('{"format": "loveletter-record/1", "edition"', encoding="utf-8")
    doc = json.loads((games / "2026" / "game-000001.json").read_text(encoding="utf-8"))
    doc["rounds"][0]["turns"][0]["play"] = "koning"
    (games / "dutch.json").write_text(json.dumps(doc), encoding="utf-8")
    doc["rounds"][0]["turns"][0]["play"] = "princess"
    (games / "wrong.json").write_text(json.dumps(doc), encoding="utf-8")
    proc = check(games)
    assert proc.returncode == 1 and proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"{games / 'cut.json'} is not valid JSON")  # (named once)
    assert lines[1] == (f"{games / 'dutch.json'}: round 1, turn 1: unknown card 'koning' in 'play':"
                        " a record names the cards in English ('king')")
    assert lines[2].startswith(f"{games / 'wrong.json'}: round 1, turn 1: ")
    assert lines[3:] == ["8 records checked: 5 sound, 3 refused."]  # (the note is no record)
    dutch = check(games / "2026", games / "dutch.json", lang="nl")
    assert dutch.returncode == 1 and dutch.stdout.splitlines() == [
        f"{games / 'dutch.json'}: ronde 1, beurt 1: onbekende kaart 'koning' in 'play': een verslag noemt de"
        " kaarten in het Engels ('king')",
        "6 verslagen gecontroleerd: 5 in orde, 1 geweigerd."]


def test_sound_records_are_said_so_and_the_status_is_0(tmp_path):
    paths = archive(tmp_path / "games", 2)
    both = check(tmp_path / "games")
    assert (both.returncode, both.stdout) == (0, "2 records checked: all sound.\n")
    doc = json.loads(paths[1].read_text(encoding="utf-8"))
    paths[1].write_text(json.dumps({**doc, "rouns": 3}), encoding="utf-8")  # (a field the format does not name)
    noted = check(tmp_path / "games")
    assert noted.returncode == 0 and noted.stdout.splitlines()[0].startswith(f"{paths[1]}: ")
    assert "'rouns'" in noted.stdout.splitlines()[0] and noted.stdout.splitlines()[1] == "2 records checked: all sound."
    one = check(paths[0], lang="nl")
    assert (one.returncode, one.stdout) == (0, "1 verslag gecontroleerd: in orde.\n")
    # a record named twice, or with its folder, is one record (it was counted, and told, twice)
    again = check(paths[1], tmp_path / "games", tmp_path / "games", tmp_path / "games" / ".." / "games")
    assert again.returncode == 0 and again.stdout.splitlines() == [noted.stdout.splitlines()[0],
                                                                  "2 records checked: all sound."]


def test_nothing_to_check_is_told_in_one_line(tmp_path):
    (tmp_path / "empty").mkdir()
    proc = check(tmp_path / "empty")
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == f"loveletter check: no record files (.json) in {tmp_path / 'empty'}\n"
    missing = check(tmp_path / "nowhere")
    assert missing.returncode == 1 and missing.stdout.splitlines() == [
        f"no such file: {tmp_path / 'nowhere'}", "1 record checked: refused."]
    none = check()
    assert none.returncode == 2 and len(none.stderr.splitlines()) == 1


def test_replay_given_many_files_says_so_in_a_short_line_and_names_check(tmp_path):
    """``loveletter replay games/*.json`` answered with every name given, in one "line" of 115,000
    characters for 5,000 files, and never said that replay reads one record."""
    paths = [tmp_path / f"game-{n:04d}-with-a-long-name-as-archives-have.json" for n in range(300)]
    proc = run(*paths)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("loveletter replay: 299 unexpected arguments, the first '")
    assert "(replay tells one record: 'loveletter check' checks many)" in proc.stderr
    assert len(proc.stderr) < 300 and len(proc.stderr.splitlines()) == 1


def test_a_link_to_nothing_in_a_folder_is_told_not_passed_over(tmp_path):
    archive(tmp_path / "games", 1)
    (tmp_path / "games" / "gone.json").symlink_to(tmp_path / "elsewhere.json")
    proc = check(tmp_path / "games")
    assert proc.returncode == 1 and proc.stdout.splitlines() == [
        f"no such file: {tmp_path / 'games' / 'gone.json'}", "2 records checked: 1 sound, 1 refused."]


def test_a_path_gone_or_a_pipe_among_them_is_refused_and_the_others_checked(tmp_path):
    """``check archive/*.json`` with one file vanished meanwhile checked nothing (a usage error, status
    2); a pipe or a device among a folder's records was passed over without a word (a pipe named
    itself is read, as ``cat`` would)."""
    archive(tmp_path / "games", 2)
    os.mkfifo(tmp_path / "games" / "pipe.json")
    (tmp_path / "games" / "zero.json").symlink_to("/dev/zero")
    proc = check(tmp_path / "games", tmp_path / "gone.json")
    assert proc.returncode == 1 and proc.stdout.splitlines() == [
        f"{tmp_path / 'games' / 'pipe.json'} is not a record file (a pipe, a device or a socket): not read",
        f"{tmp_path / 'games' / 'zero.json'} is not a record file (a pipe, a device or a socket): not read",
        f"no such file: {tmp_path / 'gone.json'}", "5 records checked: 2 sound, 3 refused."]
    named = subprocess.run(f"{LOVELETTER} --lang en check <(cat {tmp_path / 'games' / 'game-000000.json'})", shell=True,
                           executable="/bin/bash", capture_output=True, text=True, env=_env(LANG="C.UTF-8"), timeout=60,
                           check=False)
    assert (named.returncode, named.stdout) == (0, "1 record checked: sound.\n")  # (a pipe named: read)


def test_check_with_standard_output_closed_says_so_and_fails(tmp_path):
    """Started with ``>&-``, it said nothing and ended with status 0, as if all were sound."""
    archive(tmp_path / "games", 1)
    proc = subprocess.run(f"exec {LOVELETTER} --lang en check {tmp_path / 'games'} >&-", shell=True,
                          capture_output=False, stderr=subprocess.PIPE, text=True, env=_env(LANG="C.UTF-8"), timeout=60,
                          check=False)
    assert proc.returncode == 1
    assert proc.stderr == "loveletter check: could not write the output: standard output is closed\n"
