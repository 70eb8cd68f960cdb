"""The map's deciders for what shapes sight (`map.wall.*`, `map.door.set`, `map.light.*`,
`map.explored.reset`): the GM's alone, but a player may open or close an unlocked door next to one of their
tokens. Walls and lights are the GM's (a player's view never lists them); a player learns a door exists only
while they see it, and a refusal names nothing they cannot see."""

from __future__ import annotations

import math

from app.rules.campaign.state import CampaignState, new_id
from app.rules.errors import Forbidden, InputError, RuleError
from app.rules.map.command_models import AddLight, AddWall, RemoveLight, RemoveWall, ResetExplored, SetDoor
from app.rules.map.lookups import MAX_LIGHTS, MAX_WALL_SEGMENTS, scene_of
from app.rules.map.sight import Sight
from app.rules.map.state import Scene
from app.rules.map.vision import distance_to, segment_count
from app.rules.map.walls import Light, Wall
from app.rules.system import Ctx, NewEvent, audience_of

DOOR_REACH = 1.5  # cells from a token's centre to a door it may open


def _on_scene(scene: Scene, points: list[tuple[float, float]]) -> None:
    """Every point on the scene, give or take a cell (a wall may run along its edge or just past it)."""
    margin = scene.grid.size
    for x, y in points:
        if not (math.isfinite(x) and math.isfinite(y)):
            raise InputError("Every point must be a number.")
        if not (-margin <= x <= scene.width + margin and -margin <= y <= scene.height + margin):
            raise InputError(
                f"The point ({x:g}, {y:g}) is off the scene, which is {scene.width} by {scene.height} pixels."
            )


def add_wall(state: CampaignState, cmd: AddWall, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    points = [(float(x), float(y)) for x, y in cmd.points]
    _on_scene(scene, points)
    if len(set(points)) < 2:
        raise InputError("A wall needs two different points at least.")
    if segment_count(scene) + len(points) - 1 > MAX_WALL_SEGMENTS:
        raise RuleError(
            f"A scene keeps at most {MAX_WALL_SEGMENTS} wall segments (doors and windows included): "
            "remove some first."
        )
    if cmd.kind != "door" and (cmd.closed is not None or cmd.locked):
        raise InputError("Only a door opens, closes or locks.")
    is_open = cmd.kind == "door" and cmd.closed is False
    if is_open and cmd.locked:
        raise InputError("A locked door is closed: leave out closed, or unlock it.")
    wall = Wall(
        id=new_id(state, "w"),
        scene=scene.id,
        kind=cmd.kind,
        points=tuple(points),
        open=is_open,
        locked=cmd.locked,
    )
    data = {"scene": scene.id, "wall": wall.model_dump(mode="json")}
    return [NewEvent(type="map.wall_added", data=data, audience="gm")]


def _wall_of(state: CampaignState, ref: str) -> tuple[Scene, Wall]:
    found = state.map.wall(ref)
    if found is None:
        raise RuleError("There is no such wall on the map.")
    return found


def remove_wall(state: CampaignState, cmd: RemoveWall, ctx: Ctx) -> list[NewEvent]:
    scene, wall = _wall_of(state, cmd.wall)
    data = {"scene": scene.id, "wall": wall.id, "kind": wall.kind}
    return [NewEvent(type="map.wall_removed", data=data, audience="gm")]


def set_door(state: CampaignState, cmd: SetDoor, ctx: Ctx) -> list[NewEvent]:
    if ctx.actor.is_gm:
        scene, door = _wall_of(state, cmd.wall)
        if door.kind != "door":
            raise RuleError(f"That is a {door.kind}, not a door.")
    else:
        scene, door = _seen_door(state, cmd.wall, ctx)
        _may_use(state, scene, door, cmd, ctx)
    locked = door.locked if cmd.locked is None else cmd.locked
    if locked and cmd.open:
        raise RuleError("A locked door stays closed: unlock it to open it.")
    if (cmd.open, locked) == (door.open, door.locked):
        raise RuleError(f"The door is {'open' if door.open else 'closed'} already.")
    data = {"scene": scene.id, "wall": door.id, "open": cmd.open, "locked": locked}
    # The GM's doors are the GM's news; a player's hand on a door reads in their own log too.
    who = "gm" if ctx.actor.is_gm else audience_of(*ctx.actor.participants)
    return [NewEvent(type="map.door_set", data=data, audience=who)]


def _seen_door(state: CampaignState, ref: str, ctx: Ctx) -> tuple[Scene, Wall]:
    """A door the player sees now (its middle in their sight), else no door at all."""
    found = state.map.wall(ref)
    if found is not None:
        scene, door = found
        sight = Sight(state, ctx.actor)
        if door.kind == "door" and sight.vision(scene) and sight.points(scene, [door.midpoint])[0]:
            return scene, door
    raise RuleError("There is no such door.")


def _may_use(state: CampaignState, scene: Scene, door: Wall, cmd: SetDoor, ctx: Ctx) -> None:
    if not state.map.players_open_doors:
        raise Forbidden("The GM opens and closes the doors.")
    if cmd.locked is not None and cmd.locked != door.locked:
        raise Forbidden("Only the GM locks and unlocks doors.")
    if door.locked:
        raise RuleError("The door is locked.")
    reach = DOOR_REACH * scene.grid.size
    mine = [t for t in state.map.tokens if t.scene == scene.id and t.participant in ctx.actor.participants]
    if not any(distance_to(door.points, t.x, t.y) <= reach for t in mine):
        raise RuleError("Stand next to the door to open or close it.")


def add_light(state: CampaignState, cmd: AddLight, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    _on_scene(scene, [(cmd.x, cmd.y)])
    if len(scene.lights) >= MAX_LIGHTS:
        raise RuleError(f"A scene keeps at most {MAX_LIGHTS} lights: remove some first.")
    light = Light(
        id=new_id(state, "l"),
        scene=scene.id,
        x=cmd.x,
        y=cmd.y,
        bright=cmd.bright,
        dim=cmd.dim,
        color=cmd.color,
    )
    data = {"scene": scene.id, "light": light.model_dump(mode="json")}
    return [NewEvent(type="map.light_added", data=data, audience="gm")]


def remove_light(state: CampaignState, cmd: RemoveLight, ctx: Ctx) -> list[NewEvent]:
    found = state.map.light(cmd.light)
    if found is None:
        raise RuleError("There is no such light on the map.")
    scene, light = found
    return [NewEvent(type="map.light_removed", data={"scene": scene.id, "light": light.id}, audience="gm")]


def reset_explored(state: CampaignState, cmd: ResetExplored, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx) if cmd.scene is not None else None
    if not any(scene is None or e.scene == scene.id for e in state.map.explored):
        raise RuleError("The players have explored nothing there yet.")
    return [NewEvent(type="map.explored_reset", data={"scene": scene.id if scene else None}, audience="gm")]
