"""What each viewer sees of the map, and how its events read in the log.

Players get the shown scene only, its tokens that are neither hidden nor under fog (their own characters'
always), and no fog strokes: the image they are sent has the covered parts blanked on the server.
"""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState
from app.rules.map.commands import visible_to_players
from app.rules.map.fog import image_key
from app.rules.map.geometry import fogged
from app.rules.map.state import Scene, Token
from app.rules.system import Event, Viewer


def viewer_scene(state: CampaignState, viewer: Viewer, scene_id: str | None = None) -> Scene | None:
    """The scene this viewer looks at: the GM the one asked for, else the one open on the console."""
    m = state.map
    if viewer.is_gm:
        return (
            m.scene(scene_id) or m.scene(m.open) or m.scene(m.shown) or (m.scenes[-1] if m.scenes else None)
        )
    return m.scene(m.shown)


def may_see_token(state: CampaignState, viewer: Viewer, token: Token) -> bool:
    if viewer.is_gm:
        return True
    if token.participant is not None and token.participant in viewer.participants:
        return token.scene == state.map.shown
    return visible_to_players(state, token)


def may_see_point(state: CampaignState, viewer: Viewer, x: float, y: float) -> bool:
    """Whether a ping or ruler at this spot may be shown to this viewer."""
    if viewer.is_gm:
        return True
    scene = state.map.scene(state.map.shown)
    return (
        scene is not None
        and 0 <= x <= scene.width
        and 0 <= y <= scene.height
        and not fogged(scene.fog, (x, y))
    )


def image_url(state: CampaignState, scene: Scene, viewer: Viewer) -> str | None:
    if scene.asset is None:
        return None
    if viewer.is_gm:
        return f"/api/campaigns/{state.id}/assets/{scene.asset}"
    return f"/api/campaigns/{state.id}/scenes/{scene.id}/image?v={image_key(scene.asset, scene.fog)}"


def token_view(state: CampaignState, seen: CampaignState, token: Token, viewer: Viewer) -> dict[str, Any]:
    p = seen.find_participant(token.participant) if token.participant else None
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
    scene = state.map.scene(token.scene)
    out["movable"] = viewer.is_gm or (
        out["mine"] and not token.locked and scene is not None and scene.player_moves
    )
    if viewer.is_gm:
        out["hidden"] = token.hidden
        out["fogged"] = scene is not None and fogged(scene.fog, (token.x, token.y))
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
    if scene is None:
        return out
    tokens = [t for t in state.map.tokens if t.scene == scene.id and may_see_token(state, viewer, t)]
    drawings = [
        d.model_dump(mode="json")
        for d in scene.drawings
        if viewer.is_gm or not any(fogged(scene.fog, pt) for pt in d.points)
    ]
    out.update(
        scene=scene.id,
        name=scene.name,
        image_url=image_url(state, scene, viewer),
        width=scene.width,
        height=scene.height,
        grid=scene.grid.model_dump(mode="json"),
        fog_version=scene.fog_version,
        player_moves=scene.player_moves,
        tokens=[token_view(state, seen, t, viewer) for t in tokens],
        drawings=drawings,
    )
    if viewer.is_gm:
        out["fog"] = [op.model_dump(mode="json", exclude_none=True) for op in scene.fog]
        out["asset"] = scene.asset
    return out


def _name(event: Event) -> str:
    return str(event.data.get("name") or "A token")


DESCRIBERS = {
    "map.asset_added": lambda e: "An image was added to the campaign.",
    "map.asset_removed": lambda e: "An image was deleted from the campaign.",
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
}
