"""Snapshots, undo and the per-process cache agree with folding the whole log from the start."""

from __future__ import annotations

from sqlalchemy import select

from app.realtime.broker import MemoryBroker
from app.rules import registry
from app.services.context import Fray
from app.settings import Settings
from app.store import log
from app.store.db import Database
from app.store.models import EncounterRow, ParticipantRow, Snapshot
from app.store.states import StateCache
from tests.helpers import Table


def _fresh_fold(settings: Settings, campaign_id: str):
    """The state as a brand-new process would build it: no cache, no snapshots, every event."""
    db = Database(settings.database_url)
    game = registry.game("generic")
    with db.read() as session:
        events = log.after(session, campaign_id, 0)
    db.dispose()
    return game.replay(None, events)


def _app_state(client, campaign_id: str):
    fray: Fray = client.app.state.fray
    game = registry.game("generic")
    with fray.db.read() as session:
        return fray.states.current(session, game, campaign_id)


def test_snapshots_and_undo_agree_with_a_full_fold(client, settings):
    client.app.state.fray.states.snapshot_every = 5  # many snapshots, so undo must cross them
    table = Table.create(client)
    table.ok(table.gm, "generic.pool.create", name="Gold", value=0, min=0)
    for _ in range(12):
        table.ok(table.gm, "generic.pool.adjust", pool="Gold", delta=1)
    for _ in range(7):  # undo back across two snapshots
        table.ok(table.gm, "campaign.undo")
    state = _app_state(client, table.id)
    assert state.pool("Gold").value == 5
    fresh = _fresh_fold(settings, table.id)
    assert fresh.model_dump() == state.model_dump()
    fray: Fray = client.app.state.fray
    with fray.db.read() as session:
        snaps = session.execute(select(Snapshot.seq).where(Snapshot.campaign_id == table.id)).scalars().all()
        # No snapshot may include an undone event.
        undone = {
            s for e in log.after(session, table.id, 0) if e.type == "campaign.undone" for s in e.data["seqs"]
        }
        assert all(seq < min(undone) for seq in snaps)
        # A new process starting from the surviving snapshot gets the same state too.
        cache = StateCache(5)
        rebuilt = cache.rebuild(session, registry.game("generic"), table.id)
    assert rebuilt.model_dump() == state.model_dump()


def test_another_process_writes_are_picked_up(client, settings):
    table = Table.create(client)
    table.ok(table.gm, "generic.pool.create", name="Gold", value=0)
    cached = _app_state(client, table.id)
    # A second "process": its own database handle and cache, writing to the same file.
    other = Fray(
        settings=settings, db=Database(settings.database_url), broker=MemoryBroker(), states=StateCache()
    )
    from app.services import commands
    from app.services.auth import SeatAuth

    gm = SeatAuth(seat_id=table.gm.seat_id, campaign_id=table.id, role="gm", name="GM", system="generic")
    commands.execute(other, gm, {"type": "generic.pool.adjust", "pool": "Gold", "delta": 4})
    other.db.dispose()
    now = _app_state(client, table.id)
    assert cached.pool("Gold").value == 0 and now.pool("Gold").value == 4


def test_projections_follow_the_log_through_undo(client):
    table = Table.create(client)
    table.character("Aria")
    table.ok(table.gm, "campaign.encounter.prepare", name="Ford")
    table.ok(table.gm, "campaign.encounter.start", encounter="Ford")
    fray: Fray = client.app.state.fray
    with fray.db.read() as session:
        assert session.execute(select(EncounterRow.status)).scalars().all() == ["active"]
        assert session.execute(select(ParticipantRow.name)).scalars().all() == ["Aria"]
    table.ok(table.gm, "campaign.undo")
    table.ok(table.gm, "campaign.undo")
    table.ok(table.gm, "campaign.undo")
    with fray.db.read() as session:
        assert session.execute(select(EncounterRow.status)).scalars().all() == []
        assert session.execute(select(ParticipantRow.name)).scalars().all() == []
