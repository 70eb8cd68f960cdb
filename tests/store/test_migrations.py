"""Migrations build exactly the tables the models describe, on a real SQLite file, and go back down."""

from __future__ import annotations

import json
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from sqlmodel import SQLModel

import app.store.models  # noqa: F401
from app.store.db import Database
from app.store.migrate import alembic_config, upgrade


def test_migrations_match_the_models_and_downgrade(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'fray.db'}"
    upgrade(url)
    engine = create_engine(url)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
        tables = set(inspect(connection).get_table_names())
    assert {"campaign", "encounter", "seat", "participant", "event", "snapshot"} <= tables
    command.downgrade(alembic_config(url), "base")
    with engine.connect() as connection:
        assert set(inspect(connection).get_table_names()) <= {"alembic_version"}
    engine.dispose()


def test_sqlite_runs_in_wal_with_immediate_writes(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'fray.db'}"
    upgrade(url)
    db = Database(url)
    with db.read() as session:
        assert session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert session.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL
        assert session.execute(text("PRAGMA busy_timeout")).scalar() == 30000
    with db.write() as session:
        # A write transaction's first statement, even a read, takes SQLite's write lock (BEGIN IMMEDIATE):
        # a second writer cannot start one, so a read-then-write never fails half-way with SQLITE_BUSY.
        session.execute(text("SELECT 1"))
        other = create_engine(url, connect_args={"timeout": 0.1})
        with other.connect() as connection:
            raw = connection.connection.driver_connection
            raw.isolation_level = None
            try:
                raw.execute("BEGIN IMMEDIATE")
                locked = False
            except Exception as error:  # sqlite3.OperationalError: database is locked
                locked = "locked" in str(error)
        other.dispose()
    assert locked
    db.dispose()


def test_existing_campaigns_keep_the_images_their_logs_added(tmp_path: Path):
    """Revision 0004 on a database of 0003: each campaign holds the blobs its `map.asset_added` named."""
    url = f"sqlite:///{tmp_path / 'fray.db'}"
    upgrade(url, "0003")
    engine = create_engine(url)
    now = "2026-11-20 10:00:00"
    with engine.begin() as connection:
        for cid in ("c1", "c2"):
            connection.execute(
                text(
                    "INSERT INTO campaign (id, name, system, invite_code, spectator_code, created_at)"
                    " VALUES (:id, 'T', 'generic', :i, :s, :at)"
                ),
                {"id": cid, "i": f"i-{cid}", "s": f"s-{cid}", "at": now},
            )
        connection.execute(
            text(
                "INSERT INTO asset (id, mime, width, height, size, data, created_at)"
                " VALUES (:id, 'image/webp', 4, 4, 1, x'00', :at)"
            ),
            {"id": "a" * 64, "at": now},
        )
        added = [("c1", "a" * 64), ("c2", "b" * 64)]  # c2's blob is not in this database
        for seq, (cid, aid) in enumerate(added, start=1):
            data = json.dumps({"asset": {"id": aid, "name": "", "width": 4, "height": 4}})
            connection.execute(
                text(
                    "INSERT INTO event (campaign_id, seq, type, data, audience, batch, at, version)"
                    " VALUES (:c, :seq, 'map.asset_added', :data, 'gm', 1, :at, 1)"
                ),
                {"c": cid, "seq": seq, "data": data, "at": now},
            )
    upgrade(url)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT campaign_id, asset_id FROM campaign_asset")).all()
    assert [tuple(r) for r in rows] == [("c1", "a" * 64)]
    engine.dispose()


def test_tiles_made_before_are_weighed_and_held_images_are_not(tmp_path: Path):
    """Revision 0005 on a database of 0004: each blob no campaign holds (a vision tile) gets its row,
    with its size and when it was made; an image a campaign holds gets none."""
    url = f"sqlite:///{tmp_path / 'fray.db'}"
    upgrade(url, "0004")
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO campaign (id, name, system, invite_code, spectator_code, created_at)"
                " VALUES ('c1', 'T', 'generic', 'i', 's', '2026-11-20 10:00:00')"
            )
        )
        blobs = (("a" * 64, 900, "2026-11-20 10:00:00"), ("t" * 64, 300, "2026-11-21 09:30:00"))
        for blob, size, at in blobs:
            connection.execute(
                text(
                    "INSERT INTO asset (id, mime, width, height, size, data, created_at)"
                    " VALUES (:id, 'image/jpeg', 4, 4, :size, x'00', :at)"
                ),
                {"id": blob, "size": size, "at": at},
            )
        connection.execute(
            text(
                "INSERT INTO campaign_asset (campaign_id, asset_id, created_at)"
                " VALUES ('c1', :a, '2026-11-20 10:00:00')"
            ),
            {"a": "a" * 64},
        )
    upgrade(url)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT id, size, made_at FROM vision_tile")).all()
    assert [(r[0], r[1], str(r[2])[:19]) for r in rows] == [("t" * 64, 300, "2026-11-21 09:30:00")]
    engine.dispose()
