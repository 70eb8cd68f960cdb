"""What a viewer may do now, with exact odds (`Option`, `Band`), and choices left to someone (`Prompt`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import Field

from app.rules.contract.frozen import Frozen
from app.rules.contract.viewer import Viewer
from app.rules.dice import fraction_text


class Band(Frozen):
    """One outcome band of a roll and its exact chance."""

    label: str
    exact: str  # "1/6"
    percent: str  # "16.7%"

    @classmethod
    def of(cls, label: str, chance: Fraction) -> Band:
        return cls(
            label=label, exact=f"{chance.numerator}/{chance.denominator}", percent=fraction_text(chance)
        )

    @property
    def chance(self) -> Fraction:
        return Fraction(self.exact)


class Option(Frozen):
    """Something a viewer may do now, ready to send, with its odds or the reason it is not offered."""

    id: str
    label: str
    command: dict[str, Any]
    participant: str | None = None
    odds: tuple[Band, ...] = ()
    enabled: bool = True
    reason: str | None = None
    group: str = ""
    hint: str = ""
    rolls: bool = False  # takes typed dice in a manual-dice campaign
    inputs: tuple[str, ...] = ()  # fields the page must still fill in (a map point: ("x", "y"))


class PromptChoice(Frozen):
    key: str
    label: str
    hint: str = ""
    rolls: bool = False  # answering with this choice takes dice (a manual-dice table types them in)
    fields: dict[str, Any] = Field(default_factory=dict)  # sent with the answer beside prompt and choice


PLAYERS = "players"  # a prompt any player may answer for their side (Trinity's karma window)


class Prompt(Frozen):
    """A pending choice the rules leave to someone; the answer is a command naming it."""

    id: str
    to: str  # "gm", PLAYERS, or a participant id
    kind: str
    text: str
    answer: str  # the command type that answers it
    choices: tuple[PromptChoice, ...] = ()
    data: dict[str, Any] = Field(default_factory=dict)
    outlives_encounter: bool = False  # kept open when the encounter ends
    blocking: bool = True  # False: a notice the table need not wait for (knocked down, out of luck)
    drawn_by_system: bool = False  # the system's template draws it (inputs, a map); the page's list skips it

    def visible_to(self, viewer: Viewer) -> bool:
        if self.to == PLAYERS:
            return viewer.role in ("gm", "player")
        return viewer.is_gm or self.to in viewer.participants
