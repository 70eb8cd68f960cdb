"""The battle map's frozen state: images, scenes with their grid and fog, tokens.

Coordinates are image pixels of the scene (its background image, or its blank canvas when it has none).
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import Literal

import numpy as np
import shapely
from pydantic import Field

from app.rules.map.walls import DEFAULT_SIGHT, Ambient, Explored, Light, TokenSight, Wall
from app.rules.system import Frozen

GridType = Literal["square", "hex", "none"]
Diagonals = Literal["5-5-5", "5-10-5", "straight"]
Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # x, y, w, h


class Asset(Frozen):
    """An uploaded image: its content hash names the blob the store keeps."""

    id: str
    name: str = ""
    width: int
    height: int


class Grid(Frozen):
    type: GridType = "square"
    size: float = 70.0  # a cell's width in image pixels
    offset: Point = (0.0, 0.0)  # where the first cell's corner sits, in image pixels
    unit: str = "ft"
    per_cell: float = 5.0  # the distance one cell stands for
    diagonals: Diagonals = "5-5-5"


class FogOp(Frozen):
    """One stroke of the GM's fog: cover or reveal a rectangle, a polygon, or (neither) the whole scene."""

    op: Literal["cover", "reveal"]
    rect: Rect | None = None
    polygon: tuple[Point, ...] | None = None

    # Worked out once a stroke (a stroke is never copied with changes, only made anew): the point tests of
    # every view of every push reuse them. Models ignore cached properties (not fields, not compared).
    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """left, top, right, bottom; the whole plane for a whole-scene stroke."""
        if self.rect is not None:
            x, y, w, h = self.rect
            return (x, y, x + w, y + h)
        if self.polygon is not None:
            xs, ys = [p[0] for p in self.polygon], [p[1] for p in self.polygon]
            return (min(xs), min(ys), max(xs), max(ys))
        return (-math.inf, -math.inf, math.inf, math.inf)

    @cached_property
    def shape(self) -> shapely.Polygon | None:
        """The polygon, prepared for many point tests."""
        if self.polygon is None:
            return None
        shape = shapely.polygons(np.asarray(self.polygon, dtype=float))  # from an array: no Python loop
        shapely.prepare(shape)
        return shape


class Drawing(Frozen):
    """A free line or shape the GM sketched: a polyline, closed when `closed`."""

    id: str
    points: tuple[Point, ...]
    color: str = "#e4572e"
    closed: bool = False


class Scene(Frozen):
    id: str
    name: str
    asset: str | None = None
    width: int
    height: int
    grid: Grid = Grid()
    fog: tuple[FogOp, ...] = ()
    fog_version: int = 0  # bumps on every fog change: names the players' masked image
    drawings: tuple[Drawing, ...] = ()
    player_moves: bool = True  # players may drag their own characters' tokens
    # Sight from walls (app/rules/map/vision.py), each left out of a dump while at its default.
    walls: tuple[Wall, ...] = Field(default=(), exclude_if=lambda v: not v)  # walls, doors and windows
    lights: tuple[Light, ...] = Field(default=(), exclude_if=lambda v: not v)
    vision: bool = Field(default=False, exclude_if=lambda v: not v)  # players see what their tokens see
    ambient: Ambient = Field(default="lit", exclude_if=lambda v: v == "lit")

    def wall(self, wall_id: str | None) -> Wall | None:
        return next((w for w in self.walls if w.id == wall_id), None)

    def light(self, light_id: str | None) -> Light | None:
        return next((x for x in self.lights if x.id == light_id), None)


class Token(Frozen):
    id: str
    scene: str
    x: float
    y: float
    participant: str | None = None
    label: str | None = None
    color: str = "#3d7dd8"
    size: float = 1.0  # in cells
    hidden: bool = False  # the GM's alone
    locked: bool = False  # nobody but the GM moves it
    sight: TokenSight = Field(default=DEFAULT_SIGHT, exclude_if=lambda v: v == DEFAULT_SIGHT)


class MapState(Frozen):
    assets: tuple[Asset, ...] = ()
    scenes: tuple[Scene, ...] = ()
    tokens: tuple[Token, ...] = ()
    shown: str | None = None  # the scene the players see
    open: str | None = None  # the scene the GM is working on (the console shows it)
    # A new scene starts under fog (the GM reveals what the party sees). Left out of a dump while off, so a
    # campaign that never turned it on dumps (snapshots, recorded fingerprints) as it did before it existed.
    cover_new_scenes: bool = Field(default=False, exclude_if=lambda on: not on)
    share_explored: bool = Field(default=False, exclude_if=lambda on: not on)  # the party's one explored area
    players_open_doors: bool = Field(default=True, exclude_if=lambda on: on)  # next to an unlocked door
    explored: tuple[Explored, ...] = Field(default=(), exclude_if=lambda v: not v)  # per scene and character

    def scene(self, scene_id: str | None) -> Scene | None:
        return next((s for s in self.scenes if s.id == scene_id), None)

    def token(self, token_id: str | None) -> Token | None:
        return next((t for t in self.tokens if t.id == token_id), None)

    def wall(self, wall_id: str | None) -> tuple[Scene, Wall] | None:
        """A wall, door or window of any scene, with its scene."""
        for s in self.scenes:
            found = s.wall(wall_id)
            if found is not None:
                return s, found
        return None

    def light(self, light_id: str | None) -> tuple[Scene, Light] | None:
        for s in self.scenes:
            found = s.light(light_id)
            if found is not None:
                return s, found
        return None

    def asset(self, asset_id: str | None) -> Asset | None:
        return next((a for a in self.assets if a.id == asset_id), None)
