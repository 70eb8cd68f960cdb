"""PostgreSQL: the migrations build what the models describe and go back down; the URL is checked."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url
from sqlmodel import SQLModel

import app.store.models  # noqa: F401
from app.store.db import Database, DatabaseConfigError, database_url, make_engine
from app.store.migrate import MIGRATION_LOCK, alembic_config, upgrade

ROOT = Path(__file__).resolve().parents[2]


def test_migrations_match_the_models_and_downgrade_on_postgres(postgres):
    name = postgres.create(migrated=False)
    url = postgres.url(name)
    try:
        upgrade(url)
        engine = make_engine(url)
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
            tables = set(inspect(connection).get_table_names())
        assert {"campaign", "encounter", "seat", "participant", "event", "snapshot"} <= tables
        command.downgrade(alembic_config(url), "base")
        with engine.connect() as connection:
            assert set(inspect(connection).get_table_names()) <= {"alembic_version"}
        upgrade(url)  # and up again, on a database that has been down
        engine.dispose()
    finally:
        postgres.drop(name)


def test_the_database_speaks_postgresql_with_aware_times(postgres_url):
    db = Database(postgres_url)
    with db.read() as session:
        assert session.execute(text("SELECT version()")).scalar().startswith("PostgreSQL")
        assert session.get_bind().dialect.driver == "psycopg"
        assert session.execute(text("SELECT now()")).scalar().tzinfo is not None
    db.dispose()


def _backend(db: Database) -> int:
    with db.read() as session:
        return session.execute(text("SELECT pg_backend_pid()")).scalar_one()


def _terminate(postgres, pid: int) -> None:
    with psycopg.connect(
        make_url(postgres.admin_url).set(drivername="postgresql").render_as_string(False)
    ) as c:
        c.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_pooled_connection_that_rested_is_pinged_and_one_the_server_dropped_is_replaced(
    postgres, postgres_url, monkeypatch
):
    """Pinged only after IDLE_PING seconds at rest (app/store/db.py), so a busy process skips the round
    trip; a connection that rested is still checked, as after a server restart."""
    import app.store.db

    db = Database(postgres_url)
    try:
        first = _backend(db)
        assert _backend(db) == first  # the pool hands the same connection back
        _terminate(postgres, first)
        monkeypatch.setattr(app.store.db, "IDLE_PING", 0.0)  # it has rested long enough
        assert _backend(db) != first
    finally:
        db.dispose()


@pytest.mark.parametrize(
    "url",
    [
        "postgres://fray:secret@db/fray",
        "postgresql://fray:secret@db:5432/fray",
        "postgresql+psycopg://db/fray",
    ],
)
def test_postgres_urls_use_psycopg_3(url):
    assert database_url(url).drivername == "postgresql+psycopg"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://fray:secret@db/fray", "not a database this version of Fray knows"),
        ("postgresql+psycopg2://fray:secret@db/fray", "not a database this version of Fray knows"),
        ("postgresql://fray:secret@db", "names no database"),
        ("not a url", "not a database URL Fray can read"),
    ],
)
def test_a_misconfigured_database_url_is_a_sentence_without_the_password(url, says):
    with pytest.raises(DatabaseConfigError) as error:
        make_engine(url)
    assert says in str(error.value)
    assert "secret" not in str(error.value)
    assert str(error.value).endswith(".")


WAITING_ON_LOCK = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"


def test_a_process_waits_while_another_migrates(postgres):
    """Several `fray serve` starting at once: migrations run under an advisory lock, one at a time."""
    name = postgres.create(migrated=False)
    url = postgres.url(name)
    env = {**os.environ, "FRAY_DATABASE_URL": url}
    other = psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False))
    try:
        with other.transaction():  # another process, mid-migration, holds the lock
            other.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            process = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "db", "upgrade"], cwd=ROOT, env=env, stderr=subprocess.PIPE
            )
            # It waits for the lock instead of racing to create the tables.
            deadline = time.monotonic() + 60
            while not other.execute(WAITING_ON_LOCK).fetchone()[0]:
                assert process.poll() is None, "it migrated while another process held the lock"
                assert time.monotonic() < deadline, "it never asked for the migration lock"
                time.sleep(0.05)
            assert process.poll() is None
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err.decode()[-2000:]
        engine = make_engine(url)
        with engine.connect() as connection:
            head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [
                head
            ]
        engine.dispose()
    finally:
        other.close()
        postgres.drop(name)
