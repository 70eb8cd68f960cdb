"""Payload models of the `campaign.*` events: the fields each record carries (version 1 unless bumped)."""

from __future__ import annotations

from typing import Any, Literal

from app.rules.campaign.state import Encounter, Participant, SeatInfo
from app.rules.events import Payload, payload


@payload("campaign.created")
class Created(Payload):
    dice_mode: str
    id: str
    name: str
    settings: dict[str, Any] | None = None
    system: str


@payload("campaign.encounter_ended")
class EncounterEnded(Payload):
    encounter: str
    name: str


@payload("campaign.encounter_prepared")
class EncounterPrepared(Payload):
    encounter: Encounter


@payload("campaign.encounter_removed")
class EncounterRemoved(Payload):
    encounter: str
    name: str


@payload("campaign.encounter_started")
class EncounterStarted(Payload):
    encounter: str
    name: str
    participants: tuple[str, ...] = ()  # who the encounter started with


@payload("campaign.encounter_updated")
class EncounterUpdated(Payload):
    changes: dict[str, Any]
    encounter: str


@payload("campaign.participant_added")
class ParticipantAdded(Payload):
    participant: Participant


@payload("campaign.participant_assigned")
class ParticipantAssigned(Payload):
    name: str
    participant: str
    seat: str | None
    seat_name: str | None


@payload("campaign.participant_hidden")
class ParticipantHidden(Payload):
    name: str
    participant: str


@payload("campaign.participant_noted")
class ParticipantNoted(Payload):
    notes: str
    participant: str


@payload("campaign.participant_removed")
class ParticipantRemoved(Payload):
    name: str
    participant: str


@payload("campaign.participant_revealed")
class ParticipantRevealed(Payload):
    participant: dict[str, Any]  # what players now see of them (its id among it)


@payload("campaign.participant_updated")
class ParticipantUpdated(Payload):
    changes: dict[str, Any]
    participant: str
    was: str


@payload("campaign.seat_joined")
class SeatJoined(Payload):
    seat: SeatInfo


@payload("campaign.seat_revoked")
class SeatRevoked(Payload):
    name: str
    seat: str


@payload("campaign.link_rotated")
class LinkRotated(Payload):
    link: Literal["invite", "spectator"]


@payload("campaign.settings_changed")
class SettingsChanged(Payload):
    dice_mode: str | None = None
    settings: dict[str, Any] | None = None
    name: str | None = None


@payload("campaign.undone")
class Undone(Payload):
    label: str
    seqs: tuple[int, ...]
