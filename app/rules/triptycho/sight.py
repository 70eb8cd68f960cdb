"""Illumination and sight (TP-I-1..5): who sees which section's occupants.

- Lit: the section and its occupants are seen (from anywhere with a line of sight).
- Shadowy: its terrain is seen from outside; its occupants only by other occupants.
- Dark: not seen unless entered; its occupants are unseen even by each other.
- Senses change the light an entity perceives (TP-I-4): Low-light Vision treats shadowy as lit,
  Darkvision treats shadowy and dark as lit, Light Sensitivity treats lit as shadowy.
"""

from __future__ import annotations

from typing import Protocol

from app.rules.triptycho.board import BattleMap, Light, index
from app.rules.triptycho.paths import line_of_sight


class Senses(Protocol):
    @property
    def low_light(self) -> bool: ...
    @property
    def darkvision(self) -> bool: ...
    @property
    def light_sensitive(self) -> bool: ...


def perceived(light: Light, senses: Senses) -> Light:
    """The light a section has for an entity with these senses (TP-I-4)."""
    if light == "lit":
        return "shadowy" if senses.light_sensitive else "lit"
    if light == "shadowy":
        return "lit" if senses.low_light or senses.darkvision else "shadowy"
    return "lit" if senses.darkvision else "dark"


def sees_into(board: BattleMap, senses: Senses, here: str, there: str) -> bool:
    """Whether an entity in `here` sees the occupants of `there` (TP-I-1)."""
    idx = index(board)
    light = perceived(idx.sections[there].light, senses)
    if light == "dark":
        return False
    if light == "shadowy":
        return here == there
    return line_of_sight(idx, here, there)


def sees_terrain(board: BattleMap, senses: Senses, here: str, there: str) -> bool:
    """Whether an entity in `here` knows the ground of `there`: unless it is dark to it and not entered.

    Ruling: the layout of the map is known to all (the GM draws it on the table); only darkness hides a
    section's details. This keeps the map view cheap: no line of sight per section.
    """
    return here == there or perceived(index(board).sections[there].light, senses) != "dark"


def sees_own_section(board: BattleMap, senses: Senses, here: str) -> bool:
    """False when the entity cannot see within its own section: it is Hindered (TP-I-3)."""
    return perceived(index(board).sections[here].light, senses) != "dark"


def sees_any(board: BattleMap, senses: Senses, mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """An entity in several sections sees from, and is seen in, any of them."""
    return any(sees_into(board, senses, a, b) for a in mine for b in theirs)
