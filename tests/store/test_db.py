"""app/store/db.py: the database URL checked with a sentence, SQLite's settings, and writes that take the
write lock up front (so a read-then-write never fails halfway), and a write on the event loop that would
wait says so at once instead."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import text

from app.store.db import Database, DatabaseConfigError, WouldWait, database_url


@pytest.mark.parametrize(
    ("url", "driver"),
    [
        ("sqlite:///./fray.db", "sqlite"),
        ("postgresql://fray:secret@db:5432/fray", "postgresql+psycopg"),
        ("postgres://fray:secret@db/fray", "postgresql+psycopg"),
    ],
)
def test_a_database_url_fray_can_use_is_taken(url: str, driver: str):
    assert database_url(url).drivername == driver


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://root@db/fray", "not a database this version of Fray knows"),
        ("postgresql://fray:secret@db:5432", "names no database"),
        ("not a url at all", "is not a database URL"),
    ],
)
def test_a_database_url_fray_cannot_use_is_refused_with_a_sentence_that_hides_the_password(url, says):
    with pytest.raises(DatabaseConfigError, match=says) as error:
        database_url(url)
    assert "secret" not in str(error.value)


def test_sqlite_runs_in_wal_with_its_settings(tmp_path):
    db = Database(f"sqlite:///{tmp_path}/fray.db")
    with db.read() as session:
        settings = {
            name: session.execute(text(f"PRAGMA {name}")).scalar()
            for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")
        }
    db.dispose()
    assert settings == {"journal_mode": "wal", "synchronous": 1, "busy_timeout": 30000, "foreign_keys": 1}


def test_a_write_holds_the_write_lock_from_its_first_statement(tmp_path):
    """BEGIN IMMEDIATE: while one write is open (even before it writes), a write that must not wait is
    told at once, and a reader still reads."""
    db = Database(f"sqlite:///{tmp_path}/fray.db")
    with db.write() as session:
        session.execute(text("CREATE TABLE t (x INTEGER)"))
    opened, release = threading.Event(), threading.Event()

    def writer() -> None:
        with db.write() as session:
            session.execute(text("SELECT 1"))  # only a read so far: the lock is taken all the same
            opened.set()
            release.wait(5)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert opened.wait(5)
        with pytest.raises(WouldWait), db.write_now() as conn:
            conn.execute(text("INSERT INTO t VALUES (1)"))
        with db.read() as session:
            assert session.execute(text("SELECT count(*) FROM t")).scalar() == 0
    finally:
        release.set()
        thread.join(5)
    with db.write_now() as conn:  # the lock is free again: the quick write goes through
        conn.execute(text("INSERT INTO t VALUES (1)"))
        conn.commit()
    with db.read() as session:
        assert session.execute(text("SELECT count(*) FROM t")).scalar() == 1
    db.dispose()
