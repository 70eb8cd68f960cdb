"""An online copy of a SQLite database, consistent while the server keeps writing (SQLite's backup API).

The copy is written beside the target and renamed into place, so a crash mid-copy never leaves a half
file under the backup's name. PostgreSQL has its own tool for this: pg_dump (docs/deploy.md).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url

from app.store.db import is_sqlite


class BackupError(ValueError):
    """A backup that cannot be made, said for a person."""


def backup_sqlite(database_url: str, target: Path, force: bool = False) -> int:
    """Copy the live database to `target`; returns the copy's size in bytes."""
    if not is_sqlite(database_url):
        raise BackupError(
            "fray backup copies a SQLite database; for PostgreSQL use pg_dump (see docs/deploy.md)."
        )
    source = make_url(database_url).database
    if not source or source == ":memory:" or not Path(source).exists():
        raise BackupError(f"There is no SQLite database at {source or '(none)'} to back up.")
    if target.exists() and not force:
        raise BackupError(f"{target} already exists: choose a new name, or pass --force to replace it.")
    if target.resolve() == Path(source).resolve():
        raise BackupError("The backup cannot be the database itself: choose another path.")
    partial = target.with_name(f".{target.name}.partial")
    with sqlite3.connect(source, timeout=30) as live, sqlite3.connect(partial) as copy:
        live.backup(copy, pages=1024)  # in steps: writers are held up for a moment at a time, not the copy
        copy.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
    live.close()
    copy.close()
    os.replace(partial, target)
    return target.stat().st_size
