"""Payload models of the `triptycho.*` events: the fields each record carries (version 1 unless bumped)."""

from __future__ import annotations

from typing import Any

from app.rules.events import Payload, payload, upcaster
from app.rules.system import Prompt
from app.rules.triptycho.board import Border
from app.rules.triptycho.state import Attack, FarBlock, GrantedMove


@payload("triptycho.acrobatics_rolled")
class AcrobaticsRolled(Payload):
    gm_roll: dict[str, Any] | None  # None: no dice to roll
    gm_total: int
    label: str
    name: str
    participant: str
    roll: dict[str, Any] | None
    success: bool
    total: int


@payload("triptycho.attack_declared")
class AttackDeclared(Payload):
    attack: Attack
    card: str
    name: str


@payload("triptycho.attack_finished")
class AttackFinished(Payload):
    attack: str
    card: str


@payload("triptycho.attack_missed")
class AttackMissed(Payload):
    card: str
    name: str
    participant: str
    target: str
    why: str


@payload("triptycho.attack_resolved")
class AttackResolved(Payload):
    attack: str
    attacker: str
    attacker_name: str
    card: str
    damage: int
    dice: dict[str, Any]
    hit: bool
    notes: tuple[Any, ...]
    prompt: str | None
    reaction: str | None
    reaction_instance: str | None
    roll: dict[str, Any] | None = None
    rolls: dict[str, Any]
    target: str
    target_name: str
    why: str


@payload("triptycho.block_lowered")
class BlockLowered(Payload):
    name: str
    participant: str
    why: str


@payload("triptycho.block_raised")
class BlockRaised(Payload):
    name: str
    participant: str
    section: str
    toward: str


@payload("triptycho.border_changed")
class BorderChanged(Payload):
    border: Border


@payload("triptycho.card_played", version=2)
class CardPlayed(Payload):
    """v2: `charges_spent` is the number of Incantation charges the card spends (TP-N-2), 0 for none."""

    card: str
    card_id: str
    entries: tuple[str, ...]
    free: bool
    instance: str | None
    name: str
    participant: str
    section: str | None
    charges_spent: int
    target_names: tuple[Any, ...]
    targets: tuple[Any, ...]
    text: str


@upcaster("triptycho.card_played", 1)
def card_played_v1(data: dict[str, Any]) -> dict[str, Any]:
    """v1 named the charges a card spends `spends_charges`: a count that read like a yes or no. The number
    is the same; only its name now says what it is."""
    spent = data.pop("spends_charges", 0)
    return {**data, "charges_spent": int(spent or 0)}


@payload("triptycho.cards_drawn")
class CardsDrawn(Payload):
    cards: tuple[str, ...]
    participant: str
    reason: str


@payload("triptycho.charged")
class Charged(Payload):
    before_action: bool
    charges: int
    name: str
    participant: str


@payload("triptycho.climbed")
class Climbed(Payload):
    done: bool
    frm: str
    gm_roll: dict[str, Any]
    gm_total: int
    height: int
    move: str
    name: str
    participant: str
    progress: int
    roll: dict[str, Any]
    success: bool
    to: str
    total: int


@payload("triptycho.condition_changed")
class ConditionChanged(Payload):
    condition: str
    lowers_block: bool
    name: str
    on: bool
    participant: str


@payload("triptycho.damaged")
class Damaged(Payload):
    amount: int
    cause: str
    charges_lost: int
    name: str
    participant: str
    stops_incanting: bool


@payload("triptycho.deck_shuffled")
class DeckShuffled(Payload):
    faces: tuple[Any, ...]
    order: tuple[str, ...]
    participant: str
    why: str


@payload("triptycho.discard_reshuffled")
class DiscardReshuffled(Payload):
    count: int
    participant: str


@payload("triptycho.discarded")
class Discarded(Payload):
    cards: tuple[str, ...]
    name: str
    participant: str


@payload("triptycho.dived")
class Dived(Payload):
    name: str
    participant: str
    underwater: bool


@payload("triptycho.far_block_lowered")
class FarBlockLowered(Payload):
    block: str


@payload("triptycho.far_block_raised")
class FarBlockRaised(Payload):
    block: FarBlock


@payload("triptycho.fell")
class Fell(Payload):
    damage: int
    height: int
    name: str
    participant: str
    roll: dict[str, Any]
    why: str


@payload("triptycho.grip_checked")
class GripChecked(Payload):
    gm_roll: dict[str, Any]
    gm_total: int
    name: str
    participant: str
    roll: dict[str, Any] | None
    success: bool
    total: int


@payload("triptycho.hand_dealt")
class HandDealt(Payload):
    count: int
    name: str
    participant: str


@payload("triptycho.incant_began")
class IncantBegan(Payload):
    charges: int
    clear: bool
    name: str
    participant: str


@payload("triptycho.initiative_rolled")
class InitiativeRolled(Payload):
    name: str
    participant: str
    roll: dict[str, Any]
    value: int


@payload("triptycho.intercept_asked")
class InterceptAsked(Payload):
    attack: str
    blocker: str
    prompt: Prompt


@payload("triptycho.intercepted")
class Intercepted(Payload):
    accepted: bool
    attack: str
    name: str
    participant: str
    prompt: str


@payload("triptycho.let_go")
class LetGo(Payload):
    move: str
    name: str
    participant: str


@payload("triptycho.map_deleted")
class MapDeleted(Payload):
    map: str
    name: str


@payload("triptycho.map_loaded")
class MapLoaded(Payload):
    map: dict[str, Any]
    unplaced: tuple[Any, ...]


@payload("triptycho.map_saved")
class MapSaved(Payload):
    map: dict[str, Any]
    replaces: bool


@payload("triptycho.move_granted")
class MoveGranted(Payload):
    move: GrantedMove
    name: str


@payload("triptycho.moved")
class Moved(Payload):
    falls: tuple[Any, ...]
    kind: str
    move: str | None
    name: str
    participant: str
    path: tuple[str, ...]


@payload("triptycho.phase_passed")
class PhasePassed(Payload):
    name: str
    participant: str
    phase: str


@payload("triptycho.placed")
class Placed(Payload):
    name: str
    participant: str
    sections: tuple[str, ...]


@payload("triptycho.reaction_asked")
class ReactionAsked(Payload):
    attack: str
    blocker: str | None = None  # a reaction is asked of the target, not a blocker
    prompt: Prompt


@payload("triptycho.section_changed")
class SectionChanged(Payload):
    changes: dict[str, Any]
    section: str


@payload("triptycho.sheet_set")
class SheetSet(Payload):
    # The sheet's fields, a part of an Entity: those it names replace the entity's, the rest are kept.
    name: str
    sheet: dict[str, Any]


@payload("triptycho.strategy_used")
class StrategyUsed(Payload):
    choice: str
    name: str
    note: str
    participant: str
    card: str | None = None
    entries: tuple[Any, ...] | None = None
    instance: str | None = None
    text: str | None = None


@payload("triptycho.turn_began")
class TurnBegan(Payload):
    charge_gained: int
    charges: int
    name: str
    participant: str


@payload("triptycho.turn_ended")
class TurnEnded(Payload):
    charges_lost: int
    name: str
    participant: str


@payload("triptycho.unseen")
class Unseen(Payload):
    text: str
