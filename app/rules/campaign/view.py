"""What each viewer sees of the campaign core, and how its events read in the log."""

from __future__ import annotations

from typing import Any

from app.rules.campaign.state import CampaignState, Participant
from app.rules.contract.deciders import decider, gm_or_not, nobody, role_and_characters, whole_viewer
from app.rules.contract.frozen import Memo, kept
from app.rules.system import Event, Viewer


def visible_participants(state: CampaignState, viewer: Viewer) -> list[Participant]:
    return [p for p in state.participants if viewer.is_gm or not p.hidden]


def participant_view(state: CampaignState, p: Participant, viewer: Viewer) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": p.id,
        "name": p.name,
        "kind": p.kind,
        "owner": p.owner,
        "owner_name": state.seat_name(p.owner) if p.owner else None,
        "mine": p.id in viewer.participants,
    }
    if viewer.is_gm:
        out["hidden"] = p.hidden
    if viewer.is_gm or p.id in viewer.participants:
        out["notes"] = p.notes
    return out


# What every player sees of the characters and seats is the same for all of them but their own
# characters: it is built once per state's tuples and kept on the state (`kept`), shared by every
# player's view of a push. The shared dicts are never mutated.
_NOBODY = Viewer(seat_id=None, role="player", participants=frozenset())
_SHARED_KEYS = {"participants": "_players_see.participants", "seats": "_players_see.seats"}


def _for_players(state: CampaignState, kind: str) -> list[dict[str, Any]]:
    return _players_see(state, kind)[0]


def _players_see(state: CampaignState, kind: str) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The players' shared list, and where each item stands in it: kept on the state for the tuples it
    reads (as `kept` keeps a value, written out here: this is on every player's view's path)."""
    key = _SHARED_KEYS[kind]
    hit = state.__dict__.get(key)
    if hit is not None and hit.basis[0] is state.participants and hit.basis[1] is state.seats:
        return hit.value  # type: ignore[no-any-return]  # what this function stored
    if kind == "participants":
        out = [participant_view(state, p, _NOBODY) for p in visible_participants(state, _NOBODY)]
    else:
        out = [s.model_dump() for s in state.seats if not s.revoked]
    found = (out, {d["id"]: n for n, d in enumerate(out)})
    state.__dict__[key] = Memo((state.participants, state.seats), found)
    return found


PARTICIPANT_LISTS_KEPT = 1024  # lists of the characters kept per tuple of them (one per distinct viewer)


def participants_view(state: CampaignState, viewer: Viewer) -> list[dict[str, Any]]:
    """The characters as this viewer sees them: one list per kind of viewer (the GM or not, whose
    characters) for as long as the characters and seats are the same tuples, so a push's view and a
    command's reply find it the same object (app/web/replies.py writes its text once). Shared read-only."""
    lists: dict[tuple[str, frozenset[str]], list[dict[str, Any]]] = kept(
        state, "_participant_lists", (state.participants, state.seats), dict
    )
    key = (viewer.role, viewer.participants)
    hit = lists.get(key)
    if hit is None:
        hit = _participants_view(state, viewer)
        if len(lists) < PARTICIPANT_LISTS_KEPT:
            lists[key] = hit
    return hit


def _participants_view(state: CampaignState, viewer: Viewer) -> list[dict[str, Any]]:
    if viewer.is_gm:
        return [participant_view(state, p, viewer) for p in visible_participants(state, viewer)]
    shared, places = _players_see(state, "participants")
    if not viewer.participants:
        return shared
    # The shared list with this player's own characters put in their places: a copy (in C) and a few
    # look-ups, not a pass over every character for every phone.
    out = list(shared)
    index = state.by_id("participants")
    for pid in viewer.participants:
        place = places.get(pid)
        if place is not None:
            out[place] = participant_view(state, index[pid], viewer)
    return out


def encounter_view(state: CampaignState, viewer: Viewer) -> list[dict[str, Any]]:
    # Prepared encounters are the GM's plans: players learn of one when it starts.
    out = []
    for e in state.encounters:
        if e.status == "prepared" and not viewer.is_gm:
            continue
        item: dict[str, Any] = {
            "id": e.id,
            "name": e.name,
            "status": e.status,
            "started_seq": e.started_seq,
            "ended_seq": e.ended_seq,
        }
        names = [state.find_participant(pid) for pid in e.participants]
        item["participants"] = [p.name for p in names if p and (viewer.is_gm or not p.hidden)]
        if viewer.is_gm:
            item.update(participant_ids=list(e.participants), setup=e.setup, notes=e.notes)
        out.append(item)
    return out


def campaign_of(state: CampaignState, system_title: str, owns_initiative: bool) -> dict[str, Any]:
    """The campaign itself as every view of a state shows it: one dict for all of them (shared read-only),
    kept on the state for what it is made of."""
    made_of = (state.id, state.name, state.system, state.dice_mode, state.settings, state.seq)
    return kept(
        state,
        "_campaign_view",
        (*made_of, system_title, owns_initiative),
        lambda: {
            "id": state.id,
            "name": state.name,
            "system": state.system,
            "dice_mode": state.dice_mode,
            "settings": state.settings,
            "seq": state.seq,
            "system_title": system_title,
            "owns_initiative": owns_initiative,
        },
    )


def view(
    state: CampaignState, viewer: Viewer, system_title: str = "", owns_initiative: bool = False
) -> dict[str, Any]:
    seat = state.seat(viewer.seat_id)
    participants = participants_view(state, viewer)
    seats = (
        kept(state, "_gm_seats", (state.seats,), lambda: [s.model_dump() for s in state.seats])
        if viewer.is_gm
        else _for_players(state, "seats")
    )
    active = state.active
    return {
        "campaign": campaign_of(state, system_title, owns_initiative),
        "me": {
            "seat_id": viewer.seat_id,
            "role": viewer.role,
            "name": seat.name if seat else None,
            "participants": sorted(viewer.participants),
        },
        "seats": seats,
        "participants": participants,
        "encounters": encounter_view(state, viewer),
        "encounter": {"id": active.id, "name": active.name} if active else None,
        "prompts": [p.model_dump() for p in state.prompts if p.visible_to(viewer)],
        "undo": ({"label": state.undo_stack[-1].label} if state.undo_stack else None)
        if viewer.is_gm
        else None,
    }


# What decides each key of `view` (app/rules/contract/deciders.py). `campaign` as the pages read it: they
# leave its seq out (app/realtime/render.py `pages_view`), so it changes with the campaign's settings only.
DECIDERS = {
    "campaign": decider(("id", "name", "system", "dice_mode", "settings"), nobody),
    "me": decider(("seats",), whole_viewer),
    "seats": decider(("seats",), gm_or_not),
    "participants": decider(("participants", "seats"), role_and_characters),
    "encounters": decider(("encounters", "participants"), gm_or_not),
    "encounter": decider(("encounters", "active_encounter"), nobody),
    "prompts": decider(("prompts",), role_and_characters),
    "undo": decider(("undo_stack",), gm_or_not),
}


def _name(event: Event) -> str:
    name: str = event.data.get("name") or event.data.get("participant", {}).get("name", "a character")
    return name


_ROLE_NAMES = {"gm": "the GM", "player": "a player", "spectator": "a spectator"}

DESCRIBERS = {
    "campaign.created": lambda e: f"Campaign {e.data['name']} created.",
    "campaign.seat_joined": lambda e: (
        f"{e.data['seat']['name']} joined as {_ROLE_NAMES[e.data['seat']['role']]}."
    ),
    "campaign.link_rotated": lambda e: (
        f"The GM made a fresh {e.data.get('link', 'invite')} link; the old one no longer works."
    ),
    "campaign.seat_revoked": lambda e: f"{e.data.get('name', 'A seat')} was removed from the table.",
    "campaign.participant_added": lambda e: (
        f"{e.data['participant']['name']} ({'PC' if e.data['participant']['kind'] == 'pc' else 'NPC'}) joins."
    ),
    "campaign.participant_noted": lambda e: "Character notes updated.",
    "campaign.participant_updated": lambda e: f"{e.data['was']} updated.",
    "campaign.participant_removed": lambda e: f"{e.data['name']} was removed.",
    "campaign.participant_assigned": lambda e: (
        f"{e.data['name']} handed to {e.data['seat_name']}."
        if e.data["seat"]
        else f"{e.data['name']} is with the GM."
    ),
    "campaign.participant_hidden": lambda e: f"{e.data['name']} is hidden.",
    "campaign.participant_revealed": lambda e: f"{_name(e)} appears!",
    "campaign.encounter_prepared": lambda e: f"Encounter {e.data['encounter']['name']} prepared.",
    "campaign.encounter_updated": lambda e: "Encounter changed.",
    "campaign.encounter_started": lambda e: f"Encounter {e.data['name']} begins.",
    "campaign.encounter_ended": lambda e: f"Encounter {e.data['name']} ends.",
    "campaign.encounter_removed": lambda e: f"Encounter {e.data['name']} dropped.",
    "campaign.settings_changed": lambda e: "Campaign settings changed.",
    "campaign.undone": lambda e: f"Undone: {e.data['label']}",
}
