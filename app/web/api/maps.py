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
from app.services import assets, map_images, map_signals, reads, uvtt_scenes
from app.web.api.common import api_router
from app.web.deps import FrayDep, GmDep, SeatDep, limit_seat
from app.web.schemas import SEATED, UPLOAD_SEATED, Signal

IMAGE = {"content": {"image/webp": {"schema": {"type": "string", "format": "binary"}}}}
IMAGE_REPLIES = {
    **SEATED,
    200: {**IMAGE, "description": "The image (WebP; JPEG or PNG past the pixels WebP's memory allows)."},
    304: {"description": "Not modified: the copy named by If-None-Match is still current."},
}

TILE_REPLIES = {
    **SEATED,
    200: {
        "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}},
        "description": "The tile.",
    },
    304: {"description": "Not modified: the copy named by If-None-Match is still current."},
}
_ARRAY = {"type": "array", "items": {"type": "object"}}
UVTT_SCHEMA = {
    "type": "object",
    "description": "A Universal VTT file, format 0.3: coordinates in grid cells (docs/maps.md).",
    "required": ["format", "resolution", "line_of_sight", "portals", "lights", "environment", "image"],
    "properties": {
        "format": {"type": "number"},
        "resolution": {"type": "object"},
        "line_of_sight": {"type": "array", "items": _ARRAY},
        "objects_line_of_sight": {"type": "array", "items": _ARRAY},
        "portals": _ARRAY,
        "lights": _ARRAY,
        "environment": {"type": "object"},
        "fray_windows": {"type": "array", "items": _ARRAY},
        "image": {"type": "string", "format": "byte"},
    },
}
UVTT_REPLIES = {
    **SEATED,
    200: {"content": {"application/json": {"schema": UVTT_SCHEMA}}, "description": "A .dd2vtt file."},
}

router = api_router("map")
IMMUTABLE = "private, max-age=31536000, immutable"


class UploadedAsset(BaseModel):
    id: str
    url: str
    width: int
    height: int


class ImportedMap(BaseModel):
    scene: str
    walls: int
    doors: int
    lights: int
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


@router.get(
    "/campaigns/{campaign_id}/scenes/{scene_id}/tiles/{tx}/{ty}",
    response_class=Response,
    responses=TILE_REPLIES,
)
async def scene_tile(
    campaign_id: str,
    scene_id: str,
    tx: int,
    ty: int,
    seat: SeatDep,
    fray: FrayDep,
    request: Request,
    v: str | None = None,
) -> Response:
    """One 256-pixel tile (column `tx`, row `ty`) of a scene's image as the caller may see it: JPEG, every
    pixel outside what they have seen, or under fog, black. Decided from the seat; `v` (the view's tile
    key) only says whether the reply may be cached for good. 404 for a tile with nothing to see."""
    etag, data, media_type = await assets.scene_tile(fray, seat, scene_id, tx, ty)
    cache = IMMUTABLE if v == etag else "private, no-cache"
    return image_reply(request, data, etag, cache, media_type)


@router.post(
    "/campaigns/{campaign_id}/scenes/uvtt",
    status_code=201,
    response_model=ImportedMap,
    responses=UPLOAD_SEATED,
)
async def import_uvtt(
    campaign_id: str, seat: GmDep, fray: FrayDep, file: Annotated[UploadFile, File()]
) -> ImportedMap:
    """Make a scene from a Universal VTT file (`.dd2vtt`, `.uvtt`, `.df2vtt`; multipart field `file`, up
    to the upload limit): its image checked as an upload is, a new unshown scene with its grid, vision on,
    and its walls, doors and lights. A file that is not one, is cut short or has no image: 422, nothing
    kept. Replies the scene's id, what was added and the image's size."""
    await limit_seat(fray, "uploads", seat.seat_id)
    raw = await file.read(fray.settings.max_upload_bytes + 1)
    return ImportedMap(**await uvtt_scenes.import_file(fray, seat, raw, file.filename))


@router.get(
    "/campaigns/{campaign_id}/scenes/{scene_id}/uvtt", response_class=Response, responses=UVTT_REPLIES
)
async def export_uvtt(campaign_id: str, scene_id: str, seat: GmDep, fray: FrayDep) -> Response:
    """A scene as a Universal VTT file (format 0.3; the GM's): its image, walls, doors (open or closed)
    and lights, for Foundry VTT, Fantasy Grounds and other importers."""
    data, name = await uvtt_scenes.export_file(fray, seat, scene_id)
    headers = {"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}
    return Response(data, media_type="application/json", headers=headers)


@router.post("/campaigns/{campaign_id}/signals", status_code=202, response_model=Signal, responses=SEATED)
async def map_signal(
    campaign_id: str,
    seat: SeatDep,
    fray: FrayDep,
    payload: Annotated[dict[str, Any], Body(examples=[{"map.ping": {"x": 120, "y": 80}}])],
) -> Any:
    """Point at the map for everyone who may see the spot: `{"map.ping": {x, y}}`, `{"map.ruler": {from,
    to}}` (GM; with `"share": false` any seat, only measured) or `{"map.ghost": {token, x, y}}`. Relayed
    live, never logged; a few a second per seat. A ruler's reply carries its `distance`."""
    if not any(kind in payload for kind in signals.KINDS):
        raise HTTPException(422, "Send one of map.ping, map.ruler or map.ghost.")
    return await map_signals.relay(fray, seat, payload, lambda state: reads.viewer_of(state, seat))
