"""Commands per second persisted on one process: the full service path, one writer thread.

SQLite always; PostgreSQL too when FRAY_BENCH_POSTGRES_URL names a database (it gets a "Bench" campaign),
or when the test server of scripts/services.sh is up (FRAY_TEST_POSTGRES_URL: a scratch database).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from app.realtime.broker import MemoryBroker
from app.services import campaigns, commands
from app.services.auth import SeatAuth
from app.services.context import Fray
from app.settings import Settings
from app.store.db import Database
from app.store.migrate import upgrade
from app.store.states import StateCache
from bench.common import emit, percentile


def measure(database_url: str, count: int) -> dict:
    upgrade(database_url)
    settings = Settings(database_url=database_url)
    fray = Fray(settings=settings, db=Database(database_url), broker=MemoryBroker(), states=StateCache())
    try:
        new = campaigns.create(fray, "Bench", "generic", dice="manual")
        gm = SeatAuth(new.gm.seat_id, new.id, "gm", "GM", "generic")
        commands.execute(fray, gm, {"type": "generic.pool.create", "name": "Gold", "min": None})
        payloads = [
            {"type": "generic.pool.adjust", "pool": "Gold", "delta": 1},
            {"type": "generic.roll", "expression": "2d6+1", "dice": [3, 4]},
        ]
        latencies = []
        start = time.perf_counter()
        for i in range(count):
            t = time.perf_counter()
            commands.execute(fray, gm, {**payloads[i % 2], "command_id": f"bench-{i}"})
            latencies.append(time.perf_counter() - t)
        elapsed = time.perf_counter() - start
    finally:
        fray.db.dispose()
    return {
        "commands_per_s": round(count / elapsed),
        "p50_ms": round(percentile(latencies, 0.5) * 1000, 2),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "commands": count,
    }


def _server_settings(database_url: str) -> dict:
    """What makes PostgreSQL figures comparable: a test server runs with fsync off."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.connect() as connection:
        figures = {
            name: connection.execute(text(f"SHOW {name}")).scalar()
            for name in ("fsync", "synchronous_commit")
        }
    engine.dispose()
    return figures


@contextmanager
def _postgres_database() -> Iterator[str | None]:
    """FRAY_BENCH_POSTGRES_URL as given; else a scratch database on the test server (make test's
    FRAY_TEST_POSTGRES_URL, e.g. `scripts/services.sh run .venv/bin/python -m bench.commands`); else none."""
    given = os.environ.get("FRAY_BENCH_POSTGRES_URL")
    if given:
        yield given
        return
    admin = os.environ.get("FRAY_TEST_POSTGRES_URL")
    if not admin:
        yield None
        return
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"fray_bench_{os.getpid()}"
    url = make_url(admin)
    with psycopg.connect(
        url.set(drivername="postgresql").render_as_string(hide_password=False), autocommit=True
    ) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
        try:
            yield url.set(database=name).render_as_string(hide_password=False)
        finally:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main(count: int = 3000) -> list[dict]:
    """SQLite first (bench.run reads it as [0]), then PostgreSQL when one is available."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        out.append(emit("commands_sqlite", **measure(f"sqlite:///{tmp}/bench.db", count)))
    with _postgres_database() as postgres:
        if postgres:
            figures = measure(postgres, count)
            out.append(emit("commands_postgres", **figures, **_server_settings(postgres)))
    return out


if __name__ == "__main__":
    main(int(os.environ.get("FRAY_BENCH_COMMANDS", "3000")))
