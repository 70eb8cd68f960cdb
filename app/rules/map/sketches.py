"""The map's deciders for what the GM paints over it (`map.fog.*`, `map.draw`, `map.erase`): fog strokes are
the GM's alone, a drawing under fog too; a scene keeps a bounded number of each."""

from __future__ import annotations

import math
from typing import Literal

import shapely

from app.rules.campaign.state import CampaignState, new_id
from app.rules.errors import InputError, RuleError
from app.rules.map.command_models import CoverFog, Draw, Erase, FogShape, RevealFog
from app.rules.map.geometry import add_stroke
from app.rules.map.lookups import (
    MAX_DRAWINGS,
    MAX_DRAWN_POINTS,
    MAX_FOG_STROKES,
    scene_audience,
    scene_of,
    seers,
)
from app.rules.map.sight import ANY_PLAYER, Sight
from app.rules.map.state import Drawing, FogOp, Scene
from app.rules.system import Ctx, NewEvent, audience_of


def _fog(state: CampaignState, cmd: FogShape, ctx: Ctx, op: Literal["cover", "reveal"]) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    if cmd.rect is None and cmd.polygon is None:
        stroke = FogOp(op=op)
    else:
        stroke = FogOp(op=op, rect=cmd.rect, polygon=cmd.polygon)
        if stroke.shape is not None and not shapely.is_valid(stroke.shape):
            # Which side of a crossing is inside is anyone's guess, and such outlines cost the most to test.
            raise InputError(
                "That outline crosses itself or has no area: click the corners in order around the area."
            )
    fog = add_stroke(scene.fog, stroke)
    if fog == scene.fog:
        raise RuleError("Nothing is covered there." if op == "reveal" else "That is covered already.")
    if len(fog) > MAX_FOG_STROKES:
        raise RuleError("The fog has too many strokes: cover or reveal the whole scene, then start over.")
    data = {"scene": scene.id, "stroke": stroke.model_dump(mode="json", exclude_none=True)}
    # The players see the image change, never the shapes: a stroke is the GM's alone.
    return [NewEvent(type=f"map.fog_{op}ed", data=data, audience="gm")]


def cover_fog(state: CampaignState, cmd: CoverFog, ctx: Ctx) -> list[NewEvent]:
    return _fog(state, cmd, ctx, "cover")


def reveal_fog(state: CampaignState, cmd: RevealFog, ctx: Ctx) -> list[NewEvent]:
    return _fog(state, cmd, ctx, "reveal")


def draw(state: CampaignState, cmd: Draw, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    for x, y in cmd.points:
        if not (math.isfinite(x) and math.isfinite(y)):
            raise InputError("Every point of a drawing must be a number.")
    if len(scene.drawings) >= MAX_DRAWINGS:
        raise RuleError(f"A scene keeps at most {MAX_DRAWINGS} drawings: erase some first.")
    if sum(len(d.points) for d in scene.drawings) + len(cmd.points) > MAX_DRAWN_POINTS:
        raise RuleError(
            f"A scene's drawings keep at most {MAX_DRAWN_POINTS} points in all: erase some first."
        )
    drawing = Drawing(id=new_id(state, "d"), points=cmd.points, color=cmd.color, closed=cmd.closed)
    data = {"scene": scene.id, "drawing": drawing.model_dump(mode="json")}
    return [NewEvent(type="map.drawn", data=data, audience=_drawing_audience(state, scene, drawing))]


def _drawing_audience(state: CampaignState, scene: Scene, drawing: Drawing) -> str:
    """Everyone when the players see the drawing: on the shown scene, no point of it under fog; with
    vision, the players whose characters see every point of it now."""
    watchers = seers(state, lambda sight: sight.drawing(scene, drawing))
    if watchers is not None:
        return audience_of(*watchers) if watchers else "gm"
    return "all" if Sight(state, ANY_PLAYER).drawing(scene, drawing) else "gm"


def erase(state: CampaignState, cmd: Erase, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    drawing = next((d for d in scene.drawings if d.id == cmd.drawing), None)
    if cmd.drawing is not None and drawing is None:
        raise RuleError("There is no such drawing on this scene.")
    if not scene.drawings:
        raise RuleError("There is nothing drawn on this scene.")
    data = {"scene": scene.id, "drawing": cmd.drawing}
    audience = _drawing_audience(state, scene, drawing) if drawing else scene_audience(state, scene)
    return [NewEvent(type="map.erased", data=data, audience=audience)]
