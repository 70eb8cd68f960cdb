"""The map's commands as they arrive: one model per `map.*` command, checked before any decider runs."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from app.rules.map.state import Diagonals, GridType
from app.rules.map.walls import Ambient, WallKind
from app.rules.system import Command, Frozen

Coordinate = Field(ge=-1_000_000, le=1_000_000)
COLOR = r"^#[0-9a-fA-F]{6}$"


class GridIn(Frozen):
    type: GridType = "square"
    size: float = Field(default=70.0, gt=4, le=2000)
    offset: tuple[float, float] = (0.0, 0.0)
    unit: str = Field(default="ft", max_length=12)
    per_cell: float = Field(default=5.0, gt=0, le=100000)
    diagonals: Diagonals = "5-5-5"

    model_config = Frozen.model_config | {"extra": "forbid", "allow_inf_nan": False}


class AddAsset(Command):
    type: Literal["map.asset.add"] = "map.asset.add"
    asset: str = Field(pattern=r"^[0-9a-f]{64}$")
    name: str = Field(default="", max_length=120)
    width: int = Field(ge=1, le=100_000)
    height: int = Field(ge=1, le=100_000)


class RemoveAsset(Command):
    type: Literal["map.asset.remove"] = "map.asset.remove"
    asset: str = Field(pattern=r"^[0-9a-f]{64}$")


class CreateScene(Command):
    type: Literal["map.scene.create"] = "map.scene.create"
    name: str = Field(min_length=1, max_length=60)
    asset: str | None = None
    grid: GridIn = GridIn()
    width: int | None = Field(default=None, ge=100, le=20000)  # a blank scene's size, in pixels
    height: int | None = Field(default=None, ge=100, le=20000)
    show: bool = False  # a new scene is the GM's until shown: preparing is private
    covered: bool | None = None  # start under fog; None: as the map's `cover_new_scenes` setting says


class MapSettings(Command):
    type: Literal["map.settings"] = "map.settings"
    cover_new_scenes: bool | None = None  # every new scene starts under fog
    share_explored: bool | None = None  # the party shares one explored area per scene
    players_open_doors: bool | None = None  # a player may open an unlocked door next to their token


class UpdateScene(Command):
    type: Literal["map.scene.update"] = "map.scene.update"
    scene: str
    name: str | None = Field(default=None, min_length=1, max_length=60)
    asset: str | None = None
    grid: GridIn | None = None
    player_moves: bool | None = None
    vision: bool | None = None  # players see what their characters' tokens see (walls, doors, light)
    ambient: Ambient | None = None


class ShowScene(Command):
    type: Literal["map.scene.show"] = "map.scene.show"
    scene: str | None  # None: show the players no map


class OpenScene(Command):
    type: Literal["map.scene.open"] = "map.scene.open"
    scene: str


class RemoveScene(Command):
    type: Literal["map.scene.remove"] = "map.scene.remove"
    scene: str


class PlaceToken(Command):
    type: Literal["map.token.place"] = "map.token.place"
    scene: str
    x: float = Coordinate
    y: float = Coordinate
    participant: str | None = None
    label: str | None = Field(default=None, min_length=1, max_length=40)
    color: str = Field(default="#3d7dd8", pattern=COLOR)
    size: float = Field(default=1.0, gt=0, le=20)
    hidden: bool = False
    free: bool = False  # place exactly here rather than in the middle of the cell


class MoveToken(Command):
    type: Literal["map.token.move"] = "map.token.move"
    token: str
    x: float = Coordinate
    y: float = Coordinate
    free: bool = False


class RemoveToken(Command):
    type: Literal["map.token.remove"] = "map.token.remove"
    token: str


class SightIn(Frozen):
    """A token's sight, in image pixels: how far (None: unlimited) and how far in the dark."""

    range: float | None = Field(default=None, gt=0, le=1_000_000)
    darkvision: float = Field(default=0.0, ge=0, le=1_000_000)

    model_config = Frozen.model_config | {"extra": "forbid", "allow_inf_nan": False}


class SetToken(Command):
    type: Literal["map.token.set"] = "map.token.set"
    token: str
    sight: SightIn | None = None
    hidden: bool | None = None
    locked: bool | None = None
    size: float | None = Field(default=None, gt=0, le=20)
    color: str | None = Field(default=None, pattern=COLOR)
    label: str | None = Field(default=None, min_length=1, max_length=40)


class FogShape(Command):
    scene: str
    rect: tuple[float, float, float, float] | None = None
    polygon: tuple[tuple[float, float], ...] | None = Field(default=None, min_length=3, max_length=200)

    @field_validator("rect")
    @classmethod
    def _positive(cls, rect: tuple[float, float, float, float] | None) -> Any:
        if rect is not None and (rect[2] <= 0 or rect[3] <= 0):
            raise ValueError("a rectangle needs a width and a height above 0")
        return rect

    @model_validator(mode="after")
    def _one_shape(self) -> FogShape:
        if self.rect is not None and self.polygon is not None:
            raise ValueError("give a rect or a polygon, not both")
        return self


class CoverFog(FogShape):
    type: Literal["map.fog.cover"] = "map.fog.cover"


class RevealFog(FogShape):
    type: Literal["map.fog.reveal"] = "map.fog.reveal"


class Draw(Command):
    type: Literal["map.draw"] = "map.draw"
    scene: str
    points: tuple[tuple[float, float], ...] = Field(min_length=2, max_length=500)
    color: str = Field(default="#e4572e", pattern=COLOR)
    closed: bool = False


class Erase(Command):
    type: Literal["map.erase"] = "map.erase"
    scene: str
    drawing: str | None = None  # None: every drawing on the scene


# --- sight from walls -----------------------------------------------------------------------------


class AddWall(Command):
    type: Literal["map.wall.add"] = "map.wall.add"
    scene: str
    points: tuple[tuple[float, float], ...] = Field(min_length=2, max_length=500)
    kind: WallKind = "wall"
    closed: bool | None = None  # a door's: closed unless said (walls and windows are neither)
    locked: bool = False  # a door's


class RemoveWall(Command):
    type: Literal["map.wall.remove"] = "map.wall.remove"
    wall: str


class SetDoor(Command):
    type: Literal["map.door.set"] = "map.door.set"
    wall: str
    open: bool
    locked: bool | None = None  # the GM's alone


class AddLight(Command):
    type: Literal["map.light.add"] = "map.light.add"
    scene: str
    x: float = Coordinate
    y: float = Coordinate
    bright: float = Field(default=0.0, ge=0, le=1_000_000)  # pixels
    dim: float = Field(ge=0, le=1_000_000)  # pixels; at least `bright`
    color: str = Field(default="#ffd27f", pattern=COLOR)

    @model_validator(mode="after")
    def _dim_past_bright(self) -> AddLight:
        if self.dim < self.bright:
            raise ValueError("a light's dim radius reaches at least as far as its bright one")
        if self.dim <= 0:
            raise ValueError("a light needs a dim radius above 0")
        return self


class RemoveLight(Command):
    type: Literal["map.light.remove"] = "map.light.remove"
    light: str


class ResetExplored(Command):
    type: Literal["map.explored.reset"] = "map.explored.reset"
    scene: str | None = None  # None: every scene
