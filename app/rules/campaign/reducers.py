"""Reducers for `campaign.*` events: pure, no checks, no dice."""

from __future__ import annotations

from typing import Any

from app.rules.campaign import events as _payloads  # noqa: F401  (registers this part's payload models)
from app.rules.campaign.state import (
    CampaignState,
    Initiative,
    replace_item,
    without,
)
from app.rules.system import Event


def seat_joined(state: CampaignState, event: Event) -> CampaignState:
    seat = event.payload.seat
    return state.model_copy(update={"seats": (*without(state.seats, seat.id), seat)})


def seat_revoked(state: CampaignState, event: Event) -> CampaignState:
    seat_id = event.payload.seat
    seat = state.seat(seat_id)
    if seat is None:
        return state
    # The revoked seat's characters come back to the GM until handed to someone else.
    participants = tuple(
        p.model_copy(update={"owner": None}) if p.owner == seat_id else p for p in state.participants
    )
    return state.model_copy(
        update={
            "seats": replace_item(state.seats, seat.model_copy(update={"revoked": True})),
            "participants": participants,
        }
    )


def participant_added(state: CampaignState, event: Event) -> CampaignState:
    p = event.payload.participant
    return state.model_copy(update={"participants": (*state.participants, p)})


def _update_participant(state: CampaignState, pid: str, **changes: Any) -> CampaignState:
    p = state.participant(pid)
    return state.model_copy(
        update={"participants": replace_item(state.participants, p.model_copy(update=changes))}
    )


def participant_noted(state: CampaignState, event: Event) -> CampaignState:
    return _update_participant(state, event.payload.participant, notes=event.payload.notes)


def participant_updated(state: CampaignState, event: Event) -> CampaignState:
    return _update_participant(state, event.payload.participant, **event.payload.changes)


def participant_assigned(state: CampaignState, event: Event) -> CampaignState:
    return _update_participant(state, event.payload.participant, owner=event.payload.seat)


def participant_hidden(state: CampaignState, event: Event) -> CampaignState:
    return _update_participant(state, event.payload.participant, hidden=True)


def participant_revealed(state: CampaignState, event: Event) -> CampaignState:
    return _update_participant(state, event.payload.participant["id"], hidden=False)


def participant_removed(state: CampaignState, event: Event) -> CampaignState:
    pid = event.payload.participant
    init = state.initiative
    entries = tuple(e for e in init.entries if e.participant != pid)
    removed = next((i for i, e in enumerate(init.entries) if e.participant == pid), None)
    turn = init.turn - 1 if removed is not None and removed < init.turn else init.turn
    turn = turn if turn < len(entries) else 0
    return state.model_copy(
        update={
            "participants": without(state.participants, pid),
            "pools": tuple(p for p in state.pools if p.owner != pid),
            "tracks": tuple(t for t in state.tracks if t.owner != pid),
            "presets": tuple(p for p in state.presets if p.owner != pid),
            "prompts": tuple(p for p in state.prompts if p.to != pid),
            "initiative": init.model_copy(update={"entries": entries, "turn": turn}),
            "encounters": tuple(
                e.model_copy(update={"participants": tuple(x for x in e.participants if x != pid)})
                for e in state.encounters
            ),
        }
    )


def encounter_prepared(state: CampaignState, event: Event) -> CampaignState:
    e = event.payload.encounter
    return state.model_copy(update={"encounters": (*state.encounters, e)})


def encounter_updated(state: CampaignState, event: Event) -> CampaignState:
    e = state.encounter(event.payload.encounter)
    changes = dict(event.payload.changes)
    if "participants" in changes:
        changes["participants"] = tuple(changes["participants"])
    return state.model_copy(
        update={"encounters": replace_item(state.encounters, e.model_copy(update=changes))}
    )


def encounter_started(state: CampaignState, event: Event) -> CampaignState:
    e = state.encounter(event.payload.encounter)
    started = e.model_copy(update={"status": "active", "started_seq": event.seq})
    return state.model_copy(
        update={
            "encounters": replace_item(state.encounters, started),
            "active_encounter": e.id,
            "initiative": Initiative(),
            "prompts": (),
        }
    )


def encounter_ended(state: CampaignState, event: Event) -> CampaignState:
    e = state.encounter(event.payload.encounter)
    ended = e.model_copy(update={"status": "ended", "ended_seq": event.seq})
    # A choice the fight's end itself brings (a Victory Rush, say) stays open after it.
    kept = tuple(p for p in state.prompts if p.outlives_encounter)
    return state.model_copy(
        update={
            "encounters": replace_item(state.encounters, ended),
            "active_encounter": None,
            "initiative": Initiative(),
            "prompts": kept,
        }
    )


def encounter_removed(state: CampaignState, event: Event) -> CampaignState:
    return state.model_copy(update={"encounters": without(state.encounters, event.payload.encounter)})


def settings_changed(state: CampaignState, event: Event) -> CampaignState:
    p = event.payload
    changed = {"name": p.name, "dice_mode": p.dice_mode, "settings": p.settings}
    return state.model_copy(update={k: v for k, v in changed.items() if v is not None})


def link_rotated(state: CampaignState, event: Event) -> CampaignState:
    # The codes live outside the log (they are secrets); the event only tells that a link changed.
    return state


def undone(state: CampaignState, event: Event) -> CampaignState:
    # The projection skips undone events when it folds (Game.replay); nothing to do here.
    return state


REDUCERS = {
    "campaign.seat_joined": seat_joined,
    "campaign.seat_revoked": seat_revoked,
    "campaign.participant_added": participant_added,
    "campaign.participant_noted": participant_noted,
    "campaign.participant_updated": participant_updated,
    "campaign.participant_assigned": participant_assigned,
    "campaign.participant_hidden": participant_hidden,
    "campaign.participant_revealed": participant_revealed,
    "campaign.participant_removed": participant_removed,
    "campaign.encounter_prepared": encounter_prepared,
    "campaign.encounter_updated": encounter_updated,
    "campaign.encounter_started": encounter_started,
    "campaign.encounter_ended": encounter_ended,
    "campaign.encounter_removed": encounter_removed,
    "campaign.settings_changed": settings_changed,
    "campaign.link_rotated": link_rotated,
    "campaign.undone": undone,
}
