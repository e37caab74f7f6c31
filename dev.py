#!/usr/bin/env python3
"""Set everything up and run: ``python3 dev.py serve [options]`` (the browser game), ``python3 dev.py
play [options]`` (the terminal game) or ``python3 dev.py test [pytest options]``.

Needs only Python 3.11+. Creates ``.venv`` beside this file on first use, installs the project
with its pinned dependencies and the test and Ray extras (again whenever pyproject.toml changes),
then runs the command. The tests also need Debian's Chromium for the browser tests (browsers are
never downloaded) and a PostgreSQL server for the storage tests: as root, ``test`` installs both
with apt-get when they are missing and starts PostgreSQL.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"


def ensure_environment() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs before anything checks the version
        sys.exit(f"loveletter needs Python 3.11 or newer, not {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        print("Creating .venv …", file=sys.stderr)
        venv.create(VENV, with_pip=True)
    print("Installing loveletter and its dependencies …", file=sys.stderr)
    subprocess.run(
        [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", ".[test,ray]"],
        cwd=ROOT, check=True,
    )
    STAMP.write_text(wanted)


# command: Debian package, for the browser tests (Chromium) and the storage tests (PostgreSQL)
DEBIAN_PACKAGES = {"chromium": "chromium", "pg_ctlcluster": "postgresql"}
POSTGRES_URL = "postgresql+psycopg://loveletter:loveletter@127.0.0.1:5432/loveletter_test"


def ensure_test_tools() -> None:
    """Debian's Chromium and PostgreSQL, installed when missing (as root, with apt-get); the
    PostgreSQL server started, with a role and a database for the tests. With LOVELETTER_TEST_POSTGRES
    set, the tests use that server: no PostgreSQL is installed or started here."""
    own_server = "LOVELETTER_TEST_POSTGRES" in os.environ
    missing = [package for command, package in DEBIAN_PACKAGES.items()
               if not _has(command) and not (own_server and package == "postgresql")]
    if missing:
        if shutil.which("apt-get") is None or os.geteuid() != 0:
            sys.exit(f"the tests need Debian's {', '.join(missing)}: sudo apt-get install {' '.join(missing)}")
        print(f"Installing {', '.join(missing)} with apt-get …", file=sys.stderr)
        quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=quiet)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True,
                       env=quiet, stdout=subprocess.DEVNULL)
    if not own_server:
        start_postgres()


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def _has(command: str) -> bool:
    return shutil.which(command) is not None or Path("/usr/bin", command).exists()


def start_postgres() -> None:
    """Start every PostgreSQL cluster (Debian's pg_ctlcluster) and make the tests' role and database."""
    if os.geteuid() != 0:  # a developer's own server: the tests use it as it is, so say what it needs
        if "LOVELETTER_TEST_POSTGRES" not in os.environ and not _answers("127.0.0.1", 5432):
            print("Note: no PostgreSQL server answers at 127.0.0.1:5432, so the storage tests will fail. Run"
                  " `sudo python3 dev.py test` once (it starts the server and makes the tests' role and database),"
                  " or set LOVELETTER_TEST_POSTGRES to a server where the role may create schemas.",
                  file=sys.stderr)
        return
    clusters = subprocess.run(["pg_lsclusters", "--no-header"], capture_output=True, text=True, check=True)
    for line in clusters.stdout.splitlines():
        version, name, _port, status = line.split()[:4]
        if status != "online":
            subprocess.run(["pg_ctlcluster", version, name, "start"], check=True)

    def psql(sql: str) -> str:
        done = subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-tAc", sql],
                              capture_output=True, text=True, check=True, cwd="/")
        return done.stdout.strip()

    if psql("SELECT 1 FROM pg_roles WHERE rolname = 'loveletter'") != "1":
        psql("CREATE ROLE loveletter LOGIN PASSWORD 'loveletter'")
    if psql("SELECT 1 FROM pg_database WHERE datname = 'loveletter_test'") != "1":
        psql("CREATE DATABASE loveletter_test OWNER loveletter")


def main() -> None:
    commands = {"serve", "play", "test", "replay", "bench"}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit("usage: python3 dev.py serve [options] | play [options] | test [pytest options] | replay FILE"
                 " | bench")
    command, args = sys.argv[1], sys.argv[2:]
    ensure_environment()
    os.chdir(ROOT)
    if command == "test":
        ensure_test_tools()
        os.environ.setdefault("LOVELETTER_TEST_POSTGRES", POSTGRES_URL)
        cmd = [str(PYTHON), "-m", "pytest", "-n", "auto", *args]
    elif command == "bench":
        cmd = [str(PYTHON), "benchmarks/engine.py", *args]
    else:
        cmd = [str(BIN / "loveletter"), command, *args]
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    main()
