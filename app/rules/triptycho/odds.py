"""Exact odds of Triptycho's opposed rolls (TP-T-3, TP-T-4), from dice distributions, never sampled."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from app.rules import dice
from app.rules.triptycho.cards import dice_text


@lru_cache(maxsize=1024)
def _dist(sizes: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    dist: dice.Distribution = {0: Fraction(1)}
    for size in sizes:
        dist = dice.convolve(dist, dice.uniform(size))
    return tuple(dist.items())


def distribution(sizes: tuple[int, ...]) -> dice.Distribution:
    return dict(_dist(tuple(sorted(sizes, reverse=True))))


def hit_chance(hit: tuple[int, ...], miss: tuple[int, ...], auto_hit: bool = False) -> Fraction:
    """The chance the Hit total beats the Miss total; ties go to the defender (TP-T-4).

    A side whose dice were all removed fails automatically (TP-T-3): no Hit dice never hit; no Miss
    dice are always hit. `auto_hit`: the target played no Reaction (TP-T-2).
    """
    if not hit:
        return Fraction(0)
    if auto_hit or not miss:
        return Fraction(1)
    h, m = distribution(hit), distribution(miss)
    total = Fraction(0)
    for mv, mp in m.items():
        total += mp * sum((hp for hv, hp in h.items() if hv > mv), Fraction(0))
    return total


def damage_distribution(damage: tuple[int, ...], defense: tuple[int, ...]) -> dice.Distribution:
    """Damage total minus Defense total, at least 0 (TP-T-4)."""
    d = distribution(damage)
    out: dice.Distribution = {}
    for dv, dp in d.items():
        for fv, fp in distribution(defense).items():
            v = max(0, dv - fv)
            out[v] = out.get(v, Fraction(0)) + dp * fp
    return dict(sorted(out.items()))


def opposed_chance(mine: tuple[int, ...], theirs: tuple[int, ...]) -> Fraction:
    """An Acrobatics check: a tie or better succeeds (TP-A-1)."""
    if not mine:
        return Fraction(0)
    if not theirs:
        return Fraction(1)
    a, b = distribution(mine), distribution(theirs)
    return sum(
        (ap * bp for av, ap in a.items() for bv, bp in b.items() if av >= bv),
        Fraction(0),
    )


def roll_sizes(sizes: tuple[int, ...], roller: dice.Roller) -> dice.RollResult | None:
    """Roll these dice through the roller (largest first); None when there are none."""
    if not sizes:
        return None
    return dice.roll(dice_text(sizes), roller)


def total(result: dice.RollResult | None) -> int:
    return result.total if result is not None else 0
