"""Campaign commands (`campaign.*`): participants, seats' characters, encounters, settings, undo; seats
themselves (joining, watching, removing) are in `seats.py`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from pydantic import Field

from app.rules.campaign import seats
from app.rules.campaign.state import CampaignState, Participant, new_id
from app.rules.contract.commands import command, command_table
from app.rules.errors import RuleError
from app.rules.system import Command, CommandSpec, Ctx, NewEvent, audience_of

Name = Field(min_length=1, max_length=60)
Notes = Field(default="", max_length=4000)


class AddParticipant(Command):
    type: Literal["campaign.add_participant"] = "campaign.add_participant"
    name: str = Name
    kind: Literal["pc", "npc"] = "pc"
    owner: str | None = None
    hidden: bool = False
    notes: str = Notes


class UpdateParticipant(Command):
    type: Literal["campaign.update_participant"] = "campaign.update_participant"
    participant: str
    name: str | None = Field(default=None, min_length=1, max_length=60)
    kind: Literal["pc", "npc"] | None = None
    notes: str | None = Field(default=None, max_length=4000)


class RemoveParticipant(Command):
    type: Literal["campaign.remove_participant"] = "campaign.remove_participant"
    participant: str


class AssignParticipant(Command):
    type: Literal["campaign.assign_participant"] = "campaign.assign_participant"
    participant: str
    seat: str | None = None


class SetHidden(Command):
    type: Literal["campaign.set_hidden"] = "campaign.set_hidden"
    participant: str
    hidden: bool


class PrepareEncounter(Command):
    type: Literal["campaign.encounter.prepare"] = "campaign.encounter.prepare"
    name: str = Name
    participants: tuple[str, ...] = ()
    setup: dict[str, Any] = Field(default_factory=dict)
    notes: str = Notes


class UpdateEncounter(Command):
    type: Literal["campaign.encounter.update"] = "campaign.encounter.update"
    encounter: str
    name: str | None = Field(default=None, min_length=1, max_length=60)
    participants: tuple[str, ...] | None = None
    setup: dict[str, Any] | None = None
    notes: str | None = Field(default=None, max_length=4000)


class StartEncounter(Command):
    type: Literal["campaign.encounter.start"] = "campaign.encounter.start"
    encounter: str


class EndEncounter(Command):
    type: Literal["campaign.encounter.end"] = "campaign.encounter.end"


class RemoveEncounter(Command):
    type: Literal["campaign.encounter.remove"] = "campaign.encounter.remove"
    encounter: str


class ChangeSettings(Command):
    type: Literal["campaign.settings"] = "campaign.settings"
    name: str | None = Field(default=None, min_length=1, max_length=60)
    dice_mode: Literal["server", "manual"] | None = None
    settings: dict[str, Any] | None = None


class Undo(Command):
    type: Literal["campaign.undo"] = "campaign.undo"


# --- deciders ----------------------------------------------------------------------------------


def _public(p: Participant) -> dict[str, Any]:
    return p.model_dump(exclude={"notes"})


def _check_seat(state: CampaignState, seat_id: str | None) -> None:
    if seat_id is None:
        return
    seat = state.seat(seat_id)
    if seat is None or seat.revoked or seat.role != "player":
        raise RuleError("That seat is not a player at this table.")


def _check_unique_name(state: CampaignState, name: str, except_id: str | None = None) -> None:
    if any(p.name.casefold() == name.casefold() and p.id != except_id for p in state.participants):
        raise RuleError(f"There is already a character called {name}.")


def add_participant(state: CampaignState, cmd: AddParticipant, ctx: Ctx) -> list[NewEvent]:
    _check_seat(state, cmd.owner)
    _check_unique_name(state, cmd.name)
    participant = Participant(
        id=new_id(state, "p"), name=cmd.name, kind=cmd.kind, owner=cmd.owner, hidden=cmd.hidden
    )
    audience = "gm" if cmd.hidden else "all"
    events = [
        NewEvent(
            type="campaign.participant_added", data={"participant": _public(participant)}, audience=audience
        )
    ]
    if cmd.notes:
        events.append(
            NewEvent(
                type="campaign.participant_noted",
                data={"participant": participant.id, "notes": cmd.notes},
                audience=audience_of(participant.id) if not cmd.hidden else "gm",
            )
        )
    return events


def update_participant(state: CampaignState, cmd: UpdateParticipant, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.participant)
    events = []
    changes = {
        k: v for k, v in {"name": cmd.name, "kind": cmd.kind}.items() if v is not None and v != getattr(p, k)
    }
    if "name" in changes:
        _check_unique_name(state, changes["name"], p.id)
    audience = "gm" if p.hidden else "all"
    if changes:
        events.append(
            NewEvent(
                type="campaign.participant_updated",
                data={"participant": p.id, "was": p.name, "changes": changes},
                audience=audience,
            )
        )
    if cmd.notes is not None and cmd.notes != p.notes:
        events.append(
            NewEvent(
                type="campaign.participant_noted",
                data={"participant": p.id, "notes": cmd.notes},
                audience="gm" if p.hidden else audience_of(p.id),
            )
        )
    if not events:
        raise RuleError(f"Nothing to change: {p.name} already looks like that.")
    return events


def remove_participant(state: CampaignState, cmd: RemoveParticipant, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.participant)
    return [
        NewEvent(
            type="campaign.participant_removed",
            data={"participant": p.id, "name": p.name},
            audience="gm" if p.hidden else "all",
        )
    ]


def assign_participant(state: CampaignState, cmd: AssignParticipant, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.participant)
    _check_seat(state, cmd.seat)
    if p.owner == cmd.seat:
        raise RuleError(f"{p.name} is already with {state.seat_name(cmd.seat) if cmd.seat else 'the GM'}.")
    return [
        NewEvent(
            type="campaign.participant_assigned",
            data={
                "participant": p.id,
                "name": p.name,
                "seat": cmd.seat,
                "seat_name": state.seat_name(cmd.seat) if cmd.seat else None,
            },
            audience="gm" if p.hidden else "all",
        )
    ]


def set_hidden(state: CampaignState, cmd: SetHidden, ctx: Ctx) -> list[NewEvent]:
    p = state.participant(cmd.participant)
    if p.hidden == cmd.hidden:
        raise RuleError(f"{p.name} is already {'hidden' if p.hidden else 'visible'}.")
    if cmd.hidden:
        # The players learn nothing of it, not even that it went: they simply no longer see it.
        data = {"participant": p.id, "name": p.name}
        return [NewEvent(type="campaign.participant_hidden", data=data, audience="gm")]
    # Revealing hands the players everything public about the character at once.
    return [NewEvent(type="campaign.participant_revealed", data={"participant": _public(p)})]


def _check_participants(state: CampaignState, ids: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(state.participant(ref).id for ref in ids))


def prepare_encounter(
    state: CampaignState, cmd: PrepareEncounter, ctx: Ctx, setup: dict[str, Any]
) -> list[NewEvent]:
    encounter: dict[str, Any] = {
        "id": new_id(state, "e"),
        "name": cmd.name,
        "participants": list(_check_participants(state, cmd.participants)),
        "setup": setup,
        "notes": cmd.notes,
    }
    return [
        NewEvent(
            type="campaign.encounter_prepared",
            data={"encounter": encounter},
            audience="gm",
            encounter=encounter["id"],
        )
    ]


def update_encounter(
    state: CampaignState, cmd: UpdateEncounter, ctx: Ctx, setup: dict[str, Any] | None
) -> list[NewEvent]:
    e = state.encounter(cmd.encounter)
    if e.status == "ended":
        raise RuleError(f"{e.name} has ended; its log is kept as it was.")
    changes: dict[str, Any] = {}
    if cmd.name is not None:
        changes["name"] = cmd.name
    if cmd.participants is not None:
        changes["participants"] = list(_check_participants(state, cmd.participants))
    if setup is not None:
        if e.status == "active":
            raise RuleError(f"{e.name} is under way: its set-up can only change before it starts.")
        changes["setup"] = setup
    if cmd.notes is not None:
        changes["notes"] = cmd.notes
    if not changes:
        raise RuleError("Nothing to change.")
    # The GM's alone: it may carry notes, set-ups and hidden characters' ids. The players see what
    # changed through their own views (the name, the characters they may see).
    return [
        NewEvent(
            type="campaign.encounter_updated",
            data={"encounter": e.id, "changes": changes},
            audience="gm",
            encounter=e.id,
        )
    ]


def start_encounter(state: CampaignState, cmd: StartEncounter, ctx: Ctx) -> list[NewEvent]:
    e = state.encounter(cmd.encounter)
    if state.active is not None:
        raise RuleError(f"{state.active.name} is still under way: end it before starting another.")
    if e.status != "prepared":
        raise RuleError(f"{e.name} has already been played; prepare a new encounter.")
    visible = [pid for pid in e.participants if not state.participant(pid).hidden]
    return [
        NewEvent(
            type="campaign.encounter_started",
            data={"encounter": e.id, "name": e.name, "participants": visible},
            encounter=e.id,
        )
    ]


def end_encounter(state: CampaignState, cmd: EndEncounter, ctx: Ctx) -> list[NewEvent]:
    e = state.active
    if e is None:
        raise RuleError("No encounter is under way.")
    return [
        NewEvent(type="campaign.encounter_ended", data={"encounter": e.id, "name": e.name}, encounter=e.id)
    ]


def remove_encounter(state: CampaignState, cmd: RemoveEncounter, ctx: Ctx) -> list[NewEvent]:
    e = state.encounter(cmd.encounter)
    if e.status != "prepared":
        raise RuleError(f"{e.name} has been played; its log is kept.")
    return [
        NewEvent(
            type="campaign.encounter_removed",
            data={"encounter": e.id, "name": e.name},
            audience="gm",
            encounter=e.id,
        )
    ]


def change_settings(
    state: CampaignState, cmd: ChangeSettings, ctx: Ctx, settings: dict[str, Any] | None
) -> list[NewEvent]:
    changes: dict[str, Any] = {}
    if cmd.name is not None and cmd.name != state.name:
        changes["name"] = cmd.name
    if cmd.dice_mode is not None and cmd.dice_mode != state.dice_mode:
        changes["dice_mode"] = cmd.dice_mode
    if settings is not None and settings != state.settings:
        changes["settings"] = settings
    if not changes:
        raise RuleError("Nothing to change: the campaign already has those settings.")
    return [NewEvent(type="campaign.settings_changed", data=changes)]


def undo(state: CampaignState, cmd: Undo, ctx: Ctx) -> list[NewEvent]:
    if not state.undo_stack:
        raise RuleError("There is nothing left to undo.")
    last = state.undo_stack[-1]
    return [
        NewEvent(
            type="campaign.undone",
            data={"seqs": list(last.seqs), "label": last.label},
            audience=last.audience,
        )
    ]


def specs(
    parse_setup: Callable[[CampaignState, dict[str, Any]], dict[str, Any]],
    parse_settings: Callable[[Mapping[str, Any]], dict[str, Any]],
) -> dict[str, CommandSpec]:
    """The campaign's command table; encounter set-up and settings are checked by the game system."""

    def prepare(state: CampaignState, cmd: PrepareEncounter, ctx: Ctx) -> list[NewEvent]:
        return prepare_encounter(state, cmd, ctx, parse_setup(state, cmd.setup))

    def update(state: CampaignState, cmd: UpdateEncounter, ctx: Ctx) -> list[NewEvent]:
        return update_encounter(state, cmd, ctx, None if cmd.setup is None else parse_setup(state, cmd.setup))

    def settings(state: CampaignState, cmd: ChangeSettings, ctx: Ctx) -> list[NewEvent]:
        merged = None if cmd.settings is None else parse_settings({**state.settings, **cmd.settings})
        return change_settings(state, cmd, ctx, merged)

    table = command_table(
        [
            command(AddParticipant, add_participant, "Add a character", gm_only=True),
            command(UpdateParticipant, update_participant, "Change a character", gm_only=True),
            command(RemoveParticipant, remove_participant, "Remove a character", gm_only=True),
            command(AssignParticipant, assign_participant, "Hand a character to a seat", gm_only=True),
            command(SetHidden, set_hidden, "Hide or reveal a character", gm_only=True),
            command(PrepareEncounter, prepare, "Prepare an encounter", gm_only=True),
            command(UpdateEncounter, update, "Change an encounter", gm_only=True),
            command(StartEncounter, start_encounter, "Start an encounter", gm_only=True),
            command(EndEncounter, end_encounter, "End the encounter", gm_only=True),
            command(RemoveEncounter, remove_encounter, "Remove a prepared encounter", gm_only=True),
            command(ChangeSettings, settings, "Change the campaign's settings", gm_only=True),
            command(Undo, undo, "Undo the last action", gm_only=True),
        ]
    )
    return {**table, **seats.COMMANDS}
