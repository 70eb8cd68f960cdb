"""The 5x5 roll: two d5 multiplied (FX-D-1), its target (FX-D-2, FX-D-4), criticals (FX-D-3), exact odds.

A d5 is a physical d6 whose 6 reads 0, so every roll is two d6 faces; the faces go into the event.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

from app.rules.dice import Roller, read_face
from app.rules.system import Band

FACES = range(1, 7)
TOP_LEVEL = 5  # no Rank goes past 5, even shifted (the "5x5")
BOTTOM_LEVEL = -1  # an unskilled action shifted down: "weak"


def level(rank: int, shift: int) -> int:
    """A Rank after the GM's circumstance shift (FX-D-4), within -1 (weak) .. 5."""
    return max(BOTTOM_LEVEL, min(TOP_LEVEL, rank + shift))


def target(
    rank: int, shift: int, ability: int, unskilled_minus_one: bool = False, twenty_five_fails: bool = False
) -> int:
    """What a 5x5 roll must not exceed: Rank x Ability (FX-D-2), 0 x Ability = 0 unskilled (FX-D-4).

    With the author's later rulings: an unskilled action aims for Ability - 1 (Ability - 2 shifted down),
    and a 25 always fails, which is a target of at most 24 (no two d5 make anything between 20 and 25).
    """
    lvl = level(rank, shift)
    if lvl >= 1:
        needed = lvl * ability
    elif unskilled_minus_one:
        needed = ability - 1 + lvl
    else:
        needed = 0
    return min(needed, 24) if twenty_five_fails else needed


def succeeds(total: int, needed: int) -> bool:
    """FX-D-2: at most the target succeeds, 25 against 25 included; a 0 always succeeds."""
    return total == 0 or total <= needed


@dataclass(frozen=True)
class FiveRoll:
    faces: tuple[int, int]  # the physical d6 faces

    @property
    def values(self) -> tuple[int, int]:
        return (read_face(self.faces[0], True), read_face(self.faces[1], True))

    @property
    def total(self) -> int:
        return self.values[0] * self.values[1]

    @property
    def doubles(self) -> bool:
        return self.values[0] == self.values[1]

    def success(self, needed: int) -> bool:
        return succeeds(self.total, needed)

    def critical(self, needed: int) -> bool:
        """FX-D-3: a successful roll showing doubles."""
        return self.success(needed) and self.doubles

    def as_dict(self) -> dict[str, Any]:
        """Shaped like dice.RollResult.as_dict(), with the product as the total."""
        return {
            "expression": "5x5",
            "terms": [
                {
                    "notation": "2d5",
                    "sides": 6,
                    "faces": list(self.faces),
                    "values": list(self.values),
                    "kept": [True, True],
                    "sign": 1,
                }
            ],
            "modifier": 0,
            "total": self.total,
        }


def roll(roller: Roller) -> FiveRoll:
    first, second = roller.roll(6, 2)
    return FiveRoll((first, second))


@cache
def chances(needed: int) -> tuple[Fraction, Fraction, Fraction]:
    """Exact chance of (critical success, plain success, failure) for a target, over all 36 faces."""
    crit = plain = fail = 0
    for faces in product(FACES, FACES):
        r = FiveRoll(faces)
        if r.critical(needed):
            crit += 1
        elif r.success(needed):
            plain += 1
        else:
            fail += 1
    return Fraction(crit, 36), Fraction(plain, 36), Fraction(fail, 36)


def success_chance(needed: int) -> Fraction:
    crit, plain, _ = chances(needed)
    return crit + plain


def bands(needed: int, critical: str, success: str, failure: str) -> tuple[Band, ...]:
    crit, plain, fail = chances(needed)
    return (Band.of(critical, crit), Band.of(success, plain), Band.of(failure, fail))


def attack_bands(needed: int) -> tuple[Band, ...]:
    return bands(needed, "Double Hit", "Hit", "Miss")


def defence_bands(needed: int) -> tuple[Band, ...]:
    return bands(needed, "Blocked the Hit", "Controlled", "Not controlled")
