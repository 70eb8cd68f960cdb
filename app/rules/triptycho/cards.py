"""Action, Reaction and Strategy cards as the GM enters them, with the entries the seed names.

Dice entries are written like `2d6` or `1d8+1d4` and are rolled as dice *levels* (TP-T-3): d2, d4,
d6, d8, d10, d12.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from app.rules.errors import quoted
from app.rules.system import Frozen

LADDER = (2, 4, 6, 8, 10, 12)
_TERM = re.compile(r"^(\d*)d(\d+)$")

Gear = Literal["weapon", "armor", "shield"]
CardKind = Literal["action", "reaction", "strategy"]
Targets = Literal["all", "enemies", "allies"]


def parse_dice(text: str) -> tuple[int, ...]:
    """`2d6+1d4` as die sizes, largest first: (6, 6, 4). Empty text is no dice."""
    raw = (text or "").replace(" ", "").lower()
    if not raw:
        return ()
    sizes: list[int] = []
    for part in raw.split("+"):
        match = _TERM.match(part)
        if not match:
            raise ValueError(f"{quoted(text)} is not a dice entry: write it like 2d6 or 1d8+1d4")
        count, sides = int(match.group(1) or 1), int(match.group(2))
        if sides not in LADDER:
            raise ValueError(f"d{sides} is not a Triptycho die: use d2, d4, d6, d8, d10 or d12")
        if not 1 <= count <= 10:
            raise ValueError(f"'{part}' must roll 1 to 10 dice")
        sizes.extend([sides] * count)
    if len(sizes) > 20:
        raise ValueError("a dice entry rolls at most 20 dice")
    return tuple(sorted(sizes, reverse=True))


def dice_text(sizes: tuple[int, ...]) -> str:
    """(6, 6, 4) as `2d6+1d4`; no dice as an empty string."""
    parts = []
    for size in sorted(set(sizes), reverse=True):
        parts.append(f"{sizes.count(size)}d{size}")
    return "+".join(parts)


def shift(sizes: tuple[int, ...], levels: int) -> tuple[int, ...]:
    """Each die moved `levels` steps along d2..d12; a die lowered below d2 is removed (TP-T-3)."""
    out = []
    for size in sizes:
        i = LADDER.index(size) + levels
        if i >= 0:
            out.append(LADDER[min(i, len(LADDER) - 1)])
    return tuple(out)


class Card(Frozen):
    """A card definition. An entity's deck lists card ids; copies in play are `<id>#<n>`."""

    id: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.:-]+$")
    name: str = Field(min_length=1, max_length=60)
    kind: CardKind = "action"
    text: str = Field(default="", max_length=500)
    # Reach and targeting
    range: int | None = Field(default=None, ge=0, le=50)
    thrown: int | None = Field(default=None, ge=0, le=50)
    reach: int | None = Field(default=None, ge=0, le=50)
    area: Targets | None = None  # Area Attack: every entity in a section (or only enemies / allies)
    exclude_self: bool = False
    hostile: bool = False
    underwater: bool = False  # a ranged attack that can reach underwater targets (TP-W-4)
    incantation: int | None = Field(default=None, ge=1, le=20)
    # Movement granted by the card
    move: int | None = Field(default=None, ge=1, le=20)
    phase: int | None = Field(default=None, ge=1, le=20)
    fly: int | None = Field(default=None, ge=1, le=20)
    teleport: int | None = Field(default=None, ge=1, le=20)
    height: int | None = Field(default=None, ge=1, le=50)  # a Move that climbs borders this high
    # Dice
    hit: str = ""
    miss: str = ""
    damage: str = ""
    defense: str = ""
    piercing: int = Field(default=0, ge=0, le=6)
    gear: Gear | None = None  # weapons, armour and shields suffer in water (TP-W-1)
    weapon_type: str = Field(default="", max_length=20)  # dagger and spear ignore some water penalties

    @field_validator("hit", "miss", "damage", "defense")
    @classmethod
    def _dice(cls, value: str) -> str:
        return dice_text(parse_dice(value))

    def dice(self, role: str) -> tuple[int, ...]:
        return parse_dice(getattr(self, role))

    @property
    def reach_of(self) -> int:
        """How many borders the Action reaches: its Range, Thrown or Reach; 0 for melee (TP-D-2)."""
        return max(self.range or 0, self.thrown or 0, self.reach or 0)

    @property
    def ranged(self) -> bool:
        return self.range is not None or self.thrown is not None

    @property
    def melee(self) -> bool:
        return not self.ranged

    @property
    def movement(self) -> tuple[Literal["teleport", "phase", "fly", "move"], int] | None:
        """The movement the card grants: (kind, N)."""
        kinds: tuple[Literal["teleport", "phase", "fly", "move"], ...] = ("teleport", "phase", "fly", "move")
        for kind in kinds:
            n = getattr(self, kind)
            if n:
                return kind, n
        return None

    @property
    def attacks(self) -> bool:
        return self.hostile or bool(self.hit) or bool(self.damage)

    def entries(self) -> list[str]:
        """The card's entries as a player reads them."""
        out = []
        for key, label in (("range", "Range"), ("thrown", "Thrown"), ("reach", "Reach")):
            if getattr(self, key) is not None:
                out.append(f"{label} {getattr(self, key)}")
        if self.area:
            out.append("Area Attack" + ("" if self.area == "all" else f" ({self.area})"))
        if self.incantation:
            out.append(f"Incantation {self.incantation}")
        for key in ("move", "phase", "fly", "teleport"):
            if getattr(self, key):
                out.append(f"{key.capitalize()} {getattr(self, key)}")
        if self.height:
            out.append(f"Height {self.height}")
        for key in ("hit", "miss", "damage", "defense"):
            if getattr(self, key):
                out.append(f"{key.capitalize()} {getattr(self, key)}")
        if self.piercing:
            out.append(f"Piercing {self.piercing}")
        if self.hostile:
            out.append("Hostile")
        return out


BASE_REACTION_ID = "base"


def base_reaction(miss: str) -> Card:
    """Every PC's base Reaction (TP-T-4): Miss 1d4 unless the GM's settings say otherwise."""
    return Card(id=BASE_REACTION_ID, name="Base Reaction", kind="reaction", miss=miss)
