"""Payload models of the `map.*` events: the fields each record carries (version 1 unless bumped)."""

from __future__ import annotations

from typing import Any

from app.rules.events import Payload, payload
from app.rules.map.state import Asset, Drawing, FogOp, Scene, Token


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


@payload("map.settings_changed")
class SettingsChanged(Payload):
    cover_new_scenes: bool


@payload("map.picture_added")
class PictureAdded(Payload):
    asset: Asset
    seat: str | None = None  # the player seat that uploaded it; None: the GM


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
