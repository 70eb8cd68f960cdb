"""`fray backup PATH`: a consistent copy of a SQLite database taken while commands keep running."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli import cli
from app.main import create_app
from app.settings import Settings, get_settings
from tests.helpers import Table


def _dense(path: Path) -> tuple[int, bool]:
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        seqs = [row[0] for row in db.execute("SELECT seq FROM event ORDER BY campaign_id, seq")]
        campaigns = db.execute("SELECT COUNT(DISTINCT campaign_id) FROM event").fetchone()[0]
    return len(seqs), campaigns == 1 and seqs == list(range(1, len(seqs) + 1))


def test_an_online_backup_while_commands_run_is_whole_and_consistent(db_path: Path, tmp_path, monkeypatch):
    # SQLite in both of make test's passes: backing up is a SQLite matter (PostgreSQL has pg_dump).
    with TestClient(create_app(Settings(database_url=f"sqlite:///{db_path}"))) as client:
        _back_up_while_playing(client, db_path, tmp_path, monkeypatch)


WRITES_PER_BACKUP = 20  # four backups need 80 writes: past the 60 a seat may send at once


def _back_up_while_playing(client, db_path: Path, tmp_path: Path, monkeypatch) -> None:
    table = Table.create(client)
    table.ok(table.gm, "generic.pool.create", name="Gold", value=0, min=None)
    stop = threading.Event()
    written = threading.Semaphore(0)  # released once for each write that landed

    def play() -> None:
        while not stop.is_set():
            command_id = uuid.uuid4().hex
            # As a client should: over the seat's budget, wait what Retry-After says and send it again.
            while (
                r := table.send(table.gm, "generic.pool.adjust", pool="Gold", delta=1, command_id=command_id)
            ).status_code == 429:
                time.sleep(float(r.headers["retry-after"]))
            assert r.status_code == 200, r.text
            written.release()

    monkeypatch.setenv("FRAY_DATABASE_URL", f"sqlite:///{db_path}")
    get_settings.cache_clear()
    runner = CliRunner()
    player = threading.Thread(target=play)
    player.start()
    try:
        copies = []
        for i in range(4):
            for _ in range(WRITES_PER_BACKUP):  # the player goes on writing between backups
                assert written.acquire(timeout=10), "the player stopped writing"
            target = tmp_path / f"backup-{i}.db"
            result = runner.invoke(cli, ["backup", str(target)])
            assert result.exit_code == 0, result.output
            assert "Backed up to" in result.output
            copies.append(_dense(target))
    finally:
        stop.set()
        player.join()
        get_settings.cache_clear()
    assert all(dense for _, dense in copies)  # every copy is a whole log: seq 1..N, no gap
    counts = [count for count, _ in copies]
    assert counts == sorted(set(counts)) and counts[0] > WRITES_PER_BACKUP  # each copy holds later writes
    again = runner.invoke(
        cli, ["backup", str(tmp_path / "backup-0.db")], env={"FRAY_DATABASE_URL": f"sqlite:///{db_path}"}
    )
    assert again.exit_code == 2 and "already exists" in again.output
    get_settings.cache_clear()


def test_backup_of_postgresql_points_to_pg_dump(tmp_path):
    result = CliRunner().invoke(
        cli, ["backup", str(tmp_path / "x.db")], env={"FRAY_DATABASE_URL": "postgresql://u@h/db"}
    )
    get_settings.cache_clear()
    assert result.exit_code == 2 and "pg_dump" in result.output
