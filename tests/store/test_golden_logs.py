"""Recorded logs replay to the same state and views, in memory and through the database (SQLite, and
PostgreSQL in the second pass), and every migration from the first applies to a database they fill.

A failure here means a change altered what an old campaign means. Never edit a recorded log: add an
upcaster (or, for a change that only shows more, re-record the expected hashes: tests/golden/record.py).
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from alembic import command
from fastapi.testclient import TestClient

from app.main import create_app
from app.realtime.broker import MemoryBroker
from app.services import transfer
from app.services.auth import hash_token
from app.services.context import Fray
from app.settings import Settings
from app.store.db import Database
from app.store.log import T as EVENTS
from app.store.migrate import alembic_config, upgrade
from app.store.models import Campaign, Seat
from tests.golden.hashes import fingerprint, replay_file

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
LOGS = sorted(GOLDEN.glob("*/*.fray.json.gz"))


def _expected(log: Path) -> dict:
    return json.loads(log.with_name(log.name.replace(".fray.json.gz", ".expected.json")).read_text())


def test_there_is_a_corpus_for_every_game():
    from app.rules import registry

    corpora = {log.parent.name for log in LOGS}
    for corpus in corpora:
        assert {log.name.split(".")[0] for log in LOGS if log.parent.name == corpus} == set(
            registry.systems()
        )


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.name}/{p.name.split('.')[0]}")
def test_a_recorded_log_replays_to_the_same_state_and_views(log: Path):
    game, state = replay_file(log.read_bytes())
    got = fingerprint(game, state)
    expected = _expected(log)
    assert got["state"] == expected["state"]
    assert got["views"] == expected["views"]


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.name}/{p.name.split('.')[0]}")
def test_a_recorded_log_imported_into_the_database_reads_the_same(database_url: str, log: Path):
    fray = Fray(
        settings=Settings(database_url=database_url), db=Database(database_url), broker=MemoryBroker()
    )
    try:
        done = transfer.import_campaign(fray, log.read_bytes(), keep_seats=True)
        game, _ = replay_file(log.read_bytes())
        with fray.db.read() as session:
            state = fray.states.current(session, game, done.campaign_id)
        # An import re-encodes each image as an upload does, so the log names its images anew: the copy
        # reads as the file's log with only those names changed.
        document = transfer.read_file(log.read_bytes())
        names = {old: new.id for old, new in transfer.checked_images(fray, document["assets"]).items()}
        assert names and all(old != new for old, new in names.items())
        renamed = game.replay(None, transfer.events_of(transfer.renamed(document["events"], names)))
        assert fingerprint(game, state) == fingerprint(game, renamed)
    finally:
        fray.db.dispose()


# The schema each corpus was recorded on: its logs go into a database at that revision, as a server of
# that day held them, and the migrations after it carry them to today's.
RECORDED_AT = {"corpus-2026-11": "0001", "corpus-2026-11-25": "0003"}
VERSIONED_FROM = "0003"  # the event table's `version` column


def test_every_corpus_names_the_schema_it_was_recorded_on():
    assert {log.parent.name for log in LOGS} == set(RECORDED_AT)


def _fill_each_at_its_revision(database_url: str) -> dict[str, str]:
    """Every recorded campaign written as the tables of its corpus's day had it; the GM tokens to open each.

    The campaign and seat tables have not changed since the first migration, so today's table definitions
    write rows every revision holds; an event row carries its version from the revision that added it."""
    command.downgrade(alembic_config(database_url), "0001")
    tokens: dict[str, str] = {}
    for corpus, revision in sorted(RECORDED_AT.items(), key=lambda item: item[1]):
        command.upgrade(alembic_config(database_url), revision)
        database = Database(database_url)
        try:
            with database.engine.begin() as db:
                for log in (log for log in LOGS if log.parent.name == corpus):
                    _fill(db, log, tokens, versioned=revision >= VERSIONED_FROM)
        finally:
            database.dispose()
    return tokens


def _fill(db, log: Path, tokens: dict[str, str], versioned: bool) -> None:
    document = transfer.read_file(log.read_bytes())
    c = document["campaign"]
    cid = f"{log.parent.name[-2:]}{c['id']}"[:32]
    names = {c["id"]: cid} | {s["id"]: f"{cid}-{s['id']}"[:32] for s in document["seats"]}
    db.execute(
        Campaign.__table__.insert().values(
            id=cid,
            name=c["name"],
            system=c["system"],
            invite_code=f"i{cid}",
            spectator_code=f"s{cid}",
            created_at=datetime.fromisoformat(c["created_at"]),
        )
    )
    for s in document["seats"]:
        token = f"token-{names[s['id']]}"
        if s["role"] == "gm":
            tokens.setdefault(cid, token)
        db.execute(
            Seat.__table__.insert().values(
                id=names[s["id"]],
                campaign_id=cid,
                role=s["role"],
                name=s["name"],
                token_hash=hash_token(token),
                created_at=datetime.fromisoformat(s["created_at"]),
            )
        )
    for e in transfer.renamed(document["events"], names):
        row = {k: v for k, v in e.items() if k != "at" and (versioned or k != "version")}
        db.execute(EVENTS.insert().values(campaign_id=cid, at=datetime.fromisoformat(e["at"]), **row))


def test_every_migration_applies_to_a_database_the_recorded_logs_fill(database_url: str):
    tokens = _fill_each_at_its_revision(database_url)
    upgrade(database_url)
    with TestClient(create_app(Settings(database_url=database_url))) as http:
        for cid, token in tokens.items():
            r = http.get(f"/api/campaigns/{cid}", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, (cid, r.text)
            assert r.json()["campaign"]["seq"] > 10
            page = http.get(
                f"/c/{cid}/gm", headers={"Authorization": f"Bearer {token}", "Accept": "text/html"}
            )
            assert page.status_code == 200
