"""Migrations build exactly the tables the models describe, on a real SQLite file, and go back down."""

from __future__ import annotations

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
