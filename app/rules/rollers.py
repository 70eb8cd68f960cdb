"""The Roller protocol, and the roller of faces handed in: every roll in Fray goes through a Roller, so the
rules stay pure.

Physical-dice campaigns and tests hand faces in through ManualRoller. The rollers that draw randomness
(the server's SecureRoller, the benchmarks' and demos' SeededRoller) are sources of the outside world and
live with the services (app/services/rollers.py), which inject them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from app.rules.errors import InputError


class Roller(Protocol):
    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        """The faces (1..sides) of `count` physical dice."""
        ...


class ManualRoller:
    """Faces typed in from physical dice (and the dice of tests), handed out in order.

    Each face is checked against the die it stands for; `finish()` checks none is left over.
    """

    def __init__(self, faces: Iterable[int]):
        self._faces = list(faces)
        self._used = 0

    @property
    def used(self) -> int:
        return self._used

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        if self._used + count > len(self._faces):
            raise InputError(
                f"Not enough dice: this roll needs at least {self._used + count} "
                f"{'face' if self._used + count == 1 else 'faces'} and "
                f"{len(self._faces)} {'was' if len(self._faces) == 1 else 'were'} entered."
            )
        faces = tuple(self._faces[self._used : self._used + count])
        for face in faces:
            if not 1 <= face <= sides:
                raise InputError(f"{face} is not a face of a d{sides}: enter a number from 1 to {sides}.")
        self._used += count
        return faces

    def finish(self) -> None:
        if self._used < len(self._faces):
            raise InputError(
                f"You entered {len(self._faces)} dice, but this roll uses {self._used}."
                if self._used
                else "This action rolls no dice: leave the dice out."
            )
