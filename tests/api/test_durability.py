"""Events survive stopping and starting the server (a real process on a real SQLite file)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.conftest import free_port
from tests.helpers import Table, pool

ROOT = Path(__file__).resolve().parents[2]


def _start(db_path: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "FRAY_DATABASE_URL": f"sqlite:///{db_path}"}
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(process.stderr.read().decode())


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    process.wait(timeout=15)


def test_events_survive_a_restart(tmp_path: Path):
    db = tmp_path / "fray.db"  # fresh: the server applies the migrations itself
    port = free_port()
    server = _start(db, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            table = Table.create(http)
            ann = table.join("Ann")
            table.ok(table.gm, "generic.pool.create", name="Good Karma", value=2)
            table.ok(ann, "generic.roll", expression="2d6", dice=[5, 6], label="Attack")
            table.ok(ann, "generic.pool.adjust", pool="Good Karma", delta=-1)
            before = table.events(table.gm)
    finally:
        _stop(server)
    server = _start(db, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            table.http = http
            assert table.events(table.gm) == before
            assert pool(table.view(ann), "Good Karma")["value"] == 1
            table.ok(ann, "generic.pool.adjust", pool="Good Karma", delta=-1)  # and play goes on
    finally:
        _stop(server)
