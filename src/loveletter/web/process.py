"""``loveletter serve`` in a process of its own, for the browser tests and the load benchmark."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Sequence


def free_port() -> int:
    """A TCP port nobody listens on now (on the loopback interface)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(port: int, database: str, bot_delay: float = 0.0, timeout: float = 30,
                 options: Sequence[str] = (), new_session: bool = False) -> subprocess.Popen[str]:
    """Start ``loveletter serve`` on ``port`` with ``database`` (a path or an SQLAlchemy URL), and
    its other ``options``, and return once it accepts connections; ``RuntimeError`` with its output
    if it does not. ``new_session``: in a process group of its own (signalled as a terminal signals
    its whole group, ``os.killpg``)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "loveletter", "serve", "--port", str(port), "--db", database,
         "--bot-delay", str(bot_delay), *options],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=new_session,
    )
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                output = process.stdout.read() if process.stdout else ""
                raise RuntimeError(f"the server did not start: {output.strip()}") from None
            time.sleep(0.1)


def stop_server(process: subprocess.Popen[str]) -> None:
    """Ask the server to stop (SIGTERM); kill it if it has not within ten seconds."""
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
