"""Load on the web server: many tables at once, each with two scripted players on WebSockets.

Starts ``loveletter serve`` on a fresh SQLite file (or ``--db URL``), creates ``--tables`` two-player
tables (and ``--expert-tables`` of one such player against the expert bot, whose searches the server
makes in processes of its own, on the same cores), connects every player, and once all have
connected lets them play random legal moves for ``--seconds``: each player thinks a random time (uniform, ``--think`` seconds on average,
cut short where play stops; 0: answer at once, which saturates the server) before each move. Prints
moves per second, the latency from sending a move to the mover receiving the new state (p50, p99,
max; at the two-person tables, and apart at the expert's), and the server's memory (resident set,
from /proc) once the tables are made and after play; a
run in which no move was made is an error (status 1), as is a ``--db`` that cannot be opened (status
2, its password hidden).

    .venv/bin/python benchmarks/load.py [--tables 200] [--expert-tables 0] [--seconds 30] [--think 1.0] [--db URL]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets
from options import Parser, count, description, percentile, run, seconds, whole

from loveletter.web.process import free_port, start_server, stop_server


def post(url: str, body: dict[str, object]) -> dict[str, str]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def memory_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Clock:
    """When play starts and stops: once every player has connected, so that connecting (seconds, with
    many tables) is not counted as play, nor leaves it no time."""

    def __init__(self, players: int, seconds: float) -> None:
        self.waiting = players
        self.seconds = seconds
        self.started = asyncio.Event()
        self.start = self.stop = 0.0

    async def connected(self) -> None:
        """A player has connected: wait for the others, then play starts."""
        self.waiting -= 1
        if self.waiting == 0:
            self.start = time.monotonic()
            self.stop = self.start + self.seconds
            self.started.set()
        await self.started.wait()


async def player(url: str, code: str, secret: str, clock: Clock, latencies: list[float], seed: int,
                 think: float) -> int:
    """One seat: on each state where it is to move, plays a random legal move; returns moves made."""
    rng = random.Random(seed)
    made = 0
    async with websockets.connect(f"{url}/ws/{code}", max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "secret": secret, "lang": "en"}))
        await clock.connected()
        sent_at: float | None = None
        waiting_for = -1
        while time.monotonic() < clock.stop:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(),
                                                            timeout=max(0.1, clock.stop - time.monotonic())))
            except TimeoutError:
                break
            if message["type"] != "state":
                continue
            if sent_at is not None and message["moves"] > waiting_for:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["legal"] and not message["match_winners"]:
                if think:  # no longer than play lasts: a long think would keep it going past --seconds
                    await asyncio.sleep(min(rng.uniform(0, 2 * think), max(0.0, clock.stop - time.monotonic())))
                    if time.monotonic() >= clock.stop:
                        break
                waiting_for = message["moves"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(message["legal"])["move"],
                                          "at": message["moves"]}))
                made += 1
    return made


async def drive(url: str, tables: list[tuple[str, ...]], seconds: float, think: float
                ) -> tuple[list[int], list[list[float]], float]:
    """Play at every table, each given as its code and its people's secrets: the moves made and
    their latencies at the two-person tables and, apart, at the expert's; and the seconds played."""
    seats = [(code, secret, len(secrets) == 1) for code, *secrets in tables for secret in secrets]
    latencies: list[list[float]] = [[], []]
    clock = Clock(len(seats), seconds)
    made = await asyncio.gather(*(player(url, code, secret, clock, latencies[alone], n, think)
                                  for n, (code, secret, alone) in enumerate(seats)))
    moves = [sum(m for m, (_, _, alone) in zip(made, seats, strict=True) if alone is kind) for kind in (False, True)]
    return moves, latencies, time.monotonic() - clock.start


def print_latencies(what: str, latencies: list[float]) -> None:
    """Print the median, the 99th percentile and the most of ``latencies`` (seconds), in ms."""
    if latencies:
        ms = sorted(1000 * x for x in latencies)
        print(f"{what}: p50 {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
              f"max {ms[-1]:.1f} ms over {count(len(ms), 'move')}")


def database_kind(db: str | None) -> str:
    """What ``--db`` names, for the report: "SQLite" for a file (or none: a new one), else the URL's
    scheme ("postgresql+psycopg")."""
    scheme = db.split("://", 1)[0] if db and "://" in db else "sqlite"
    return "SQLite" if scheme.startswith("sqlite") else scheme


#: Open files beyond the players' WebSockets: Python's own, the database's, the HTTP requests'.
SPARE_FILES = 100


def open_files_allowed() -> int:
    """The most files this process (and the server it starts) may open: raised to the hard limit
    first (the soft limit is often 1,024, which 500 tables passed, with a traceback: "Too many open
    files")."""
    try:
        import resource
    except ImportError:  # not a Unix: no such limit to read
        return 1 << 30
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):  # a system that will not: the soft limit stands
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return soft if soft != resource.RLIM_INFINITY else 1 << 30


def main() -> None:
    parser = Parser(description=description(__doc__))
    parser.add_argument("--tables", type=whole(1, 2000), default=200,
                        help="concurrent two-player tables, at most 2,000 (default 200)")
    parser.add_argument("--expert-tables", type=whole(0, 200), default=0,
                        help="tables of one player against the expert bot besides, at most 200 (default 0)")
    parser.add_argument("--seconds", type=seconds(most=3600), default=30,
                        help="how long the players play, from when all have connected, at most 3600 (default 30)")
    parser.add_argument("--think", type=seconds(zero=True, most=60), default=1.0,
                        help="a player's mean think time before a move, in seconds, at most 60 (default 1; 0: none)")
    parser.add_argument("--db", default=None,
                        help="the database, as for loveletter serve --db: an SQLAlchemy URL or an SQLite file"
                             " path (default: a new SQLite file in a temporary folder); the test's tables and"
                             " moves are added to it")
    args = parser.parse_args()
    most = open_files_allowed()
    players = 2 * args.tables + args.expert_tables
    if players + SPARE_FILES > most:  # the server, which inherits the limit, needs as many
        option = "--tables/--expert-tables" if args.expert_tables else "--tables"
        parser.error(f"argument {option}: {players:,} players need about {players + SPARE_FILES:,} open"
                     f" files (a WebSocket each), and this process may open {most:,} (ulimit -n)")
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = args.db or f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        try:
            server = start_server(port, database)
        except RuntimeError as err:
            if args.db:  # the database named could not be opened: a bad option (status 2)
                parser.error(f"argument --db: {err}")  # (serve names the database without its password)
            sys.exit(f"load.py: {err}")
        try:
            http = f"http://127.0.0.1:{port}"
            tables: list[tuple[str, ...]] = []
            for i in range(args.tables):
                made = post(f"{http}/api/tables", {"name": f"A{i}", "players": 2, "target": 20})
                joined = post(f"{http}/api/tables/{made['code']}/join", {"name": f"B{i}"})
                tables.append((made["code"], made["secret"], joined["secret"]))
            for i in range(args.expert_tables):
                made = post(f"{http}/api/tables", {"name": f"E{i}", "players": 2, "target": 20, "bots": {"1": "expert"}})
                tables.append((made["code"], made["secret"]))
            idle = memory_mib(server.pid)
            (moves, alone), (latencies, beside), took = asyncio.run(
                drive(f"ws://127.0.0.1:{port}", tables, args.seconds, args.think))
            busy = memory_mib(server.pid)
        finally:
            stop_server(server)
    if not moves:  # figures of nothing: the think time too long for the time, or the server too slow
        sys.exit(f"load.py: no move was made in {took:.1f} s of play (see --think and --seconds)")
    experts = f", {count(args.expert_tables, 'table')} of one against the expert bot" if args.expert_tables else ""
    print(f"web server load: {count(args.tables, 'two-player table')}{experts}, {players:,} WebSocket players, "
          f"think time {args.think:g} s on average, {took:.0f} s, "
          f"database {database_kind(args.db)}")
    print(f"moves: {moves:,} ({moves / took:,.0f} per second)")
    print_latencies("latency from move to update", latencies)
    if args.expert_tables:
        print(f"at the expert's tables, the players' moves: {alone:,}")
        print_latencies("their latency (the bot's move not awaited)", beside)
    print(f"server memory (resident): {idle:.0f} MiB with the tables created, {busy:.0f} MiB after play")


if __name__ == "__main__":
    run(main)
