"""TOTE's own frozen state: character sheets, the armour table, settings and the fight.

Sheets (heroes and enemies) live on the campaign and keep what a fight did to them (Resolve,
injuries) into the next encounter. The `Fight` lives only while an encounter runs.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.rules.system import Frozen

Band = Literal["melee", "close", "far"]
BANDS: tuple[Band, ...] = ("melee", "close", "far")
BAND_NAMES = {"melee": "Melee", "close": "Close", "far": "Far"}
CriticalType = Literal["bash", "pierce", "slash"]
ActionName = Literal[
    "assault", "attack", "grapple", "intimidate", "shoot", "defend", "disengage", "move", "recover"
]
Side = Literal["hero", "enemy"]

# The seed's action table: Initiative cost of each action (TO-AS-1 .. TO-RC-1, TO-E-2).
COSTS: dict[str, int] = {
    "assault": 2,
    "attack": 1,
    "grapple": 0,
    "intimidate": 1,
    "shoot": 2,
    "defend": 0,
    "disengage": 3,
    "move": 0,
    "recover": 0,
}
ACTION_NAMES = {a: a.capitalize() for a in COSTS}
ACTION_RULES = {
    "assault": "TO-AS-1",
    "attack": "TO-AT-1",
    "grapple": "TO-GR-1",
    "intimidate": "TO-IM-1",
    "shoot": "TO-SH-1",
    "defend": "TO-DF-1",
    "disengage": "TO-E-2",
    "move": "TO-MV-1",
    "recover": "TO-RC-1",
}
ATTACKS = frozenset({"assault", "attack", "grapple", "shoot"})
MELEE_ACTIONS = frozenset({"assault", "attack", "grapple", "intimidate"})
ROLLING = frozenset({"assault", "attack", "grapple", "shoot", "intimidate"})
# In a distance round (not at Melee) only these may be chosen (TO-R-1).
DISTANCE_ACTIONS = frozenset({"move", "shoot"})

HERO_TRACK: tuple[str, ...] = ("5", "4", "3", "2", "1", "U")

# The game's armour table (Master Defenses Table): name -> (Rating, Encumbrance).
ARMOUR: dict[str, tuple[int, int]] = {
    "Hide Cuirass": (1, 2),
    "Hardened Leather": (2, 4),
    "Wicker": (3, 5),
    "Woven Rods": (3, 6),
    "Wooden Scale": (4, 8),
    "Iron Chain": (5, 10),
}

UNARMED = {"name": "Unarmed", "base": 1, "effect": 1, "critical": "bash", "ranged": False, "brawl": True}


class Settings(BaseModel):
    """Rulings a GM may change; the defaults are the catalogue's rulings (see docs/rules/tote.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    keep_die: Literal["highest", "critical"] = Field(
        default="highest",
        description="Which usable skill die a hero keeps: the highest, or one matching the Paragon die "
        "when that still passes (a Critical).",
    )
    double_six: Literal["critical", "bonuses"] = Field(
        default="bonuses",
        description="A pass with two 6s: two Bonuses, one Effect Test for twice Base Damage (TO-D-4, TO-H-3, "
        "the seed); 'critical' reads it as a Critical instead (the 1.1 text's reading).",
    )
    armour_adds_to: Literal["resist", "block", "none"] = Field(
        default="resist", description="What a hero's armour Rating is added to."
    )
    short_initiative: Literal["spend_to_zero", "lost"] = Field(
        default="spend_to_zero",
        description="An action whose actor lost Initiative after declaring: it resolves and Initiative "
        "stops at 0, or it is lost.",
    )
    defend_responses: Literal["one", "every"] = Field(
        default="one", description="How many attacks a Defending character may answer in a round."
    )
    enemy_injuries_block_faces: bool = Field(
        default=True, description="A filled number on an enemy's track makes that face unusable too."
    )
    show_enemy_numbers: bool = Field(
        default=False,
        description="Players see enemies' Block, Resist and Rating in the log, their Initiative, and the "
        "exact Resolve they lose or regain and the circles marked.",
    )


class Weapon(Frozen):
    name: str = Field(min_length=1, max_length=40)
    base: int = Field(ge=0, le=20)  # Base Damage
    effect: int = Field(ge=0, le=10)  # Effect value: dice of the Effect test
    critical: CriticalType
    ranged: bool = False  # used with Shoot
    brawl: bool = False  # used with Grapple


class Hero(Frozen):
    id: str
    skills: dict[str, int] = Field(default_factory=dict)
    specialisations: dict[str, int] = Field(default_factory=dict)
    totems: dict[str, int] = Field(default_factory=dict)
    resolve_max: int
    resolve: int
    block: int
    resist: int
    armour: tuple[str, ...] = ()
    encumbrance: int = 0
    weapons: tuple[Weapon, ...] = ()
    track: tuple[str, ...] = HERO_TRACK
    injuries: int = 0  # circles filled, in the track's order


class Enemy(Frozen):
    id: str
    rating: int
    block: int
    resist: int
    resolve_max: int
    resolve: int
    encumbrance: int = 0
    weapons: tuple[Weapon, ...] = ()
    track: tuple[str, ...] = HERO_TRACK
    injuries: int = 0
    group: str | None = None


class Combatant(Frozen):
    id: str
    side: Side
    unit: str  # the Initiative it draws on: its own id, or "g:<group>" for a group of enemies
    band: Band
    fled: bool = False
    attacked: bool = False  # this round (Defend)
    responses: int = 0  # Defend answers made this round
    disengaging: bool = False  # leaves its engagements when the round ends (TO-E-2)
    down_round: int | None = None  # knocked down: cannot act in this round (TO-C-1)


class Unit(Frozen):
    id: str
    members: tuple[str, ...]
    value: int | None = None  # None until rolled
    start: int = 0  # the rolled value, for the bar


class Declaration(Frozen):
    id: str
    round: int
    actor: str
    action: ActionName
    cost: int
    target: str | None = None
    weapon: int | None = None  # index into the actor's weapons; -1 unarmed
    direction: Literal["closer", "further"] | None = None
    state: Literal["pending", "done", "lost", "returned"] = "pending"
    finished: int | None = None  # the seq of the event that resolved, lost or replaced it


class Fight(Frozen):
    encounter: str
    distance: Band  # the GM's starting Distance
    round: int = 0
    phase: Literal["initiative", "declare", "resolve", "over"] = "initiative"
    combatants: tuple[Combatant, ...] = ()
    units: tuple[Unit, ...] = ()
    engaged: tuple[tuple[str, str], ...] = ()  # sorted pairs
    order: tuple[str, ...] = ()  # this round's declaration order (lowest Initiative first)
    declarations: tuple[Declaration, ...] = ()
    winner: str | None = None
    last: dict[str, Any] | None = None  # the last test rolled, as its event told it (for the screens)


class ToteState(Frozen):
    heroes: tuple[Hero, ...] = ()
    enemies: tuple[Enemy, ...] = ()
    fight: Fight | None = None


def initial_ext(settings: dict) -> ToteState:
    return ToteState()
