"""Participant and encounter rows kept in step with the folded state, in the same transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, delete, insert

from app.rules.campaign.state import CampaignState
from app.store.db import Executor
from app.store.models import EncounterRow, ParticipantRow, table_of

P = table_of(ParticipantRow)
E = table_of(EncounterRow)


def changes(before: CampaignState, after: CampaignState) -> bool:
    """Whether `sync` would write anything for this step."""
    return before.participants is not after.participants or before.encounters is not after.encounters


def sync(session: Executor, before: CampaignState | None, after: CampaignState) -> None:
    # Frozen state: an unchanged tuple is the very same object, so most commands write nothing here.
    if before is None or before.participants is not after.participants:
        _replace(
            session,
            P,
            after.id,
            [
                {
                    "campaign_id": after.id,
                    "id": p.id,
                    "name": p.name,
                    "kind": p.kind,
                    "owner_seat_id": p.owner,
                    "hidden": p.hidden,
                }
                for p in after.participants
            ],
            before.participants if before else (),
            after.participants,
        )
    if before is None or before.encounters is not after.encounters:
        _replace(
            session,
            E,
            after.id,
            [
                {
                    "campaign_id": after.id,
                    "id": e.id,
                    "name": e.name,
                    "status": e.status,
                    "started_seq": e.started_seq,
                    "ended_seq": e.ended_seq,
                }
                for e in after.encounters
            ],
            before.encounters if before else (),
            after.encounters,
        )


def _replace(
    session: Executor,
    table: Table,
    campaign_id: str,
    rows: list[dict[str, Any]],
    old: tuple[Any, ...],
    new: tuple[Any, ...],
) -> None:
    old_by_id = {item.id: item for item in old}
    new_ids = {item.id for item in new}
    changed = [row for row, item in zip(rows, new, strict=True) if old_by_id.get(item.id) is not item]
    stale = [i for i in old_by_id if i not in new_ids] + [
        row["id"] for row in changed if row["id"] in old_by_id
    ]
    if stale:
        session.execute(delete(table).where(table.c.campaign_id == campaign_id, table.c.id.in_(stale)))
    if changed:
        session.execute(insert(table), changed)


def rebuild(session: Executor, state: CampaignState) -> None:
    """After an undo the projection may have stepped back: rewrite it whole."""
    session.execute(delete(P).where(P.c.campaign_id == state.id))
    session.execute(delete(E).where(E.c.campaign_id == state.id))
    sync(session, None, state)
