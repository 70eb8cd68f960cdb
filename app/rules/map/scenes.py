"""The map's deciders for images, scenes and the map's settings (`map.asset.*`, `map.scene.*`,
`map.settings`): a new scene is the GM's until shown."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState, new_id
from app.rules.errors import RuleError
from app.rules.map.command_models import (
    AddAsset,
    CreateScene,
    MapSettings,
    OpenScene,
    RemoveAsset,
    RemoveScene,
    ShowScene,
    UpdateScene,
)
from app.rules.map.lookups import MAX_SCENES, grid_of, scene_audience, scene_of
from app.rules.map.state import FogOp, Scene
from app.rules.system import Ctx, NewEvent


def add_asset(state: CampaignState, cmd: AddAsset, ctx: Ctx) -> list[NewEvent]:
    if state.map.asset(cmd.asset):
        raise RuleError("This image is already in the campaign.")
    data = {"asset": {"id": cmd.asset, "name": cmd.name, "width": cmd.width, "height": cmd.height}}
    return [NewEvent(type="map.asset_added", data=data, audience="gm")]


def remove_asset(state: CampaignState, cmd: RemoveAsset, ctx: Ctx) -> list[NewEvent]:
    asset = state.map.asset(cmd.asset)
    if asset is None:
        raise RuleError("There is no such image in this campaign.")
    using = [s.name for s in state.map.scenes if s.asset == asset.id]
    if using:
        raise RuleError(
            f"Scene {', '.join(using)} uses that image: give it another image or remove it first."
        )
    return [NewEvent(type="map.asset_removed", data={"asset": asset.id, "name": asset.name}, audience="gm")]


def create_scene(state: CampaignState, cmd: CreateScene, ctx: Ctx) -> list[NewEvent]:
    if len(state.map.scenes) >= MAX_SCENES:
        raise RuleError(f"A campaign keeps at most {MAX_SCENES} scenes: remove one first.")
    grid = grid_of(cmd.grid)
    if cmd.asset is not None:
        asset = state.map.asset(cmd.asset)
        if asset is None:
            raise RuleError("There is no such image in this campaign: upload it first.")
        width, height = asset.width, asset.height
    else:
        width = cmd.width or int(grid.size * 30)
        height = cmd.height or int(grid.size * 20)
    scene = Scene(
        id=new_id(state, "s"), name=cmd.name, asset=cmd.asset, width=width, height=height, grid=grid
    )
    events = [
        NewEvent(type="map.scene_created", data={"scene": scene.model_dump(mode="json")}, audience="gm")
    ]
    if cmd.covered if cmd.covered is not None else state.map.cover_new_scenes:
        stroke = FogOp(op="cover").model_dump(mode="json", exclude_none=True)
        events.append(
            NewEvent(type="map.fog_covered", data={"scene": scene.id, "stroke": stroke}, audience="gm")
        )
    if cmd.show:
        events.append(_show_event(state, scene))
    return events


def change_settings(state: CampaignState, cmd: MapSettings, ctx: Ctx) -> list[NewEvent]:
    asked = cmd.model_dump(
        include={"cover_new_scenes", "share_explored", "players_open_doors"}, exclude_none=True
    )
    changes = {k: v for k, v in asked.items() if getattr(state.map, k) != v}
    if not changes:
        raise RuleError("Nothing to change: the map already has those settings.")
    return [NewEvent(type="map.settings_changed", data=changes, audience="gm")]


def update_scene(state: CampaignState, cmd: UpdateScene, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    changes: dict[str, Any] = {}
    if cmd.name is not None and cmd.name != scene.name:
        changes["name"] = cmd.name
    if cmd.grid is not None and grid_of(cmd.grid) != scene.grid:
        changes["grid"] = grid_of(cmd.grid).model_dump(mode="json")
    if cmd.player_moves is not None and cmd.player_moves != scene.player_moves:
        changes["player_moves"] = cmd.player_moves
    if cmd.vision is not None and cmd.vision != scene.vision:
        changes["vision"] = cmd.vision
    if cmd.ambient is not None and cmd.ambient != scene.ambient:
        changes["ambient"] = cmd.ambient
    if cmd.asset is not None and cmd.asset != scene.asset:
        asset = state.map.asset(cmd.asset)
        if asset is None:
            raise RuleError("There is no such image in this campaign: upload it first.")
        changes.update(asset=asset.id, width=asset.width, height=asset.height)
    if not changes:
        raise RuleError("Nothing to change: the scene is already like that.")
    data = {"scene": scene.id, "changes": changes}
    return [NewEvent(type="map.scene_updated", data=data, audience=scene_audience(state, scene))]


def _show_event(state: CampaignState, scene: Scene | None) -> NewEvent:
    data = {"scene": scene.id, "name": scene.name} if scene else {"scene": None, "name": None}
    return NewEvent(type="map.scene_shown", data=data)


def show_scene(state: CampaignState, cmd: ShowScene, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx) if cmd.scene else None
    if (scene.id if scene else None) == state.map.shown:
        raise RuleError("The players already see that." if scene else "The players see no map already.")
    return [_show_event(state, scene)]


def open_scene(state: CampaignState, cmd: OpenScene, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    if scene.id == state.map.open:
        raise RuleError(f"{scene.name} is open already.")
    return [NewEvent(type="map.scene_opened", data={"scene": scene.id, "name": scene.name}, audience="gm")]


def remove_scene(state: CampaignState, cmd: RemoveScene, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    data = {"scene": scene.id, "name": scene.name}
    return [NewEvent(type="map.scene_removed", data=data, audience=scene_audience(state, scene))]
