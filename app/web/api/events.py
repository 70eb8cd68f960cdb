"""`/api/campaigns/{id}/events` and `/encounters/{id}/replay`: the log as the caller may see it, and
the table as it stood at any step of a past encounter."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query

from app.services import reads
from app.web.api.common import api_router
from app.web.deps import FrayDep, SeatDep
from app.web.schemas import SEATED, EventsPage, Replay

MAX_SEQ = 2**53  # beyond any log; larger numbers would overflow the database's integers

router = api_router("api")


@router.get("/campaigns/{campaign_id}/events", response_model=EventsPage, responses=SEATED)
async def events(
    campaign_id: str,
    seat: SeatDep,
    fray: FrayDep,
    after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 500,
) -> Any:
    """Events after `after` that the caller may see (GM-only rolls and hidden characters are left out)."""
    return await reads.events_for_async(fray, seat, after, limit)


@router.get(
    "/campaigns/{campaign_id}/encounters/{encounter_id}/replay",
    response_model=Replay,
    response_model_exclude_unset=True,
    responses=SEATED,
)
async def replay(
    campaign_id: str,
    encounter_id: str,
    seat: SeatDep,
    fray: FrayDep,
    seq: Annotated[int | None, Query(ge=0)] = None,
) -> Any:
    """An encounter's log, and the table as it stood at `seq` (default: the encounter's last event)."""
    return await reads.replay_for_async(fray, seat, encounter_id, seq)
