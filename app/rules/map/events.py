"""Payload models of the `map.*` events: the fields each record carries (version 1 unless bumped)."""

from __future__ import annotations

from typing import Any

from app.rules.events import Payload, payload, upcaster
from app.rules.map.state import Asset, Drawing, FogOp, Scene, Token
from app.rules.map.walls import Light, Wall


@payload("map.asset_added")
class AssetAdded(Payload):
    asset: Asset


@payload("map.asset_removed")
class AssetRemoved(Payload):
    asset: str
    name: str


@payload("map.drawn")
class Drawn(Payload):
    drawing: Drawing
    scene: str


@payload("map.erased")
class Erased(Payload):
    drawing: str | None = None  # None: every drawing of the scene
    scene: str


@payload("map.fog_covered")
class FogCovered(Payload):
    scene: str
    stroke: FogOp


@payload("map.fog_revealed")
class FogRevealed(Payload):
    scene: str
    stroke: FogOp


@payload("map.settings_changed", version=2)
class SettingsChanged(Payload):
    """v2: each setting the record names is changed, one it leaves out stays as it was; sight from walls
    added `share_explored` and `players_open_doors`."""

    cover_new_scenes: bool | None = None
    share_explored: bool | None = None
    players_open_doors: bool | None = None


@upcaster("map.settings_changed", 1)
def settings_changed_v1(data: dict[str, Any]) -> dict[str, Any]:
    """v1 named `cover_new_scenes` alone, always: a v2 record that names it alone, read the same."""
    return dict(data)


@payload("map.scene_created")
class SceneCreated(Payload):
    scene: Scene


@payload("map.scene_opened")
class SceneOpened(Payload):
    name: str
    scene: str


@payload("map.scene_removed")
class SceneRemoved(Payload):
    name: str
    scene: str


@payload("map.scene_shown")
class SceneShown(Payload):
    name: str
    scene: str


@payload("map.scene_updated")
class SceneUpdated(Payload):
    changes: dict[str, Any]
    scene: str


@payload("map.token_changed")
class TokenChanged(Payload):
    changes: dict[str, Any]
    name: str
    token: str


@payload("map.token_moved")
class TokenMoved(Payload):
    name: str
    token: str
    x: int | float
    y: int | float


@payload("map.token_placed")
class TokenPlaced(Payload):
    name: str
    token: Token


@payload("map.token_removed")
class TokenRemoved(Payload):
    name: str
    token: str


# --- sight from walls -----------------------------------------------------------------------------


@payload("map.wall_added")
class WallAdded(Payload):
    scene: str
    wall: Wall


@payload("map.wall_removed")
class WallRemoved(Payload):
    scene: str
    wall: str
    kind: str = "wall"


@payload("map.door_set")
class DoorSet(Payload):
    """A door as it is now: open or closed, locked or not."""

    scene: str
    wall: str
    open: bool
    locked: bool = False


@payload("map.light_added")
class LightAdded(Payload):
    scene: str
    light: Light


@payload("map.light_removed")
class LightRemoved(Payload):
    scene: str
    light: str


@payload("map.explored_reset")
class ExploredReset(Payload):
    scene: str | None = None  # None: every scene
