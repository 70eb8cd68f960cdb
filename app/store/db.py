"""The engine and transactions: SQLite in WAL with BEGIN IMMEDIATE writes, or PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def make_engine(url: str) -> Engine:
    if not is_sqlite(url):
        return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin event, not the driver, open transactions (the documented recipe).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=30000", "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # Writes take the write lock up front, so a read-then-write never fails with SQLITE_BUSY.
        immediate = connection.get_execution_options().get("fray_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


class Database:
    def __init__(self, url: str):
        self.url = url
        self.engine = make_engine(url)
        self._writer = self.engine.execution_options(fray_write=True)

    @contextmanager
    def read(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        with Session(self._writer, expire_on_commit=False) as session, session.begin():
            yield session

    def dispose(self) -> None:
        self.engine.dispose()
