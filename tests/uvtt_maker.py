"""A small dungeon drawn with Pillow and written as a Universal VTT file: made here from the format, for the
tests and the bench (no file copied from anywhere).

The map is 12 by 8 cells of `PPG` pixels. Three rooms of flat colours, each a box of dark walls one cell
thick: WEST (red) and EAST (blue) are joined by a corridor (green) from WEST's east wall to EAST's west
wall, with a door at the corridor's east end; NORTH (yellow) hangs above the corridor behind a window.
`ROOMS` gives each floor's box in pixels, so a test can say which colours a player may have.
"""

from __future__ import annotations

import base64
import io
import json
from typing import Any

from PIL import Image, ImageDraw

PPG = 50
CELLS = (12, 8)
WALL = (30, 26, 24)
FLOORS = {"west": (200, 40, 40), "corridor": (40, 170, 60), "east": (40, 70, 210), "north": (230, 200, 40)}
# Floors in cells (x0, y0, x1, y1), walls around them on the cell lines.
CELL_ROOMS = {"west": (1, 2, 4, 7), "corridor": (4, 4, 7, 5), "east": (7, 2, 11, 7), "north": (4, 1, 7, 3)}
ROOMS = {k: tuple(v * PPG for v in box) for k, box in CELL_ROOMS.items()}
WALL_PX = 6  # drawn thickness


def walls_cells() -> list[list[tuple[float, float]]]:
    """The walls as polylines in cells: each room's outline, leaving the openings."""
    return [
        # WEST: closed but for the corridor's mouth (x 4, y 4-5)
        [(4, 4), (4, 2), (1, 2), (1, 7), (4, 7), (4, 5)],
        # the corridor's south side, and its north side beside the window
        [(4, 5), (7, 5)],
        [(4, 4), (5, 4)],
        [(6, 4), (7, 4)],
        # EAST: open at the door (x 7, y 4-5)
        [(7, 4), (7, 2), (11, 2), (11, 7), (7, 7), (7, 5)],
        # NORTH: its three other sides
        [(5, 4), (5, 3), (4, 3), (4, 1), (7, 1), (7, 3), (6, 3), (6, 4)],
    ]


def door_cells() -> tuple[tuple[float, float], tuple[float, float]]:
    return ((7, 4), (7, 5))


def window_cells() -> list[tuple[float, float]]:
    return [(5, 4), (6, 4)]


def image(fmt: str = "PNG") -> bytes:
    width, height = CELLS[0] * PPG, CELLS[1] * PPG
    picture = Image.new("RGB", (width, height), (0, 0, 0))
    draw = ImageDraw.Draw(picture)
    for name, (x0, y0, x1, y1) in ROOMS.items():
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=FLOORS[name])
    for line in walls_cells():
        draw.line([(x * PPG, y * PPG) for x, y in line], fill=WALL, width=WALL_PX)
    (dx0, dy0), (dx1, dy1) = door_cells()
    draw.line([(dx0 * PPG, dy0 * PPG), (dx1 * PPG, dy1 * PPG)], fill=(120, 80, 30), width=WALL_PX)
    out = io.BytesIO()
    picture.save(out, fmt)
    return out.getvalue()


def _xy(p: tuple[float, float]) -> dict[str, float]:
    return {"x": p[0], "y": p[1]}


def document(fmt: float = 0.3, door_closed: bool = True, image_bytes: bytes | None = None) -> dict[str, Any]:
    """The dungeon as a UVTT document (format 0.2 leaves out objects_line_of_sight and environment)."""
    (dx0, dy0), (dx1, dy1) = door_cells()
    doc: dict[str, Any] = {
        "format": fmt,
        "resolution": {"map_origin": _xy((0, 0)), "map_size": _xy(CELLS), "pixels_per_grid": PPG},
        "line_of_sight": [[_xy(p) for p in line] for line in walls_cells()],
        "portals": [
            {
                "position": _xy(((dx0 + dx1) / 2, (dy0 + dy1) / 2)),
                "bounds": [_xy((dx0, dy0)), _xy((dx1, dy1))],
                "rotation": 1.5707963,
                "closed": door_closed,
                "freestanding": False,
            }
        ],
        "lights": [
            {"position": _xy((9, 4.5)), "range": 4, "intensity": 1, "color": "ffffaa00", "shadows": True},
            {"position": _xy((2.5, 4.5)), "range": 2, "intensity": 2, "color": "ff8080ff", "shadows": True},
        ],
        "image": base64.b64encode(image_bytes if image_bytes is not None else image()).decode(),
    }
    if fmt >= 0.3:
        doc["objects_line_of_sight"] = [[_xy((9.5, 3.5)), _xy((10, 3.5)), _xy((10, 4)), _xy((9.5, 3.5))]]
        doc["environment"] = {"baked_lighting": True, "ambient_light": "ff202020"}
    return doc


def dd2vtt(**options: Any) -> bytes:
    return json.dumps(document(**options)).encode()


def rooms_document(
    cells: int, ppg: int, room: int, image_bytes: bytes, segments: int | None = None
) -> dict[str, Any]:
    """A big dungeon for the bench: `cells` square, cut into rooms of `room` cells by walls one cell
    segment each, a gap in the middle of every inner side (every fourth one a closed door), lit. With
    `segments`, exactly that many wall segments: the inner walls first, then the outer in longer runs."""
    inner: list[list[tuple[float, float]]] = []
    portals: list[dict[str, Any]] = []
    gap, gaps = room // 2, 0
    for line in range(room, cells, room):
        for along in range(cells):
            door = along % room == gap
            for a, b in (((line, along), (line, along + 1)), ((along, line), (along + 1, line))):
                if not door:
                    inner.append([a, b])
                    continue
                gaps += 1
                if gaps % 4 == 0:
                    portals.append(
                        {
                            "position": _xy(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)),
                            "bounds": [_xy(a), _xy(b)],
                            "rotation": 0,
                            "closed": True,
                            "freestanding": False,
                        }
                    )
    if segments is not None:
        inner = inner[: max(0, segments - 4)]
        left = segments - len(inner)  # the outer square, in `left` runs
        per_side = max(1, left // 4)
        outer: list[list[tuple[float, float]]] = []
        corners = [(0, 0), (cells, 0), (cells, cells), (0, cells), (0, 0)]
        for side in range(4):
            (x0, y0), (x1, y1) = corners[side], corners[side + 1]
            runs = per_side + (1 if side < left - 4 * per_side else 0)
            for i in range(runs):
                outer.append(
                    [
                        (x0 + (x1 - x0) * i / runs, y0 + (y1 - y0) * i / runs),
                        (x0 + (x1 - x0) * (i + 1) / runs, y0 + (y1 - y0) * (i + 1) / runs),
                    ]
                )
        inner += outer
    else:
        inner.append([(0, 0), (cells, 0), (cells, cells), (0, cells), (0, 0)])
    return {
        "format": 0.3,
        "resolution": {"map_origin": _xy((0, 0)), "map_size": _xy((cells, cells)), "pixels_per_grid": ppg},
        "line_of_sight": [[_xy(p) for p in line] for line in inner],
        "objects_line_of_sight": [],
        "portals": portals,
        "lights": [],
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "image": base64.b64encode(image_bytes).decode(),
    }
