"""Universal VTT maps in and out of a campaign: a file becomes an unshown scene, and a scene a file.

Import: the file is read (`uvtt.parse`, in a worker thread), its image goes through every check an upload
does (`map_images.prepare`) and is kept within the campaign's storage, then the image's record, the scene
(its grid from the file, vision on, not covered, not shown) and its walls, doors and lights are one batch
of commands (`batches`): a refusal writes none of them, and the image is let go again if this import was
what brought it. Export: the GM's view of the scene (its walls and lights as the map lists them) and the
image's stored bytes, written as format 0.3.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from pathlib import PurePath
from typing import Any

from anyio import to_thread

from app.rules.errors import InputError, RuleError
from app.rules.map.view import view as map_view
from app.rules.system import Event
from app.services import batches, map_images, reads, uvtt
from app.services.auth import SeatAuth
from app.services.context import Fray
from app.services.uvtt import Door, Light, UvttError, UvttMap, Wall

NAME_MAX = 60


def _parsed(raw: bytes, max_bytes: int) -> UvttMap:
    if len(raw) > max_bytes:
        raise map_images.TooLarge(f"That file is too large: at most {max_bytes / 1024 / 1024:g} MB.")
    if not raw:
        raise InputError("That file is empty: choose a .dd2vtt, .uvtt or .df2vtt file.")
    try:
        return uvtt.parse(raw)
    except UvttError as error:
        raise InputError(str(error)) from None


def scene_name(filename: str | None) -> str:
    stem = PurePath(filename or "").stem.strip() if filename else ""
    return (stem or "Imported map")[:NAME_MAX]


def commands_for(found: UvttMap, scene: str) -> list[dict[str, Any]]:
    """The map's vision, walls, windows, doors and lights as commands on a scene."""
    out: list[dict[str, Any]] = [
        {"type": "map.scene.update", "scene": scene, "vision": True, "ambient": found.ambient}
    ]
    for wall in found.walls:
        out.append(
            {
                "type": "map.wall.add",
                "scene": scene,
                "points": [list(p) for p in wall.points],
                "kind": wall.kind,
            }
        )
    for door in found.doors:
        points = [list(p) for p in door.points]
        out.append(
            {
                "type": "map.wall.add",
                "scene": scene,
                "points": points,
                "kind": "door",
                "closed": not door.open,
            }
        )
    for light in found.lights:
        out.append(
            {
                "type": "map.light.add",
                "scene": scene,
                "x": light.x,
                "y": light.y,
                "bright": light.bright,
                "dim": light.dim,
                "color": light.color,
            }
        )
    return out


async def import_file(fray: Fray, seat: SeatAuth, raw: bytes, filename: str | None) -> dict[str, Any]:
    """A new unshown scene from a UVTT file: `{scene, walls, doors, lights, width, height}`."""
    settings = fray.settings
    found = await to_thread.run_sync(_parsed, raw, settings.max_upload_bytes)
    del raw
    prepared = await to_thread.run_sync(
        map_images.prepare,
        found.image,
        settings.max_upload_bytes,
        settings.max_image_side,
        settings.max_image_pixels,
    )
    found = uvtt.fitted(found, prepared.width, prepared.height)
    cid = seat.campaign_id
    held = await to_thread.run_sync(map_images.holds, fray, cid, prepared.id)
    await to_thread.run_sync(map_images.store, fray, prepared, cid, settings.campaign_storage_bytes)
    _, state = await reads.current_async(fray, seat)
    first: list[dict[str, Any]] = []
    if state.map.asset(prepared.id) is None:
        first.append(
            {
                "type": "map.asset.add",
                "asset": prepared.id,
                "name": (filename or "")[:120],
                "width": prepared.width,
                "height": prepared.height,
            }
        )
    grid = {"type": "square", "size": found.grid, "offset": list(found.offset)}
    first.append(
        {
            "type": "map.scene.create",
            "name": scene_name(filename),
            "asset": prepared.id,
            "grid": grid,
            "show": False,
            "covered": False,
        }
    )
    made: dict[str, str] = {}

    def scene_commands(events: list[Event]) -> list[dict[str, Any]]:
        made["scene"] = next(e.data["scene"]["id"] for e in events if e.type == "map.scene_created")
        return commands_for(found, made["scene"])

    try:
        await batches.run(fray, seat, [lambda _: first, scene_commands])
    except RuleError:
        if not held:  # this import brought the image: nothing of it stays
            await to_thread.run_sync(map_images.release, fray, cid, prepared.id)
        raise
    return {
        "scene": made["scene"],
        "walls": len(found.walls),
        "doors": len(found.doors),
        "lights": len(found.lights),
        "width": prepared.width,
        "height": prepared.height,
    }


def scene_map(state_view: dict[str, Any], grid: float, offset: tuple[float, float], ambient: str) -> UvttMap:
    """The map part of a scene from the GM's view of it (`walls`, `lights`), without its image."""
    walls, doors = [], []
    for wall in state_view.get("walls") or []:
        points = tuple((float(x), float(y)) for x, y in wall["points"])
        if wall.get("kind") == "door" and len(points) == 2:
            doors.append(Door((points[0], points[1]), open=bool(wall.get("open"))))
        elif wall.get("kind") == "door":  # a door drawn with more points: each of its segments
            doors.extend(Door((a, b), open=bool(wall.get("open"))) for a, b in itertools.pairwise(points))
        elif len(points) >= 2:
            walls.append(Wall(points, kind="window" if wall.get("kind") == "window" else "wall"))
    lights = [
        Light(
            float(li["x"]),
            float(li["y"]),
            float(li["bright"]),
            float(li["dim"]),
            li.get("color") or uvtt.WHITE,
        )
        for li in state_view.get("lights") or []
    ]
    return UvttMap(
        width=int(state_view["width"]),
        height=int(state_view["height"]),
        grid=grid,
        offset=offset,
        walls=tuple(walls),
        doors=tuple(doors),
        lights=tuple(lights),
        ambient=ambient if ambient in ("lit", "dim", "dark") else "lit",  # type: ignore[arg-type]
    )


async def export_file(fray: Fray, seat: SeatAuth, scene_id: str) -> tuple[bytes, str]:
    """A scene as a format 0.3 file: (its bytes, a file name)."""
    _, state = await reads.current_async(fray, seat)
    scene = state.map.scene(scene_id)
    if scene is None:
        raise reads.NotFound("There is no such scene in this campaign.")
    if scene.asset is None:
        raise RuleError("This scene has no image: a Universal VTT file carries one. Give it an image first.")
    stored = await to_thread.run_sync(map_images.blob, fray, seat.campaign_id, scene.asset)
    if stored is None:
        raise RuleError("This scene's image was deleted: give it an image first.")
    seen = map_view(state, state, reads.viewer_of(state, seat), scene.id)
    ambient = str(getattr(scene, "ambient", "lit"))
    found = scene_map(seen, scene.grid.size, scene.grid.offset, ambient)
    data = await to_thread.run_sync(uvtt.write, dataclasses.replace(found, image=stored[0]))
    return data, f"{re.sub(r'[^A-Za-z0-9_-]+', '_', scene.name).strip('_') or 'map'}.dd2vtt"
