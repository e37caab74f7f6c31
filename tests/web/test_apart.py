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
from loveletter.engine import CLASSIC, Match, view
from loveletter.web import apart
from loveletter.web.process import free_port


def test_a_search_made_apart_chooses_and_goes_on_as_one_made_here():
    """The bot goes to a worker as it is and comes back as the search left it: its choices, and
    what it has read, are the ones a search in the server's thread makes (a table's bot goes on from
    one decision to the next)."""
    match = Match(CLASSIC, 3, target=4, seed=11)
    here, sent = ExpertBot(seed=5, budget=200), ExpertBot(seed=5, budget=200)
    chosen = 0
    while not match.over and chosen < 12:
        seat = match.current
        seen = view(match, seat)
        if seat == 0:  # (the others: the engine's first legal move)
            action = choose_in_sight(here, seen)
            away, sent = apart.choose(sent, [], seen)
            assert away == action and sent is not here
            # what it has read, and where its random numbers are (the rest: its timings)
            assert sent._reading.events == here._reading.events and sent.rng.getstate() == here.rng.getstate()
            chosen += 1
        else:
            action = seen.legal_actions[0]
        match.apply(action)
        if match.round.over and not match.over:
            match.next_round()
    assert chosen >= 3


def test_a_search_whose_workers_are_gone_is_made_by_new_ones():
    """A worker killed (the system out of memory) broke the pool for good."""
    match = Match(CLASSIC, 2, target=1, seed=3)
    seen = view(match, match.current)
    pool = apart.start()
    for worker in list(pool._processes.values()):
        worker.kill()
        worker.join(10)
    action, _ = apart.choose(ExpertBot(seed=1, budget=50), [], seen)
    assert action in seen.legal_actions and apart.start() is not pool


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_server_stopped_from_its_terminal_stops_its_searches_without_a_word(tmp_path, stop):
    """A terminal's Ctrl-C, or a service manager's stop, goes to every process of the server's group:
    each search's process would print a traceback of its own, or be left running."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "loveletter", "serve", "--port", str(port), "--db",
                               str(tmp_path / "web.sqlite3"), "--bot-delay", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        from websockets.sync.client import connect

        deadline = time.monotonic() + 60
        while True:
            try:
                asked = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=json.dumps(
                    {"name": "Ann", "bots": {"1": "expert"}}).encode(), headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(asked, timeout=10) as answer:
                    made = json.load(answer)
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "the server did not start"
                time.sleep(0.2)
        with connect(f"ws://127.0.0.1:{port}/ws/{made['code']}") as player:
            player.send(json.dumps({"type": "hello", "secret": made["secret"], "lang": "en"}))
            state = json.loads(player.recv(timeout=10))
            while not state["legal"]:  # (the expert's first move, searched apart)
                state = json.loads(player.recv(timeout=30))
            player.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "at": state["moves"]}))
            after = state["moves"] + 1
            while state["moves"] <= after and not state["match_winners"]:  # the expert's answer, apart
                state = json.loads(player.recv(timeout=30))
        os.killpg(server.pid, stop)
        assert server.wait(30) == -stop
        log = server.stdout.read() if server.stdout else ""
        assert "Traceback" not in log and "Error" not in log, log
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
