"""A game from outside Fray, as a separate package would ship it: one command that says hello."""

from typing import Any, Literal

from app.rules.contract.commands import Command, Ctx, command, command_table
from app.rules.contract.envelope import NewEvent
from app.rules.contract.part import SystemPart


class Wave(Command):
    type: Literal["outside.wave"] = "outside.wave"


def wave(state: Any, command_: Wave, ctx: Ctx) -> list[NewEvent]:
    return []


SYSTEM = SystemPart(
    key="outside",
    title="Outside",
    commands=command_table([command(Wave, wave, "Wave")]),
)
