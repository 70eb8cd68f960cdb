"""The map's part of a view, typed for the OpenAPI (app/rules/map/view.py builds it): scenes, images,
and sight from walls (walls and lights for the GM; sight, doors and tiles for a player)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.web.base_schemas import Open


class SceneRef(Open):
    id: str
    name: str
    shown: bool
    open: bool


class AssetOut(Open):
    id: str
    name: str
    width: int
    height: int


class WallOut(Open):
    id: str
    kind: Literal["wall", "door", "window"]
    points: list[tuple[float, float]] = Field(description="A polyline in image pixels.")
    open: bool
    locked: bool


class LightOut(Open):
    id: str
    x: float
    y: float
    bright: float = Field(description="Radius of bright light, in image pixels.")
    dim: float = Field(description="Radius of dim light, in image pixels.")
    color: str


class DoorOut(Open):
    id: str
    x: float = Field(description="The door's middle, in image pixels.")
    y: float
    open: bool
    usable: bool = Field(description="Whether this player may try to open or close it.")


class TileOut(Open):
    x: int
    y: int
    w: int
    h: int
    url: str = Field(description="The tile, named by its content: cached for good.")


class MapView(Open):
    """The map as this seat sees it: the scene's fields follow `scene` when there is one."""

    scene: str | None = Field(description="The id of the scene this viewer looks at; its fields follow.")
    shown: str | None
    scenes: list[SceneRef] | None = Field(default=None, description="The GM's only: every scene.")
    assets: list[AssetOut] | None = Field(default=None, description="The GM's only: every uploaded image.")
    cover_new_scenes: bool | None = Field(default=None, description="The GM's only.")
    share_explored: bool | None = Field(default=None, description="The GM's only, listed when on.")
    players_open_doors: bool | None = Field(default=None, description="The GM's only, listed when off.")
    vision: bool | None = Field(default=None, description="Sight from walls is on for this scene.")
    ambient: Literal["lit", "dim", "dark"] | None = Field(
        default=None, description="The GM's only, listed when not lit."
    )
    walls: list[WallOut] | None = Field(default=None, description="The GM's only: walls, doors, windows.")
    lights: list[LightOut] | None = Field(default=None, description="The GM's only.")
    sight: str | None = Field(
        default=None, description="A player's, with vision: what they see now, an SVG path in image pixels."
    )
    doors: list[DoorOut] | None = Field(default=None, description="A player's, with vision: doors they see.")
    tiles: list[TileOut] | None = Field(
        default=None, description="A player's, with vision: the tiles of their explored image."
    )
