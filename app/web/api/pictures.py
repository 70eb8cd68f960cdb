"""`/api/campaigns/{id}/pictures`, `/tokens/{id}/picture`: token pictures.

Upload one (the GM, or a player for their own characters), read one whole to frame it (the GM any image
of the campaign, a player their own uploads), and the framed square a token shows (whoever sees the
token). Setting a token's picture is the `map.token.picture` command."""

from __future__ import annotations

from typing import Annotated

from fastapi import File, Request, UploadFile
from fastapi.responses import Response

from app.services import token_pictures
from app.web.api.common import api_router
from app.web.api.maps import IMAGE_REPLIES, IMMUTABLE, UploadedAsset, image_reply
from app.web.deps import FrayDep, SeatDep, limit_seat
from app.web.schemas import UPLOAD_SEATED

router = api_router("map")


@router.post(
    "/campaigns/{campaign_id}/pictures",
    status_code=201,
    response_model=UploadedAsset,
    responses=UPLOAD_SEATED,
)
async def upload_picture(
    campaign_id: str, seat: SeatDep, fray: FrayDep, file: Annotated[UploadFile, File()]
) -> UploadedAsset:
    """Upload a token picture (PNG, JPEG or WebP; multipart field `file`), the GM's or a player's: checked,
    kept as WebP at most 512 pixels a side, within the campaign's storage (413) and the seat's few uploads
    a minute (429). Then `map.token.picture` puts it on a token; a player's only on their own."""
    await limit_seat(fray, "uploads", seat.seat_id)
    raw = await file.read(fray.settings.max_upload_bytes + 1)
    prepared = await token_pictures.upload(fray, seat, raw, file.filename)
    url = f"/api/campaigns/{campaign_id}/pictures/{prepared.id}"
    return UploadedAsset(id=prepared.id, url=url, width=prepared.width, height=prepared.height)


@router.get("/campaigns/{campaign_id}/pictures/{asset_id}", response_class=Response, responses=IMAGE_REPLIES)
async def picture(
    campaign_id: str, asset_id: str, seat: SeatDep, fray: FrayDep, request: Request
) -> Response:
    """A picture whole, to frame it for a token: the GM any image of the campaign, a player their own
    uploads."""
    data, media_type = await token_pictures.source(fray, seat, asset_id)
    return image_reply(request, data, asset_id, IMMUTABLE, media_type)


@router.get(
    "/campaigns/{campaign_id}/tokens/{token_id}/picture", response_class=Response, responses=IMAGE_REPLIES
)
async def token_picture(
    campaign_id: str, token_id: str, seat: SeatDep, fray: FrayDep, request: Request, v: str | None = None
) -> Response:
    """The square of its picture a token shows (WebP), to whoever sees the token; `v` is the key the
    view's `picture` carries (of the picture and its frame)."""
    etag, data = await token_pictures.framed(fray, seat, token_id)
    cache = IMMUTABLE if v == etag else "private, no-cache"
    return image_reply(request, data, etag, cache)
