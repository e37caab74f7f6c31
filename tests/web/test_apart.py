"""The expert's searches in processes of their own (loveletter.web.apart): the same choices as in
the server's threads, and processes that leave stopping to the server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from loveletter.bots import ExpertBot, choose_in_sight
from loveletter.engine import CLASSIC, Match, View, view
from loveletter.web import apart
from loveletter.web.process import free_port, start_server


def test_a_search_made_apart_chooses_and_goes_on_as_one_made_here():
    """The bot goes to a worker as it is and comes back as the search left it: its choices, and
    what it has read, are the ones a search in the server's thread makes (a table's bot goes on from
    one decision to the next)."""
    apart.start()
    match = Match(CLASSIC, 3, target=4, seed=11)
    here, sent = ExpertBot(seed=5, budget=200), ExpertBot(seed=5, budget=200)
    chosen = 0
    while not match.over and chosen < 12:
        seat = match.current
        seen = view(match, seat)
        if seat == 0:  # (the others: the engine's first legal move)
            action = choose_in_sight(here, seen)
            before = sent
            away, sent = apart.choose(before, [], seen)
            assert away == action and sent is not before  # (a copy, made in the worker)
            # what it has read, and where its random numbers are (the rest: its timings)
            assert sent._reading.events == here._reading.events and sent.rng.getstate() == here.rng.getstate()
            chosen += 1
        else:
            action = seen.legal_actions[0]
        match.apply(action)
        if match.round.over and not match.over:
            match.next_round()
    assert chosen >= 3


def _first_view() -> View:
    """The first player's view of a two-player deal."""
    match = Match(CLASSIC, 2, target=1, seed=3)
    return view(match, match.current)


def test_a_search_whose_workers_are_gone_is_made_by_new_ones():
    """A worker killed (the system out of memory) broke the pool for good."""
    seen = _first_view()
    pool = apart.start()
    for worker in list(pool._processes.values()):
        worker.kill()
        worker.join(10)
    action, _ = apart.choose(ExpertBot(seed=1, budget=50), [], seen)
    assert action in seen.legal_actions and apart.start() is not pool


def test_where_the_system_gives_no_processes_the_searches_are_made_here_and_that_is_logged(monkeypatch, caplog):
    """A system without shared memory for the workers' locks (some containers) refused the pool: the
    server would not have started, nor a bot moved."""
    def refused(method: str) -> None:
        raise OSError(38, "Function not implemented")

    apart.stop()
    monkeypatch.setattr(apart.multiprocessing, "get_context", refused)
    seen = _first_view()
    try:
        assert apart.start() is None
        for _ in range(2):  # (tried once: said once)
            action, _ = apart.choose(ExpertBot(seed=1, budget=50), [], seen)
            assert action in seen.legal_actions
        assert [r.getMessage() for r in caplog.records if r.name == "loveletter.web.apart"] == [
            "the expert's searches are made in the server's threads, which hold up every table while they think:"
            " the system gives no processes for them ([Errno 38] Function not implemented)"]
    finally:
        apart.stop()  # (tried again at the next start)
        monkeypatch.undo()
        apart.start()


def test_a_search_asked_for_once_the_workers_are_stopped_is_made_here():
    """The server stopping: a bot's search asked for then started the workers again."""
    seen = _first_view()
    apart.stop()
    try:
        bot = ExpertBot(seed=1, budget=50)
        action, searched = apart.choose(bot, [], seen)
        assert action in seen.legal_actions and searched is bot and apart._pool is None
    finally:
        apart.start()


def test_the_workers_of_a_server_killed_outright_end_with_it():
    """Deaf to SIGTERM, they ran on for good after a kill -9 (the system out of memory) of the server."""
    started = subprocess.Popen([sys.executable, "-c", "from loveletter.web import apart; import time;"
                                " print(*[w.pid for w in apart.start()._processes.values()], flush=True);"
                                " time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(pid) for pid in started.stdout.readline().split()]  # type: ignore[union-attr]
        assert workers
    finally:
        started.kill()
        started.wait(10)
    deadline = time.monotonic() + 10
    for worker in workers:
        while os.path.exists(f"/proc/{worker}") and _state(worker) != "Z":
            assert time.monotonic() < deadline, f"worker {worker} still running"
            time.sleep(0.1)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return "gone"


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_server_stopped_from_its_terminal_stops_its_searches_without_a_word(tmp_path, stop):
    """A terminal's Ctrl-C, or a service manager's stop, goes to every process of the server's group:
    each search's process would print a traceback of its own, or be left running."""
    from websockets.sync.client import connect

    port = free_port()
    server = start_server(port, str(tmp_path / "web.sqlite3"), timeout=60, new_session=True)
    try:
        asked = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=json.dumps(
            {"name": "Ann", "bots": {"1": "expert"}}).encode(), headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(asked, timeout=10) as answer:
            made = json.load(answer)
        with connect(f"ws://127.0.0.1:{port}/ws/{made['code']}") as player:
            player.send(json.dumps({"type": "hello", "secret": made["secret"], "lang": "en"}))
            state, ours = json.loads(player.recv(timeout=10)), 0
            while state["moves"] <= ours:  # every move so far Ann's: until the expert has moved, apart
                if state["legal"]:  # (a round she ends, she may start the next)
                    player.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "at": state["moves"]}))
                    ours += 1
                state = json.loads(player.recv(timeout=30))
        os.killpg(server.pid, stop)
        assert server.wait(30) == -stop
        log = server.stdout.read() if server.stdout else ""
        assert "Traceback" not in log and "ERROR" not in log, log
        deadline = time.monotonic() + 10
        while True:  # every worker gone with the server
            try:
                os.killpg(server.pid, 0)
            except ProcessLookupError:
                break
            assert time.monotonic() < deadline, "a search's process was left running"
            time.sleep(0.1)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)
