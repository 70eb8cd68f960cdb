"""Payload models of the `fivebyfive.*` events: the fields each record carries (version 1 unless bumped)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.rules.events import Payload, payload
from app.rules.fivebyfive.state import Abilities, OrderEntry, Ranks, Terrain
from app.rules.system import PromptChoice


@payload("fivebyfive.attacked")
class Attacked(Payload):
    action: str
    attacker: str
    attacker_name: str
    choices: tuple[PromptChoice, ...] | None = None
    defender: str
    defender_name: str
    hits: int
    need: dict[str, Any] | None = None
    needed: int | None = None
    prompt: str | None = None
    result: str
    roll: dict[str, Any]
    text: str | None = None
    to: str | None = None
    total: int


@payload("fivebyfive.board_set")
class BoardSet(Payload):
    height: int | float
    width: int | float


@payload("fivebyfive.combat_won")
class CombatWon(Payload):
    names: tuple[str, ...]
    winner: str


@payload("fivebyfive.damage_due")
class DamageDue(Payload):
    choices: tuple[PromptChoice, ...]
    chooser: str
    chooser_name: str
    controlled: bool
    defender: str
    defender_name: str
    hit: int
    of: int
    prompt: str
    text: str
    to: str


@payload("fivebyfive.damaged")
class Damaged(Payload):
    ability: str
    chooser: str
    chooser_name: str
    controlled: bool
    defender: str
    hit: int
    name: str
    of: int
    prompt: str
    status: str
    from_: int | None = Field(default=None, alias="from")
    to: int | None = None


@payload("fivebyfive.gm_note")
class GmNote(Payload):
    need: dict[str, Any] | None = None
    text: str


@payload("fivebyfive.hit_controlled")
class HitControlled(Payload):
    defence: str
    defender: str
    hit: int
    name: str
    of: int
    result: str
    roll: dict[str, Any] | None = None
    total: int | None = None
    need: dict[str, Any] | None = None
    needed: int | None = None
    reason: str | None = None


@payload("fivebyfive.initiative_shown")
class InitiativeShown(Payload):
    order: tuple[dict[str, Any], ...]
    rolls: tuple[dict[str, Any], ...]
    round: int
    ties: tuple[Any, ...]


@payload("fivebyfive.knocked_out")
class KnockedOut(Payload):
    ability: str
    name: str
    participant: str
    status: str


@payload("fivebyfive.moved")
class Moved(Payload):
    allowance: int
    distance: int | float
    from_: tuple[Any, ...] = Field(alias="from")
    moved: int | float
    name: str
    participant: str
    to: tuple[Any, ...]


@payload("fivebyfive.placed")
class Placed(Payload):
    name: str
    participant: str
    x: int | float | None = None
    y: int | float | None = None


@payload("fivebyfive.round_ended")
class RoundEnded(Payload):
    round: int


@payload("fivebyfive.round_started")
class RoundStarted(Payload):
    order: tuple[OrderEntry, ...]
    rolls: tuple[dict[str, Any], ...]
    round: int
    ties: tuple[Any, ...]


@payload("fivebyfive.rush_due")
class RushDue(Payload):
    choices: tuple[PromptChoice, ...]
    name: str
    participant: str
    prompt: str
    text: str
    to: str


@payload("fivebyfive.rushed")
class Rushed(Payload):
    ability: str
    # A PC's ability before and after; an NPC's numbers stay with the GM (left out).
    from_: int | None = Field(default=None, alias="from")
    name: str
    participant: str
    prompt: str | None
    to: int | None = None


@payload("fivebyfive.sheet_set")
class SheetSet(Payload):
    current: Abilities
    name: str
    participant: str
    ranks: Ranks
    scores: Abilities
    status: str


@payload("fivebyfive.shift_set")
class ShiftSet(Payload):
    name: str
    participant: str
    rank: str
    shift: int


@payload("fivebyfive.terrain_added")
class TerrainAdded(Payload):
    terrain: Terrain


@payload("fivebyfive.terrain_removed")
class TerrainRemoved(Payload):
    name: str
    terrain: str


@payload("fivebyfive.turn_ended")
class TurnEnded(Payload):
    name: str
    participant: str
    reason: str


@payload("fivebyfive.turn_started")
class TurnStarted(Payload):
    allowance: int
    index: int
    initiative: int
    name: str
    participant: str
    round: int
