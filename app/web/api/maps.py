"""`/api/campaigns/{id}/assets`, `/scenes/{id}/image`, `/signals`: the map's images and live signals.

Upload and delete (GM), the full image (GM), each scene's image as the caller may see it, and pings,
rulers and drag ghosts. A campaign reads only the images it holds (uploaded or imported), whatever its
log names."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body, File, HTTPException, Request, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel

from app.rules.map import signals
from app.services import assets, map_images, map_signals, reads
from app.web.api.common import api_router
from app.web.deps import FrayDep, GmDep, SeatDep, limit_seat
from app.web.schemas import SEATED, UPLOAD_SEATED, Signal

IMAGE = {"content": {"image/webp": {"schema": {"type": "string", "format": "binary"}}}}
IMAGE_REPLIES = {
    **SEATED,
    200: {**IMAGE, "description": "The image (WebP; JPEG or PNG past the pixels WebP's memory allows)."},
    304: {"description": "Not modified: the copy named by If-None-Match is still current."},
}

router = api_router("map")
IMMUTABLE = "private, max-age=31536000, immutable"


class UploadedAsset(BaseModel):
    id: str
    url: str
    width: int
    height: int


def image_reply(
    request: Request, data: bytes, etag: str, cache: str, media_type: str = map_images.MIME
) -> Response:
    headers = {"ETag": f'"{etag}"', "Cache-Control": cache, "Content-Encoding": "identity"}
    if request.headers.get("if-none-match") == f'"{etag}"':
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=media_type, headers=headers)


@router.post(
    "/campaigns/{campaign_id}/assets", status_code=201, response_model=UploadedAsset, responses=UPLOAD_SEATED
)
async def upload_asset(
    campaign_id: str, seat: GmDep, fray: FrayDep, file: Annotated[UploadFile, File()]
) -> UploadedAsset:
    """Upload a map image (PNG, JPEG or WebP; multipart field `file`). It is checked and kept as WebP
    (a very large one as JPEG, or PNG if it is see-through: docs/performance.md),
    within the campaign's storage (413 with what it uses) and a few uploads a minute per seat (429)."""
    await limit_seat(fray, "uploads", seat.seat_id)
    prepared = await assets.upload(
        fray, seat, await file.read(fray.settings.max_upload_bytes + 1), file.filename
    )
    url = f"/api/campaigns/{campaign_id}/assets/{prepared.id}"
    return UploadedAsset(id=prepared.id, url=url, width=prepared.width, height=prepared.height)


@router.get("/campaigns/{campaign_id}/assets/{asset_id}", response_class=Response, responses=IMAGE_REPLIES)
async def asset(campaign_id: str, asset_id: str, seat: GmDep, fray: FrayDep, request: Request) -> Response:
    """An uploaded image, whole (the GM's; players get each scene's image with the fog blanked)."""
    data, media_type = await assets.blob(fray, seat, asset_id)
    return image_reply(request, data, asset_id, IMMUTABLE, media_type)


@router.delete(
    "/campaigns/{campaign_id}/assets/{asset_id}", status_code=204, response_class=Response, responses=SEATED
)
async def delete_asset(campaign_id: str, asset_id: str, seat: GmDep, fray: FrayDep) -> Response:
    """Delete an image no scene uses (409 names the scenes that do). It cannot be undone: its bytes go
    when no other campaign holds them, and they no longer count towards this campaign's storage."""
    await assets.remove(fray, seat, asset_id)
    return Response(status_code=204)


@router.get(
    "/campaigns/{campaign_id}/scenes/{scene_id}/image", response_class=Response, responses=IMAGE_REPLIES
)
async def scene_image(
    campaign_id: str, scene_id: str, seat: SeatDep, fray: FrayDep, request: Request, v: str | None = None
) -> Response:
    """A scene's image as the players see it: every part under fog blanked on the server. `v` is the key
    the view's `image_url` carries (of the image and its fog): only the current key is cached for good."""
    etag, data, media_type = await assets.scene_image(fray, seat, scene_id)
    cache = IMMUTABLE if v == etag else "private, no-cache"
    return image_reply(request, data, etag, cache, media_type)


@router.post("/campaigns/{campaign_id}/signals", status_code=202, response_model=Signal, responses=SEATED)
async def map_signal(
    campaign_id: str,
    seat: SeatDep,
    fray: FrayDep,
    payload: Annotated[dict[str, Any], Body(examples=[{"map.ping": {"x": 120, "y": 80}}])],
) -> Any:
    """Point at the map for everyone who may see the spot: `{"map.ping": {x, y}}`, `{"map.ruler": {from,
    to}}` (GM) or `{"map.ghost": {token, x, y}}`. Relayed live, never logged; a few a second per seat."""
    if not any(kind in payload for kind in signals.KINDS):
        raise HTTPException(422, "Send one of map.ping, map.ruler or map.ghost.")
    return await map_signals.relay(fray, seat, payload, lambda state: reads.viewer_of(state, seat))
