"""Exact odds of a move's bands from the 2d6 distribution (never sampled)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from app.rules import dice
from app.rules.system import Band

TWO_D6 = dice.sum_of(2, 6)
_DIE = dice.uniform(6)


def _pairs() -> list[tuple[int, int, Fraction]]:
    return [(a, b, pa * pb) for a, pa in _DIE.items() for b, pb in _DIE.items()]


def band_chances(mod: int) -> dict[str, Fraction]:
    """TC-R-1: the chance of 6-, 7-9 and 10+ on 2d6 + mod (TC-R-5: 12+ is 10+)."""
    dist = dice.shift(TWO_D6, mod)
    miss = dice.at_most(dist, 6)
    strong = dice.at_least(dist, 10)
    return {"miss": miss, "weak": 1 - miss - strong, "strong": strong}


def band_odds(mod: int, labels: dict[str, str] | None = None) -> tuple[Band, ...]:
    names = labels or {"miss": "6-", "weak": "7-9", "strong": "10+"}
    return tuple(Band.of(names[k], p) for k, p in band_chances(mod).items())


def special_odds(mod: int, labels: dict[str, str]) -> tuple[Band, ...]:
    """Cheat death / face your demons: a double 6 is its own result, whatever the total."""
    chances = {"miss": Fraction(0), "weak": Fraction(0), "strong": Fraction(0), "double6": Fraction(0)}
    for a, b, p in _pairs():
        total = a + b + mod
        key = "double6" if a == b == 6 else "miss" if total <= 6 else "weak" if total <= 9 else "strong"
        chances[key] += p
    return tuple(Band.of(labels[k], p) for k, p in chances.items())


def certain(label: str) -> tuple[Band, ...]:
    return (Band.of(label, Fraction(1)),)


def odds_for(kind_is_special: bool, mod: int, labels: dict[str, str]) -> tuple[Band, ...]:
    chooser: Callable[[int, dict[str, str]], tuple[Band, ...]] = (
        special_odds if kind_is_special else band_odds
    )
    return chooser(mod, labels)
