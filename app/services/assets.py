"""A campaign's map images as the web layer asks for them: upload, read, delete, a scene's masked image.

Each entry point is async and owns its hops: image work (decode, re-encode, mask) and the blob store run
in a worker thread; the campaign's current state is read through the database's `run_read`. The image
work itself is in `map_images`.
"""

from __future__ import annotations

from anyio import to_thread

from app.rules.map.sight import ANY_PLAYER, Sight
from app.services import commands, map_images, map_tiles, reads, vision_images
from app.services.auth import SeatAuth
from app.services.context import Fray


async def upload(fray: Fray, seat: SeatAuth, raw: bytes, filename: str | None) -> map_images.Prepared:
    """Check and keep an uploaded image within the campaign's storage, and list it on the map."""
    settings = fray.settings
    prepared = await to_thread.run_sync(
        map_images.prepare, raw, settings.max_upload_bytes, settings.max_image_side, settings.max_image_pixels
    )
    del raw  # the upload's bytes go before the store's work: memory per upload stays bounded
    quota = settings.campaign_storage_bytes
    await to_thread.run_sync(map_images.store, fray, prepared, seat.campaign_id, quota)
    _, state = await reads.current_async(fray, seat)
    if state.map.asset(prepared.id) is None:
        payload = {
            "type": "map.asset.add",
            "asset": prepared.id,
            "name": (filename or "")[:120],
            "width": prepared.width,
            "height": prepared.height,
        }
        await commands.run(fray, seat, payload, internal=True)
    return prepared


async def blob(fray: Fray, seat: SeatAuth, asset_id: str) -> tuple[bytes, str]:
    """The image's bytes and media type, if this seat's campaign holds it (uploaded or imported it)."""
    stored = await to_thread.run_sync(map_images.blob, fray, seat.campaign_id, asset_id)
    if stored is None:
        raise reads.NotFound("There is no such image in this campaign.")
    return stored


async def remove(fray: Fray, seat: SeatAuth, asset_id: str) -> None:
    """Delete an image no scene uses (the command refuses one in use, naming the scenes)."""
    _, state = await reads.current_async(fray, seat)
    listed = state.map.asset(asset_id) is not None
    if not listed and not await to_thread.run_sync(map_images.holds, fray, seat.campaign_id, asset_id):
        raise reads.NotFound("There is no such image in this campaign.")
    if listed:
        await commands.run(fray, seat, {"type": "map.asset.remove", "asset": asset_id}, internal=True)
    await to_thread.run_sync(map_images.release, fray, seat.campaign_id, asset_id)


async def scene_image(fray: Fray, seat: SeatAuth, scene_id: str) -> tuple[str, bytes, str]:
    """A scene's image as this seat may see it, fog blanked: (its key, its bytes, its media type)."""
    _, state = await reads.current_async(fray, seat)
    scene = state.map.scene(scene_id)
    # The players' image, as the map's sight blanks it (the GM asks it for a player's preview).
    viewer = ANY_PLAYER if seat.is_gm else reads.viewer_of(state, seat)
    sight = Sight(state, viewer)
    masked = map_tiles.masking(sight, scene)
    if scene is None or masked is None:
        raise reads.NotFound("There is no such scene to show.")
    explored, blanked = masked
    if explored is None:
        made = await to_thread.run_sync(map_images.MASKS.get, fray, seat.campaign_id, scene, blanked)
    else:  # vision: only what this viewer has explored, less the fog, named as the view names it
        made = await to_thread.run_sync(vision_images.VISION.image, fray, seat.campaign_id, scene, sight)
    if made is None:
        raise reads.NotFound("This scene has no image.")
    return made


async def scene_tile(fray: Fray, seat: SeatAuth, scene_id: str, tx: int, ty: int) -> tuple[str, bytes, str]:
    """One 256-pixel tile of a scene's image as this seat may see it (the GM: as the players see it),
    decided from the seat, never from the URL's key: (its key, its bytes, its media type)."""
    _, state = await reads.current_async(fray, seat)
    scene = state.map.scene(scene_id)
    viewer = ANY_PLAYER if seat.is_gm else reads.viewer_of(state, seat)
    sight = Sight(state, viewer)
    if scene is None or map_tiles.masking(sight, scene) is None:
        raise reads.NotFound("There is no such scene to show.")
    made = await to_thread.run_sync(vision_images.VISION.tile, fray, seat.campaign_id, scene, sight, tx, ty)
    if made is None:
        raise reads.NotFound("Nothing of this tile is yours to see.")
    return made
