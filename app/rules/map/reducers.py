"""Reducers for `map.*` events: pure, no checks."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState, replace_item, without
from app.rules.map import events as _payloads  # noqa: F401  (registers this part's payload models)
from app.rules.map.explored import forget, of_scene, of_token, record_sight, recording
from app.rules.map.geometry import add_stroke
from app.rules.map.state import MapState, Scene
from app.rules.map.walls import TokenSight
from app.rules.system import Event


def _with_map(state: CampaignState, **changes: Any) -> CampaignState:
    return state.model_copy(update={"map": state.map.model_copy(update=changes)})


def _scene_changed(state: CampaignState, scene_id: str, **changes: Any) -> CampaignState:
    scene = state.map.scene(scene_id)
    if scene is None:
        return state
    return _with_map(state, scenes=replace_item(state.map.scenes, scene.model_copy(update=changes)))


def _token_changed(state: CampaignState, token_id: str, **changes: Any) -> CampaignState:
    token = state.map.token(token_id)
    if token is None:
        return state
    return _with_map(state, tokens=replace_item(state.map.tokens, token.model_copy(update=changes)))


def asset_added(state: CampaignState, event: Event) -> CampaignState:
    return _with_map(state, assets=(*state.map.assets, event.payload.asset))


def asset_removed(state: CampaignState, event: Event) -> CampaignState:
    """The image is gone; a scene an undo gave it back to again is a blank canvas of the same size."""
    gone = event.payload.asset
    scenes = tuple(s.model_copy(update={"asset": None}) if s.asset == gone else s for s in state.map.scenes)
    return _with_map(state, assets=tuple(a for a in state.map.assets if a.id != gone), scenes=scenes)


def scene_created(state: CampaignState, event: Event) -> CampaignState:
    scene = event.payload.scene
    return _with_map(state, scenes=(*state.map.scenes, scene), open=scene.id)


def scene_opened(state: CampaignState, event: Event) -> CampaignState:
    return _with_map(state, open=event.payload.scene)


def scene_updated(state: CampaignState, event: Event) -> CampaignState:
    changes = dict(event.payload.changes)
    scene = state.map.scene(event.payload.scene)
    if scene is None:
        return state
    updated = Scene.model_validate({**scene.model_dump(mode="json"), **changes})
    return _with_map(state, scenes=replace_item(state.map.scenes, updated))


def scene_shown(state: CampaignState, event: Event) -> CampaignState:
    return _with_map(state, shown=event.payload.scene)


def scene_removed(state: CampaignState, event: Event) -> CampaignState:
    scene_id = event.payload.scene
    m = state.map
    return _with_map(
        state,
        scenes=without(m.scenes, scene_id),
        tokens=tuple(t for t in m.tokens if t.scene != scene_id),
        shown=None if m.shown == scene_id else m.shown,
        open=None if m.open == scene_id else m.open,
        explored=forget(state, scene_id),
    )


def settings_changed(state: CampaignState, event: Event) -> CampaignState:
    p = event.payload
    named = {"cover_new_scenes": p.cover_new_scenes, "share_explored": p.share_explored}
    named["players_open_doors"] = p.players_open_doors
    return _with_map(state, **{k: v for k, v in named.items() if v is not None})


def _hide_character(state: CampaignState, participant_id: str, hidden: bool) -> CampaignState:
    """Hidden is the character's flag, not its token's. Logs recorded before it was one flag hid a
    character's token alone: read today, hiding the token hides the character (so the players learn
    nothing of it), as a command now does."""
    p = state.find_participant(participant_id)
    if p is None or p.hidden == hidden:
        return state
    return state.model_copy(
        update={"participants": replace_item(state.participants, p.model_copy(update={"hidden": hidden}))}
    )


def token_placed(state: CampaignState, event: Event) -> CampaignState:
    token = event.payload.token
    if token.participant is not None and token.hidden:
        state = _hide_character(state, token.participant, True)
        token = token.model_copy(update={"hidden": False})
    return _with_map(state, tokens=(*state.map.tokens, token))


def token_moved(state: CampaignState, event: Event) -> CampaignState:
    return _token_changed(state, event.payload.token, x=event.payload.x, y=event.payload.y)


def token_removed(state: CampaignState, event: Event) -> CampaignState:
    return _with_map(state, tokens=without(state.map.tokens, event.payload.token))


def token_changed(state: CampaignState, event: Event) -> CampaignState:
    changes = dict(event.payload.changes)
    token = state.map.token(event.payload.token)
    if token is not None and token.participant is not None and "hidden" in changes:
        state = _hide_character(state, token.participant, bool(changes.pop("hidden")))
    if "sight" in changes:
        changes["sight"] = TokenSight.model_validate(changes["sight"])
    return _token_changed(state, event.payload.token, **changes)


def fog_stroke(state: CampaignState, event: Event) -> CampaignState:
    scene = state.map.scene(event.payload.scene)
    if scene is None:
        return state
    fog = add_stroke(scene.fog, event.payload.stroke)
    return _scene_changed(state, scene.id, fog=fog, fog_version=scene.fog_version + 1)


def drawn(state: CampaignState, event: Event) -> CampaignState:
    scene = state.map.scene(event.payload.scene)
    if scene is None:
        return state
    drawing = event.payload.drawing
    return _scene_changed(state, scene.id, drawings=(*scene.drawings, drawing))


def erased(state: CampaignState, event: Event) -> CampaignState:
    scene = state.map.scene(event.payload.scene)
    if scene is None:
        return state
    which = event.payload.drawing
    kept = tuple(d for d in scene.drawings if which is not None and d.id != which)
    return _scene_changed(state, scene.id, drawings=kept)


def participant_removed(state: CampaignState, event: Event) -> CampaignState:
    """A character who leaves the campaign leaves the map too, and what it explored with it."""
    pid = event.payload.participant
    if not any(t.participant == pid for t in state.map.tokens) and not any(
        e.participant == pid for e in state.map.explored
    ):
        return state
    tokens = tuple(t for t in state.map.tokens if t.participant != pid)
    return _with_map(state, tokens=tokens, explored=forget(state, participant=pid))


# --- sight from walls -----------------------------------------------------------------------------


def wall_added(state: CampaignState, event: Event) -> CampaignState:
    scene = state.map.scene(event.payload.scene)
    if scene is None:
        return state
    return _scene_changed(state, scene.id, walls=(*scene.walls, event.payload.wall))


def wall_removed(state: CampaignState, event: Event) -> CampaignState:
    scene = state.map.scene(event.payload.scene)
    if scene is None:
        return state
    return _scene_changed(state, scene.id, walls=without(scene.walls, event.payload.wall))


def door_set(state: CampaignState, event: Event) -> CampaignState:
    p = event.payload
    scene = state.map.scene(p.scene)
    door = scene.wall(p.wall) if scene else None
    if scene is None or door is None:
        return state
    changed = door.model_copy(update={"open": p.open, "locked": p.locked})
    return _scene_changed(state, scene.id, walls=replace_item(scene.walls, changed))


def light_added(state: CampaignState, event: Event) -> CampaignState:
    scene = state.map.scene(event.payload.scene)
    if scene is None:
        return state
    return _scene_changed(state, scene.id, lights=(*scene.lights, event.payload.light))


def light_removed(state: CampaignState, event: Event) -> CampaignState:
    scene = state.map.scene(event.payload.scene)
    if scene is None:
        return state
    return _scene_changed(state, scene.id, lights=without(scene.lights, event.payload.light))


def explored_reset(state: CampaignState, event: Event) -> CampaignState:
    """The players forget what they explored there; what their tokens see now they see still."""
    scene_id = event.payload.scene
    state = _with_map(state, explored=forget(state, scene_id))
    for scene in state.map.scenes if scene_id is None else [s for s in state.map.scenes if s.id == scene_id]:
        state = record_sight(state, scene.id)
    return state


REDUCERS = {
    "map.asset_added": asset_added,
    "map.wall_added": recording(wall_added, of_scene),
    "map.wall_removed": recording(wall_removed, of_scene),
    "map.door_set": recording(door_set, of_scene),
    "map.light_added": recording(light_added, of_scene),
    "map.light_removed": recording(light_removed, of_scene),
    "map.explored_reset": explored_reset,
    "map.settings_changed": settings_changed,
    "map.asset_removed": asset_removed,
    "map.scene_created": scene_created,
    "map.scene_updated": recording(scene_updated, of_scene),
    "map.scene_shown": scene_shown,
    "map.scene_opened": scene_opened,
    "map.scene_removed": scene_removed,
    "map.token_placed": recording(token_placed, of_token),
    "map.token_moved": recording(token_moved, of_token),
    "map.token_removed": token_removed,
    "map.token_changed": recording(token_changed, of_token),
    "map.fog_covered": fog_stroke,
    "map.fog_revealed": fog_stroke,
    "map.drawn": drawn,
    "map.erased": erased,
    "campaign.participant_removed": participant_removed,
}

__all__ = ["REDUCERS", "MapState"]
