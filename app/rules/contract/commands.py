"""Commands: the base every command model extends, what a decider is given, and a system's command table."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from app.rules.contract.envelope import NewEvent
from app.rules.contract.validation import check_json, explain
from app.rules.contract.viewer import Viewer
from app.rules.dice import Roller
from app.rules.errors import InputError

if TYPE_CHECKING:
    from app.rules.campaign.state import CampaignState


class Command(BaseModel):
    """Base of every command; subclasses add their fields. Unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, allow_inf_nan=False)

    type: str
    command_id: str | None = Field(default=None, max_length=64)
    dice: tuple[int, ...] | None = Field(default=None, max_length=200)

    @field_validator("dice", mode="before")
    @classmethod
    def _dice_from_text(cls, value: Any) -> Any:
        # HTML forms send "3 5" or "3,5".
        if isinstance(value, str):
            parts = value.replace(",", " ").split()
            return tuple(parts) if parts else None
        return value

    @field_validator("command_id", mode="before")
    @classmethod
    def _text_id(cls, value: Any) -> Any:
        # An id that is not text would silently turn idempotency off: refuse it instead.
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ValueError("a command_id is a piece of text, such as a UUID; leave it out for none")
        return value


@dataclass(frozen=True)
class Ctx:
    """What a decider gets besides state and command: the dice and who is acting."""

    roller: Roller
    actor: Viewer


Decide = Callable[["CampaignState", Any, Ctx], list[NewEvent]]


@dataclass(frozen=True)
class CommandSpec:
    type: str
    model: builtins.type[Command]  # `type` is the field above inside this class body
    decide: Decide
    summary: str = ""
    gm_only: bool = False
    rolls: bool = False  # may take `dice` in a manual-dice campaign
    spectators: bool = False  # a spectator's seat may make it (every other command refuses them)
    # Not "": made only by the server's own code (Game.parse refuses it from any client), and how to do it.
    internal: str = ""


def command(
    model: type[Command],
    decide: Decide,
    summary: str,
    *,
    gm_only: bool = False,
    rolls: bool = False,
    spectators: bool = False,
    internal: str = "",
) -> CommandSpec:
    """A row of a system's command table; its type is the one the model's `type` field defaults to."""
    return CommandSpec(
        type=model.model_fields["type"].default,
        model=model,
        decide=decide,
        summary=summary,
        gm_only=gm_only,
        rolls=rolls,
        spectators=spectators,
        internal=internal,
    )


def internal(spec: CommandSpec, instead: str) -> CommandSpec:
    """The command made only by the server's own code; a client is told `instead`."""
    return replace(spec, internal=instead)


# The older row, (model, decide, summary, gm_only, rolls): still read so a table not yet written with
# `command(...)` keeps working. New tables use `command`, whose flags say their names.
CommandRow = tuple[type[Command], Decide, str, bool, bool]


def command_table(rows: Iterable[CommandSpec | CommandRow]) -> dict[str, CommandSpec]:
    """A system's COMMANDS from its rows (`command(...)`), keyed by type."""
    specs = (
        row if isinstance(row, CommandSpec) else command(row[0], row[1], row[2], gm_only=row[3], rolls=row[4])
        for row in rows
    )
    return {spec.type: spec for spec in specs}


def parse_command(spec: CommandSpec, payload: Mapping[str, Any]) -> Command:
    check_json(payload)
    try:
        return spec.model.model_validate(dict(payload))
    except ValidationError as error:
        raise InputError(explain(error, prefix=f"{spec.type}: ")) from None
