"""TOTE's dice: skill tests (TO-D-1..4), enemy tests (TO-D-5) and Effect tests (TO-D-6).

Every test rolls through the roller and records every face; `as_roll()` shapes it like
`dice.RollResult.as_dict()` (plus a `blocked` list per term) so the log shows the dice.
The same `count` function decides real rolls and the exact odds in `odds.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from app.rules.dice import Roller

Kind = Literal["hero", "enemy", "effect"]


@dataclass(frozen=True)
class Counted:
    kept: tuple[int, ...]  # indexes of the counted dice among `faces` (heroes: the one skill die kept)
    counted: tuple[int, ...]  # the values that count (heroes: kept skill die then the Paragon die)


def keep_hero(
    faces: tuple[int, ...],
    blocked: frozenset[int],
    paragon: int,
    modifier: int,
    target: int,
    rule: str,
) -> Counted:
    """TO-D-1/2: keep one usable skill die (the highest, or a Critical if the rule prefers it)."""
    usable = [i for i, f in enumerate(faces) if f not in blocked]
    if not usable:
        return Counted((), (paragon,))
    best = max(usable, key=lambda i: (faces[i], -i))
    if rule == "critical" and 2 * paragon + modifier >= target:
        match = next((i for i in usable if faces[i] == paragon), None)
        if match is not None:
            best = match
    return Counted((best,), (faces[best], paragon))


def keep_two(faces: tuple[int, ...], blocked: frozenset[int]) -> Counted:
    """TO-D-5/6: count the two highest (usable) dice."""
    usable = sorted((i for i, f in enumerate(faces) if f not in blocked), key=lambda i: (-faces[i], i))[:2]
    kept = tuple(sorted(usable))
    return Counted(kept, tuple(sorted((faces[i] for i in kept), reverse=True)))


@dataclass(frozen=True)
class Score:
    total: int
    passed: bool
    bonuses: int
    successes: int
    critical: bool


def score(counted: tuple[int, ...], modifier: int, target: int, double_six: str = "critical") -> Score:
    """TO-D-1/3/4: pass at target or more; a Bonus per counted 6; a Critical on a matching pair."""
    total = sum(counted) + modifier
    passed = bool(counted) and total >= target
    bonuses = sum(1 for v in counted if v == 6) if passed else 0
    critical = passed and len(counted) == 2 and counted[0] == counted[1]
    if critical and counted[0] == 6 and double_six == "bonuses":
        critical = False
    return Score(total, passed, bonuses, 1 + bonuses if passed else 0, critical)


@dataclass(frozen=True)
class TestRoll:
    kind: Kind
    label: str
    faces: tuple[int, ...]
    blocked: frozenset[int]
    kept: tuple[int, ...]
    counted: tuple[int, ...]
    paragon: int | None
    modifier: int
    target: int
    score: Score

    @property
    def passed(self) -> bool:
        return self.score.passed

    @property
    def successes(self) -> int:
        return self.score.successes

    def as_roll(self) -> dict[str, Any]:
        dice_name = {"hero": "skill", "enemy": "Rating", "effect": "Effect"}[self.kind]
        terms: list[dict[str, Any]] = []
        if self.faces:
            terms.append(
                {
                    "notation": f"{len(self.faces)}d6 {dice_name}",
                    "sides": 6,
                    "faces": list(self.faces),
                    "values": list(self.faces),
                    "kept": [i in self.kept for i in range(len(self.faces))],
                    "blocked": [f in self.blocked for f in self.faces],
                    "sign": 1,
                }
            )
        if self.paragon is not None:
            terms.append(
                {
                    "notation": "Paragon d6",
                    "sides": 6,
                    "faces": [self.paragon],
                    "values": [self.paragon],
                    "kept": [True],
                    "blocked": [False],
                    "sign": 1,
                }
            )
        parts = [t["notation"] for t in terms]
        if self.modifier:
            parts.append(f"{self.modifier:+d}")
        return {
            "expression": " + ".join(parts) if parts else "no dice",
            "terms": terms,
            "modifier": self.modifier,
            "total": self.score.total,
        }

    def as_dict(self, show_target: bool = True) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "label": self.label,
            "faces": list(self.faces),
            "blocked": sorted(self.blocked),
            "counted": list(self.counted),
            "paragon": self.paragon,
            "modifier": self.modifier,
            "target": self.target if show_target else None,
            "total": self.score.total,
            "passed": self.score.passed,
            "bonuses": self.score.bonuses,
            "successes": self.score.successes,
            "critical": self.score.critical,
            "roll": self.as_roll(),
        }


def hero_test(
    roller: Roller,
    label: str,
    rating: int,
    blocked: Iterable[int],
    modifier: int,
    target: int,
    keep_rule: str = "highest",
    double_six: str = "critical",
) -> TestRoll:
    """Skill dice first, then the Paragon die (the order to type physical dice in)."""
    faces = tuple(roller.roll(6, rating)) if rating > 0 else ()
    paragon = roller.roll(6, 1)[0]
    blocked_set = frozenset(blocked)
    counted = keep_hero(faces, blocked_set, paragon, modifier, target, keep_rule)
    s = score(counted.counted, modifier, target, double_six)
    return TestRoll(
        "hero", label, faces, blocked_set, counted.kept, counted.counted, paragon, modifier, target, s
    )


def enemy_test(
    roller: Roller,
    label: str,
    rating: int,
    blocked: Iterable[int],
    modifier: int,
    target: int,
    double_six: str = "critical",
) -> TestRoll:
    faces = tuple(roller.roll(6, rating)) if rating > 0 else ()
    blocked_set = frozenset(blocked)
    counted = keep_two(faces, blocked_set)
    s = score(counted.counted, modifier, target, double_six)
    return TestRoll(
        "enemy", label, faces, blocked_set, counted.kept, counted.counted, None, modifier, target, s
    )


def effect_test(roller: Roller, label: str, effect: int, resist: int) -> TestRoll:
    """TO-D-6: Effect-value dice, the two highest against Resist; no Bonuses or Criticals count."""
    faces = tuple(roller.roll(6, effect)) if effect > 0 else ()
    counted = keep_two(faces, frozenset())
    total = sum(counted.counted)
    passed = bool(faces) and total >= resist
    s = Score(total, passed, 0, 1 if passed else 0, False)
    return TestRoll("effect", label, faces, frozenset(), counted.kept, counted.counted, None, 0, resist, s)
