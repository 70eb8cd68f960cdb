"""Several real Fray processes on one PostgreSQL database and one Redis, as `fray serve` runs them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests import services
from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]


class AppProcess:
    """`fray serve` in a subprocess of its own, on a free port."""

    def __init__(self, database_url: str, broker_url: str, log: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.log = log
        # The scale tests play many tables from one address, sharing Redis's buckets across the session.
        env = {
            **os.environ,
            "FRAY_DATABASE_URL": database_url,
            "FRAY_BROKER_URL": broker_url,
            "FRAY_RATE_LIMIT_SCALE": "1000",
        }
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "serve", "--no-migrate", "--port", str(self.port)],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def wait_ready(self) -> AppProcess:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"fray serve did not start:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def redis_url() -> str:
    """The shared test Redis (FRAY_TEST_REDIS_URL)."""
    return services.need(services.REDIS_URL, "FRAY_TEST_REDIS_URL")


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[services.RedisServer]:
    """A Redis of this test's own, which it may stop and start again on the same port."""
    server = services.RedisServer(tmp_path, free_port()).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def shared_apps(postgres, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[AppProcess]]:
    """Two processes on one database and the shared Redis, for the tests that stop neither (each test
    plays on campaigns of its own): starting processes is the slow part."""
    redis = services.need(services.REDIS_URL, "FRAY_TEST_REDIS_URL")
    name = postgres.create()
    logs = tmp_path_factory.mktemp("shared-apps")
    apps = [AppProcess(postgres.url(name), redis, logs / f"app{i}.log") for i in range(2)]
    try:
        yield [app.wait_ready() for app in apps]
    finally:
        for app in apps:
            app.stop()
        postgres.drop(name)


@pytest.fixture
def start_apps(postgres_url: str, tmp_path: Path) -> Iterator[Callable[[str, int], list[AppProcess]]]:
    """Start n `fray serve` processes on this test's PostgreSQL database and the given Redis."""
    started: list[AppProcess] = []

    def start(broker_url: str, n: int = 2) -> list[AppProcess]:
        apps = [
            AppProcess(postgres_url, broker_url, tmp_path / f"app{len(started) + i}.log") for i in range(n)
        ]
        started.extend(apps)
        return [app.wait_ready() for app in apps]

    yield start
    for app in started:
        app.stop()
