"""Dice: dice expressions, rolling them, and exact distributions.

Every roll goes through a Roller (app/rules/rollers.py), so the rules stay pure. Odds shown to players
come from exact distributions here, never sampling.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial

from app.rules import ways
from app.rules.errors import InputError

# Every decider and test says `dice.ManualRoller`: the rollers stay reachable here.
from app.rules.rollers import ManualRoller as ManualRoller
from app.rules.rollers import Roller as Roller

MAX_DICE = 100
MAX_SIDES = 1000
MAX_CONSTANT = 10_000
MAX_EXPRESSION_LENGTH = 80
# Exact odds cost grows with the dice. Past these, odds are refused (the roll itself is still fine).
# They date from when kept dice were worked out multiset by multiset; counting by threshold
# (app/rules/ways.py) is far cheaper, but the limits stay so every roll they allow stays allowed
# and refused ones stay refused, with the slowest allowed roll measured by bench/odds.py.
MAX_MULTISETS = 250_000
MAX_ODDS_WORK = 2_000_000  # roughly: dice x sides x possible totals

Distribution = dict[int, Fraction]


# --- single dice and distributions ----------------------------------------------------------


def read_face(face: int, zero_high: bool) -> int:
    """What a physical face counts as: a d5 is a d6 whose 6 reads 0."""
    return 0 if zero_high and face == 6 else face


def uniform(sides: int, zero_high: bool = False) -> Distribution:
    """One die: d`sides`, or with zero_high a d6 read 1-5 with 6 as 0 (a d5)."""
    p = Fraction(1, sides)
    return {read_face(face, zero_high): p for face in range(1, sides + 1)}


def combine(a: Distribution, b: Distribution, op: Callable[[int, int], int]) -> Distribution:
    """The distribution of op(x, y) for independent x ~ a and y ~ b."""
    out: Distribution = {}
    for x, px in a.items():
        for y, py in b.items():
            v = op(x, y)
            out[v] = out.get(v, Fraction(0)) + px * py
    return dict(sorted(out.items()))


def convolve(a: Distribution, b: Distribution) -> Distribution:
    return combine(a, b, lambda x, y: x + y)


def shift(dist: Distribution, by: int) -> Distribution:
    return {v + by: p for v, p in dist.items()}


def chance(dist: Distribution, predicate: Callable[[int], bool]) -> Fraction:
    return sum((p for v, p in dist.items() if predicate(v)), Fraction(0))


def at_least(dist: Distribution, n: int) -> Fraction:
    return chance(dist, lambda v: v >= n)


def at_most(dist: Distribution, n: int) -> Fraction:
    return chance(dist, lambda v: v <= n)


def mean(dist: Distribution) -> Fraction:
    return sum((v * p for v, p in dist.items()), Fraction(0))


def sum_of(count: int, sides: int, zero_high: bool = False) -> Distribution:
    faces = _faces(sides, zero_high)
    return _as_distribution(ways.sum_of(count, faces[0], faces[-1]), sides**count)


def keep_of(count: int, sides: int, keep: int, highest: bool, zero_high: bool = False) -> Distribution:
    """Sum of the `keep` highest (or lowest) of `count` dice."""
    if _multiset_count(sides, count) > MAX_MULTISETS:
        raise InputError(f"{count}d{sides} keeping {keep} is too many dice to work out exact odds for.")
    faces = _faces(sides, zero_high)
    return _as_distribution(ways.keep_of(count, faces[0], faces[-1], keep, highest), sides**count)


# Exact odds count ways in integers (app/rules/ways.py; a Fraction per step costs a gcd each time):
# a table of ways over all equally likely rolls, turned into fractions once at the end.
def _as_distribution(table: ways.Table, rolls: int) -> Distribution:
    start, counts = table
    return {start + i: Fraction(w, rolls) for i, w in enumerate(counts) if w}


def _faces(sides: int, zero_high: bool) -> list[int]:
    return sorted(read_face(face, zero_high) for face in range(1, sides + 1))


def _multiset_count(kinds: int, count: int) -> int:
    return factorial(kinds + count - 1) // (factorial(count) * factorial(kinds - 1))


# --- expressions ----------------------------------------------------------------------------

_TERM = re.compile(r"(?P<count>\d*)d(?P<sides>\d+|%)(?:(?P<keep>kh|kl|k)(?P<kept>\d+))?|(?P<const>\d+)")


@dataclass(frozen=True)
class DiceTerm:
    count: int
    sides: int  # faces of the physical die
    sign: int = 1
    keep: int | None = None
    keep_highest: bool = True
    zero_high: bool = False  # d5: a d6 whose 6 reads 0

    @property
    def notation(self) -> str:
        label = 5 if self.zero_high else self.sides
        keep = "" if self.keep is None else f"{'kh' if self.keep_highest else 'kl'}{self.keep}"
        return f"{self.count}d{label}{keep}"

    def table(self) -> ways.Table:
        """Ways to roll each total (negative for subtracted dice), over sides**count rolls."""
        faces = _faces(self.sides, self.zero_high)
        if self.keep is None:
            table = ways.sum_of(self.count, faces[0], faces[-1])
        else:
            if _multiset_count(self.sides, self.count) > MAX_MULTISETS:
                raise InputError(f"{self.notation} is too many dice to work out exact odds for.")
            table = ways.keep_of(self.count, faces[0], faces[-1], self.keep, self.keep_highest)
        return table if self.sign > 0 else ways.negate(table)

    @property
    def rolls(self) -> int:
        rolls: int = self.sides**self.count
        return rolls

    def distribution(self) -> Distribution:
        return _as_distribution(self.table(), self.rolls)


@dataclass(frozen=True)
class Expression:
    terms: tuple[DiceTerm, ...]
    modifier: int

    @property
    def text(self) -> str:
        parts: list[str] = []
        for term in self.terms:
            parts.append(("-" if term.sign < 0 else "+") + term.notation)
        if self.modifier:
            parts.append(f"{self.modifier:+d}")
        text = "".join(parts)
        return text[1:] if text.startswith("+") else text

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.terms)


def parse(text: str) -> Expression:
    """Read `2d6+1`, `1d20`, `4d6kh3`, `2d20kl1`, `d5`, `3d6-2`... or say clearly why not."""
    raw = (text or "").strip().lower().replace(" ", "")
    if not raw:
        raise InputError("Enter a dice expression such as 2d6+1.")
    if len(raw) > MAX_EXPRESSION_LENGTH:
        raise InputError(f"That dice expression is too long (at most {MAX_EXPRESSION_LENGTH} characters).")
    bad = InputError(f"'{text.strip()}' is not a dice expression: write it like 2d6+1, 1d20, 4d6kh3 or d5.")
    terms: list[DiceTerm] = []
    modifier = 0
    pos = 0
    sign = 1
    if raw[0] in "+-":
        sign = -1 if raw[0] == "-" else 1
        pos = 1
    while True:
        match = _TERM.match(raw, pos)
        if not match:
            raise bad
        if match.group("const") is not None:
            value = int(match.group("const"))
            if value > MAX_CONSTANT:
                raise InputError(f"{value} is too large a number for a roll (at most {MAX_CONSTANT}).")
            modifier += sign * value
        else:
            terms.append(_term(match, sign))
        pos = match.end()
        if pos == len(raw):
            break
        if raw[pos] not in "+-":
            raise bad
        sign = -1 if raw[pos] == "-" else 1
        pos += 1
    if not terms:
        raise InputError(f"'{text.strip()}' has no dice in it: write it like 2d6+1.")
    if sum(t.count for t in terms) > MAX_DICE:
        raise InputError(f"That is more than {MAX_DICE} dice in one roll.")
    return Expression(tuple(terms), modifier)


def _term(match: re.Match[str], sign: int) -> DiceTerm:
    count = int(match.group("count") or 1)
    sides_text = match.group("sides")
    sides = 100 if sides_text == "%" else int(sides_text)
    if count == 0:
        raise InputError("Roll at least one die: 0 dice roll nothing.")
    if count > MAX_DICE:
        raise InputError(f"That is more than {MAX_DICE} dice in one roll.")
    if sides < 2:
        raise InputError(f"A d{sides} cannot be rolled: a die needs at least 2 sides.")
    if sides > MAX_SIDES:
        raise InputError(f"A d{sides} has too many sides (at most {MAX_SIDES}).")
    zero_high = sides == 5
    keep = None
    if match.group("keep"):
        keep = int(match.group("kept"))
        if not 1 <= keep <= count:
            raise InputError(f"{count}d{sides} cannot keep {keep} dice: keep from 1 to {count}.")
    return DiceTerm(
        count=count,
        sides=6 if zero_high else sides,
        sign=sign,
        keep=keep,
        keep_highest=match.group("keep") != "kl",
        zero_high=zero_high,
    )


def check_odds_cost(expression: Expression) -> None:
    """Refuse expressions whose exact odds would take too long to work out."""
    span = 1
    work = 0
    for term in expression.terms:
        if term.keep is not None and _multiset_count(term.sides, term.count) > MAX_MULTISETS:
            raise InputError(f"{term.notation} is too many dice to work out exact odds for.")
        for _ in range(term.count):
            span += term.sides
            work += span * term.sides
    if work > MAX_ODDS_WORK:
        raise InputError(f"{expression.text} is too many dice to work out exact odds for.")


@lru_cache(maxsize=512)
def _distribution_of(text: str) -> tuple[tuple[int, Fraction], ...]:
    expression = parse(text)
    check_odds_cost(expression)
    # Plain dice of one kind are one table however the expression splits them (2d6+3d6 is 5d6).
    plain: dict[tuple[int, bool, int], int] = {}
    tables = []
    for term in expression.terms:
        if term.keep is None:
            kind = (term.sides, term.zero_high, term.sign)
            plain[kind] = plain.get(kind, 0) + term.count
        else:
            tables.append(term.table())
    for (sides, zero_high, sign), count in plain.items():
        tables.append(DiceTerm(count, sides, sign, zero_high=zero_high).table())
    table: ways.Table = (expression.modifier, [1])
    for other in sorted(tables, key=lambda t: len(t[1])):
        table = ways.multiply(table, other)
    rolls = 1
    for term in expression.terms:
        rolls *= term.rolls
    return tuple(_as_distribution(table, rolls).items())


def distribution(expression: str | Expression) -> Distribution:
    """The exact chance of every total the expression can roll."""
    text = expression.text if isinstance(expression, Expression) else parse(expression).text
    return dict(_distribution_of(text))


# --- rolling --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TermRoll:
    notation: str
    sides: int
    faces: tuple[int, ...]  # the physical faces, as rolled or typed
    values: tuple[int, ...]  # what each face counts as
    kept: tuple[bool, ...]
    sign: int

    @property
    def subtotal(self) -> int:
        return self.sign * sum(v for v, k in zip(self.values, self.kept, strict=True) if k)


@dataclass(frozen=True)
class RollResult:
    expression: str
    terms: tuple[TermRoll, ...]
    modifier: int

    @property
    def total(self) -> int:
        return sum(t.subtotal for t in self.terms) + self.modifier

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(f for t in self.terms for f in t.faces)

    def as_dict(self) -> dict:
        """The roll as written into an event: every face, what was kept, the total."""
        return {
            "expression": self.expression,
            "terms": [
                {
                    "notation": t.notation,
                    "sides": t.sides,
                    "faces": list(t.faces),
                    "values": list(t.values),
                    "kept": list(t.kept),
                    "sign": t.sign,
                }
                for t in self.terms
            ],
            "modifier": self.modifier,
            "total": self.total,
        }


def roll(expression: str | Expression, roller: Roller) -> RollResult:
    expr = parse(expression) if isinstance(expression, str) else expression
    terms = []
    for term in expr.terms:
        faces = roller.roll(term.sides, term.count)
        values = tuple(read_face(f, term.zero_high) for f in faces)
        kept = [True] * len(values)
        if term.keep is not None:
            order = sorted(range(len(values)), key=lambda i: values[i], reverse=term.keep_highest)
            keep_set = set(order[: term.keep])
            kept = [i in keep_set for i in range(len(values))]
        terms.append(TermRoll(term.notation, term.sides, faces, values, tuple(kept), term.sign))
    return RollResult(expr.text, tuple(terms), expr.modifier)


def roll_d5(roller: Roller, count: int = 1) -> tuple[int, ...]:
    """`count` d5s: d6 faces with 6 read as 0."""
    return roll_d5_faces(roller, count)[1]


def roll_d5_faces(roller: Roller, count: int = 1) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`count` d5s as (the physical d6 faces, what they count as), for writing both into an event."""
    faces = roller.roll(6, count)
    return faces, tuple(read_face(f, True) for f in faces)


def roll_record(
    notation: str, sides: int, faces: tuple[int, ...], values: tuple[int, ...], total: int
) -> dict:
    """A roll that is not a plain sum (a 5x5 product, a best-of), shaped as the log shows rolls."""
    return {
        "expression": notation,
        "terms": [
            {
                "notation": notation,
                "sides": sides,
                "faces": list(faces),
                "values": list(values),
                "kept": [True] * len(faces),
                "sign": 1,
            }
        ],
        "modifier": 0,
        "total": total,
    }


def fraction_text(p: Fraction) -> str:
    """A chance as a person reads it: 16.7%."""
    pct = float(p) * 100
    if pct == 0 or pct == 100:
        return f"{pct:.0f}%"
    return f"{pct:.1f}%" if pct >= 0.1 else "<0.1%"
