"""The Trinity Code's own frozen state (`CampaignState.ext`), its settings and small pure helpers.

Characters (PCs) and opponents (NPCs) are keyed by participant id. The two karma pools live here,
not as generic pools, so that only the rules move karma and TC-K-6 (karma is conserved) holds.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from app.rules.campaign.state import CampaignState
from app.rules.system import Frozen

Stat = Literal["power", "quickness", "cool", "wits"]
RangeBand = Literal["close", "medium", "long"]
BANDS: tuple[RangeBand, ...] = ("close", "medium", "long")
Advantage = Literal["none", "team", "enemy"]
MoveKind = Literal[
    "go_toe_to_toe",
    "open_fire",
    "press_home",
    "aim",
    "stand_ground",
    "take_cover",
    "cheat_death",
    "face_demons",
]
STAT_LABEL = {"power": "Power", "quickness": "Quickness", "cool": "Cool", "wits": "Wits"}


class Settings(BaseModel):
    """Rulings a GM may change; the defaults are the catalogue's rulings."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    doubles: bool = Field(default=True, description="TC-R-4: doubles change the next move and add tags.")
    karma_window: Literal["when_points", "always"] = Field(
        default="when_points",
        description="TC-K-2: open a side's karma window only when its pool has points, or before every roll.",
    )
    luck_per_move: int = Field(default=1, ge=1, le=4, description="TC-L-2: Luck points one roll may take.")
    unarmed_harm: int = Field(default=1, ge=0, le=5, description="Harm of a melee move with no melee weapon.")
    default_band: RangeBand = Field(
        default="medium", description="TC-B-1: band of a pair the GM has not set."
    )
    bands_carry_over: bool = Field(
        default=False,
        description="TC-B-1, an older ruling: a new combat keeps the bands the last one ended with "
        "(the seed: the GM sets them anew; pairs not set start at the default band).",
    )
    harm_wake_from_limit: bool = Field(
        default=False,
        description="TC-H-5, an older ruling: waking, and a cheat-death double 6, leave harm limit - 1 "
        "(the seed: 6 harm whatever the limit).",
    )
    stress_reset_from_limit: bool = Field(
        default=False,
        description="TC-S-2, an older ruling: face your demons sets stress to limit - 1 on 10+ and limit - 2 "
        "on a double 6 (the seed: 4 and 3 whatever the limit).",
    )


# Campaigns recorded before these settings existed played the older rulings (issue 15): they keep them.
LEGACY_SETTINGS = {"bands_carry_over": True, "harm_wake_from_limit": True, "stress_reset_from_limit": True}

WAKE_HARM = 6  # TC-H-5: the seed's six
DEMONS_STRESS = {"strong": 4, "double6": 3}  # TC-S-2: the seed's four and three


def wake_harm(settings: Settings, harm_limit: int) -> int:
    """TC-H-5: the harm a character wakes with (never at the limit: that would be dying again)."""
    return harm_limit - 1 if settings.harm_wake_from_limit else min(WAKE_HARM, harm_limit - 1)


def demons_stress(settings: Settings, outcome: str, stress_limit: int) -> int:
    """TC-S-2: the stress a character faced their demons down to (10+ or a double 6)."""
    if settings.stress_reset_from_limit:
        return stress_limit - (1 if outcome == "strong" else 2)
    return max(0, min(DEMONS_STRESS[outcome], stress_limit - (1 if outcome == "strong" else 2)))


def settings_of(state: CampaignState) -> Settings:
    return Settings.model_validate(state.settings or {})


# --- gear -----------------------------------------------------------------------------------------


class Weapon(Frozen):
    id: str
    name: str
    harm: int = Field(ge=0, le=20)
    kind: Literal["melee", "ranged"] = "ranged"
    tags: tuple[RangeBand, ...] = ()  # ranged only: bands it can fire in (TC-W-1)
    ammo: int = Field(default=0, ge=0, le=999)
    capacity: int = Field(default=0, ge=0, le=999)  # ammo after a reload
    spares: int = Field(default=0, ge=0, le=999)  # spare loads (magazines, clips)


class Armour(Frozen):
    name: str = "armour"
    value: int = Field(default=0, ge=0, le=20)  # armour-N
    threshold: int | None = Field(default=None, ge=0, le=999)  # None: threshold-infinite

    @property
    def protects(self) -> bool:
        return self.value > 0 and (self.threshold is None or self.threshold > 0)


class Item(Frozen):
    id: str
    name: str
    heal: int = Field(default=0, ge=0, le=20)
    calm: int = Field(default=0, ge=0, le=20)
    timing: Literal["instant", "delayed"] = "instant"
    uses: int | None = Field(default=None, ge=0, le=99)  # consumable-N; None: not consumable


class Delayed(Frozen):
    """A delayed item's effect, waiting for the character to be safe (TC-HE-1/2)."""

    item: str
    heal: int = 0
    calm: int = 0


class FollowUp(Frozen):
    """TC-R-4: a doubles modifier on the character's next move, if it is the same move."""

    move: MoveKind
    value: int


class Character(Frozen):
    id: str  # participant id
    power: int = Field(default=0, ge=-1, le=3)
    quickness: int = Field(default=0, ge=-1, le=3)
    cool: int = Field(default=0, ge=-1, le=3)
    wits: int = Field(default=0, ge=-1, le=3)
    harm: int = Field(default=0, ge=0)
    harm_limit: int = Field(default=7, ge=1, le=30)
    stress: int = Field(default=0, ge=0)
    stress_limit: int = Field(default=5, ge=1, le=30)
    luck: int = Field(default=8, ge=0, le=99)
    out_of_luck: str = ""  # the playbook's out-of-luck effect (TC-L-3)
    armour: Armour | None = None
    weapons: tuple[Weapon, ...] = ()
    items: tuple[Item, ...] = ()
    ignores_close_penalty: bool = False  # TC-W-2
    dead: bool = False
    lost: bool = False
    opening: int = 0  # TC-OP-1
    shift: int = 0  # a GM shift on the next move (TC-R-3)
    follow_up: FollowUp | None = None
    delayed: tuple[Delayed, ...] = ()

    def stat(self, name: Stat) -> int:
        value: int = getattr(self, name)
        return value

    @property
    def dying(self) -> bool:
        return not self.dead and self.harm == self.harm_limit + 1

    @property
    def unconscious(self) -> bool:
        return not self.dead and self.harm == self.harm_limit

    @property
    def wounded(self) -> bool:
        return self.harm >= 4

    @property
    def traumatised(self) -> bool:
        return self.stress >= 2

    @property
    def on_the_brink(self) -> bool:
        return not self.lost and self.stress >= self.stress_limit

    @property
    def conditions(self) -> tuple[str, ...]:
        flags = {
            "wounded": self.wounded and not self.dead,
            "traumatised": self.traumatised and not self.lost,
            "unconscious": self.unconscious,
            "dying": self.dying,
            "dead": self.dead,
            "on-the-brink": self.on_the_brink and not self.dead,
            "lost": self.lost,
            "out-of-luck": self.luck == 0,
        }
        return tuple(name for name, on in flags.items() if on)

    def weapon(self, ref: str | None) -> Weapon | None:
        return _by_ref(self.weapons, ref)

    def item(self, ref: str | None) -> Item | None:
        return _by_ref(self.items, ref)


class Opponent(Frozen):
    id: str  # participant id
    harm: int = Field(default=1, ge=0, le=20)  # the harm they inflict
    harm_limit: int = Field(default=3, ge=1, le=50)
    taken: int = Field(default=0, ge=0)  # harm suffered
    armour: Armour | None = None
    attack: Literal["melee", "ranged"] = "melee"

    @property
    def out(self) -> bool:
        return self.taken >= self.harm_limit


Ref = TypeVar("Ref", Weapon, Item)


def _by_ref(items: tuple[Ref, ...], ref: str | None) -> Ref | None:
    if not ref:
        return None
    for item in items:
        if item.id == ref:
            return item
    named = [i for i in items if i.name.casefold() == ref.casefold()]
    return named[0] if len(named) == 1 else None


# --- the move in progress -------------------------------------------------------------------------


class Mod(Frozen):
    key: str  # stat, advantage, good_karma, bad_karma, wounded, traumatised, close_tag, opening, ...
    label: str
    value: int


class Move(Frozen):
    """The one move being made: declared, karma window, roll, Luck, 10+ pick, GM band answer."""

    id: str
    kind: MoveKind
    character: str
    opponent: str | None = None
    weapon: str | None = None
    stat: Stat
    band: RangeBand | None = None  # the pair's band when declared
    good: int | None = None  # points the players grabbed; None: not answered yet
    bad: int | None = None  # points the GM grabbed
    faces: tuple[int, ...] = ()
    mods: tuple[Mod, ...] = ()
    total: int | None = None
    result: Literal["miss", "weak", "strong"] | None = None  # 6-, 7-9, 10+
    twelve: bool = False  # Luck replaced the result by 12+ (doubles do not apply)
    ignore_negatives: bool = False
    no_harm: bool = False
    luck_spent: int = 0
    luck_done: bool = False
    effect: str | None = None
    resolved: bool = False
    opponent_may_move: bool = False
    band_answered: bool = False

    @property
    def rolled(self) -> bool:
        return self.total is not None

    @property
    def doubles(self) -> int | None:
        if len(self.faces) == 2 and self.faces[0] == self.faces[1] and not self.twelve:
            return self.faces[0]
        return None


class Link(Frozen):
    """One player's range band to one opponent (TC-B-1)."""

    character: str
    opponent: str
    band: RangeBand


class EnvTag(Frozen):
    id: str
    text: str
    positive: bool


class PendingTag(Frozen):
    """A doubles tag waiting for its author (TC-R-4)."""

    id: str
    to: str  # "gm" or the character's participant id
    positive: bool


class TrinityState(Frozen):
    characters: tuple[Character, ...] = ()
    opponents: tuple[Opponent, ...] = ()
    good: int = Field(default=0, ge=0)
    bad: int = Field(default=0, ge=0)
    aside_good: int = Field(default=0, ge=0)  # grabbed by the players, set aside (TC-K-2)
    aside_bad: int = Field(default=0, ge=0)  # grabbed by the GM
    investigation: int = 1
    hours: int = 0  # hours passed in this Investigation (TC-HE-3)
    advantage: Advantage = "none"
    links: tuple[Link, ...] = ()
    tags: tuple[EnvTag, ...] = ()
    pending_tags: tuple[PendingTag, ...] = ()
    move: Move | None = None
    last: Move | None = None  # the last finished move, for the pages' result card

    def character(self, pid: str | None) -> Character | None:
        return next((c for c in self.characters if c.id == pid), None)

    def opponent(self, pid: str | None) -> Opponent | None:
        return next((o for o in self.opponents if o.id == pid), None)

    def band(self, character: str, opponent: str, default: RangeBand) -> RangeBand:
        for link in self.links:
            if link.character == character and link.opponent == opponent:
                return link.band
        return default

    @property
    def karma_total(self) -> int:
        return self.good + self.bad + self.aside_good + self.aside_bad


def initial_ext(settings: dict[str, Any]) -> TrinityState:
    return TrinityState()


def ext(state: CampaignState) -> TrinityState:
    value = state.ext
    if isinstance(value, TrinityState):
        return value
    return TrinityState.model_validate(value) if value else TrinityState()


def with_ext(state: CampaignState, new: TrinityState) -> CampaignState:
    return state.model_copy(update={"ext": new})


def put_character(t: TrinityState, c: Character) -> TrinityState:
    rest = tuple(x for x in t.characters if x.id != c.id)
    if len(rest) == len(t.characters):
        return t.model_copy(update={"characters": (*t.characters, c)})
    return t.model_copy(update={"characters": tuple(c if x.id == c.id else x for x in t.characters)})


def put_opponent(t: TrinityState, o: Opponent) -> TrinityState:
    if t.opponent(o.id) is None:
        return t.model_copy(update={"opponents": (*t.opponents, o)})
    return t.model_copy(update={"opponents": tuple(o if x.id == o.id else x for x in t.opponents)})


def put_link(t: TrinityState, character: str, opponent: str, band: RangeBand) -> TrinityState:
    rest = tuple(x for x in t.links if not (x.character == character and x.opponent == opponent))
    return t.model_copy(update={"links": (*rest, Link(character=character, opponent=opponent, band=band))})


def shifted(band: RangeBand, direction: str) -> RangeBand | None:
    """TC-B-3: one band closer or further, or None past the ends."""
    i = BANDS.index(band) + (-1 if direction == "closer" else 1)
    return BANDS[i] if 0 <= i < len(BANDS) else None


def through_armour(amount: int, armour: Armour | None) -> tuple[int, int, Armour | None]:
    """TC-H-2: (harm taken, harm absorbed, the armour after). Armour is used only when harm comes in."""
    if amount <= 0 or armour is None or not armour.protects:
        return max(amount, 0), 0, armour
    absorbed = min(armour.value, amount)
    threshold = None if armour.threshold is None else armour.threshold - 1
    return amount - absorbed, absorbed, armour.model_copy(update={"threshold": threshold})
