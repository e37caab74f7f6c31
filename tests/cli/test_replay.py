"""`loveletter replay FILE [--json] [--lang]` on records made by playing matches through the engine.

docs/record.md: a valid record is told as a narrative, or with ``--json`` summarised as exactly one JSON
object; a refused record prints nothing on standard output and one line on standard error, beginning
``round R, turn T: `` for a turn, ``round R: `` for a round, neither for the document.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from loveletter.bots import make_bot
from loveletter.engine import CLASSIC, EDITION_2019, Card, Match, view
from loveletter.narrate import names_apart
from loveletter.record import replay, save, summary, to_record

LOVELETTER = Path(sys.executable).parent / "loveletter"
NAMES = ["Anna", "Bram", "Cas", "Dewi", "Eva", "Fenna"]
SUMMARY_KEYS = {"edition", "players", "target", "rounds", "tokens", "finished", "winners"}
ROUND_KEYS = {"starter", "finished", "out", "winners", "spy_bonus", "tokens"}


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "COLUMNS")}
    env["PYTHONUTF8"] = "1"
    env.update(extra)
    return env


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LOVELETTER), "replay", *map(str, args)], capture_output=True, text=True,
                          encoding="utf-8", errors="replace", env=env or _env(LANG="C.UTF-8"), timeout=60, check=False)


def play_match(edition, players: int, seed: int, *, target: int | None = None, turns: int | None = None) -> Match:
    """A match between bots (beginner on even seats, random on odd); stop after ``turns`` decisions."""
    match = Match(edition, players, seed=seed, target=target)
    bots = [make_bot("beginner" if s % 2 == 0 else "random", seed * 7 + s) for s in range(players)]
    done = 0
    while True:
        while not match.round.over:
            if turns is not None and done >= turns:
                return match
            match.apply(bots[match.current].choose(view(match, match.current)))
            done += 1
        if match.over:
            return match
        match.next_round()


def write(tmp_path: Path, doc, name: str = "game.json") -> Path:
    path = tmp_path / name
    if isinstance(doc, (dict, list)):
        save(doc, path)
    else:
        path.write_text(doc, encoding="utf-8")
    return path


def expected_summary(match: Match, names: list[str]) -> dict:
    """docs/record.md's summary, built from the played match itself (not from record.summary)."""
    tokens = [0] * match.players
    rounds = []
    for rnd in match.rounds:
        if rnd.over:
            for s in rnd.winners:
                tokens[s] += 1
            if rnd.spy_bonus is not None:
                tokens[rnd.spy_bonus] += 1
        rounds.append({"starter": rnd.starter, "finished": rnd.over, "out": list(rnd.knocked_out),
                       "winners": sorted(rnd.winners), "spy_bonus": rnd.spy_bonus, "tokens": tokens[:]})
    return {"edition": match.edition.name, "players": names, "target": match.target, "rounds": rounds,
            "tokens": list(match.tokens), "finished": match.over, "winners": sorted(match.winners)}


def one_json_object(text: str) -> dict:
    obj, end = json.JSONDecoder().raw_decode(text)
    assert text[end:].strip() == "", "more than one JSON value on standard output"
    assert isinstance(obj, dict)
    return obj


def refused(proc: subprocess.CompletedProcess[str]) -> str:
    """The one stderr line of a refused record (checking everything else docs/record.md asks)."""
    assert proc.returncode != 0
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip("\n").splitlines()
    assert len(lines) == 1, proc.stderr
    # the place and the reason, as RECORD.md words it: no command's name first (a script matching
    # "^round 2, turn 5: " found nothing)
    assert not lines[0].startswith("loveletter") and lines[0].strip() == lines[0] and lines[0]
    return lines[0]


# ------------------------------------------------------------------------------------ --json

GAMES = [(CLASSIC, 2, 1), (CLASSIC, 3, 2), (CLASSIC, 4, 3), (EDITION_2019, 2, 4), (EDITION_2019, 3, 5),
         (EDITION_2019, 5, 6), (EDITION_2019, 6, 7)]


@pytest.mark.parametrize(("edition", "players", "seed"), GAMES, ids=[f"{e.name}-{n}p" for e, n, _ in GAMES])
def test_json_summary_of_a_finished_match(tmp_path, edition, players, seed):
    match = play_match(edition, players, seed)
    names = NAMES[:players]
    doc = to_record(match, names)
    proc = run(write(tmp_path, doc), "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    got = one_json_object(proc.stdout)
    assert got == summary(replay(doc))
    assert got == expected_summary(match, names)
    assert set(got) == SUMMARY_KEYS
    assert all(set(r) == ROUND_KEYS for r in got["rounds"])
    assert got["finished"] is True and got["winners"]
    assert got["tokens"] == got["rounds"][-1]["tokens"]
    assert all(r["finished"] is True for r in got["rounds"])


@pytest.mark.parametrize("as_json", [True, False])
def test_fields_another_program_added_are_left_out_and_named_on_standard_error(tmp_path, as_json):
    """A record with fields RECORD.md does not name in the document or a round (only a turn's are
    refused) replays as without them; standard error names them, and the output is as it was."""
    doc = to_record(play_match(CLASSIC, 2, 1), NAMES[:2])
    options = ["--json"] if as_json else []
    plain = run(write(tmp_path, doc), *options, "--lang", "nl")
    doc["event"], doc["rounds"][0]["note"] = "club night", "first"
    proc = run(write(tmp_path, doc), *options, "--lang", "nl")
    assert (proc.returncode, proc.stdout) == (0, plain.stdout) and plain.stderr == ""
    assert proc.stderr == ("Weggelaten (niet in loveletter-record/1): 'event' in het spelverslag,"
                           " 'note' in ronde 1.\n")


def test_json_summary_of_a_match_in_progress(tmp_path):
    match = play_match(EDITION_2019, 4, 11, turns=40)
    assert not match.over and not match.round.over
    doc = to_record(match, NAMES[:4])
    got = one_json_object(run(write(tmp_path, doc), "--json").stdout)
    assert got == expected_summary(match, NAMES[:4])
    assert got["finished"] is False and got["winners"] == []
    last = got["rounds"][-1]
    assert last["finished"] is False and last["winners"] == [] and last["spy_bonus"] is None


def _shared_match_with_a_spy_bonus() -> Match:
    """R6.4 and R2.4: a short 2019 match that ends with two winners, with a Spy bonus on the way."""
    for seed in range(2000):
        match = play_match(EDITION_2019, 3, seed, target=2)
        if len(match.winners) > 1 and any(r.spy_bonus is not None for r in match.rounds):
            return match
    pytest.fail("no 2019 match with two winners and a Spy bonus")


def test_json_summary_spy_bonus_and_shared_match_win(tmp_path):
    match = _shared_match_with_a_spy_bonus()
    doc = to_record(match, NAMES[:3])
    got = one_json_object(run(write(tmp_path, doc), "--json").stdout)
    assert got == expected_summary(match, NAMES[:3])
    assert got["target"] == 2
    assert len(got["winners"]) > 1 and got["winners"] == sorted(got["winners"])
    assert any(r["spy_bonus"] is not None for r in got["rounds"])


def test_json_minimal_record_defaults(tmp_path):
    # format, edition, target, starter and seat are all optional on input
    match = play_match(CLASSIC, 2, 21, turns=5)
    doc = to_record(match, ["A", "B"])
    minimal = {"players": ["A", "B"], "rounds": [
        {"deck": rnd["deck"], "turns": [{k: v for k, v in t.items() if k != "seat"} for t in rnd["turns"]]}
        for rnd in doc["rounds"]]}
    got = one_json_object(run(write(tmp_path, minimal), "--json").stdout)
    assert got["edition"] == "classic" and got["target"] == 7
    assert got["rounds"][0]["starter"] == 0
    assert got == expected_summary(match, ["A", "B"])


# ------------------------------------------------------------------------------------ narrative


@pytest.mark.parametrize(("lang", "header"), [
    ("en", "classic edition · Anna and Bram · the first token wins"),
    ("nl", "klassieke editie · Anna en Bram · het eerste teken van liefde wint"),
])
def test_a_match_of_one_token_is_told_in_the_singular(tmp_path, lang, header):
    proc = run(write(tmp_path, to_record(play_match(CLASSIC, 2, 4, target=1), NAMES[:2])), "--lang", lang)
    assert proc.returncode == 0 and proc.stdout.splitlines()[0] == header


def test_a_browser_tables_bots_are_named_in_the_language_of_the_replay(tmp_path):
    """A record kept from an English page, replayed in Dutch, named its bots in English among Dutch words."""
    proc = run(write(tmp_path, to_record(play_match(CLASSIC, 2, 4, target=1), ["Anna", "Bot 1 (random)"])),
               "--lang", "nl")
    assert proc.returncode == 0 and proc.stdout.splitlines()[0] == (
        "klassieke editie · Anna en Bot 1 (willekeurig) · het eerste teken van liefde wint")
    assert "(random)" not in proc.stdout


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_narrative(tmp_path, lang):
    match = play_match(CLASSIC, 3, 12)
    names = NAMES[:3]
    doc = to_record(match, names)
    proc = run(write(tmp_path, doc), "--lang", lang)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    rounds = len(match.rounds)
    turns = sum(len(r["turns"]) for r in doc["rounds"])
    if lang == "en":
        assert lines[0] == "classic edition · Anna, Bram and Cas · 5 tokens to win"
        assert [line for line in lines if line.startswith("— Round")] == [
            f"— Round {n} —" for n in range(1, rounds + 1)]
        assert "Round 1: Anna starts." in lines
        assert len([x for x in lines if re.search(r" (wins|win\(s\)) the round\.$", x)]) == rounds
        assert len([x for x in lines if " plays " in x]) == turns
        assert sum(x.startswith("Tokens: ") for x in lines) == rounds
        winners = [names[s] for s in match.winners]
        assert lines[-1].startswith("Match over: " + " and ".join(winners))
        scores = ", ".join(f"{n} {k}" for n, k in zip(names, match.tokens, strict=True))
        assert lines[-1].endswith(f" wins. Tokens: {scores}." if len(winners) == 1 else f" win. Tokens: {scores}.")
        assert any(x.startswith("The set-aside card was the ") for x in lines)
    else:
        assert lines[0] == "klassieke editie · Anna, Bram en Cas · 5 tekens van liefde om te winnen"
        assert [line for line in lines if line.startswith("— Ronde")] == [
            f"— Ronde {n} —" for n in range(1, rounds + 1)]
        assert "Ronde 1: Anna begint." in lines
        assert len([x for x in lines if re.search(r" (wint|winnen) de ronde\.$", x)]) == rounds
        assert len([x for x in lines if " speelt " in x]) == turns
        assert sum(x.startswith("Tekens van liefde: ") for x in lines) == rounds
        assert lines[-1].startswith("Het spel is uit: ")
        assert any(x.startswith("De weggelegde kaart was ") for x in lines)
    assert "Traceback" not in proc.stdout


def test_narrative_tells_the_secrets_a_record_holds(tmp_path):
    # a record holds the whole game: replays show every hand (deals, draws, Priest looks, trades)
    match = play_match(CLASSIC, 2, 5)
    proc = run(write(tmp_path, to_record(match, ["Anna", "Bram"])), "--lang", "en")
    assert "Anna is dealt the " in proc.stdout and "Bram draws the " in proc.stdout
    for event in (e for r in match.rounds for e in r.log):
        if event.kind == "priest":
            assert f"sees that {['Anna', 'Bram'][event.target]} holds the {event.card.name.title()}." in proc.stdout


def test_names_that_cannot_be_printed_stay_on_one_line(tmp_path):
    # docs/record.md allows any non-empty name; a newline or a terminal's control code must not split or
    # colour the story
    match = play_match(CLASSIC, 2, 5)
    proc = run(write(tmp_path, to_record(match, ["Anna\nvan Dijk", "Bram\x1b[31m"])), "--lang", "en")
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == "classic edition · Anna van Dijk and Bram [31m · 7 tokens to win"
    assert "\x1b" not in proc.stdout
    assert re.search(r"^Round 1: (Anna van Dijk|Bram \[31m) starts\.", proc.stdout, re.MULTILINE)


def test_a_record_on_standard_input(tmp_path):
    path = write(tmp_path, to_record(play_match(CLASSIC, 2, 5), ["Anna", "Bram"]))
    env = _env(LANG="C.UTF-8")

    def piped(data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([str(LOVELETTER), "replay", "-", *args], input=data, capture_output=True,
                              env=env, timeout=60, check=False)

    from_file, from_stdin = run(path, "--lang", "en"), piped(path.read_bytes(), "--lang", "en")
    assert from_stdin.returncode == 0 and from_stdin.stdout.decode() == from_file.stdout
    refused = piped(b'{"format":', "--lang", "en")
    assert refused.returncode == 1 and refused.stdout == b""
    assert refused.stderr.decode().startswith("standard input is not valid JSON: ")
    assert piped(b"\xff", "--lang", "nl").stderr.decode() == (
        "standaardinvoer is geen tekstbestand (geen UTF-8 op regel 1, kolom 1)\n")


def test_names_alike_on_one_line_are_shown_apart(tmp_path):
    match = play_match(CLASSIC, 2, 5)
    proc = run(write(tmp_path, to_record(match, ["Anna", "Anna\n"])), "--lang", "en")
    assert proc.stdout.splitlines()[0] == "classic edition · 'Anna' and 'Anna\\n' · 7 tokens to win"


def test_names_that_look_alike_are_shown_apart(tmp_path):
    """Valid names that print the same (the same letter written two ways; a zero-width space; a
    letter of another script) are shown escaped, so the story tells who is who; a blank name too."""
    match = play_match(CLASSIC, 3, 5)
    proc = run(write(tmp_path, to_record(match, ["Zo\u00eb", "Zoe\u0308", "Bram"])), "--lang", "en")
    assert proc.stdout.splitlines()[0] == "classic edition · 'Zo\\xeb', 'Zoe\\u0308' and Bram · 5 tokens to win"
    proc = run(write(tmp_path, to_record(match, ["Anna", "Anna\u200b", " "])), "--lang", "en")
    assert proc.stdout.splitlines()[0] == "classic edition · 'Anna', 'Anna\\u200b' and ' ' · 5 tokens to win"
    # other characters that show nothing: a grapheme joiner, a variation selector, a Hangul filler
    proc = run(write(tmp_path, to_record(match, ["Anna", "Anna\u034f", "Anna\ufe0f"])), "--lang", "en")
    assert proc.stdout.splitlines()[0] == ("classic edition · 'Anna', 'Anna\\u034f' and 'Anna\\ufe0f'"
                                           " · 5 tokens to win")
    proc = run(write(tmp_path, to_record(match, ["Anna", "\u3164", "Bram"])), "--lang", "en")
    assert proc.stdout.splitlines()[0] == "classic edition · Anna, '\\u3164' and Bram · 5 tokens to win"
    # a letter of another script that looks the same (a Cyrillic A); another case is told apart
    proc = run(write(tmp_path, to_record(match, ["Anna", "\u0410nna", "ANNA"])), "--lang", "en")
    assert proc.stdout.splitlines()[0] == "classic edition · 'Anna', '\\u0410nna' and ANNA · 5 tokens to win"
    # a name written as another's escaped form is escaped in turn (seats 0 and 2 were both 'Anna')
    proc = run(write(tmp_path, to_record(match, ["Anna", "Anna\u200b", "'Anna'"])), "--lang", "en")
    assert proc.stdout.splitlines()[0] == """classic edition · 'Anna', 'Anna\\u200b' and "'Anna'" · 5 tokens to win"""
    assert names_apart([" ", "'  '", "  "]) == ["' '", '"\'  \'"', "'  '"]  # (one space shown, twice)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "loveletter replay: this record's story would run past 64 million characters (its names are long):"
           " nothing was written; --json gives its summary\n"),
    ("nl", "loveletter replay: het verhaal van dit spelverslag zou langer worden dan 64 miljoen karakters (de namen"
           " zijn lang): er is niets geschreven; --json geeft de samenvatting\n"),
])
def test_a_story_too_long_to_tell_is_refused_before_any_is_written(tmp_path, monkeypatch, lang, said):
    """A record's names are in nearly every line: a 62 MB record with two names of 31 million letters
    told 56 GB and held gigabytes in memory. This one (4 MB) would tell about 300 million characters."""
    match = play_match(CLASSIC, 2, 5)
    path = write(tmp_path, to_record(match, ["A" * 2_000_000, "B" * 2_000_000]))
    refused = run(path, "--lang", lang)
    assert (refused.returncode, refused.stdout, refused.stderr) == (1, "", said)
    told = run(path, "--json")  # (the summary names each player once)
    assert told.returncode == 0 and json.loads(told.stdout)["players"][0] == "A" * 2_000_000
    # a story as long as the most is told whole; one character more is refused
    from loveletter.i18n import Translator
    from loveletter.tui import replay as telling

    story = list(telling.tell(replay(to_record(match, ["Anna", "Bram"])), Translator("en")))
    size = sum(len(line) + 1 for line in story)
    short = write(tmp_path, to_record(match, ["Anna", "Bram"]), name="short.json")
    from click.testing import CliRunner

    from loveletter.cli import main

    monkeypatch.setattr(telling, "MAX_STORY", size)
    told = CliRunner().invoke(main.cli, ["replay", str(short), "--lang", "en"])
    assert (told.exit_code, told.stdout) == (0, "\n".join(story) + "\n")
    monkeypatch.setattr(telling, "MAX_STORY", size - 1)
    refused = CliRunner().invoke(main.cli, ["replay", str(short), "--lang", "en"])
    assert (refused.exit_code, refused.stdout) == (1, "")


def test_a_file_named_dash_and_closed_standard_input(tmp_path):
    doc = to_record(play_match(CLASSIC, 2, 5), ["Anna", "Bram"])
    write(tmp_path, doc, name="-")
    named = subprocess.run([str(LOVELETTER), "replay", "./-", "--lang", "en"], cwd=tmp_path, capture_output=True,
                           text=True, env=_env(LANG="C.UTF-8"), timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert named.returncode == 0 and named.stdout.startswith("classic edition · Anna and Bram")
    closed = subprocess.run(["bash", "-c", f"'{LOVELETTER}' replay - --lang nl <&-"], capture_output=True, text=True,
                            env=_env(LANG="C.UTF-8"), timeout=60, check=False)
    assert closed.returncode == 1 and closed.stderr.startswith("standaardinvoer is gesloten: ")
    assert "Traceback" not in closed.stderr


def test_closed_standard_output_is_told_not_lost(tmp_path):
    path = write(tmp_path, to_record(play_match(CLASSIC, 2, 5), ["Anna", "Bram"]))
    closed = subprocess.run([str(LOVELETTER), "replay", str(path), "--lang", "en"], stderr=subprocess.PIPE, text=True,
                            env=_env(LANG="C.UTF-8"), timeout=60, check=False,
                            preexec_fn=lambda: os.close(1))  # as `>&-` in a shell
    assert closed.returncode == 1
    assert closed.stderr == "loveletter replay: could not write the output: standard output is closed\n"


def test_narrative_of_a_match_in_progress_nl(tmp_path):
    match = play_match(EDITION_2019, 2, 13, turns=30)
    proc = run(write(tmp_path, to_record(match, ["Anna", "Bram"])), "--lang", "nl")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    # the unfinished round has no score of its own: the story ends with it, then the score so far
    scores = ", ".join(f"{n} {k}" for n, k in zip(["Anna", "Bram"], match.tokens, strict=True))
    assert lines[-3:] == ["De ronde is niet af.", "", f"Het verslag stopt voordat het spel uit is: {scores}."]
    assert sum(line.startswith("Tekens van liefde: ") for line in lines) == len(match.rounds) - 1


def test_narrative_language_from_the_environment(tmp_path):
    path = write(tmp_path, to_record(play_match(CLASSIC, 2, 3), ["Anna", "Bram"]))
    assert run(path, env=_env(LANG="nl_NL.UTF-8")).stdout.startswith("klassieke editie · ")
    assert run(path, env=_env(LANG="en_GB.UTF-8")).stdout.startswith("classic edition · ")
    assert run(path, env=_env(LANG="en_GB.UTF-8", LANGUAGE="nl")).stdout.startswith("klassieke editie")


@pytest.mark.parametrize(("lang", "tokens", "over", "join", "win"), [
    ("en", "Tokens: ", "Match over: ", " and ", " win. Tokens: "),
    ("nl", "Tekens van liefde: ", "Het spel is uit: ", " en ", " winnen. Tekens van liefde: "),
])
def test_narrative_counts_a_spy_bonus_and_names_every_winner_of_a_shared_match(tmp_path, lang, tokens, over, join,
                                                                                win):
    """R6.4 and R2.4, told: each round's score counts the Spy's token, and a match two players win
    names both (the summary of --json had them; the story is told apart from it)."""
    match = _shared_match_with_a_spy_bonus()
    names = NAMES[:3]
    proc = run(write(tmp_path, to_record(match, names)), "--lang", lang)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    scores = [", ".join(f"{n} {k}" for n, k in zip(names, r["tokens"], strict=True))
              for r in expected_summary(match, names)["rounds"]]
    assert [line.removeprefix(tokens) for line in lines if line.startswith(tokens)] == scores
    assert len(match.winners) == 2  # (so that the names are joined by one word)
    assert lines[-1] == f"{over}{join.join(names[s] for s in sorted(match.winners))}{win}{scores[-1]}."


def test_dutch_match_over_with_one_winner_is_singular(tmp_path):
    match = play_match(CLASSIC, 2, 3)
    assert len(match.winners) == 1
    proc = run(write(tmp_path, to_record(match, ["Anna", "Bram"])), "--lang", "nl")
    assert " wint. Tekens van liefde: " in proc.stdout.splitlines()[-1]


# ------------------------------------------------------------------------------------ refused records


@pytest.fixture(scope="module")
def finished():
    """A finished classic 3-player match of several rounds, and its record."""
    match = play_match(CLASSIC, 3, 12)
    assert len(match.rounds) >= 3
    return match, to_record(match, NAMES[:3])


def _turn_at(doc, r: int, pred):
    """The 1-based number of the first turn of round ``r`` (1-based) satisfying ``pred``."""
    for t, turn in enumerate(doc["rounds"][r - 1]["turns"], start=1):
        if pred(turn):
            return t
    raise AssertionError("no such turn")


def test_refused_guard_naming_the_guard(tmp_path, finished):
    _, doc = finished
    bad = copy.deepcopy(doc)
    r = 2
    t = _turn_at(bad, r, lambda x: x["play"] == "guard" and "target" in x)
    bad["rounds"][r - 1]["turns"][t - 1]["guess"] = "guard"
    line = refused(run(write(tmp_path, bad)))
    assert line == f"round {r}, turn {t}: the Guard may not name the Guard (R5.1)"
    assert refused(run(write(tmp_path, bad), "--json")) == line
    dutch = refused(run(write(tmp_path, bad), "--lang", "nl"))
    assert dutch == f"ronde {r}, beurt {t}: de Wachter mag de Wachter niet noemen (R5.1)"


def test_refused_in_dutch(tmp_path):
    bad = write(tmp_path, {"players": ["Anna", "Bram"], "rounds": [{"deck": ["dragon"]}]})
    assert refused(run(bad)) == "round 1: unknown card 'dragon' in 'deck'"
    assert refused(run(bad, "--lang", "nl")) == "ronde 1: onbekende kaart 'dragon' in 'deck'"
    assert refused(run(bad, env=_env(LANG="nl_NL.UTF-8"))) == "ronde 1: onbekende kaart 'dragon' in 'deck'"
    assert refused(run(bad, "--lang", "en", env=_env(LANG="nl_NL.UTF-8"))).startswith("round 1: unknown card")
    assert refused(run(tmp_path / "nope.json", "--lang", "nl")) == f"bestand niet gevonden: {tmp_path / 'nope.json'}"


def test_refused_card_not_in_hand(tmp_path, finished):
    match, doc = finished
    r = 3
    rnd = match.rounds[r - 1]
    # replay round 3 up to its 2nd turn to learn the hand of the seat to play
    probe = Match(CLASSIC, 3, deck=rnd.initial_deck, starter=rnd.starter)
    first = doc["rounds"][r - 1]["turns"][0]
    from loveletter.engine import Action
    probe.apply(Action(Card.from_word(first["play"]), first.get("target"),
                       Card.from_word(first["guess"]) if first.get("guess") else None))
    assert not probe.round.over
    seat, hand = probe.current, probe.round.hands[probe.current]
    missing = next(c for c in (Card.PRINCESS, Card.COUNTESS, Card.KING, Card.HANDMAID) if c not in hand)
    bad = copy.deepcopy(doc)
    bad["rounds"][r - 1]["turns"][1] = {"play": missing.word}
    line = refused(run(write(tmp_path, bad)))
    assert line == f"round {r}, turn 2: seat {seat} does not hold the {missing.name.title()} (R4.3)"


def test_refused_countess_rule_as_in_record_md(tmp_path):
    # find a turn where a seat must play the Countess (R4.4), and record the King or Prince instead
    for seed in range(500):
        match = Match(CLASSIC, 3, seed=seed)
        turn = 0
        while not match.round.over:
            hand = match.round.hands[match.current]
            turn += 1
            if Card.COUNTESS in hand and (Card.KING in hand or Card.PRINCE in hand):
                other = Card.KING if Card.KING in hand else Card.PRINCE
                seat = match.current
                doc = to_record(match, NAMES[:3])
                doc["rounds"][0]["turns"].append({"play": other.word, "target": (seat + 1) % 3})
                line = refused(run(write(tmp_path, doc)))
                assert line == (f"round 1, turn {turn}: seat {seat} must play the Countess while holding"
                                f" the {other.name.title()} (R4.4)")
                return
            match.apply(match.legal_actions()[-1])
    pytest.fail("no Countess situation found")


def test_refused_wrong_seat_check(tmp_path, finished):
    _, doc = finished
    bad = copy.deepcopy(doc)
    turn = bad["rounds"][0]["turns"][3]
    right = turn["seat"]
    turn["seat"] = (right + 1) % 3
    line = refused(run(write(tmp_path, bad)))
    assert line == f"round 1, turn 4: the turn says seat {(right + 1) % 3}, but it is seat {right}'s turn"


@pytest.mark.parametrize(("change", "reason"), [
    (lambda t: t.update(bogus=1), "unknown field 'bogus' in a turn"),
    (lambda t: t.pop("play"), "the turn has no 'play'"),
    (lambda t: t.update(play="joker"), "unknown card 'joker' in 'play'"),
    (lambda t: t.update(play=3), "'play' must name a card, not a number"),
    (lambda t: t.update(keep="guard"), "only a Chancellor turn has 'keep' and 'bottom' (R5.9)"),
])
def test_refused_turn_shape(tmp_path, finished, change, reason):
    _, doc = finished
    bad = copy.deepcopy(doc)
    change(bad["rounds"][1]["turns"][0])
    assert refused(run(write(tmp_path, bad))) == f"round 2, turn 1: {reason}"


def test_refused_turn_that_is_not_an_object(tmp_path, finished):
    _, doc = finished
    bad = copy.deepcopy(doc)
    bad["rounds"][0]["turns"][1] = "guard 1 priest"
    assert refused(run(write(tmp_path, bad))) == "round 1, turn 2: a turn is a JSON object, not a string"


def test_refused_turn_after_the_round_ended(tmp_path, finished):
    _, doc = finished
    bad = copy.deepcopy(doc)
    n = len(bad["rounds"][0]["turns"])
    bad["rounds"][0]["turns"].append({"play": "guard"})
    assert refused(run(write(tmp_path, bad))) == (
        f"round 1, turn {n + 1}: the round is already over: no more turns")


def test_refused_chancellor_without_keep(tmp_path):
    for seed in range(500):
        match = play_match(EDITION_2019, 3, seed)
        doc = to_record(match, NAMES[:3])
        for r, rnd in enumerate(doc["rounds"], start=1):
            for t, turn in enumerate(rnd["turns"], start=1):
                if turn["play"] == "chancellor" and turn.get("bottom"):
                    del turn["keep"], turn["bottom"]
                    line = refused(run(write(tmp_path, doc)))
                    assert line.startswith(f"round {r}, turn {t}: the Chancellor drew cards, so the turn"
                                           f" must say which of ")
                    assert line.endswith(" to keep (R5.9)")
                    return
    pytest.fail("no Chancellor turn found")


@pytest.mark.parametrize("deck_change", ["drop", "duplicate", "unknown", "not a list", "classic in 2019"])
def test_refused_bad_deck(tmp_path, finished, deck_change):
    _, doc = finished
    bad = copy.deepcopy(doc)
    r = 2
    deck = bad["rounds"][r - 1]["deck"]
    if deck_change == "drop":
        deck.pop()
    elif deck_change == "duplicate":
        deck[deck.index("priest")] = "guard"
    elif deck_change == "unknown":
        deck[0] = "joker"
    elif deck_change == "not a list":
        bad["rounds"][r - 1]["deck"] = "guard guard"
    else:
        bad["edition"] = "2019"
        r = 1
    line = refused(run(write(tmp_path, bad)))
    assert line.startswith(f"round {r}: ")
    assert not re.match(r"round \d+, turn \d+: ", line)
    if deck_change in ("drop", "duplicate", "classic in 2019"):
        assert "(R3.1)" in line


def test_refused_wrong_starter(tmp_path, finished):
    match, doc = finished
    bad = copy.deepcopy(doc)
    right = match.rounds[1].starter
    bad["rounds"][1]["starter"] = (right + 1) % 3
    assert refused(run(write(tmp_path, bad))) == (
        f"round 2: seat {(right + 1) % 3} cannot start this round: seat {right} does (R3.5)")


def test_refused_round_after_the_match_ended(tmp_path, finished):
    _, doc = finished
    bad = copy.deepcopy(doc)
    n = len(bad["rounds"])
    bad["rounds"].append({"deck": bad["rounds"][0]["deck"], "turns": []})
    assert refused(run(write(tmp_path, bad))) == (
        f"round {n + 1}: the match ended after round {n}, so no round may follow")


def test_refused_round_after_an_unfinished_round(tmp_path, finished):
    _, doc = finished
    bad = copy.deepcopy(doc)
    bad["rounds"][0]["turns"] = bad["rounds"][0]["turns"][:2]
    line = refused(run(write(tmp_path, bad)))
    assert line.startswith(("round 1: ", "round 2: "))
    assert "has not ended" in line


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(format="loveletter-record/2"), 'unknown format "loveletter-record/2"'),
    (lambda d: d.update(edition="2020"), "unknown edition '2020'"),
    (lambda d: d.update(players=["Anna", "Anna", "Cas"]), "distinct"),
    (lambda d: d.update(players=["Anna", ""]), "non-empty"),
    (lambda d: d.update(players=NAMES[:5]), "2-4 players"),
    (lambda d: d.update(target=0), "'target'"),
    (lambda d: d.update(target=True), "'target'"),
    (lambda d: d.update(rounds=[]), "no rounds"),
    (lambda d: d.update(rounds={}), "'rounds' must be a list"),
    (lambda d: d.pop("players"), "'players'"),
])
def test_refused_document(tmp_path, finished, change, message):
    _, doc = finished
    bad = copy.deepcopy(doc)
    change(bad)
    line = refused(run(write(tmp_path, bad)))
    assert message in line
    assert not line.startswith("round ")


# ------------------------------------------------------------------------------------ malformed files


@pytest.mark.parametrize(("kind", "content"), [
    ("invalid json", "{bad"),
    ("truncated", '{"players": ["A", "B"], "rounds": ['),
    ("empty", ""),
    ("json array", "[1, 2]"),
    ("json string", '"hello"'),
    ("json null", "null"),
    ("binary", b"\xff\xfe\x00\x01\x80\x81"),
    ("nul bytes", b"\x00\x00\x00"),
])
def test_malformed_file(tmp_path, kind, content):
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    for args in ((path,), (path, "--json")):
        refused(run(*args))


def test_missing_file(tmp_path):
    line = refused(run(tmp_path / "nope.json"))
    assert "nope.json" in line


def test_a_file_name_that_is_not_utf8_shows_its_bytes(tmp_path):
    """A name's bytes that are not UTF-8 are shown as ``\\xff``, in both languages (they showed as
    ``\\udcff``, Python's stand-in for them)."""
    missing = Path(os.fsdecode(bytes(tmp_path) + b"/nope\xff.json"))
    assert refused(run(missing)) == f"no such file: {tmp_path}/nope\\xff.json"
    bad = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xff.json"))
    bad.write_text("{", encoding="utf-8")
    assert refused(run(bad, "--lang", "nl")).startswith(f"{tmp_path}/bad\\xff.json is geen geldige JSON: ")


@pytest.mark.parametrize(("name", "shown"), [("no\nsuch.json", "no\\nsuch.json"),
                                             ("line\u2028sep\x85.json", "line\\u2028sep\\x85.json"),
                                             ("esc\x1b[31m.json", "esc\\x1b[31m.json"),
                                             ("rec\u202egnp.json", "rec\\u202egnp.json")])
def test_a_file_name_that_breaks_lines_is_shown_on_one_line(tmp_path, name, shown):
    """Control codes, line separators and bidirectional controls in a name are shown as Python
    writes them (a newline in a file's name made the one-line error two lines, a terminal's escape
    would colour it, U+202E showed the rest of the line backwards)."""
    assert refused(run(tmp_path / name)) == f"no such file: {tmp_path}/{shown}"
    (tmp_path / name).write_text("{", encoding="utf-8")
    assert refused(run(tmp_path / name, "--lang", "nl")).startswith(f"{tmp_path}/{shown} is geen geldige JSON: ")


def test_a_format_that_breaks_lines_is_shown_on_one_line(tmp_path):
    path = tmp_path / "odd.json"
    path.write_text('{"format": "x\u2028y\u0085z"}', encoding="utf-8")
    assert "x\\u2028y\\x85z" in refused(run(path))


def test_directory(tmp_path):
    line = refused(run(tmp_path))
    assert str(tmp_path) in line


def test_no_file_argument():
    proc = run()
    assert proc.returncode != 0 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_deeply_nested_json(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    refused(run(path))


def test_a_file_too_large_for_a_record_is_refused_in_one_line(tmp_path):
    """replay read any file whole: a large one ended in a MemoryError traceback, and a device that
    never ends (/dev/zero) until the process was killed."""
    huge = tmp_path / "huge.json"
    with huge.open("wb") as f:
        f.truncate(65_000_000)  # sparse: no room taken
    for path, name in ((str(huge), str(huge)), ("/dev/zero", "/dev/zero")):
        if not Path(path).exists():
            continue
        proc = run(path)
        assert proc.returncode == 1 and proc.stdout == ""
        assert proc.stderr == f"{name} is too large for a game record (more than 64 MB)\n"
    for size, too_large in ((64_000_000, False), (64_000_001, True)):  # 64 MB, as it says (not MiB)
        proc = subprocess.run([str(LOVELETTER), "replay", "-"], input=b" " * size, capture_output=True,
                              check=False, timeout=60)
        assert proc.returncode == 1
        told = "standard input is too large for a game record (more than 64 MB)\n"
        assert (proc.stderr.decode() == told) is too_large, proc.stderr


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_on_a_narrow_terminal_the_story_breaks_between_words(tmp_path, lang):
    """A terminal 60 columns wide broke replay's long lines mid-word (up to 194 characters in Dutch):
    on a terminal they are now broken between words, the rest indented, the words all there; to a
    pipe each event stays one line."""
    import pty

    path = write(tmp_path, to_record(play_match(EDITION_2019, 4, 3), NAMES[:4]))
    piped = run(path, "--lang", lang).stdout.splitlines()
    assert max(map(len, piped)) > 60  # (there are long lines to break)
    leader, follower = pty.openpty()
    proc = subprocess.Popen([str(LOVELETTER), "replay", path, "--lang", lang], stdout=follower, stderr=subprocess.PIPE,
                            env=_env(LANG="C.UTF-8", COLUMNS="60"))
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: all read
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    assert proc.wait(timeout=60) == 0
    shown = out.decode().replace("\r\n", "\n").splitlines()
    assert shown != piped and max(map(len, shown)) <= 60
    assert " ".join(" ".join(shown).split()) == " ".join(" ".join(piped).split())  # every word, whole, in order


@pytest.mark.parametrize("name", ["Anna", "小明", "🦊🦊"])
def test_long_lines_are_wrapped_by_the_terminals_cells(name):
    """Wrapping counted characters: a line of wide characters (two cells each) overflowed the terminal."""
    from rich.cells import cell_len

    from loveletter.tui.replay import wrapped

    line = " ".join([f"{name} plays the Guard on {name} and names the Priest: wrong."] * 3)
    rows = list(wrapped([line, "short"], 40))
    assert rows[-1] == "short" and len(rows) > 2
    assert all(cell_len(row) <= 40 for row in rows)
    assert all(row.startswith("  ") and not row.startswith("   ") for row in rows[1:-1])
    assert " ".join(row.strip() for row in rows[:-1]) == line  # every word, in order, none split
    assert list(wrapped(["x" * 50 + " end"], 40)) == ["x" * 50, "  end"]  # a word wider than the line stays whole


@pytest.mark.parametrize(("lang", "settled", "said"), [
    ("en", None, ["Left in the deck, top first: the Guard and the Priest.", "Anna wins the round.",
                  "Bram gains a token for the Spy."]),
    ("nl", None, ["Nog in de trekstapel, de bovenste eerst: de Wachter en de Priester.", "Anna wint de ronde.",
                  "Bram krijgt een teken van liefde voor de Spion."]),
    ("en", "discard_total", ["More than one player holds the highest card: the highest total of discards wins.", "Anna wins the round."]),
    ("nl", "discard_total", ["Meer dan één speler heeft de hoogste kaart: de hoogste som van de afgelegde kaarten wint.",
                             "Anna wint de ronde."]),
    ("en", "discard_total_tie", ["More than one player holds the highest card, with the same total of discards: they share the win.",
                                 "Anna and Bram win the round."]),
    ("nl", "tie", ["Meer dan één speler heeft de hoogste kaart: ze delen de winst.", "Anna en Bram winnen de ronde."]),
])
def test_the_rounds_end_is_told_on_lines_of_its_own_as_the_game_tells_it(lang, settled, said):
    """A replay ran the deck left, the winners and the Spy's token together on one line, where the
    terminal game tells them on three; the web's log and replay now show them apart too. A tie for the
    highest card was told with no word of how it was settled (R6.3): two players showed the Priest,
    and one won."""
    from loveletter.engine import Card, Event
    from loveletter.i18n import Translator
    from loveletter.narrate import narrate, narrate_all
    from loveletter.web.messages import round_log

    t = Translator(lang)
    end = (Event("round_end", seats=(0,), target=1, cards=(Card.GUARD, Card.PRIEST)) if settled is None
           else Event("round_end", seats=(0,) if settled == "discard_total" else (0, 1), result=settled))
    lines = narrate_all([end], NAMES[:2], t)
    assert len(lines) == len(said) and lines == round_log([end], NAMES[:2], t, 1, set())
    assert narrate(end, NAMES[:2], t) == " ".join(lines)  # one line where a log has one per event
    assert lines == said


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "cannot read {path}: permission denied\n"),
    ("nl", "kan {path} niet lezen: geen toegang\n"),
])
def test_a_file_it_may_not_read_is_told_as_the_record_refusal_says(tmp_path, monkeypatch, lang, said):
    """Click's own check of the file ("Invalid value for 'FILE': … is not readable", a usage error,
    in English) answered first; a file in a folder it may not enter got the record's refusal.
    (Run in-process: a file its owner, root, may not read cannot be made.)"""
    from click.testing import CliRunner

    from loveletter.cli import main

    path = write(tmp_path, to_record(play_match(CLASSIC, 2, 5), ["Anna", "Bram"]))
    real_open = Path.open

    def open_refused(self: Path, *args, **kwargs):
        if self == path:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(main.os, "access", lambda *args, **kwargs: False)
    monkeypatch.setattr(Path, "open", open_refused)
    result = CliRunner().invoke(main.cli, ["replay", str(path), "--lang", lang])
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", said.format(path=path))
