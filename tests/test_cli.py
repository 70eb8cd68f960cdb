"""The console script: `fray db upgrade` and `fray demo` on a fresh database."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def _fray(*args: str, db: Path) -> str:
    env = {**os.environ, "FRAY_DATABASE_URL": f"sqlite:///{db}"}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def test_db_upgrade_and_demo_print_working_links(tmp_path: Path):
    db = tmp_path / "fresh.db"
    assert "up to date" in _fray("db", "upgrade", db=db)
    out = _fray("demo", "--base-url", "http://testserver", db=db)
    gm_link = re.search(r"GM console:\s+(\S+)", out).group(1)
    ann_link = re.search(r"Ann:\s+(\S+)", out).group(1)
    with TestClient(create_app(Settings(database_url=f"sqlite:///{db}"))) as client:
        gm = client.get(gm_link.removeprefix("http://testserver"), follow_redirects=True)
        assert gm.status_code == 200 and "Goblin Boss" in gm.text  # the GM sees the hidden boss
        client.cookies.clear()
        ann = client.get(ann_link.removeprefix("http://testserver"), follow_redirects=True)
        assert ann.status_code == 200 and "Aria" in ann.text
        assert "Goblin Boss" not in ann.text and "AC 15" not in ann.text
