"""The map's command table (`map.*`): scenes, tokens, fog, drawings, walls and lights, in every campaign.

The deciders are in `scenes.py`, `tokens.py`, `sketches.py` and `structure.py` (walls, doors, lights); the
look-ups and audiences they share, and the caps on a scene, in `lookups.py`.
"""

from __future__ import annotations

from app.rules.contract.commands import command, command_table
from app.rules.map.command_models import (
    AddAsset,
    AddLight,
    AddWall,
    CoverFog,
    CreateScene,
    Draw,
    Erase,
    MapSettings,
    MoveToken,
    OpenScene,
    PlaceToken,
    RemoveAsset,
    RemoveLight,
    RemoveScene,
    RemoveToken,
    RemoveWall,
    ResetExplored,
    RevealFog,
    SetDoor,
    SetToken,
    ShowScene,
    UpdateScene,
)
from app.rules.map.lookups import (  # the caps, read by the bench and the tests
    MAX_DRAWINGS,
    MAX_DRAWN_POINTS,
    MAX_FOG_STROKES,
    MAX_LIGHTS,
    MAX_SCENES,
    MAX_TOKENS,
    MAX_WALL_SEGMENTS,
    visible_to_players,
)
from app.rules.map.scenes import (
    add_asset,
    change_settings,
    create_scene,
    open_scene,
    remove_asset,
    remove_scene,
    show_scene,
    update_scene,
)
from app.rules.map.sketches import cover_fog, draw, erase, reveal_fog
from app.rules.map.structure import add_light, add_wall, remove_light, remove_wall, reset_explored, set_door
from app.rules.map.tokens import move_token, place_token, remove_token, set_token

__all__ = [
    "COMMANDS",
    "MAX_DRAWINGS",
    "MAX_DRAWN_POINTS",
    "MAX_FOG_STROKES",
    "MAX_LIGHTS",
    "MAX_SCENES",
    "MAX_TOKENS",
    "MAX_WALL_SEGMENTS",
    "visible_to_players",
]

# Only the server's own image code makes the first two: an upload or import holds the bytes (the campaign
# may read them), and a deletion releases them. A client that sent one would hold an image it never had.
COMMANDS = command_table(
    [
        command(
            AddAsset,
            add_asset,
            "Add an uploaded image",
            gm_only=True,
            internal="upload the image with POST /api/campaigns/{id}/assets",
        ),
        command(
            RemoveAsset,
            remove_asset,
            "Delete an image",
            gm_only=True,
            internal="delete the image with DELETE /api/campaigns/{id}/assets/{asset}",
        ),
        command(CreateScene, create_scene, "Make a scene", gm_only=True),
        command(UpdateScene, update_scene, "Change a scene", gm_only=True),
        command(ShowScene, show_scene, "Show a scene to the players", gm_only=True),
        command(OpenScene, open_scene, "Open a scene on the GM's console", gm_only=True),
        command(RemoveScene, remove_scene, "Remove a scene", gm_only=True),
        command(PlaceToken, place_token, "Put a token on the map", gm_only=True),
        command(MoveToken, move_token, "Move a token"),
        command(RemoveToken, remove_token, "Take a token off the map", gm_only=True),
        command(SetToken, set_token, "Change a token", gm_only=True),
        command(CoverFog, cover_fog, "Cover part of the map with fog", gm_only=True),
        command(RevealFog, reveal_fog, "Reveal part of the map", gm_only=True),
        command(Draw, draw, "Draw on the map", gm_only=True),
        command(Erase, erase, "Erase drawings", gm_only=True),
        command(MapSettings, change_settings, "Change the map's settings", gm_only=True),
        command(AddWall, add_wall, "Put a wall, door or window on a scene", gm_only=True),
        command(RemoveWall, remove_wall, "Take a wall, door or window off a scene", gm_only=True),
        # A player may open or close an unlocked door next to their token (the decider checks).
        command(SetDoor, set_door, "Open, close, lock or unlock a door"),
        command(AddLight, add_light, "Put a light on a scene", gm_only=True),
        command(RemoveLight, remove_light, "Take a light off a scene", gm_only=True),
        command(ResetExplored, reset_explored, "Forget what the players explored", gm_only=True),
    ]
)
