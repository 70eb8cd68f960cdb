"""The participant and encounter rows kept in step with the folded state (app/store/projections.py): a
step writes only the rows whose item changed, drops those gone, and nothing when its tuples are the same."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select, update

from app.realtime.broker import MemoryBroker
from app.rules.campaign.state import CampaignState, Encounter, Participant
from app.services import campaigns
from app.services.context import Fray
from app.settings import Settings
from app.store import projections
from app.store.db import Database
from app.store.models import EncounterRow, ParticipantRow
from app.store.states import StateCache


@pytest.fixture
def fray(settings: Settings) -> Iterator[Fray]:
    fray = Fray(
        settings=settings, db=Database(settings.database_url), broker=MemoryBroker(), states=StateCache()
    )
    yield fray
    fray.db.dispose()


def _names(fray: Fray, campaign_id: str) -> dict[str, str]:
    with fray.db.read() as session:
        rows = session.execute(select(ParticipantRow).where(ParticipantRow.campaign_id == campaign_id))
        return {r.id: r.name for r in rows.scalars()}


def _sync(fray: Fray, before: CampaignState | None, after: CampaignState) -> None:
    with fray.db.write() as session:
        projections.sync(session, before, after)


def test_a_step_with_the_same_tuples_changes_nothing():
    state = CampaignState(id="c", name="C", system="generic")
    assert not projections.changes(state, state.model_copy(update={"name": "D"}))
    more = state.model_copy(update={"participants": (Participant(id="p1", name="Aria"),)})
    assert projections.changes(state, more)
    assert projections.changes(
        state, state.model_copy(update={"encounters": (Encounter(id="e1", name="Ford"),)})
    )


def test_rows_follow_the_state_and_only_changed_items_are_written(fray: Fray):
    cid = campaigns.create(fray, "Rows", "generic").id
    aria, brick = Participant(id="p1", name="Aria"), Participant(id="p2", name="Brick")
    first = CampaignState(id=cid, name="Rows", system="generic", participants=(aria, brick))
    _sync(fray, None, first)
    assert _names(fray, cid) == {"p1": "Aria", "p2": "Brick"}
    # A row touched behind the projection's back shows whether a step rewrote it.
    with fray.db.write() as session:
        session.execute(update(ParticipantRow).where(ParticipantRow.id == "p1").values(name="untouched"))
    renamed = first.model_copy(update={"participants": (aria, brick.model_copy(update={"name": "Brock"}))})
    _sync(fray, first, renamed)
    assert _names(fray, cid) == {"p1": "untouched", "p2": "Brock"}  # Aria's item is the same object
    gone = renamed.model_copy(update={"participants": renamed.participants[1:]})
    _sync(fray, renamed, gone)
    assert _names(fray, cid) == {"p2": "Brock"}


def test_encounter_rows_carry_their_status(fray: Fray):
    cid = campaigns.create(fray, "Rows", "generic").id
    state = CampaignState(id=cid, name="Rows", system="generic")
    played = state.model_copy(
        update={"encounters": (Encounter(id="e1", name="Ford", status="active", started_seq=3),)}
    )
    _sync(fray, state, played)
    with fray.db.read() as session:
        row = session.execute(select(EncounterRow).where(EncounterRow.campaign_id == cid)).scalar_one()
    assert (row.id, row.name, row.status, row.started_seq) == ("e1", "Ford", "active", 3)
