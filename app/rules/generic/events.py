"""Payload models of the `generic.*` events: the fields each record carries (version 1 unless bumped)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.rules.campaign.state import InitiativeEntry, Pool, Preset, Track
from app.rules.events import Payload, payload


@payload("generic.initiative_cleared")
class InitiativeCleared(Payload):
    pass


@payload("generic.initiative_rolled")
class InitiativeRolled(Payload):
    expression: str
    rolls: tuple[dict[str, Any], ...]


@payload("generic.initiative_set")
class InitiativeSet(Payload):
    entries: tuple[InitiativeEntry, ...]


@payload("generic.pool_changed")
class PoolChanged(Payload):
    from_: int = Field(alias="from")
    name: str
    pool: str
    to: int


@payload("generic.pool_created")
class PoolCreated(Payload):
    pool: Pool


@payload("generic.pool_removed")
class PoolRemoved(Payload):
    name: str
    pool: str


@payload("generic.preset_created")
class PresetCreated(Payload):
    preset: Preset


@payload("generic.preset_removed")
class PresetRemoved(Payload):
    label: str
    preset: str


@payload("generic.rolled")
class Rolled(Payload):
    expression: str
    hidden: bool
    label: str
    participant: str | None
    roll: dict[str, Any]
    total: int
    who: str
    success: bool | None = None
    target: int | None = None


@payload("generic.track_changed")
class TrackChanged(Payload):
    from_: int = Field(alias="from")
    name: str
    to: int
    total: int
    track: str


@payload("generic.track_created")
class TrackCreated(Payload):
    track: Track


@payload("generic.track_removed")
class TrackRemoved(Payload):
    name: str
    track: str


@payload("generic.turn_advanced")
class TurnAdvanced(Payload):
    name: str | None
    participant: str | None
    round: int
    turn: int


@payload("generic.turn_noted")
class TurnNoted(Payload):
    name: str
    participant: str
