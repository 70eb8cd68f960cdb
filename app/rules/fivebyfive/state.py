"""The frozen state of Xceptional "5x5" combat: character sheets, the tabletop and the fight.

It lives in `CampaignState.ext`. Character sheets are keyed by participant id and stay across
encounters (damage stays on a character); the board and the fight belong to the encounter.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.rules.campaign.state import CampaignState, Participant
from app.rules.errors import RuleError
from app.rules.system import Frozen

Ability = Literal["rage", "grace", "precognition"]
Rank = Literal["strike", "aim", "focus", "parry", "dodge", "resist"]
Action = Literal["strike", "aim", "focus"]
Side = Literal["pc", "npc"]
Status = Literal["ok", "unconscious", "dead"]

ABILITIES: tuple[Ability, ...] = ("rage", "grace", "precognition")
RANKS: tuple[Rank, ...] = ("strike", "aim", "focus", "parry", "dodge", "resist")
ACTIONS: tuple[Action, ...] = ("strike", "aim", "focus")

# FX-A-1: which Ability each Combat Rank multiplies.
ABILITY_OF: dict[str, Ability] = {
    "strike": "rage",
    "parry": "rage",
    "aim": "grace",
    "dodge": "grace",
    "focus": "precognition",
    "resist": "precognition",
}
# FX-O-2: the Defensive Action paired with each Offensive Action.
DEFENCE_OF: dict[str, Rank] = {"strike": "parry", "aim": "dodge", "focus": "resist"}

PC_ABILITY_MAX = 4  # FX-A-1: PCs' Ability Scores run 1-4
ABILITY_MAX = 5  # NPCs may be stronger, within the 5x5 roll
PC_RANK_MAX = 4  # ranks run 1-4 plus unskilled (0); 5 only by a GM's shift (FX-D-4)
RANK_MAX = 5


class Settings(BaseModel):
    """Rulings a GM may change; each default is the seed's rule (or the catalogue's ruling)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strike_reach: float = Field(
        default=1.0, gt=0, le=12, description="FX-O-1: how far a Strike reaches, in inches."
    )
    """FX-O-1: Strike reaches a target within this many inches; Aim needs one farther away."""
    unskilled_ability_minus_one: bool = Field(
        default=False,
        description="FX-D-4, the author's later posts: an unskilled action (Rank 0) aims for Ability - 1 "
        "instead of the seed's 0.",
    )
    twenty_five_always_fails: bool = Field(
        default=False,
        description="FX-D-2, the author's later posts: a roll of 25 always fails, even against 25.",
    )
    unskilled_focus_forbidden: bool = Field(
        default=False,
        description="FX-O-1, an older ruling: Focus cannot be tried at Rank 0, unlike Strike and Aim.",
    )
    fog_of_war: bool = Field(default=True, description="Players see an NPC's token only while a PC sees it.")
    fallen_can_be_targeted: bool = Field(
        default=False, description="Unconscious characters may be attacked (they cannot Control the Hit)."
    )


# Campaigns recorded before these settings existed played by the author's posts (issue 15): they keep them.
LEGACY_SETTINGS = {"twenty_five_always_fails": True, "unskilled_focus_forbidden": True}


class Abilities(Frozen):
    rage: int
    grace: int
    precognition: int

    def get(self, ability: str) -> int:
        return int(getattr(self, ability))

    def minus(self, ability: str, by: int = 1) -> Abilities:
        return self.model_copy(update={ability: self.get(ability) - by})

    def values(self) -> tuple[int, int, int]:
        return (self.rage, self.grace, self.precognition)


class Ranks(Frozen):
    strike: int = 0
    aim: int = 0
    focus: int = 0
    parry: int = 0
    dodge: int = 0
    resist: int = 0

    def get(self, rank: str) -> int:
        return int(getattr(self, rank))


class Character(Frozen):
    participant: str
    scores: Abilities  # undamaged
    current: Abilities  # FX-H-2: every roll uses these
    ranks: Ranks = Ranks()
    shifts: Ranks = Ranks()  # FX-D-4: the GM's standing circumstance shifts, -1..+1 per rank
    status: Status = "ok"

    def damaged(self) -> tuple[Ability, ...]:
        return tuple(a for a in ABILITIES if self.current.get(a) < self.scores.get(a))

    @property
    def able(self) -> bool:
        return self.status == "ok"


class Terrain(Frozen):
    id: str
    name: str = ""
    points: tuple[tuple[float, float], ...]
    solid: bool = True  # blocks movement as well as sight


class Token(Frozen):
    participant: str
    x: float
    y: float

    @property
    def at(self) -> tuple[float, float]:
        return (self.x, self.y)


class Board(Frozen):
    width: float = 36.0
    height: float = 24.0
    terrain: tuple[Terrain, ...] = ()
    tokens: tuple[Token, ...] = ()

    def token(self, pid: str) -> Token | None:
        return next((t for t in self.tokens if t.participant == pid), None)

    def polygons(self) -> tuple[tuple[tuple[float, float], ...], ...]:
        return tuple(t.points for t in self.terrain)

    def walls(self) -> tuple[tuple[tuple[float, float], ...], ...]:
        return tuple(t.points for t in self.terrain if t.solid)


class OrderEntry(Frozen):
    participant: str
    initiative: int
    tiebreak: tuple[int, ...] = ()  # the dice that settled a tie (FX-I-1), highest first


class Attack(Frozen):
    """An Offensive Action that Made a Hit, being resolved."""

    attacker: str
    defender: str
    action: Action
    hits: int  # 2 for a Double Hit (FX-C-1)
    outcomes: tuple[str, ...] = ()  # per hit: blocked | controlled | uncontrolled
    damage: tuple[str, ...] = ()  # the Ability each resolved hit reduced, in order
    prompt: str | None = None


class Fight(Frozen):
    round: int = 0
    order: tuple[OrderEntry, ...] = ()
    turn: int = -1  # index into order; -1 between rounds
    moved: float = 0.0  # inches moved this turn
    acted: bool = False
    attack: Attack | None = None
    winner: Side | None = None

    @property
    def current(self) -> str | None:
        return self.order[self.turn].participant if 0 <= self.turn < len(self.order) else None

    def initiative_of(self, pid: str) -> int | None:
        return next((e.initiative for e in self.order if e.participant == pid), None)


class FiveState(Frozen):
    characters: tuple[Character, ...] = ()
    board: Board = Board()
    fight: Fight | None = None

    def character(self, pid: str) -> Character | None:
        return next((c for c in self.characters if c.participant == pid), None)


# --- lookups -------------------------------------------------------------------------------------


def ext(state: CampaignState) -> FiveState:
    value = state.ext
    if isinstance(value, FiveState):
        return value
    return FiveState.model_validate(value) if value else FiveState()


def with_ext(state: CampaignState, new: FiveState) -> CampaignState:
    return state.model_copy(update={"ext": new})


def settings(state: CampaignState) -> Settings:
    known = {k: v for k, v in (state.settings or {}).items() if k in Settings.model_fields}
    return Settings.model_validate(known)


def sheet(state: CampaignState, pid: str) -> Character:
    found = ext(state).character(pid)
    if found is None:
        name = state.participant(pid).name
        raise RuleError(f"{name} has no 5x5 character sheet yet: the GM sets one up first.", rule="FX-A-1")
    return found


def side_of(p: Participant) -> Side:
    return "pc" if p.kind == "pc" else "npc"


def allowance(initiative: int) -> int:
    """FX-M-1: a character moves up to their Initiative in inches, and at least 1 inch."""
    return max(initiative, 1)


def status_after(previous: Status, current: Abilities, knocked_out: bool = False) -> Status:
    """FX-H-3 / FX-K-1: dead stays dead; below 0 or two at 0 is death; one at 0 (or a KO) is unconscious."""
    values = current.values()
    if previous == "dead" or min(values) < 0 or values.count(0) >= 2:
        return "dead"
    if previous == "unconscious" or knocked_out or 0 in values:
        return "unconscious"
    return "ok"
