"""Where the dice's randomness comes from, injected into the rules as a `Roller` (app/rules/rollers.py): the
rules never draw a random number themselves."""

from __future__ import annotations

import random
import secrets


class SecureRoller:
    """The server's dice: the operating system's secure random source."""

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        return tuple(secrets.randbelow(sides) + 1 for _ in range(count))


class SeededRoller:
    """Repeatable dice for benchmarks and demos."""

    def __init__(self, seed: int | str = 0):
        self._random = random.Random(seed)

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        return tuple(self._random.randint(1, sides) for _ in range(count))
