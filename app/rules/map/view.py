"""What each viewer sees of the map, and how its events read in the log.

What a viewer may see is the map's `Sight` (app/rules/map/sight.py): players get the shown scene only, its
tokens that are neither hidden nor under fog (their own characters' always), and no fog strokes: the image
they are sent has the covered parts blanked on the server.
"""

from __future__ import annotations

import hashlib
import operator
from typing import Any, cast
from weakref import ref

from app.rules.campaign.state import CampaignState, Participant
from app.rules.contract.frozen import kept, kept_table, kept_whole
from app.rules.map.fog import image_key
from app.rules.map.geometry import scene_fogged
from app.rules.map.sight import ANY_PLAYER, Sight
from app.rules.map.state import Scene, Token
from app.rules.map.tiles import tile_urls, viewer_tiles
from app.rules.map.walls import DEFAULT_SIGHT, polygons_in
from app.rules.system import Event, Viewer


def viewer_scene(state: CampaignState, viewer: Viewer, scene_id: str | None = None) -> Scene | None:
    """The scene this viewer looks at: the GM the one asked for, else the one open on the console."""
    m = state.map
    if viewer.is_gm:
        return (
            m.scene(scene_id) or m.scene(m.open) or m.scene(m.shown) or (m.scenes[-1] if m.scenes else None)
        )
    return m.scene(m.shown)


def image_url(state: CampaignState, scene: Scene, sight: Sight) -> str | None:
    """The GM's whole image; a player's masked one, keyed by what it holds: the image under its fog, or
    on a scene with vision the image masked to what they explored (`Sight.explored`), keyed by its tiles'
    keys (`tiles.viewer_tiles`: the image route's ETag)."""
    if scene.asset is None or not sight.scene(scene):
        return None
    if sight.everything:
        return f"/api/campaigns/{state.id}/assets/{scene.asset}"
    if sight.explored(scene) is not None:
        named = viewer_tiles(sight, scene)
        key = named.version if named is not None else None
    else:
        blanked = sight.blanked(scene)
        key = None if blanked is None else image_key(scene.asset, blanked, scene)
    return None if key is None else f"/api/campaigns/{state.id}/scenes/{scene.id}/image?v={key}"


_TOKEN_VIEWS = "_token_views"  # a key of the token's __dict__ that is no field


def token_view(
    state: CampaignState, seen: CampaignState, token: Token, viewer: Viewer, scene: Scene | None = None
) -> dict[str, Any]:
    """A token as this viewer sees it. Kept on the token for each kind of viewer (the GM or not, theirs or
    not, and the seat, where the token has a picture whose frame a player may change) with what it read:
    a step of one token leaves every other token's view the same object, push after push, so a board finds
    their pieces drawn by identity (app/realtime/drawn.py). Copies of a token share the table, so the token
    itself is part of what each entry read."""
    p = seen.by_id("participants").get(token.participant) if token.participant else None
    mine = bool(token.participant and token.participant in viewer.participants)
    if scene is None or scene.id != token.scene:
        scene = state.map.scene(token.scene)
    asset = state.map.asset(token.image) if token.image is not None else None
    reads = (p, scene.fog if scene is not None else None, asset)
    values = (scene is not None and scene.player_moves, state.id)
    views = kept_table(token, _TOKEN_VIEWS, 16)
    key = (viewer.is_gm, mine, viewer.seat_id if asset is not None else None)
    hit = views.get(key)
    if hit is not None and hit[0]() is token and all(map(operator.is_, hit[1], reads)) and hit[2] == values:
        return cast(dict[str, Any], hit[3])
    out = _token_view(state, scene, p, token, viewer)
    views[key] = (ref(token), reads, values, out)  # the token by a weak reference: its own table holds it
    return out


def _token_view(
    state: CampaignState, scene: Scene | None, p: Participant | None, token: Token, viewer: Viewer
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": token.id,
        "x": token.x,
        "y": token.y,
        "size": token.size,
        "color": token.color,
        "participant": token.participant,
        "name": p.name if p else token.label,
        "initials": _initials(p.name if p else token.label or "?"),
        "mine": bool(token.participant and token.participant in viewer.participants),
        "locked": token.locked,
    }
    out["movable"] = viewer.is_gm or (
        out["mine"] and not token.locked and scene is not None and scene.player_moves
    )
    if viewer.is_gm:
        out["hidden"] = bool(p is not None and p.hidden) if token.participant else token.hidden
        out["fogged"] = scene is not None and scene_fogged(scene, [(token.x, token.y)])[0]
        if token.sight != DEFAULT_SIGHT:  # the token actions' fields read it; left out while the default
            out["sight"] = token.sight.model_dump()
    if token.image is not None:  # only then: a token without a picture is viewed as before pictures
        out.update(picture_view(state, token, viewer, out["mine"]))
    return out


def picture_key(token: Token) -> str:
    """Names the square of the picture a token shows, and nothing else (not the image's id)."""
    crop = token.crop
    framed = f"{token.image}:{crop.x:g}:{crop.y:g}:{crop.size:g}" if crop else str(token.image)
    return hashlib.sha256(framed.encode()).hexdigest()[:16]


def picture_view(state: CampaignState, token: Token, viewer: Viewer, mine: bool) -> dict[str, Any]:
    """The token's picture as this viewer gets it: the framed square, cut out by the server. The image
    and its frame too for whoever may frame it again (the GM; a player who uploaded it, for their own
    character), so the picture dialog opens on it."""
    out: dict[str, Any] = {
        "picture": f"/api/campaigns/{state.id}/tokens/{token.id}/picture?v={picture_key(token)}"
    }
    asset = state.map.asset(token.image)
    if asset is not None and (viewer.is_gm or (mine and viewer.seat_id in asset.seats)):
        out["image"] = asset.id
        out["crop"] = token.crop.model_dump(mode="json") if token.crop else None
    return out


def _initials(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w]
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    return name[:2].upper() if name else "?"


def view(
    state: CampaignState, seen: CampaignState, viewer: Viewer, scene_id: str | None = None
) -> dict[str, Any]:
    """The `map` part of a viewer's view; `seen` is the state as this viewer may see its characters."""
    scene = viewer_scene(state, viewer, scene_id)
    out: dict[str, Any] = {"scene": None, "shown": state.map.shown}
    if viewer.is_gm:
        out["scenes"] = [
            {"id": s.id, "name": s.name, "shown": s.id == state.map.shown, "open": s.id == state.map.open}
            for s in state.map.scenes
        ]
        out["assets"] = [a.model_dump() for a in state.map.assets]
        # Settings are listed only when not at their defaults, as the state keeps them (the console's
        # boxes read them; a campaign that never changed one reads as before it existed).
        if state.map.cover_new_scenes:
            out["cover_new_scenes"] = True
        if state.map.share_explored:
            out["share_explored"] = True
        if not state.map.players_open_doors:
            out["players_open_doors"] = False
    if scene is None:
        return out
    sight = Sight(state, viewer, seen)
    tokens = sight.tokens(scene)
    drawings = [d.model_dump(mode="json") for d in sight.drawings(scene)]
    out.update(
        scene=scene.id,
        name=scene.name,
        image_url=image_url(state, scene, sight),
        width=scene.width,
        height=scene.height,
        # Kept on the scene (a token's move leaves it as it was): the board's head is found drawn by
        # identity (app/realtime/drawn.py), not pickled for every viewer of every push.
        grid=kept(scene, "_grid_view", (scene.grid,), lambda: scene.grid.model_dump(mode="json")),
        fog_version=scene.fog_version,
        player_moves=scene.player_moves,
        tokens=[token_view(state, seen, t, viewer, scene) for t in tokens],
        drawings=drawings,
    )
    if viewer.is_gm:
        out["fog"] = kept(
            scene,
            "_fog_view",
            (scene.fog,),
            lambda: [op.model_dump(mode="json", exclude_none=True) for op in scene.fog],
        )
        out["asset"] = scene.asset
        out.update(kept_whole(scene, _GM_SIGHT, lambda: _gm_sight(scene)))
    elif sight.vision(scene):
        out.update(_players_sight(state, scene, sight))
    return out


_GM_SIGHT = "_gm_sight"  # a key of the scene's __dict__ that is no field


def _gm_sight(scene: Scene) -> dict[str, Any]:
    """The walls, doors, windows and lights of a scene, and its vision and light: each only when the scene
    has any (a scene that never had them reads as it did before they existed). Kept on the scene: a token's
    move leaves the scene as it was, so every view after it shares these lists (views are never changed
    once built) instead of listing 300 walls again, and a piece drawn of them is found by identity."""
    out: dict[str, Any] = {}
    if scene.vision:
        out["vision"] = True
    if scene.ambient != "lit":
        out["ambient"] = scene.ambient
    if scene.walls:
        out["walls"] = [
            {
                "id": w.id,
                "kind": w.kind,
                "points": [list(p) for p in w.points],
                "open": w.open,
                "locked": w.locked,
            }
            for w in scene.walls
        ]
    if scene.lights:
        out["lights"] = [
            {"id": x.id, "x": x.x, "y": x.y, "bright": x.bright, "dim": x.dim, "color": x.color}
            for x in scene.lights
        ]
    return out


def _players_sight(state: CampaignState, scene: Scene, sight: Sight) -> dict[str, Any]:
    """What a player is told of sight on a vision scene: that it is on, what they see now (an SVG path:
    the page dims the explored part outside it), the tiles of their image (what the phone loads, each
    named by its content, `tiles.tile_urls`), and the doors they see now, with whether they may try
    them (a locked door, or doors the GM keeps, they may not)."""
    usable = state.map.players_open_doors and sight.viewer.role == "player"  # a spectator opens none
    return {
        "vision": True,
        "sight": sight.of_seen(scene, "svg_path", svg_path) if sight.scene(scene) else "",
        "tiles": tile_urls(state.id, scene, viewer_tiles(sight, scene)),
        "doors": [
            {
                "id": w.id,
                "x": w.midpoint[0],
                "y": w.midpoint[1],
                "open": w.open,
                "usable": usable and not w.locked,
            }
            for w in sight.doors_seen(scene)
        ],
    }


def svg_path(region: Any) -> str:
    """A shape as an SVG path's `d` (whole pixels; holes as their own rings, drawn even-odd)."""
    rings = []
    for polygon in polygons_in(region):
        for ring in (polygon.exterior, *polygon.interiors):
            coords = [f"{round(x)} {round(y)}" for x, y in ring.coords[:-1]]
            coords = [c for i, c in enumerate(coords) if c != coords[i - 1]]  # no corner twice
            if len(coords) >= 3:
                rings.append("M" + "L".join(coords) + "Z")
    return "".join(rings)


# --- events as the players may see them (their audience already lets them) ----------------------


def _gm_only(state: CampaignState | None, event: Event) -> Event | None:
    """Fog strokes (shapes the players never see: their image changes) and image records are the GM's,
    whatever audience an older log wrote them with."""
    return None


def _scene_updated(state: CampaignState | None, event: Event) -> Event | None:
    """A change to the shown scene, without the image's id (the players' image is served by scene)."""
    if state is not None and event.data.get("scene") != state.map.shown:
        return None
    changes = event.data.get("changes") or {}
    if "asset" not in changes:
        return event
    kept = {k: v for k, v in changes.items() if k != "asset"}
    return event.model_copy(update={"data": {**event.data, "changes": kept}})


def _drawn(state: CampaignState | None, event: Event) -> Event | None:
    """A drawing reaches the players while they see it: on the shown scene, clear of fog."""
    if state is None:
        return event
    scene = state.map.scene(event.data.get("scene"))
    drawing = event.data.get("drawing") or {}
    if scene is None:
        return None
    now = next((d for d in scene.drawings if d.id == drawing.get("id")), None)
    return event if now is not None and Sight(state, ANY_PLAYER).drawing(scene, now) else None


_GMS_OF_A_TOKEN = ("image", "crop", "sight")  # which image a picture is cut from, its frame; a token's sight


def _token_changed(state: CampaignState | None, event: Event) -> Event | None:
    """A token's change as a player reads it: a new picture as `picture` (whether it has one; the square
    is served by token), never the image it is cut from, its frame, or the token's sight, none of which a
    player's view holds."""
    changes = event.data.get("changes") or {}
    if not any(k in changes for k in _GMS_OF_A_TOKEN):
        return event
    kept = {k: v for k, v in changes.items() if k not in _GMS_OF_A_TOKEN}
    if "image" in changes:
        kept["picture"] = changes["image"] is not None
    return event.model_copy(update={"data": {**event.data, "changes": kept}})


EVENT_VIEWS = {
    "map.asset_added": _gm_only,
    "map.wall_added": _gm_only,
    "map.wall_removed": _gm_only,
    "map.light_added": _gm_only,
    "map.light_removed": _gm_only,
    "map.explored_reset": _gm_only,
    "map.asset_removed": _gm_only,
    "map.picture_added": _gm_only,
    "map.scene_created": _gm_only,
    "map.settings_changed": _gm_only,
    "map.fog_covered": _gm_only,
    "map.fog_revealed": _gm_only,
    "map.scene_updated": _scene_updated,
    "map.drawn": _drawn,
    "map.token_changed": _token_changed,
}


def _name(event: Event) -> str:
    return str(event.data.get("name") or "A token")


_SETTINGS = {
    "cover_new_scenes": ("New scenes start under fog.", "New scenes start uncovered."),
    "share_explored": ("The party shares what it explores.", "Each player keeps what they explore."),
    "players_open_doors": ("Players open and close doors.", "Only the GM opens and closes doors."),
}


def _settings_text(event: Event) -> str:
    said = [_SETTINGS[k][0 if v else 1] for k, v in event.data.items() if k in _SETTINGS and v is not None]
    return " ".join(said) or "The map's settings changed."


def _door_text(event: Event) -> str:
    if event.data.get("open"):
        return "A door was opened."
    return "A door is closed and locked." if event.data.get("locked") else "A door was closed."


def _kind(event: Event, key: str) -> str:
    value = event.data.get(key)
    kind = value.get("kind") if isinstance(value, dict) else event.data.get("kind")
    return str(kind or "wall").capitalize()


DESCRIBERS = {
    "map.asset_added": lambda e: "An image was added to the campaign.",
    "map.settings_changed": lambda e: _settings_text(e),
    "map.asset_removed": lambda e: "An image was deleted from the campaign.",
    "map.picture_added": lambda e: "A token picture was uploaded.",
    "map.scene_created": lambda e: f"Scene {e.data['scene']['name']} made.",
    "map.scene_updated": lambda e: "The scene was changed.",
    "map.scene_shown": lambda e: (
        f"The map shows {e.data['name']}." if e.data.get("scene") else "The map was put away."
    ),
    "map.scene_opened": lambda e: f"Scene {e.data['name']} opened on the GM's console.",
    "map.scene_removed": lambda e: f"Scene {e.data['name']} removed.",
    "map.token_placed": lambda e: f"{_name(e)} is on the map.",
    "map.token_moved": lambda e: f"{_name(e)} moved on the map.",
    "map.token_removed": lambda e: f"{_name(e)} left the map.",
    "map.token_changed": lambda e: f"{_name(e)}'s token changed.",
    "map.fog_covered": lambda e: "Fog covers part of the map.",
    "map.fog_revealed": lambda e: "Part of the map is revealed.",
    "map.drawn": lambda e: "The GM drew on the map.",
    "map.erased": lambda e: "Drawings erased from the map.",
    "map.wall_added": lambda e: f"{_kind(e, 'wall')} put on the map.",
    "map.wall_removed": lambda e: f"{_kind(e, 'kind')} taken off the map.",
    "map.door_set": _door_text,
    "map.light_added": lambda e: "A light was put on the map.",
    "map.light_removed": lambda e: "A light was taken off the map.",
    "map.explored_reset": lambda e: "The players' explored map was forgotten.",
}
