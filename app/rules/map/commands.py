"""The map's commands (`map.*`): scenes, tokens, fog and drawings, in every campaign whatever its game.

Who may see an event follows what it shows: anything done on a scene the players are not shown is the GM's
alone; a hidden token, or a token under fog, is the GM's (and the token owner's); fog strokes are the
GM's (the players see the image change, never the shapes); a drawing under fog stays the GM's. So no log
line or socket message carries any of it to the table. Hidden is one flag: a character's token is hidden
exactly when the character is (`campaign.participant_hidden`), so hiding either hides both.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import shapely

from app.rules.campaign.state import CampaignState, Participant, new_id, replace_item
from app.rules.errors import Forbidden, InputError, RuleError
from app.rules.map.command_models import (
    AddAsset,
    CoverFog,
    CreateScene,
    Draw,
    Erase,
    FogShape,
    GridIn,
    MapSettings,
    MoveToken,
    OpenScene,
    PlaceToken,
    RemoveAsset,
    RemoveScene,
    RemoveToken,
    RevealFog,
    SetToken,
    ShowScene,
    UpdateScene,
)
from app.rules.map.geometry import add_stroke, snap
from app.rules.map.sight import ANY_PLAYER, Sight
from app.rules.map.state import Drawing, FogOp, Grid, Scene, Token
from app.rules.system import Ctx, NewEvent, audience_of, command_table, internal

MAX_FOG_STROKES = 100  # a scene's; a whole-scene stroke starts the list over
MAX_TOKENS = 500
MAX_SCENES = 100
MAX_DRAWINGS = 100  # a scene's
MAX_DRAWN_POINTS = 2_500  # every drawing of a scene together


# --- look-ups that never name what the asker may not see -------------------------------------


def scene_of(state: CampaignState, ref: str, ctx: Ctx) -> Scene:
    scene = state.map.scene(ref)
    if scene is None or not (ctx.actor.is_gm or scene.id == state.map.shown):
        raise RuleError("There is no such scene in this campaign.")
    return scene


def token_of(state: CampaignState, ref: str, ctx: Ctx) -> Token:
    """A token the asker may see: the GM any; a player one on the shown scene, theirs or in the open."""
    token = state.map.token(ref)
    if token is None or not (
        ctx.actor.is_gm
        or (token.scene == state.map.shown and (owns(ctx, token) or visible_to_players(state, token)))
    ):
        raise RuleError("There is no such token on the map.")
    return token


def owns(ctx: Ctx, token: Token) -> bool:
    return token.participant is not None and token.participant in ctx.actor.participants


def visible_to_players(state: CampaignState, token: Token, seen: CampaignState | None = None) -> bool:
    """Whether the table (any player) may see this token: the map's one answer (`Sight`)."""
    return Sight(state, ANY_PLAYER, seen).token(token)


def _audience(state: CampaignState, *tokens: Token) -> str:
    """Everyone when the table may see the token (before and after), else the GM and its owner; the GM
    alone for a token on a scene the players are not shown (preparing is private)."""
    if any(t.scene != state.map.shown for t in tokens):
        return "gm"
    if all(visible_to_players(state, t) for t in tokens):
        return "all"
    owners = {t.participant for t in tokens if t.participant}
    return audience_of(*owners) if owners else "gm"


def _scene_audience(state: CampaignState, scene: Scene) -> str:
    return "all" if scene.id == state.map.shown else "gm"


def _inside(scene: Scene, x: float, y: float, ctx: Ctx) -> None:
    if not (0 <= x <= scene.width and 0 <= y <= scene.height):
        if not ctx.actor.is_gm:
            raise InputError("That spot is off the map.")
        raise InputError(
            f"That spot ({x:g}, {y:g}) is off the scene, which is {scene.width} by {scene.height} pixels."
        )


def _placed(scene: Scene, x: float, y: float, free: bool, ctx: Ctx) -> tuple[float, float]:
    _inside(scene, x, y, ctx)
    if free or scene.grid.type == "none":
        return (round(x, 1), round(y, 1))
    sx, sy = snap(scene.grid, x, y)
    sx, sy = min(max(sx, 0.0), float(scene.width)), min(max(sy, 0.0), float(scene.height))
    return (round(sx, 1), round(sy, 1))


def _grid(grid: GridIn) -> Grid:
    return Grid.model_validate(grid.model_dump())


# --- deciders ----------------------------------------------------------------------------------


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
    grid = _grid(cmd.grid)
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
    if cmd.cover_new_scenes is None or cmd.cover_new_scenes == state.map.cover_new_scenes:
        raise RuleError("Nothing to change: the map already has those settings.")
    return [
        NewEvent(type="map.settings_changed", data={"cover_new_scenes": cmd.cover_new_scenes}, audience="gm")
    ]


def update_scene(state: CampaignState, cmd: UpdateScene, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    changes: dict[str, Any] = {}
    if cmd.name is not None and cmd.name != scene.name:
        changes["name"] = cmd.name
    if cmd.grid is not None and _grid(cmd.grid) != scene.grid:
        changes["grid"] = _grid(cmd.grid).model_dump(mode="json")
    if cmd.player_moves is not None and cmd.player_moves != scene.player_moves:
        changes["player_moves"] = cmd.player_moves
    if cmd.asset is not None and cmd.asset != scene.asset:
        asset = state.map.asset(cmd.asset)
        if asset is None:
            raise RuleError("There is no such image in this campaign: upload it first.")
        changes.update(asset=asset.id, width=asset.width, height=asset.height)
    if not changes:
        raise RuleError("Nothing to change: the scene is already like that.")
    data = {"scene": scene.id, "changes": changes}
    return [NewEvent(type="map.scene_updated", data=data, audience=_scene_audience(state, scene))]


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
    return [NewEvent(type="map.scene_removed", data=data, audience=_scene_audience(state, scene))]


def place_token(state: CampaignState, cmd: PlaceToken, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    if len(state.map.tokens) >= MAX_TOKENS:
        raise RuleError(f"A campaign keeps at most {MAX_TOKENS} tokens: remove some first.")
    if (cmd.participant is None) == (cmd.label is None):
        raise InputError("A token is for a character (participant) or a free marker (label): give one.")
    participant = None
    if cmd.participant is not None:
        participant = state.participant(cmd.participant)
        if any(t.participant == participant.id and t.scene == scene.id for t in state.map.tokens):
            raise RuleError(f"{participant.name} already has a token on this scene: move it instead.")
    x, y = _placed(scene, cmd.x, cmd.y, cmd.free, ctx)
    token = Token(
        id=new_id(state, "t"),
        scene=scene.id,
        x=x,
        y=y,
        participant=participant.id if participant else None,
        label=None if participant else cmd.label,
        color=cmd.color,
        size=cmd.size,
        hidden=cmd.hidden and participant is None,  # a character's token is hidden with the character
    )
    data = {"token": token.model_dump(mode="json"), "name": participant.name if participant else cmd.label}
    events: list[NewEvent] = []
    if participant is not None and cmd.hidden and not participant.hidden:
        events.append(_hidden_event(participant))
        participant = participant.model_copy(update={"hidden": True})
    audience = _audience(_with_participant(state, participant), token)
    return [*events, NewEvent(type="map.token_placed", data=data, audience=audience)]


def _hidden_event(participant: Participant) -> NewEvent:
    """Hiding a character, whichever way the GM asked (its token, or the character): the GM's alone."""
    data = {"participant": participant.id, "name": participant.name}
    return NewEvent(type="campaign.participant_hidden", data=data, audience="gm")


def _revealed_event(participant: Participant) -> NewEvent:
    # Revealing hands the players everything public about the character at once.
    return NewEvent(
        type="campaign.participant_revealed", data={"participant": participant.model_dump(exclude={"notes"})}
    )


def _with_participant(state: CampaignState, participant: Participant | None) -> CampaignState:
    """The state with one character as it will be (hidden or revealed), to judge an audience by."""
    if participant is None or state.find_participant(participant.id) == participant:
        return state
    return state.model_copy(update={"participants": replace_item(state.participants, participant)})


def move_token(state: CampaignState, cmd: MoveToken, ctx: Ctx) -> list[NewEvent]:
    token = token_of(state, cmd.token, ctx)
    scene = state.map.scene(token.scene)
    assert scene is not None
    if not ctx.actor.is_gm:
        if not owns(ctx, token):
            raise Forbidden("You can move only your own characters' tokens.")
        if token.locked:
            raise Forbidden("The GM has locked this token.")
        if not scene.player_moves:
            raise Forbidden("The GM moves the tokens on this scene.")
    x, y = _placed(scene, cmd.x, cmd.y, cmd.free, ctx)
    if (x, y) == (token.x, token.y):
        raise RuleError("The token is already there.")
    moved = token.model_copy(update={"x": x, "y": y})
    data = {"token": token.id, "x": x, "y": y, "name": _token_name(state, token)}
    return [NewEvent(type="map.token_moved", data=data, audience=_audience(state, token, moved))]


def remove_token(state: CampaignState, cmd: RemoveToken, ctx: Ctx) -> list[NewEvent]:
    token = token_of(state, cmd.token, ctx)
    data = {"token": token.id, "name": _token_name(state, token)}
    return [NewEvent(type="map.token_removed", data=data, audience=_audience(state, token))]


def set_token(state: CampaignState, cmd: SetToken, ctx: Ctx) -> list[NewEvent]:
    token = token_of(state, cmd.token, ctx)
    fields = cmd.model_dump(include={"hidden", "locked", "size", "color", "label"}, exclude_none=True)
    participant = state.find_participant(token.participant) if token.participant else None
    if "label" in fields and participant is not None:
        raise InputError("A character's token carries the character's name: change the name instead.")
    events: list[NewEvent] = []
    if participant is not None and "hidden" in fields:
        # Hidden is the character's flag: hiding its token hides the character, and revealing reveals it.
        hidden = fields.pop("hidden")
        if hidden != participant.hidden:
            events.append(_hidden_event(participant) if hidden else _revealed_event(participant))
            participant = participant.model_copy(update={"hidden": hidden})
    changes = {k: v for k, v in fields.items() if getattr(token, k) != v}
    if not changes and not events:
        raise RuleError("Nothing to change: the token is already like that.")
    if changes:
        after = _with_participant(state, participant)
        changed = token.model_copy(update=changes)
        data = {"token": token.id, "changes": changes, "name": _token_name(state, token)}
        audience = _change_audience(state, after, token, changed)
        events.append(NewEvent(type="map.token_changed", data=data, audience=audience))
    return events


def _change_audience(before: CampaignState, after: CampaignState, old: Token, new: Token) -> str:
    """`_audience` for a token as it was in one state and is in another (its character hidden since)."""
    if old.scene != before.map.shown:
        return "gm"
    if visible_to_players(before, old) and visible_to_players(after, new):
        return "all"
    return audience_of(old.participant) if old.participant else "gm"


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
    """Everyone when the players see the drawing: on the shown scene, no point of it under fog."""
    return "all" if Sight(state, ANY_PLAYER).drawing(scene, drawing) else "gm"


def erase(state: CampaignState, cmd: Erase, ctx: Ctx) -> list[NewEvent]:
    scene = scene_of(state, cmd.scene, ctx)
    drawing = next((d for d in scene.drawings if d.id == cmd.drawing), None)
    if cmd.drawing is not None and drawing is None:
        raise RuleError("There is no such drawing on this scene.")
    if not scene.drawings:
        raise RuleError("There is nothing drawn on this scene.")
    data = {"scene": scene.id, "drawing": cmd.drawing}
    audience = _drawing_audience(state, scene, drawing) if drawing else _scene_audience(state, scene)
    return [NewEvent(type="map.erased", data=data, audience=audience)]


def _token_name(state: CampaignState, token: Token) -> str:
    if token.participant:
        p = state.find_participant(token.participant)
        return p.name if p else "A token"
    return token.label or "A marker"


COMMANDS = command_table(
    [
        (AddAsset, add_asset, "Add an uploaded image", True, False),
        (RemoveAsset, remove_asset, "Delete an image", True, False),
        (CreateScene, create_scene, "Make a scene", True, False),
        (UpdateScene, update_scene, "Change a scene", True, False),
        (ShowScene, show_scene, "Show a scene to the players", True, False),
        (OpenScene, open_scene, "Open a scene on the GM's console", True, False),
        (RemoveScene, remove_scene, "Remove a scene", True, False),
        (PlaceToken, place_token, "Put a token on the map", True, False),
        (MoveToken, move_token, "Move a token", False, False),
        (RemoveToken, remove_token, "Take a token off the map", True, False),
        (SetToken, set_token, "Change a token", True, False),
        (CoverFog, cover_fog, "Cover part of the map with fog", True, False),
        (RevealFog, reveal_fog, "Reveal part of the map", True, False),
        (Draw, draw, "Draw on the map", True, False),
        (Erase, erase, "Erase drawings", True, False),
        (MapSettings, change_settings, "Change the map's settings", True, False),
    ]
)
# Only the server's own image code makes these: an upload or import holds the bytes (the campaign may read
# them), and a deletion releases them. A client that sent one would hold an image it never had.
COMMANDS |= {
    "map.asset.add": internal(
        COMMANDS["map.asset.add"], "upload the image with POST /api/campaigns/{id}/assets"
    ),
    "map.asset.remove": internal(
        COMMANDS["map.asset.remove"], "delete the image with DELETE /api/campaigns/{id}/assets/{asset}"
    ),
}
