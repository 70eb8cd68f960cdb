"""Exact odds of TOTE's tests, by enumerating every multiset of faces (never sampling).

The outcome of a test is (successes, critical). Counting uses the very functions that decide real
rolls (`rolls.keep_hero`, `rolls.keep_two`, `rolls.score`), so odds and play cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod

from app.rules.system import Band
from app.rules.tote.rolls import keep_hero, keep_two, score

Outcome = tuple[int, bool]  # (successes, critical)
FACES = (1, 2, 3, 4, 5, 6)


def _multisets(count: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of `count` d6 faces with its chance."""
    total = Fraction(1, 6**count)
    n_fact = factorial(count)
    for combo in combinations_with_replacement(FACES, count):
        ways = n_fact // prod(factorial(combo.count(v)) for v in set(combo))
        yield combo, ways * total


def _add(out: dict[Outcome, Fraction], key: Outcome, p: Fraction) -> None:
    out[key] = out.get(key, Fraction(0)) + p


@lru_cache(maxsize=4096)
def hero_outcomes(
    rating: int, blocked: frozenset[int], modifier: int, target: int, keep_rule: str, double_six: str
) -> dict[Outcome, Fraction]:
    """A hero's skill test: `rating` skill dice (injured faces unusable) + the Paragon die."""
    out: dict[Outcome, Fraction] = {}
    for combo, p in _multisets(max(rating, 0)):
        for paragon in FACES:
            counted = keep_hero(combo, blocked, paragon, modifier, target, keep_rule)
            s = score(counted.counted, modifier, target, double_six)
            _add(out, (s.successes, s.critical), p / 6)
    return out


@lru_cache(maxsize=4096)
def enemy_outcomes(
    rating: int, blocked: frozenset[int], modifier: int, target: int, double_six: str
) -> dict[Outcome, Fraction]:
    """An enemy's test: `rating` dice, the two highest usable counted."""
    out: dict[Outcome, Fraction] = {}
    for combo, p in _multisets(max(rating, 0)):
        s = score(keep_two(combo, blocked).counted, modifier, target, double_six)
        _add(out, (s.successes, s.critical), p)
    return out


@lru_cache(maxsize=1024)
def effect_chance(effect: int, resist: int) -> Fraction:
    """The chance an Effect test passes: the two highest of `effect` dice reach Resist."""
    if effect <= 0:
        return Fraction(0)
    return sum(
        (p for combo, p in _multisets(effect) if sum(keep_two(combo, frozenset()).counted) >= resist),
        Fraction(0),
    )


def hit_bands(outcomes: dict[Outcome, Fraction]) -> tuple[Band, ...]:
    """A to-hit test's bands: miss, hit, hit with one or two Bonuses, Critical (whatever its Bonuses)."""
    miss = sum((p for (s, _), p in outcomes.items() if s == 0), Fraction(0))
    crit = sum((p for (s, c), p in outcomes.items() if c), Fraction(0))
    plain = [sum((p for (s, c), p in outcomes.items() if s == n and not c), Fraction(0)) for n in (1, 2, 3)]
    bands = [Band.of("Miss", miss), Band.of("Hit", plain[0]), Band.of("Hit + 1 Bonus", plain[1])]
    if plain[2]:
        bands.append(Band.of("Hit + 2 Bonuses", plain[2]))
    bands.append(Band.of("Critical", crit))
    return tuple(bands)


def successes(outcomes: dict[Outcome, Fraction]) -> dict[int, Fraction]:
    """The chance of each number of successes (Bonuses included)."""
    by: dict[int, Fraction] = {}
    for (s, _), p in outcomes.items():
        by[s] = by.get(s, Fraction(0)) + p
    return dict(sorted(by.items()))


def pass_chance(outcomes: dict[Outcome, Fraction]) -> Fraction:
    return sum((p for (s, _), p in outcomes.items() if s > 0), Fraction(0))
