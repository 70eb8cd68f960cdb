"""What blocks and lights a scene's sight, and what the players have seen of it: walls, doors, windows,
lights, a token's sight, and the explored areas (frozen state, in image pixels).

Every field here is left out of a dump while at its default, so a campaign that never used sight dumps
(snapshots, recorded fingerprints) as it did before sight existed.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

import numpy as np
import shapely
from pydantic import Field

from app.rules.system import Frozen

Point = tuple[float, float]
WallKind = Literal["wall", "door", "window"]
Ambient = Literal["lit", "dim", "dark"]


class Wall(Frozen):
    """A polyline that blocks movement; sight too, unless it is a window or an open door."""

    id: str
    scene: str
    kind: WallKind = "wall"
    points: tuple[Point, ...]
    open: bool = Field(default=False, exclude_if=lambda v: not v)  # a door's
    locked: bool = Field(default=False, exclude_if=lambda v: not v)  # a door's: only the GM opens it

    @property
    def blocks_sight(self) -> bool:
        return self.kind == "wall" or (self.kind == "door" and not self.open)

    @cached_property
    def midpoint(self) -> Point:
        """The middle of the polyline's length (where a phone draws the door's button). Remembered on the
        wall: every player's view after every push asks it of each door, and a wall is only ever copied
        with other fields changed (a door opened or locked), never its points."""
        line = shapely.LineString(self.points)
        middle = line.interpolate(0.5, normalized=True)
        return (round(float(middle.x), 1), round(float(middle.y), 1))


class Light(Frozen):
    """A light source: lit within `dim` pixels (brightly within `bright`), where walls let it reach."""

    id: str
    scene: str
    x: float
    y: float
    bright: float = 0.0
    dim: float = 0.0
    color: str = "#ffd27f"


class TokenSight(Frozen):
    """How far a token sees (None: as far as walls and the scene allow) and sees in the dark, in pixels."""

    range: float | None = None
    darkvision: float = 0.0


DEFAULT_SIGHT = TokenSight()


class Explored(Frozen):
    """What one character has seen of one scene: polygons (exterior ring, then holes) in whole pixels.

    Derived from the log by the reducers (each sight a character's token has is added to it), so it is
    kept in snapshots and survives restarts like the rest of the state."""

    scene: str
    participant: str
    polygons: tuple[tuple[tuple[Point, ...], ...], ...] = ()

    @cached_property
    def shape(self) -> shapely.Geometry:
        """The area as one geometry (an object is never copied with changes, only made anew)."""
        return shape_of(self.polygons)


def shape_of(polygons: tuple[tuple[tuple[Point, ...], ...], ...]) -> shapely.Geometry:
    """The geometry of stored rings: a polygon, or a multipolygon of several (as `rings_of` read it)."""
    parts = [
        shapely.polygons(np.asarray(rings[0]), holes=[np.asarray(r) for r in rings[1:]] or None)
        for rings in polygons
    ]
    if not parts:
        return shapely.Polygon()
    return parts[0] if len(parts) == 1 else shapely.MultiPolygon(parts)


def rings_of(area: shapely.Geometry) -> tuple[tuple[tuple[Point, ...], ...], ...]:
    """A geometry's polygons as rings (exterior first), its lines and points with no area dropped."""
    out = []
    for part in polygons_in(area):
        rings = [part.exterior, *part.interiors]
        out.append(tuple(tuple(map(tuple, shapely.get_coordinates(ring).tolist())) for ring in rings))
    return tuple(out)


def polygons_in(area: shapely.Geometry) -> list[shapely.Polygon]:
    """The polygons with an area in a geometry, however nested in collections."""
    if isinstance(area, shapely.Polygon):
        return [] if area.is_empty or area.area <= 0 else [area]
    if isinstance(area, shapely.MultiPolygon | shapely.GeometryCollection):
        return [p for part in shapely.get_parts(area) for p in polygons_in(part)]
    return []
