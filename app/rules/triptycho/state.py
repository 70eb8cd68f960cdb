"""Triptycho's own frozen state (`CampaignState.ext`) and the GM's rulings (settings)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.rules.campaign.state import CampaignState
from app.rules.errors import RuleError, quoted
from app.rules.system import Frozen
from app.rules.triptycho.board import BattleMap
from app.rules.triptycho.cards import Card, parse_dice
from app.rules.triptycho.samples import SAMPLES

Side = Literal["party", "foes"]
Size = Literal["tiny", "small", "medium", "large", "huge"]
MoveKind = Literal["move", "phase", "fly", "teleport"]
Phase = Literal["draw", "strategy", "action", "discard", "over"]
CONDITIONS = ("debilitated", "vulnerable", "hindered", "immobilized", "defenseless")
Condition = Literal["debilitated", "vulnerable", "hindered", "immobilized", "defenseless"]


class Climb(Frozen):
    """An entity part-way up a border (TP-CL-2): it occupies the lower section `frm`."""

    frm: str
    to: str
    progress: int = 0


class Block(Frozen):
    """An entity blocks leaving its section across the border toward `toward` (TP-BL-1)."""

    section: str
    toward: str


class FarBlock(Frozen):
    """A block at a distance from an ability (TP-BL-4): both ways, until the GM lowers it."""

    id: str
    a: str
    b: str
    by: str | None = None
    note: str = ""


class Entity(Frozen):
    """A participant on the battle map: its sheet, its cards, and what the fight has done to it."""

    id: str  # the participant's id
    side: Side = "party"
    size: Size = "medium"
    low_light: bool = False
    darkvision: bool = False
    light_sensitive: bool = False
    aquatic: bool = False
    acrobatics: str = "1d6"
    initiative: str = "1d6"
    health: int | None = None
    damage: int = 0
    uses_deck: bool = True  # PCs draw from a deck; adversaries may use their cards as a repertoire
    cards: tuple[Card, ...] = ()
    deck_list: tuple[str, ...] = ()  # card ids, copies repeated
    # on the map
    sections: tuple[str, ...] = ()
    conditions: tuple[Condition, ...] = ()
    climbing: Climb | None = None
    underwater: bool = False
    block: Block | None = None
    # incantations
    incanting: bool = False
    charges: int = 0
    incant_clear: bool = True  # no enemy shared the section when the incantation began (TP-D-4)
    # cards in play: instance ids `<card id>#<n>`
    deck: tuple[str, ...] = ()  # top first
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()

    @property
    def section(self) -> str | None:
        return self.sections[0] if self.sections else None

    @property
    def placed(self) -> bool:
        return bool(self.sections)

    def card(self, ref: str) -> Card:
        """A card by instance id (`slash#2`), card id or exact name."""
        card_id = ref.split("#", 1)[0]
        for card in self.cards:
            if card.id == card_id or card.name.casefold() == ref.casefold():
                return card
        raise RuleError(f"There is no card {quoted(ref)}.")

    def has(self, condition: str) -> bool:
        return condition in self.conditions


class GrantedMove(Frozen):
    """A Move (or Phase, Fly, Teleport) a card granted this turn; it does not count against the innate one."""

    id: str
    entity: str
    kind: MoveKind = "move"
    n: int = 1
    height: int = 0
    source: str = ""  # the card that granted it


class Turn(Frozen):
    """Where the current entity is in its turn (TP-T-1)."""

    entity: str | None = None
    phase: Phase = "draw"
    moved: bool = False  # the innate Move 1 is used (TP-M-2)
    moves: tuple[GrantedMove, ...] = ()
    incant_window: bool = False  # start of turn: a paid Incantation may be played for free (TP-N-1)


class Attack(Frozen):
    """An Action waiting on Intercept or Reaction answers."""

    id: str
    attacker: str
    card: Card
    instance: str | None = None
    section: str  # the section attacked
    route: tuple[str, ...] = ()
    area: bool = False
    targets: tuple[str, ...] = ()  # waiting to be resolved, in order
    stage: Literal["intercept", "react"] = "react"
    asked: tuple[str, ...] = ()  # blockers already asked to intercept


class LevelEffect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    hit: int = Field(default=0, ge=-5, le=5)
    miss: int = Field(default=0, ge=-5, le=5)
    damage: int = Field(default=0, ge=-5, le=5)
    defense: int = Field(default=0, ge=-5, le=5)


DEFAULT_LEVELS: dict[Condition, LevelEffect] = {
    "debilitated": LevelEffect(hit=-1, damage=-1),
    "vulnerable": LevelEffect(miss=-1, defense=-1),
    "hindered": LevelEffect(hit=-1, miss=-1),
}


class Settings(BaseModel):
    """Rulings a GM may change; the defaults are the catalogue's."""

    model_config = ConfigDict(extra="forbid")
    hand_size: int = Field(default=5, ge=1, le=15)  # TP-T-1: discard down to this
    starting_hand: int = Field(default=5, ge=0, le=15)  # TP-T-1: 5 to start
    base_reaction_miss: str = "1d4"  # TP-T-4
    gm_acrobatics: str = "1d6"  # the GM's side of an Acrobatics check when a border names none
    condition_levels: dict[Condition, LevelEffect] = Field(default_factory=lambda: dict(DEFAULT_LEVELS))
    fall_die: int = Field(default=4, ge=2, le=12)  # TP-M-5: 1d4 per height
    descend_with_height: bool = True  # ruling: a Move with Height N also steps down N safely

    @field_validator("condition_levels")
    @classmethod
    def _all_conditions(cls, value: dict[Condition, LevelEffect]) -> dict[Condition, LevelEffect]:
        # Changing one condition keeps the catalogue's levels for the others.
        return {**DEFAULT_LEVELS, **value}

    @field_validator("base_reaction_miss", "gm_acrobatics")
    @classmethod
    def _dice(cls, value: str) -> str:
        if not parse_dice(value):
            raise ValueError("needs at least one die, like 1d4")
        return value


def settings_of(state: CampaignState) -> Settings:
    return Settings.model_validate(state.settings or {})


class TriptychoState(Frozen):
    maps: tuple[BattleMap, ...] = SAMPLES  # the GM's saved maps
    board: BattleMap | None = None  # the battle map on the table
    entities: tuple[Entity, ...] = ()
    far_blocks: tuple[FarBlock, ...] = ()
    turn: Turn = Turn()
    attacks: tuple[Attack, ...] = ()

    def entity(self, pid: str) -> Entity | None:
        for e in self.entities:
            if e.id == pid:
                return e
        return None

    def saved_map(self, ref: str) -> BattleMap:
        for m in self.maps:
            if m.id == ref:
                return m
        named = [m for m in self.maps if m.name.casefold() == ref.casefold()]
        if len(named) == 1:
            return named[0]
        raise RuleError(f"There is no saved map {quoted(ref)}.")

    def attack(self, attack_id: str) -> Attack | None:
        return next((a for a in self.attacks if a.id == attack_id), None)


def ext_of(state: CampaignState) -> TriptychoState:
    ext = state.ext
    if isinstance(ext, TriptychoState):
        return ext
    return TriptychoState.model_validate(ext or {})


def initial_ext(settings: dict[str, Any]) -> TriptychoState:
    return TriptychoState()


def with_ext(state: CampaignState, ext: TriptychoState) -> CampaignState:
    return state.model_copy(update={"ext": ext})


def put_entity(ext: TriptychoState, entity: Entity) -> TriptychoState:
    if ext.entity(entity.id) is None:
        return ext.model_copy(update={"entities": (*ext.entities, entity)})
    return ext.model_copy(
        update={"entities": tuple(entity if e.id == entity.id else e for e in ext.entities)}
    )
