"""Moving a table to a bigger server: SQLite -> PostgreSQL -> SQLite with `fray export` and `fray import
--keep-seats`, the same id and the same tokens at every step, and the same state and views."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli import cli
from app.main import create_app
from app.settings import Settings, get_settings
from app.store.migrate import upgrade
from tests.helpers import Table
from tests.mapping import scene_with_image


def _cli(database_url: str, *args: str):
    get_settings.cache_clear()
    result = CliRunner().invoke(cli, list(args), env={"FRAY_DATABASE_URL": database_url})
    get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()


def _views(database_url: str, table: Table, seats) -> dict[str, str]:
    with TestClient(create_app(Settings(database_url=database_url))) as http:
        out = {}
        for name, seat in seats.items():
            r = http.get(f"/api/campaigns/{table.id}", headers=seat.auth)
            assert r.status_code == 200, r.text
            out[name] = _images_unnamed(json.dumps(r.json(), sort_keys=True))
        r = http.get(f"/api/campaigns/{table.id}/events", headers=table.gm.auth)
        out["events"] = _images_unnamed(json.dumps(r.json(), sort_keys=True))
    return out


def _images_unnamed(text: str) -> str:
    """An import re-encodes every image as an upload does (issue 28, item 8), so an image's content id,
    and the key of the players' image made from it, are new on each server; all else is the same."""
    return re.sub(r"v=[0-9a-f]{20}", "v=<key>", re.sub(r"[0-9a-f]{64}", "<image>", text))


def test_sqlite_to_postgresql_and_back_keeps_the_table(
    client, postgres_url: str, db_path: Path, tmp_path: Path
):
    table = Table.create(client, name="Moving day")
    ann = table.join("Ann")
    table.character("Rook", owner=ann)
    table.ok(table.gm, "generic.pool.create", name="Fate", value=2)
    scene, _ = scene_with_image(table)
    table.ok(table.gm, "map.fog.cover", scene=scene, rect=[0, 0, 100, 100])
    seats = {"gm": table.gm, "ann": ann}
    sqlite_a = f"sqlite:///{db_path}"
    original = _views(sqlite_a, table, seats)

    first = tmp_path / "a.fray.json.gz"
    _cli(sqlite_a, "export", table.id, "-o", str(first))
    lines = _cli(postgres_url, "import", str(first), "--keep-seats")
    assert lines[-1] == table.id  # the last line is the campaign's id: the same one, free there
    assert _views(postgres_url, table, seats) == original

    second = tmp_path / "b.fray.json.gz"
    _cli(postgres_url, "export", table.id, "-o", str(second))
    sqlite_b = f"sqlite:///{tmp_path / 'b.db'}"
    upgrade(sqlite_b)
    assert _cli(sqlite_b, "import", str(second), "--keep-seats")[-1] == table.id
    assert _views(sqlite_b, table, seats) == original


def test_import_without_keep_seats_prints_a_fresh_gm_link(client, db_path: Path, tmp_path: Path):
    table = Table.create(client)
    out = tmp_path / "t.fray.json.gz"
    _cli(f"sqlite:///{db_path}", "export", table.id, "-o", str(out))
    elsewhere = f"sqlite:///{tmp_path / 'other.db'}"
    lines = _cli(elsewhere, "import", str(out))
    assert lines[-1] == table.id and any(f"/c/{table.id}/seat/" in line for line in lines)
    get_settings.cache_clear()
    bad = CliRunner().invoke(
        cli, ["import", str(tmp_path / "missing.gz")], env={"FRAY_DATABASE_URL": elsewhere}
    )
    get_settings.cache_clear()
    assert bad.exit_code == 2
