"""Commands per second persisted on one process: the full service path, one writer thread."""

from __future__ import annotations

import os
import tempfile
import time

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


def main(count: int = 3000) -> list[dict]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        out.append(emit("commands_sqlite", **measure(f"sqlite:///{tmp}/bench.db", count)))
    postgres = os.environ.get("FRAY_BENCH_POSTGRES_URL")
    if postgres:
        out.append(emit("commands_postgres", **measure(postgres, count)))
    return out


if __name__ == "__main__":
    main(int(os.environ.get("FRAY_BENCH_COMMANDS", "3000")))
