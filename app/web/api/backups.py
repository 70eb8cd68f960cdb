"""`/api/campaigns/{id}/export` and `/api/campaigns/import`: a campaign as one file, the GM's backup
download, and importing one (here or on another server)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import File, Form, Request, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel

from app.services import campaigns, transfer
from app.web.api.common import api_router
from app.web.deps import FrayDep, GmDep, limit_new_campaign
from app.web.schemas import SEATED, errors

EXPORT = {"content": {"application/gzip": {"schema": {"type": "string", "format": "binary"}}}}

router = api_router("backups")


@router.get(
    "/campaigns/{campaign_id}/export",
    response_class=Response,
    responses={**SEATED, 200: {**EXPORT, "description": "The campaign as gzip'd JSON."}},
)
async def export_campaign(campaign_id: str, seat: GmDep, fray: FrayDep) -> Response:
    """The whole campaign as one file (gzip'd JSON: log, seats' hashed tokens, images): a backup, or a
    move to another server with `fray import` or the home page's Import a campaign."""
    data = await transfer.export_async(fray, campaign_id)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    headers = {"Content-Disposition": f'attachment; filename="{campaign_id}-{stamp}.fray.json.gz"'}
    return Response(data, media_type="application/gzip", headers=headers)


class ImportedCampaign(BaseModel):
    id: str
    gm_token: str | None
    same_id: bool
    events: int


@router.post(
    "/campaigns/import",
    status_code=201,
    response_model=ImportedCampaign,
    responses=errors(400, 403, 409, 413, 422, 429, 503),
)
async def import_campaign(
    request: Request,
    fray: FrayDep,
    file: Annotated[UploadFile, File()],
    keep_seats: Annotated[bool, Form()] = False,
    admin_password: Annotated[str | None, Form()] = None,
) -> ImportedCampaign:
    """Create a campaign from an export (the same id when it is free). Without `keep_seats`, every seat
    gets a new token and the reply carries the GM's."""
    await limit_new_campaign(request, fray)
    campaigns.check_admin(fray, admin_password)
    raw = await file.read(fray.settings.max_upload_bytes + 1)
    done = await transfer.import_campaign_async(fray, raw, keep_seats)
    return ImportedCampaign(
        id=done.campaign_id, gm_token=done.gm_token, same_id=done.same_id, events=done.events
    )
