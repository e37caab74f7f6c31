#!/usr/bin/env python3
"""Set everything up and run: ``python3 dev.py serve [options]`` (the browser game), ``python3 dev.py
play [options]`` (the terminal game) or ``python3 dev.py test [pytest options]``.

Needs only Python 3.11+. Creates ``.venv`` beside this file on first use, installs the project
with its pinned dependencies and the test and Ray extras (again whenever pyproject.toml changes),
then runs the command. The tests also need Debian's Chromium for the browser tests (browsers are
never downloaded): as root, ``test`` installs it with apt-get when it is missing.
"""

from __future__ import annotations

import hashlib
import os
import shutil
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


DEBIAN_PACKAGES = {"chromium": "chromium"}  # command: package, for the browser tests


def ensure_test_tools() -> None:
    """Debian's Chromium for the browser tests, installed when missing (as root, with apt-get)."""
    missing = [package for command, package in DEBIAN_PACKAGES.items() if shutil.which(command) is None]
    if not missing:
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        sys.exit(f"the browser tests need Debian's {', '.join(missing)}: sudo apt-get install {' '.join(missing)}")
    print(f"Installing {', '.join(missing)} with apt-get …", file=sys.stderr)
    quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=quiet)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True, env=quiet,
                   stdout=subprocess.DEVNULL)


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
        cmd = [str(PYTHON), "-m", "pytest", "-n", "auto", *args]
    elif command == "bench":
        cmd = [str(PYTHON), "benchmarks/engine.py", *args]
    else:
        cmd = [str(BIN / "loveletter"), command, *args]
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    main()
