"""Web tests: a client on a fresh database; the helpers of web_clients.py and of the engine tests'
scenarios.py (hidden cards shuffled, for the leak checks) importable."""

import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from loveletter.web.app import create_app
from loveletter.web.store import Store

for folder in (Path(__file__).parent, Path(__file__).parent.parent / "engine"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from web_clients import close_all  # noqa: E402


@pytest.fixture
def database(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture(autouse=True)
def _close_seats():
    yield
    close_all()


@pytest.fixture
def client(database):
    with TestClient(create_app(Store(database), bot_delay=0)) as c:
        yield c
        close_all()
