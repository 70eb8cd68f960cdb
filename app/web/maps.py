"""The map's images: upload and delete (GM), the full image (GM), and each scene's image as the caller may
see it. A campaign reads only the images it holds (uploaded or imported), whatever its log names."""

from __future__ import annotations

from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Body, File, HTTPException, Request, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel

from app.realtime import signals
from app.services import commands, map_images, map_signals, reads
from app.web.deps import FrayDep, GmDep, SeatDep, limit_seat
from app.web.schemas import SEATED, UPLOAD_SEATED, Signal, operation_id

IMAGE = {"content": {"image/webp": {"schema": {"type": "string", "format": "binary"}}}}
IMAGE_REPLIES = {
    **SEATED,
    200: {**IMAGE, "description": "The image (WebP; JPEG or PNG past the pixels WebP's memory allows)."},
    304: {"description": "Not modified: the copy named by If-None-Match is still current."},
}

router = APIRouter(prefix="/api", tags=["map"], generate_unique_id_function=operation_id)
IMMUTABLE = "private, max-age=31536000, immutable"


class UploadedAsset(BaseModel):
    id: str
    url: str
    width: int
    height: int


def _image(
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
    settings = fray.settings
    await limit_seat(fray, "uploads", seat.seat_id)
    raw = await file.read(settings.max_upload_bytes + 1)
    prepared = await to_thread.run_sync(
        map_images.prepare, raw, settings.max_upload_bytes, settings.max_image_side, settings.max_image_pixels
    )
    del raw
    quota = settings.campaign_storage_bytes
    await to_thread.run_sync(map_images.store, fray, prepared, seat.campaign_id, quota)
    _, state = await fray.db.run_read(reads.current, fray, seat)
    if state.map.asset(prepared.id) is None:
        name = (file.filename or "")[:120]
        payload = {
            "type": "map.asset.add",
            "asset": prepared.id,
            "name": name,
            "width": prepared.width,
            "height": prepared.height,
        }
        await commands.run(fray, seat, payload, internal=True)
    url = f"/api/campaigns/{campaign_id}/assets/{prepared.id}"
    return UploadedAsset(id=prepared.id, url=url, width=prepared.width, height=prepared.height)


@router.get("/campaigns/{campaign_id}/assets/{asset_id}", response_class=Response, responses=IMAGE_REPLIES)
async def asset(campaign_id: str, asset_id: str, seat: GmDep, fray: FrayDep, request: Request) -> Response:
    """An uploaded image, whole (the GM's; players get each scene's image with the fog blanked)."""
    stored = await to_thread.run_sync(map_images.blob, fray, seat.campaign_id, asset_id)
    if stored is None:
        raise HTTPException(404, "There is no such image in this campaign.")
    data, media_type = stored
    return _image(request, data, asset_id, IMMUTABLE, media_type)


@router.delete(
    "/campaigns/{campaign_id}/assets/{asset_id}", status_code=204, response_class=Response, responses=SEATED
)
async def delete_asset(campaign_id: str, asset_id: str, seat: GmDep, fray: FrayDep) -> Response:
    """Delete an image no scene uses (409 names the scenes that do). It cannot be undone: its bytes go
    when no other campaign holds them, and they no longer count towards this campaign's storage."""
    _, state = await fray.db.run_read(reads.current, fray, seat)
    listed = state.map.asset(asset_id) is not None
    if not listed and not await to_thread.run_sync(map_images.holds, fray, seat.campaign_id, asset_id):
        raise HTTPException(404, "There is no such image in this campaign.")
    if listed:
        await commands.run(fray, seat, {"type": "map.asset.remove", "asset": asset_id}, internal=True)
    await to_thread.run_sync(map_images.release, fray, seat.campaign_id, asset_id)
    return Response(status_code=204)


@router.get(
    "/campaigns/{campaign_id}/scenes/{scene_id}/image", response_class=Response, responses=IMAGE_REPLIES
)
async def scene_image(
    campaign_id: str, scene_id: str, seat: SeatDep, fray: FrayDep, request: Request, v: str | None = None
) -> Response:
    """A scene's image as the players see it: every part under fog blanked on the server. `v` is the key
    the view's `image_url` carries (of the image and its fog): only the current key is cached for good."""
    _, state = await fray.db.run_read(reads.current, fray, seat)
    scene = state.map.scene(scene_id)
    if scene is None or not (seat.is_gm or scene.id == state.map.shown):
        raise HTTPException(404, "There is no such scene to show.")
    made = await to_thread.run_sync(map_images.MASKS.get, fray, seat.campaign_id, scene)
    if made is None:
        raise HTTPException(404, "This scene has no image.")
    etag, data, media_type = made
    cache = IMMUTABLE if v == etag else "private, no-cache"
    return _image(request, data, etag, cache, media_type)


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
