"""The game-system contract, for older imports: each name now lives in a piece of `app.rules.contract`.

New code imports from the piece (`from app.rules.contract.viewer import Viewer`); see docs/systems.md.
"""

from app.rules.contract.commands import (
    Command,
    CommandRow,
    CommandSpec,
    Ctx,
    Decide,
    command_table,
    internal,
    parse_command,
)
from app.rules.contract.envelope import Describer, Event, EventView, NewEvent, Reducer
from app.rules.contract.frozen import Frozen
from app.rules.contract.options import PLAYERS, Band, Option, Prompt, PromptChoice
from app.rules.contract.part import DemoScript, PartView, SystemPart, ViewRequest, state_view
from app.rules.contract.validation import CONTROL, MAX_DEPTH, check_json, explain, explain_errors
from app.rules.contract.viewer import GM, PUBLIC, Role, Viewer, audience_of, can_see, seats_audience, widest
from app.rules.errors import InputError, RuleError

__all__ = [
    "CONTROL",
    "GM",
    "MAX_DEPTH",
    "PLAYERS",
    "PUBLIC",
    "Band",
    "Command",
    "CommandRow",
    "CommandSpec",
    "Ctx",
    "Decide",
    "DemoScript",
    "Describer",
    "Event",
    "EventView",
    "Frozen",
    "InputError",
    "NewEvent",
    "Option",
    "PartView",
    "Prompt",
    "PromptChoice",
    "Reducer",
    "Role",
    "RuleError",
    "SystemPart",
    "ViewRequest",
    "Viewer",
    "audience_of",
    "can_see",
    "check_json",
    "command_table",
    "explain",
    "explain_errors",
    "internal",
    "parse_command",
    "seats_audience",
    "state_view",
    "widest",
]
