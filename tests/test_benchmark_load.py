"""benchmarks/load.py: play lasts ``--seconds`` from when every player has connected, however long the
think time; a run with no move, and a database that cannot be opened, are one line."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "load.py"


@pytest.fixture
def load(load_script):
    """benchmarks/load.py as a module."""
    return load_script("load")


class Table:
    """A stand-in for the server's WebSocket: connecting takes ``delay`` seconds, and every message
    is a state in which the player has a legal move."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.moves = 0

    def __call__(self, url: str, max_size: int) -> Table:
        return self

    async def __aenter__(self) -> Table:
        await asyncio.sleep(self.delay)
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def send(self, text: str) -> None:
        self.moves += json.loads(text)["type"] == "move"

    async def recv(self) -> str:
        await asyncio.sleep(0.01)
        return json.dumps({"type": "state", "moves": self.moves, "legal": [{"move": 0}], "match_winners": []})


def test_play_starts_when_every_player_has_connected(load, monkeypatch):
    """The clock started before the players connected: with many tables, connecting took the whole
    time, and the run printed "moves: 0", status 0."""
    monkeypatch.setattr(load.websockets, "connect", Table(delay=2))
    (moves, alone), (latencies, beside), took = asyncio.run(load.drive("ws://test", [("T", "a", "b"), ("E", "c")],
                                                                       0.3, 0))
    assert moves > 0 and latencies and alone > 0 and beside  # (the expert's table counted apart)
    # the two seconds of connecting not counted (with them: 2.3 s or more; the room between is for a
    # busy machine)
    assert 0.3 <= took < 2.3


def test_a_long_think_is_cut_where_play_stops(load, monkeypatch):
    """A think time of 10 s on average slept its whole draw (17 s) past a second's play."""
    monkeypatch.setattr(load.websockets, "connect", Table(delay=0))
    began = time.monotonic()
    (moves, _), _, took = asyncio.run(asyncio.wait_for(load.drive("ws://test", [("T", "a", "b")], 0.3, 10), 5))
    assert moves == 0 and took < 3 and time.monotonic() - began < 4.5  # (the whole draw: seconds)


def run(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *options], capture_output=True, text=True, timeout=120,
                          check=False)


def test_a_short_run_with_one_table():
    done = run("--tables", "1", "--seconds", "1", "--think", "0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("web server load: 1 two-player table, 2 WebSocket players, ")  # not "1 tables"
    assert "moves: " in done.stdout and "latency from move to update" in done.stdout


def test_a_short_run_beside_an_expert_table():
    done = run("--tables", "1", "--expert-tables", "1", "--seconds", "2", "--think", "0.2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("web server load: 1 two-player table, 1 table of one against the expert bot,"
                                  " 3 WebSocket players, ")
    assert "at the expert's tables, the players' moves: " in done.stdout
    assert "their latency (the bot's move not awaited): p50 " in done.stdout


def test_a_run_without_a_move_is_an_error():
    """Its figures were made of nothing ("moves: 0"), status 0; and it took 17 s, not 1: its think,
    drawn longer than play lasts, ran on and ended in a move (so not in this error)."""
    done = run("--tables", "1", "--seconds", "1", "--think", "10")
    assert done.returncode == 1 and done.stdout == ""
    assert re.match(r"load\.py: no move was made in 1\.\d s of play", done.stderr) and done.stderr.count("\n") == 1


def test_a_database_that_cannot_be_opened_is_a_bad_option_and_its_password_is_hidden():
    """It was status 1, and the message showed the URL with its password."""
    done = run("--db", "postgresql://u:secret@127.0.0.1:1/x")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert done.stderr.startswith("load.py: argument --db: the server did not start: ")
    assert "postgresql://u:***@127.0.0.1:1/x" in done.stderr and "secret" not in done.stderr


def test_more_tables_than_the_open_file_limit_allows_are_refused_in_one_line():
    """With the common limit of 1,024 open files, 600 tables (1,200 WebSockets on each side) ended in
    a traceback ("Too many open files"); the soft limit is now raised to the hard one first, and a
    number of tables past that is refused before anything starts."""
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    done = subprocess.run([sys.executable, str(SCRIPT), "--tables", "600", "--seconds", "1"], capture_output=True,
                          text=True, timeout=120, check=False, preexec_fn=limited)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("load.py: argument --tables: 1,200 players need about 1,300 open files (a WebSocket"
                           " each), and this process may open 1,024 (ulimit -n) (see load.py --help)\n")


def test_the_open_file_limit_is_raised_to_the_hard_limit(load):
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard <= 256:
        pytest.skip(f"needs a hard limit of open files above 256 and finite (here {hard})")
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        assert load.open_files_allowed() == hard
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
