"""The event table keeps the version each record was written at; reading a row upcasts it to today's."""

from __future__ import annotations

from sqlalchemy import insert, select

from app.rules.events import current_version
from app.rules.system import NewEvent
from app.store import log
from app.store.db import Database
from app.store.models import Campaign, utcnow

PLAYED_V1 = {
    "participant": "p1",
    "name": "Aria",
    "card": "Bolt",
    "card_id": "bolt",
    "instance": "bolt#1",
    "entries": [],
    "text": "",
    "free": False,
    "spends_charges": 2,
    "section": None,
    "targets": [],
    "target_names": [],
}


def test_a_row_keeps_its_version_and_is_read_upcast(database_url: str):
    db = Database(database_url)
    try:
        with db.write() as session:
            session.add(Campaign(id="c1", name="C", system="triptycho", invite_code="i", spectator_code="s"))
            session.flush()
            # As a row written before triptycho.card_played v2 (and before versions: the column's default).
            session.execute(
                insert(log.T),
                [
                    {
                        "campaign_id": "c1",
                        "seq": 1,
                        "type": "triptycho.card_played",
                        "data": PLAYED_V1,
                        "batch": 1,
                        "at": utcnow(),
                    }
                ],
            )
            rows, new = log.stamped("c1", 1, [NewEvent(type="generic.initiative_cleared")], None, None)
            log.insert_rows(session, rows)
        assert new[0].version == current_version("generic.initiative_cleared") == 1
        with db.read() as session:
            (old, cleared) = log.after(session, "c1", 0)
            stored = dict(
                session.execute(select(log.T.c.seq, log.T.c.version, log.T.c.data)).all()[0]._mapping
            )
        assert stored["version"] == 1 and stored["data"] == PLAYED_V1  # history is not rewritten
        assert old.version == current_version("triptycho.card_played") == 2
        assert old.payload.charges_spent == 2 and "spends_charges" not in old.data
        assert "version" not in old.public()
        assert cleared.version == 1
    finally:
        db.dispose()
