"""Triptycho's reducers for the campaign events it follows: an encounter starts or ends, a character
leaves the campaign."""

from __future__ import annotations

from app.rules.campaign.state import CampaignState
from app.rules.contract.envelope import Event
from app.rules.triptycho.state import (
    Entity,
    Turn,
    ext_of,
    put_entity,
    with_ext,
)


def encounter_started(state: CampaignState, event: Event) -> CampaignState:
    """A fight starts: its set-up may name a saved map and where each character stands."""
    ext = ext_of(state)
    setup = state.encounter(event.payload.encounter).setup or {}
    board = next((m for m in ext.maps if m.id == setup.get("map")), None)
    if board is not None:  # a map deleted since the encounter was prepared is simply not loaded
        ext = ext.model_copy(update={"board": board})
    known = {s.id for s in ext.board.sections} if ext.board else set()
    for pid, sections in (setup.get("placements") or {}).items():
        e = ext.entity(pid)
        if e is not None and set(sections) <= known:
            ext = put_entity(ext, e.model_copy(update={"sections": tuple(sections)}))
    return with_ext(state, ext.model_copy(update={"turn": Turn(), "attacks": ()}))


def encounter_ended(state: CampaignState, event: Event) -> CampaignState:
    """The fight is over: positions, conditions, blocks, incantations and cards in play are cleared;
    damage stays on the character."""
    ext = ext_of(state)
    keep = {"id", "side", "size", "low_light", "darkvision", "light_sensitive", "aquatic", "acrobatics"}
    keep |= {"initiative", "health", "damage", "uses_deck", "cards", "deck_list"}
    entities = tuple(Entity.model_validate(e.model_dump(include=keep)) for e in ext.entities)
    return with_ext(
        state, ext.model_copy(update={"entities": entities, "turn": Turn(), "attacks": (), "far_blocks": ()})
    )


def participant_removed(state: CampaignState, event: Event) -> CampaignState:
    ext = ext_of(state)
    pid = event.payload.participant
    if ext.entity(pid) is None:
        return state
    turn = Turn() if ext.turn.entity == pid else ext.turn
    return with_ext(
        state,
        ext.model_copy(
            update={
                "entities": tuple(e for e in ext.entities if e.id != pid),
                "attacks": tuple(a for a in ext.attacks if a.attacker != pid),
                "turn": turn,
            }
        ),
    )
