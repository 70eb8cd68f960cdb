"""PostgreSQL and Redis for the tests, found through the environment that scripts/services.sh sets.

`make test` starts both servers on loopback and exports FRAY_TEST_POSTGRES_URL (a superuser URL on the
`postgres` database), FRAY_TEST_REDIS_URL and FRAY_TEST_REDIS_SERVER, and sets FRAY_REQUIRE_SERVICES=1
so a missing server fails the run instead of skipping tests. Run by hand without them, those tests skip.

Each PostgreSQL test gets a fresh database copied from a migrated template (CREATE DATABASE ... TEMPLATE
takes a few milliseconds), dropped afterwards.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import time
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from app.store.migrate import upgrade

POSTGRES_URL = os.environ.get("FRAY_TEST_POSTGRES_URL")
REDIS_URL = os.environ.get("FRAY_TEST_REDIS_URL")
REQUIRED = os.environ.get("FRAY_REQUIRE_SERVICES") == "1"

_names = itertools.count(1)


def need(value: str | None, what: str) -> str:
    if value:
        return value
    message = f"{what} is not set: run the tests with `make test` (or scripts/services.sh run pytest ...)."
    if REQUIRED:
        pytest.fail(message)
    pytest.skip(message)


def _conninfo(url: str, database: str | None = None) -> str:
    parsed = make_url(url).set(drivername="postgresql")
    if database is not None:
        parsed = parsed.set(database=database)
    return parsed.render_as_string(hide_password=False)


class PostgresDatabases:
    """Fresh databases on the test server, each a copy of one migrated template."""

    def __init__(self, admin_url: str):
        self.admin_url = admin_url
        self.prefix = f"fray_t{os.getpid()}"
        self.template = f"{self.prefix}_template"
        self._admin = psycopg.connect(_conninfo(admin_url), autocommit=True)
        self._admin.execute(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)')
        self._admin.execute(f'CREATE DATABASE "{self.template}"')
        upgrade(self.url(self.template))

    def url(self, name: str) -> str:
        return make_url(self.admin_url).set(database=name).render_as_string(hide_password=False)

    def create(self, migrated: bool = True) -> str:
        name = f"{self.prefix}_{next(_names)}"
        template = f' TEMPLATE "{self.template}"' if migrated else ""
        self._admin.execute(f'CREATE DATABASE "{name}"{template}')
        return name

    def drop(self, name: str) -> None:
        self._admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        self.drop(self.template)
        self._admin.close()


class RedisServer:
    """A redis-server of a test's own, on a fixed port, that the test may stop and start again."""

    def __init__(self, directory: Path, port: int):
        binary = os.environ.get("FRAY_TEST_REDIS_SERVER") or shutil.which("redis-server")
        self.binary = need(binary, "FRAY_TEST_REDIS_SERVER (the redis-server program)")
        self.directory = directory
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        self.process = subprocess.Popen(
            [
                *(self.binary, "--bind", "127.0.0.1", "--port", str(self.port)),
                *("--save", "", "--appendonly", "no", "--dir", str(self.directory)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with redis.Redis(port=self.port, socket_connect_timeout=0.5) as client:
                    if client.ping():
                        return self
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None
