"""Fixtures: a migrated database per test, the app in process, and a real server for sockets.

The database is a copy of a migrated SQLite file unless FRAY_TEST_DATABASE=postgres, when it is a fresh
PostgreSQL database copied from a migrated template (`make test` runs tests/api that way a second time).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from hypothesis import settings as hypothesis_settings

from app.main import create_app
from app.settings import Settings
from app.store.migrate import upgrade
from tests import services
from tests.helpers import Table, replies_as_declared

TEST_DATABASE = os.environ.get("FRAY_TEST_DATABASE", "sqlite")
if TEST_DATABASE not in ("sqlite", "postgres"):
    raise pytest.UsageError(f"FRAY_TEST_DATABASE={TEST_DATABASE!r}: use sqlite (the default) or postgres.")

# CI replays the same examples every run (a landing must not hinge on a lucky draw) and has no
# per-example deadline on a busy machine; at a desk, Hypothesis keeps exploring new examples.
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Every push decided from what changed is also drawn whole and compared (app/realtime/decided.py), here
# and in the servers the tests start (they inherit it).
os.environ.setdefault("FRAY_CHECK_PUSH", "1")


@pytest.fixture(autouse=True)
def pushes_decided_as_drawn() -> Iterator[None]:
    """No push of the test decided a page otherwise than its viewer's view draws it."""
    from app.realtime import decided

    decided.MISMATCHES.clear()
    yield
    found, decided.MISMATCHES[:] = list(decided.MISMATCHES), []
    assert not found, f"pages decided from what changed differ from their views: {found}"


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Migrations run once on a real SQLite file; each test gets a copy."""
    path = tmp_path_factory.mktemp("template") / "fray.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def db_path(tmp_path: Path, migrated_template: Path) -> Path:
    path = tmp_path / "fray.db"
    shutil.copy(migrated_template, path)
    return path


@pytest.fixture(scope="session")
def postgres() -> Iterator[services.PostgresDatabases]:
    """The test PostgreSQL server (FRAY_TEST_POSTGRES_URL), with a migrated template database."""
    databases = services.PostgresDatabases(services.need(services.POSTGRES_URL, "FRAY_TEST_POSTGRES_URL"))
    yield databases
    databases.close()


@pytest.fixture
def postgres_url(postgres: services.PostgresDatabases) -> Iterator[str]:
    """A fresh, migrated PostgreSQL database for one test, dropped after it."""
    name = postgres.create()
    yield postgres.url(name)
    postgres.drop(name)


@pytest.fixture
def database_url(request: pytest.FixtureRequest) -> str:
    if TEST_DATABASE == "postgres":
        return request.getfixturevalue("postgres_url")
    return f"sqlite:///{request.getfixturevalue('db_path')}"


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings), base_url="http://testserver") as test_client:
        test_client.event_hooks["response"].append(replies_as_declared)
        yield test_client


@pytest.fixture
def table(client: TestClient) -> Table:
    return Table.create(client)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """The app on a real port, served by uvicorn in a thread of this process."""

    def __init__(self, settings: Settings):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.app = create_app(settings)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
            ws_per_message_deflate=True,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live_server(settings: Settings) -> Iterator[LiveServer]:
    server = LiveServer(settings).start()
    yield server
    server.stop()


@pytest.fixture
def live_http(live_server: LiveServer) -> Iterator[httpx.Client]:
    checked = {"response": [replies_as_declared]}
    with httpx.Client(base_url=live_server.url, timeout=10, event_hooks=checked) as http:
        yield http


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests last: they are the slowest, and the fast tiers should fail first."""
    items.sort(key=lambda item: "tests/e2e/" in str(item.fspath))
