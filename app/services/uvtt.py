"""Universal VTT files (`.dd2vtt`, `.uvtt`, `.df2vtt`): read into image pixels, written back as format 0.3.

Pure: bytes in, a `UvttMap` out, and back; no I/O. The format is JSON: `resolution` (`map_origin`,
`map_size` in grid cells, `pixels_per_grid`), `line_of_sight` and `objects_line_of_sight` (polylines of
`{x, y}` in cells), `portals` (doors: `position`, `bounds` of two points, `rotation`, `closed`,
`freestanding`), `lights` (`position`, `range` in cells, `intensity`, `color` as ARGB hex, `shadows`),
`environment` (`baked_lighting`, `ambient_light` as ARGB hex) and `image` (base64 PNG, WebP or JPEG).

A cell `(cx, cy)` is the image pixel `((cx - origin.x) * ppg, (cy - origin.y) * ppg)`, kept to a hundredth
of a pixel; the grid's offset in pixels is where whole cells fall, `-origin * ppg` (modulo a cell).
Choices the format leaves open (docs/maps.md says them too):

- Lights: a light's `range` (cells) is its dim radius; its bright radius is `dim * intensity / 2`, the
  intensity taken between 0 and 2 (1, the usual, lights the inner half brightly, as a torch does).
  Written back as `range = dim / ppg`, `intensity = 2 * bright / dim`.
- Ambient: the brightness of `ambient_light` (its luminance times its alpha) is `lit` from 0.6, `dim`
  from 0.25, else `dark`; written as white, mid grey and black.
- Objects' walls (`objects_line_of_sight`: pillars, furniture) block sight like walls: read as walls,
  written back in `line_of_sight`.
- Windows: the format has none. They are left out of `line_of_sight` and `portals` (another VTT would make
  them block sight, or be doors) and written under the key `fray_windows`, which other importers ignore
  and Fray reads back. A door's lock is not in the format either: an imported door is unlocked.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from dataclasses import dataclass, field
from typing import Any, Literal

Point = tuple[float, float]
Ambient = Literal["lit", "dim", "dark"]

FORMAT = 0.3
MAX_POINTS = 20_000  # wall, window and door points in one file: a big Dungeondraft level has a few thousand
MAX_LIGHTS = 500
MAX_PIXELS = 1_000_000  # a map's side or a light's reach in pixels: what the map's commands take
LIT_FROM, DIM_FROM = 0.6, 0.25
AMBIENT_HEX = {"lit": "ffffffff", "dim": "ff808080", "dark": "ff000000"}
WHITE = "#ffffff"
PRECISION = 2  # decimals of a pixel


class UvttError(ValueError):
    """Not a Universal VTT file Fray can read; the message says why, for a person."""


@dataclass(frozen=True)
class Wall:
    points: tuple[Point, ...]
    kind: Literal["wall", "window"] = "wall"


@dataclass(frozen=True)
class Door:
    points: tuple[Point, Point]
    open: bool = False


@dataclass(frozen=True)
class Light:
    x: float
    y: float
    bright: float
    dim: float
    color: str = WHITE  # "#rrggbb"


@dataclass(frozen=True)
class UvttMap:
    """A map in image pixels: its size, its grid cell's side, what blocks sight, and its image's bytes."""

    width: int
    height: int
    grid: float
    offset: Point = (0.0, 0.0)  # where the grid's lines fall, less than a cell: from map_origin
    walls: tuple[Wall, ...] = ()
    doors: tuple[Door, ...] = ()
    lights: tuple[Light, ...] = ()
    ambient: Ambient = "lit"
    image: bytes = field(default=b"", repr=False)


# --- reading ----------------------------------------------------------------------------------------


def parse(raw: bytes) -> UvttMap:
    """The map a UVTT file holds, in image pixels; UvttError with the reason when it is not one."""
    try:
        doc = json.loads(raw)
    except UnicodeDecodeError:
        raise UvttError("That file is not a Universal VTT file: it is not text (JSON).") from None
    except RecursionError:  # brackets nested thousands deep: no map is
        raise UvttError("That file is not a Universal VTT file: it is nested too deep.") from None
    except json.JSONDecodeError as error:
        if error.msg.startswith("Unterminated") or error.pos >= len(raw.rstrip()) - 1:
            raise UvttError("That file is cut short: export it again and retry.") from None
        raise UvttError(
            f"That file is not a Universal VTT file: it is not JSON (line {error.lineno})."
        ) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("resolution"), dict):
        raise UvttError("That file is not a Universal VTT file: it has no resolution.")
    res = doc["resolution"]
    ppg = _number(res.get("pixels_per_grid"), "resolution.pixels_per_grid")
    if ppg <= 0:
        raise UvttError("The file's pixels_per_grid must be more than 0.")
    ox, oy = _xy(res.get("map_origin", {"x": 0, "y": 0}), "resolution.map_origin")
    sx, sy = _xy(res.get("map_size"), "resolution.map_size")
    if sx <= 0 or sy <= 0:
        raise UvttError("The file's map_size must be more than 0 cells each way.")
    if not max(sx * ppg, sy * ppg) <= MAX_PIXELS:  # inf and nan too
        raise UvttError(
            f"The file's map_size ({sx:g} by {sy:g} cells) at pixels_per_grid {ppg:g} is past any image's "
            f"size (at most {MAX_PIXELS} pixels a side)."
        )
    image = _image(doc.get("image"))

    def px(point: Any, where: str) -> Point:
        cx, cy = _xy(point, where)
        return (round((cx - ox) * ppg, PRECISION), round((cy - oy) * ppg, PRECISION))

    walls = [
        Wall(tuple(px(p, f"{key}[{i}]") for p in line))
        for key in ("line_of_sight", "objects_line_of_sight")
        for i, line in enumerate(_list(doc.get(key), key))
        if _list(line, f"{key}[{i}]") and len(line) >= 2
    ]
    windows = [
        Wall(tuple(px(p, f"fray_windows[{i}]") for p in line), kind="window")
        for i, line in enumerate(_list(doc.get("fray_windows"), "fray_windows"))
        if _list(line, f"fray_windows[{i}]") and len(line) >= 2
    ]
    doors = [_door(portal, i, px) for i, portal in enumerate(_list(doc.get("portals"), "portals"))]
    lights = [_light(light, i, px, ppg) for i, light in enumerate(_list(doc.get("lights"), "lights"))]
    points = sum(len(w.points) for w in walls + windows) + 2 * len(doors)
    if points > MAX_POINTS:
        raise UvttError(f"That file has {points} wall and door points: at most {MAX_POINTS}, please.")
    if len(lights) > MAX_LIGHTS:
        raise UvttError(f"That file has {len(lights)} lights: at most {MAX_LIGHTS}, please.")
    environment = doc.get("environment")
    ambient_hex = environment.get("ambient_light") if isinstance(environment, dict) else None
    return UvttMap(
        width=max(1, round(sx * ppg)),
        height=max(1, round(sy * ppg)),
        grid=ppg,
        offset=(round((-ox % 1) * ppg, PRECISION) % ppg, round((-oy % 1) * ppg, PRECISION) % ppg),
        walls=tuple(walls + windows),
        doors=tuple(doors),
        lights=tuple(lights),
        ambient=ambient_of(ambient_hex) if ambient_hex is not None else "lit",
        image=image,
    )


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise UvttError(f"The file's {where} is not a number.")
    return float(value)


def _xy(point: Any, where: str) -> Point:
    if not isinstance(point, dict):
        raise UvttError(f"The file's {where} is not a point with x and y.")
    return _number(point.get("x"), f"{where}.x"), _number(point.get("y"), f"{where}.y")


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise UvttError(f"The file's {where} is not a list.")
    return value


def _image(value: Any) -> bytes:
    if not isinstance(value, str) or not value.strip():
        raise UvttError("That file has no image: export it again with the image included.")
    text = value.strip()
    if text.startswith("data:"):  # some tools write a data URL
        text = text.partition(",")[2]
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise UvttError("The file's image is damaged or cut short: export it again.") from None
    if not data:
        raise UvttError("That file has no image: export it again with the image included.")
    return data


def _door(portal: Any, i: int, px: Any) -> Door:
    where = f"portals[{i}]"
    if not isinstance(portal, dict):
        raise UvttError(f"The file's {where} is not a door.")
    bounds = _list(portal.get("bounds"), f"{where}.bounds")
    if len(bounds) != 2:
        raise UvttError(f"The file's {where}.bounds must be two points.")
    closed = portal.get("closed", True)
    if not isinstance(closed, bool):
        raise UvttError(f"The file's {where}.closed must be true or false.")
    return Door((px(bounds[0], f"{where}.bounds[0]"), px(bounds[1], f"{where}.bounds[1]")), open=not closed)


def _light(light: Any, i: int, px: Any, ppg: float) -> Light:
    where = f"lights[{i}]"
    if not isinstance(light, dict):
        raise UvttError(f"The file's {where} is not a light.")
    x, y = px(light.get("position"), f"{where}.position")
    reach = _number(light.get("range"), f"{where}.range")
    intensity = _number(light.get("intensity", 1), f"{where}.intensity")
    if reach < 0:
        raise UvttError(f"The file's {where}.range must not be negative.")
    if not reach * ppg <= MAX_PIXELS:
        raise UvttError(f"The file's {where}.range reaches past any map ({reach:g} cells).")
    dim = round(reach * ppg, PRECISION)
    bright = round(dim * min(max(intensity, 0.0), 2.0) / 2, PRECISION)
    return Light(x, y, bright=bright, dim=dim, color=colour_of(light.get("color"), f"{where}.color"))


def colour_of(value: Any, where: str = "color") -> str:
    """`#rrggbb` from the format's ARGB hex ("ffffaa00"), or RGB hex with or without `#`."""
    if value is None:
        return WHITE
    text = value.strip().lstrip("#").lower() if isinstance(value, str) else ""
    if len(text) not in (6, 8) or any(c not in "0123456789abcdef" for c in text):
        raise UvttError(f"The file's {where} is not a colour (ARGB hex such as ffffaa00).")
    return "#" + text[-6:]


def ambient_of(value: Any) -> Ambient:
    """lit, dim or dark from an ARGB hex colour's brightness (luminance times alpha)."""
    if not isinstance(value, str):
        raise UvttError("The file's environment.ambient_light is not a colour.")
    text = value.strip().lstrip("#").lower()
    if len(text) not in (6, 8) or any(c not in "0123456789abcdef" for c in text):
        raise UvttError("The file's environment.ambient_light is not a colour (ARGB hex).")
    alpha = int(text[:2], 16) / 255 if len(text) == 8 else 1.0
    r, g, b = (int(text[-6:][i : i + 2], 16) / 255 for i in (0, 2, 4))
    brightness = (0.2126 * r + 0.7152 * g + 0.0722 * b) * alpha
    return "lit" if brightness >= LIT_FROM else "dim" if brightness >= DIM_FROM else "dark"


def fitted(found: UvttMap, width: int, height: int) -> UvttMap:
    """The map scaled to its image's real size, when the file's map_size times pixels_per_grid differs
    (an image exported at another resolution): coordinates follow the image, the grid too."""
    if (width, height) == (found.width, found.height):
        return found
    fx, fy = width / found.width, height / found.height

    def at(p: Point) -> Point:
        return (round(p[0] * fx, PRECISION), round(p[1] * fy, PRECISION))

    reach = (fx + fy) / 2
    return UvttMap(
        width=width,
        height=height,
        grid=round(found.grid * reach, PRECISION),
        offset=at(found.offset),
        walls=tuple(Wall(tuple(at(p) for p in w.points), w.kind) for w in found.walls),
        doors=tuple(Door((at(d.points[0]), at(d.points[1])), d.open) for d in found.doors),
        lights=tuple(
            Light(
                *at((li.x, li.y)),
                round(li.bright * reach, PRECISION),
                round(li.dim * reach, PRECISION),
                li.color,
            )
            for li in found.lights
        ),
        ambient=found.ambient,
        image=found.image,
    )


# --- writing ----------------------------------------------------------------------------------------


def document(found: UvttMap) -> dict[str, Any]:
    """The map as a format 0.3 document, as Foundry's and Fantasy Grounds' importers read: the grid's
    offset is the map's origin (the grid's lines fall on whole cells)."""
    ppg = found.grid
    ox, oy = -found.offset[0] / ppg, -found.offset[1] / ppg

    def cell(p: Point) -> dict[str, float]:
        return {"x": p[0] / ppg + ox, "y": p[1] / ppg + oy}

    def portal(door: Door) -> dict[str, Any]:
        (x1, y1), (x2, y2) = door.points
        return {
            "position": cell(((x1 + x2) / 2, (y1 + y2) / 2)),
            "bounds": [cell(door.points[0]), cell(door.points[1])],
            "rotation": math.atan2(y2 - y1, x2 - x1),
            "closed": not door.open,
            "freestanding": False,
        }

    def light(li: Light) -> dict[str, Any]:
        return {
            "position": cell((li.x, li.y)),
            "range": li.dim / ppg,
            "intensity": 2 * li.bright / li.dim if li.dim > 0 else 0.0,
            "color": "ff" + li.color.lstrip("#").lower(),
            "shadows": True,
        }

    return {
        "format": FORMAT,
        "resolution": {
            "map_origin": {"x": ox, "y": oy},
            "map_size": {"x": found.width / ppg, "y": found.height / ppg},
            "pixels_per_grid": ppg,
        },
        "line_of_sight": [[cell(p) for p in w.points] for w in found.walls if w.kind == "wall"],
        "objects_line_of_sight": [],
        "portals": [portal(d) for d in found.doors],
        "environment": {"baked_lighting": False, "ambient_light": AMBIENT_HEX[found.ambient]},
        "lights": [light(li) for li in found.lights],
        "fray_windows": [[cell(p) for p in w.points] for w in found.walls if w.kind == "window"],
        "image": base64.b64encode(found.image).decode("ascii"),
    }


def write(found: UvttMap) -> bytes:
    """The map as the bytes of a format 0.3 `.dd2vtt` file."""
    return json.dumps(document(found), separators=(",", ":")).encode()
