"""Reducers for `generic.*` events."""

from __future__ import annotations

from app.rules.campaign.state import (
    CampaignState,
    Initiative,
    replace_item,
    without,
)
from app.rules.generic import events as _payloads  # noqa: F401  (registers this part's payload models)
from app.rules.system import Event


def preset_created(state: CampaignState, event: Event) -> CampaignState:
    return state.model_copy(update={"presets": (*state.presets, event.payload.preset)})


def preset_removed(state: CampaignState, event: Event) -> CampaignState:
    return state.model_copy(update={"presets": without(state.presets, event.payload.preset)})


def pool_created(state: CampaignState, event: Event) -> CampaignState:
    return state.model_copy(update={"pools": (*state.pools, event.payload.pool)})


def pool_changed(state: CampaignState, event: Event) -> CampaignState:
    pool = state.pool(event.payload.pool).model_copy(update={"value": event.payload.to})
    return state.model_copy(update={"pools": replace_item(state.pools, pool)})


def pool_removed(state: CampaignState, event: Event) -> CampaignState:
    return state.model_copy(update={"pools": without(state.pools, event.payload.pool)})


def track_created(state: CampaignState, event: Event) -> CampaignState:
    return state.model_copy(update={"tracks": (*state.tracks, event.payload.track)})


def track_changed(state: CampaignState, event: Event) -> CampaignState:
    track = state.track(event.payload.track).model_copy(update={"filled": event.payload.to})
    return state.model_copy(update={"tracks": replace_item(state.tracks, track)})


def track_removed(state: CampaignState, event: Event) -> CampaignState:
    return state.model_copy(update={"tracks": without(state.tracks, event.payload.track)})


def initiative_set(state: CampaignState, event: Event) -> CampaignState:
    entries = event.payload.entries
    old = state.initiative
    # Keep whose turn it is when the order changes mid-round; if they left it, the next one on.
    ids = [e.participant for e in entries]
    later = [e.participant for e in old.entries[old.turn :]] if old.round else []
    turn = next((ids.index(pid) for pid in later if pid in ids), 0)
    return state.model_copy(update={"initiative": Initiative(entries=entries, turn=turn, round=old.round)})


def turn_advanced(state: CampaignState, event: Event) -> CampaignState:
    init = state.initiative.model_copy(update={"turn": event.payload.turn, "round": event.payload.round})
    return state.model_copy(update={"initiative": init})


def initiative_cleared(state: CampaignState, event: Event) -> CampaignState:
    return state.model_copy(update={"initiative": Initiative()})


def no_change(state: CampaignState, event: Event) -> CampaignState:
    return state


REDUCERS = {
    "generic.rolled": no_change,
    "generic.initiative_rolled": no_change,
    "generic.turn_noted": no_change,
    "generic.preset_created": preset_created,
    "generic.preset_removed": preset_removed,
    "generic.pool_created": pool_created,
    "generic.pool_changed": pool_changed,
    "generic.pool_removed": pool_removed,
    "generic.track_created": track_created,
    "generic.track_changed": track_changed,
    "generic.track_removed": track_removed,
    "generic.initiative_set": initiative_set,
    "generic.turn_advanced": turn_advanced,
    "generic.initiative_cleared": initiative_cleared,
}
