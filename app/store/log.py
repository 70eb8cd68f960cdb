"""The append-only event log: one dense seq per campaign, UNIQUE(campaign_id, seq)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Dialect, Row, func, insert, select
from sqlalchemy.exc import IntegrityError

from app.rules.events import current_version
from app.rules.system import Event, NewEvent
from app.store.db import Executor, sqlite_driver
from app.store.models import EventRow, table_of, utcnow

T = table_of(EventRow)  # Core statements: the log is hot, the ORM adds nothing here.
# `inline`: nothing reads the new rows' ids back, so PostgreSQL's insert needs no RETURNING.
_INSERT = insert(T).inline()
_ROW_KEYS = tuple(column.name for column in T.c if column.name != "id")


class _OneRow(NamedTuple):
    """A command's one-row insert, compiled once per dialect: its text, and each parameter's key and
    SQLAlchemy's own bind processor for its column (so the values stored are the ones `execute` would
    store). Run by `exec_driver_sql`, it skips SQLAlchemy's statement cache and compiled parameters:
    about 40 µs of a command's 550 on SQLite here."""

    sql: str
    keys: tuple[str, ...]
    processors: tuple[Callable[[Any], Any] | None, ...]
    positional: bool

    @classmethod
    def of(cls, dialect: Dialect) -> _OneRow:
        compiled = _INSERT.compile(dialect=dialect, column_keys=list(_ROW_KEYS))
        keys = tuple(compiled.positiontup or ()) if compiled.positional else _ROW_KEYS
        processors = tuple(T.c[key].type.dialect_impl(dialect).bind_processor(dialect) for key in keys)
        return cls(compiled.string, keys, processors, compiled.positional)

    def parameters(self, row: dict[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        values = tuple(
            row[key] if process is None else process(row[key])
            for key, process in zip(self.keys, self.processors, strict=True)
        )
        return values if self.positional else dict(zip(self.keys, values, strict=True))


_ONE_ROW: WeakKeyDictionary[Dialect, _OneRow] = WeakKeyDictionary()  # an engine's own serializers


def _one_row(dialect: Dialect) -> _OneRow:
    found = _ONE_ROW.get(dialect)
    if found is None:
        found = _ONE_ROW[dialect] = _OneRow.of(dialect)
    return found


class SeqTaken(Exception):
    """Another writer appended first: reload, decide again."""


def _event(row: Row[*tuple[Any, ...]]) -> Event:
    at: datetime | None = row.at
    if at is not None and at.tzinfo is None:  # SQLite hands back naive times; we store UTC
        at = at.replace(tzinfo=UTC)
    return Event(  # upcast here, from the version the row was written at to today's
        seq=row.seq,
        type=row.type,
        data=row.data,
        version=row.version,
        audience=row.audience,
        actor=row.actor,
        encounter=row.encounter_id,
        batch=row.batch,
        at=at.isoformat() if at else None,
    )


_COLUMNS = (
    T.c.seq,
    T.c.type,
    T.c.data,
    T.c.version,
    T.c.audience,
    T.c.actor,
    T.c.encounter_id,
    T.c.batch,
    T.c.at,
)


def last_seq(session: Executor, campaign_id: str) -> int:
    return session.execute(select(func.max(T.c.seq)).where(T.c.campaign_id == campaign_id)).scalar() or 0


def stamped(
    campaign_id: str,
    after_seq: int,
    events: Sequence[NewEvent],
    actor: str | None,
    encounter: str | None,
    command_id: str | None = None,
) -> tuple[list[dict[str, Any]], list[Event]]:
    """A command's events as the rows to insert after `after_seq` and as the events they will be."""
    at = utcnow()
    first = after_seq + 1
    rows: list[dict[str, Any]] = [
        {
            "campaign_id": campaign_id,
            "seq": first + i,
            "type": e.type,
            "data": e.data,
            "version": current_version(e.type),
            "audience": e.audience,
            "actor": actor,
            "encounter_id": e.encounter or encounter,
            "batch": first,
            "command_id": command_id if i == 0 else None,
            "at": at,
        }
        for i, e in enumerate(events)
    ]
    stored = [
        Event(
            seq=r["seq"],
            type=r["type"],
            data=r["data"],
            version=r["version"],
            audience=r["audience"],
            actor=actor,
            encounter=r["encounter_id"],
            batch=first,
            at=at.isoformat(),
        )
        for r in rows
    ]
    return rows, stored


def insert_rows(session: Executor, rows: list[dict[str, Any]]) -> None:
    """Insert stamped rows in one statement, so that it is atomic even outside a transaction. Raises
    SeqTaken if someone else got there first, or the command_id was used before: the caller must then
    roll its transaction back."""
    # No SAVEPOINT: SeqTaken leaves the transaction, which is rolled back whole (on PostgreSQL a failed
    # statement spoils the transaction anyway) and tried again from the start.
    try:
        if len(rows) == 1 and isinstance(session, Connection):
            one_row = _one_row(session.dialect)
            # A kept SQLite writer's transaction is begun on the driver (`Database.write_core`): the
            # insert goes there too, without SQLAlchemy's execution path (a tenth of a command's time).
            driver = sqlite_driver(session) if session.dialect.name == "sqlite" else None
            if driver is not None and driver.in_transaction:
                driver.execute(one_row.sql, one_row.parameters(rows[0]))
            else:
                session.exec_driver_sql(one_row.sql, one_row.parameters(rows[0]))
        elif len(rows) == 1:
            session.execute(_INSERT, rows[0])
        else:
            session.execute(_INSERT.values(rows))  # one multi-row statement, not executemany
    except IntegrityError as error:
        raise SeqTaken(str(error.orig)) from None
    except sqlite3.IntegrityError as error:
        raise SeqTaken(str(error)) from None


def after(
    session: Executor, campaign_id: str, seq: int, upto: int | None = None, limit: int | None = None
) -> list[Event]:
    query = select(*_COLUMNS).where(T.c.campaign_id == campaign_id, T.c.seq > seq)
    if upto is not None:
        query = query.where(T.c.seq <= upto)
    query = query.order_by(T.c.seq)
    if limit is not None:
        query = query.limit(limit)
    return [_event(row) for row in session.execute(query)]


def recent(session: Executor, campaign_id: str, limit: int, encounter: str | None = None) -> list[Event]:
    query = select(*_COLUMNS).where(T.c.campaign_id == campaign_id)
    if encounter is not None:
        query = query.where(T.c.encounter_id == encounter)
    rows = session.execute(query.order_by(T.c.seq.desc()).limit(limit)).all()
    return [_event(row) for row in reversed(rows)]


def of_encounter(session: Executor, campaign_id: str, encounter: str) -> list[Event]:
    query = select(*_COLUMNS).where(T.c.campaign_id == campaign_id, T.c.encounter_id == encounter)
    return [_event(row) for row in session.execute(query.order_by(T.c.seq))]


def batch_of(session: Executor, campaign_id: str, command_id: str) -> tuple[str | None, list[Event]] | None:
    """The events a command made, found by its command_id, with the seat that sent it."""
    first = session.execute(
        select(T.c.batch, T.c.actor).where(T.c.campaign_id == campaign_id, T.c.command_id == command_id)
    ).first()
    if first is None:
        return None
    query = (
        select(*_COLUMNS).where(T.c.campaign_id == campaign_id, T.c.batch == first.batch).order_by(T.c.seq)
    )
    return first.actor, [_event(row) for row in session.execute(query)]
