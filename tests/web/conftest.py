"""Web tests: a client on a fresh database; the helpers of web_clients.py and of the engine tests'
scenarios.py (hidden cards shuffled, for the leak checks) importable."""

import os
import sys
import uuid
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from loveletter.web.app import create_app
from loveletter.web.store import Store

HERE = str(Path(__file__).parent)  # (web_clients; the engine tests' scenarios: tests/conftest.py)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from web_clients import close_all  # noqa: E402

#: Started (with this role and database) by ``python3 dev.py test``; override with the variable.
POSTGRES = os.environ.get("LOVELETTER_TEST_POSTGRES",
                          "postgresql+psycopg://loveletter:loveletter@127.0.0.1:5432/loveletter_test")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """An empty database: an SQLite file, or a schema of its own on the real PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'web.sqlite3'}"
        return
    server = create_engine(POSTGRES)
    schema = f"test_{uuid.uuid4().hex[:16]}"
    try:
        with server.begin() as db:
            db.execute(text(f"CREATE SCHEMA {schema}"))
    except OperationalError as err:
        pytest.fail(f"PostgreSQL is not reachable at {POSTGRES} ({str(err).splitlines()[0]}); "
                    "as root, python3 dev.py test starts it (and makes the role and database); or set "
                    "LOVELETTER_TEST_POSTGRES to a server where the role may create schemas")
    yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    with server.begin() as db:
        db.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    server.dispose()


@pytest.fixture(autouse=True)
def _close_seats():
    yield
    close_all()


@pytest.fixture
def client(database):
    store = Store(database)
    with TestClient(create_app(store, bot_delay=0)) as c:
        yield c
        close_all()
    store.close()
