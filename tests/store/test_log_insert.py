"""A command's one-row insert is compiled once and run as the driver's text: it must store what
SQLAlchemy's own insert stores, and be refused the same way when its seq or command_id is taken."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import insert, select, text

from app.realtime.broker import MemoryBroker
from app.rules.system import NewEvent
from app.services import campaigns
from app.services.context import Fray
from app.settings import Settings
from app.store import log
from app.store.db import Database
from app.store.states import StateCache

COLUMNS = "type, data, version, audience, actor, encounter_id, batch, command_id, at"
CHANGED = NewEvent(
    type="generic.pool_changed", data={"pool": "Gold ✦ «x»", "to": [1, None, 2.5, {"a": True}]}
)


@pytest.fixture
def fray(settings: Settings) -> Iterator[tuple[Fray, str]]:
    database = Database(settings.database_url)
    made = Fray(settings=settings, db=database, broker=MemoryBroker(), states=StateCache())
    campaign = campaigns.create(made, "Insert", "generic", gm_name="GM")
    yield made, campaign.id
    made.db.dispose()


def _row(campaign_id: str, seq: int, command_id: str | None) -> dict:
    rows, _ = log.stamped(campaign_id, seq - 1, [CHANGED], "seat-1", None, command_id)
    return rows[0]


def _raw(fray: Fray, campaign_id: str, seq: int) -> tuple:
    """The row's values as the driver hands them back, bypassing SQLAlchemy's result processing."""
    with fray.db.engine.connect() as connection:
        query = select(text(COLUMNS)).select_from(log.T).where(log.T.c.campaign_id == campaign_id)
        compiled = query.where(log.T.c.seq == seq).compile(
            dialect=connection.dialect, compile_kwargs={"literal_binds": True}
        )
        found = connection.exec_driver_sql(str(compiled)).one()
    return tuple(found[:-1]), found[-1]


def test_the_one_row_insert_stores_what_sqlalchemys_insert_stores(fray):
    made, campaign_id = fray
    with made.db.read() as session:
        end = log.last_seq(session, campaign_id)
    by_sqlalchemy, by_text = _row(campaign_id, end + 1, "a"), _row(campaign_id, end + 2, "b")
    by_text["at"] = by_sqlalchemy["at"] = datetime(2026, 11, 25, 17, 4, 5, 123456, tzinfo=UTC)
    with made.db.write_core() as connection:
        connection.execute(insert(log.T), by_sqlalchemy)
    with made.db.write_core() as connection:
        log.insert_rows(connection, [by_text])
    (first, first_at), (second, second_at) = (
        _raw(made, campaign_id, end + 1),
        _raw(made, campaign_id, end + 2),
    )
    assert first[:-2] == second[:-2] and first[-2:] == (end + 1, "a") and second[-2:] == (end + 2, "b")
    assert first_at == second_at  # as the driver hands it back: a string on SQLite, a time on PostgreSQL
    with made.db.read() as session:
        events = log.after(session, campaign_id, end)
    assert [e.data for e in events] == [by_text["data"]] * 2
    assert events[1].at == "2026-11-25T17:04:05.123456+00:00"


def test_a_taken_seq_or_command_id_is_refused_and_stores_nothing(fray):
    made, campaign_id = fray
    with made.db.read() as session:
        end = log.last_seq(session, campaign_id)
    with made.db.write_core() as connection:
        log.insert_rows(connection, [_row(campaign_id, end + 1, "once")])
    for clash in (_row(campaign_id, end + 1, "other"), _row(campaign_id, end + 2, "once")):
        with pytest.raises(log.SeqTaken), made.db.write_core() as connection:
            log.insert_rows(connection, [clash])
    with made.db.read() as session:
        assert [e.seq for e in log.after(session, campaign_id, end)] == [end + 1]
