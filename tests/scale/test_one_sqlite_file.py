"""Issue 16, item 11: a second process on the same SQLite file with the memory broker says loudly that
its sockets will go stale, and points to Redis."""

from __future__ import annotations

from pathlib import Path

from app.store.migrate import upgrade
from tests.scale.conftest import AppProcess


def test_a_second_process_on_one_sqlite_file_warns_and_points_to_redis(tmp_path: Path):
    url = f"sqlite:///{tmp_path}/table.db"
    upgrade(url)
    first = AppProcess(url, "memory://", tmp_path / "first.log").wait_ready()
    second = AppProcess(url, "memory://", tmp_path / "second.log")
    try:
        second.wait_ready()
    finally:
        second.stop()
        first.stop()
    warned = (tmp_path / "second.log").read_text()
    assert "Another Fray process is already serving" in warned and "FRAY_BROKER_URL=redis://" in warned
    assert "Another Fray process" not in (tmp_path / "first.log").read_text()
