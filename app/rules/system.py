"""The game-system contract: each system is a pure decider over frozen campaign state.

A campaign's rules are layers (`SystemPart`): the campaign core, the generic tabletop every
campaign has, and the game system on top. Each layer contributes command specs (parse + decide),
reducers keyed by event type, describers for the log, options with exact odds and a view.
`app.rules.game.Game` composes them; nothing outside `rules/<key>/` knows a system's details.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from app.rules import events as payloads
from app.rules.dice import Roller, fraction_text
from app.rules.errors import InputError, RuleError

if TYPE_CHECKING:
    from app.rules.campaign.state import CampaignState

__all__ = [
    "Band",
    "Command",
    "CommandSpec",
    "Ctx",
    "DemoScript",
    "Event",
    "EventView",
    "Frozen",
    "InputError",
    "NewEvent",
    "Option",
    "Prompt",
    "PromptChoice",
    "RuleError",
    "SystemPart",
    "Viewer",
    "internal",
]

Role = Literal["gm", "player", "spectator"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Viewer(Frozen):
    """Who is looking: a seat's role and the participants it controls."""

    seat_id: str | None = None
    role: Role = "spectator"
    participants: frozenset[str] = frozenset()

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    @property
    def key(self) -> str:
        """Viewers with the same key see exactly the same thing (render once per key). A seat sees its own
        name and seat id, so a seat's viewers share renders (its tabs), and spectators all share one."""
        return f"{self.role}:{self.seat_id or ''}:{','.join(sorted(self.participants))}"

    def controls(self, participant_id: str | None) -> bool:
        return self.is_gm or (participant_id is not None and participant_id in self.participants)


PUBLIC = Viewer(role="spectator")
GM = Viewer(role="gm")

# --- audiences: who may see an event ---------------------------------------------------------
# "all", "gm", or "p:<id>,<id>" (those participants' seats, and the GM).


def audience_of(*participant_ids: str) -> str:
    return "p:" + ",".join(sorted(participant_ids))


def seats_audience(*seat_ids: str) -> str:
    """Those seats, whoever they play (a whisper), and the GM."""
    return "s:" + ",".join(sorted(set(seat_ids)))


def can_see(audience: str, viewer: Viewer) -> bool:
    if audience == "all" or viewer.is_gm:
        return True
    if audience.startswith("p:"):
        return bool(viewer.participants.intersection(audience[2:].split(",")))
    if audience.startswith("s:"):
        return viewer.seat_id is not None and viewer.seat_id in audience[2:].split(",")
    return False


def widest(audiences: list[str]) -> str:
    """The audience of a group of events: everyone if any event is public. Seats' audiences (whispers)
    narrow to the GM's when mixed: no command makes such a group."""
    if "all" in audiences:
        return "all"
    ids = {pid for a in audiences if a.startswith("p:") for pid in a[2:].split(",")}
    return audience_of(*ids) if ids else "gm"


class NewEvent(Frozen):
    """An event as a decider produces it; the store gives it a seq, actor and time."""

    type: str
    data: dict[str, Any] = Field(default_factory=dict)
    audience: str = "all"
    encounter: str | None = None  # defaults to the active encounter


class Event(Frozen):
    """An event as stored: what reducers fold and what the log shows.

    `data` is the record as written; `version` the version of its type it was written at. Building an
    Event upcasts an older record to its type's current version (app/rules/events.py), so `data` and
    `payload` always read as today's shape.
    """

    seq: int
    type: str
    data: dict[str, Any] = Field(default_factory=dict)
    audience: str = "all"
    actor: str | None = None
    encounter: str | None = None
    batch: int = 0  # seq of the first event of the command that made it
    at: str | None = None
    # Left out, today's: an event a decider or a test builds in memory. The store and the file import
    # always say which (rows and files from before versions existed say 1).
    version: int = 0

    _parsed: tuple[dict[str, Any], payloads.Payload] | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _upcast(cls, values: Any) -> Any:
        if isinstance(values, Mapping) and isinstance(values.get("type"), str):
            current = payloads.current_version(values["type"])
            version = values.get("version") or current
            if isinstance(version, int) and version != current:
                version, data = payloads.upcast(values["type"], version, values.get("data") or {})
                return {**values, "version": version, "data": data}
            return {**values, "version": version}
        return values

    @property
    def payload(self) -> Any:
        """The data parsed into its type's payload model: what reducers read (typed fields, no keys)."""
        parsed = self._parsed
        if parsed is None or parsed[0] is not self.data:  # model_copy(update={"data": ...}) re-parses
            parsed = (self.data, payloads.parse(self.type, self.data))
            self._parsed = parsed
        return parsed[1]

    def public(self) -> dict[str, Any]:
        # The JSON API's shape is unchanged: data is today's shape, so its version is no news to clients.
        return self.model_dump(exclude={"audience", "version"})


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
Reducer = Callable[["CampaignState", Event], "CampaignState"]
Describer = Callable[[Event], str]
# An event as the players may see it (its audience already lets them): the event, a copy with fields taken
# out, or None. Given the campaign now when the reader has it (None: judge by the event alone).
EventView = Callable[["CampaignState | None", Event], "Event | None"]


@dataclass(frozen=True)
class CommandSpec:
    type: str
    model: builtins.type[Command]  # `type` is the field above inside this class body
    decide: Decide
    summary: str = ""
    gm_only: bool = False
    rolls: bool = False  # may take `dice` in a manual-dice campaign
    # Not "": made only by the server's own code (Game.parse refuses it from any client), and how to do it.
    internal: str = ""


CommandRow = tuple[type[Command], Decide, str, bool, bool]


def internal(spec: CommandSpec, instead: str) -> CommandSpec:
    """The command made only by the server's own code; a client is told `instead`."""
    return replace(spec, internal=instead)


def command_table(rows: list[CommandRow]) -> dict[str, CommandSpec]:
    """A system's COMMANDS from rows of (model, decide, summary, gm_only, rolls), keyed by type."""
    specs = (
        CommandSpec(
            type=model.model_fields["type"].default,
            model=model,
            decide=decide,
            summary=summary,
            gm_only=gm_only,
            rolls=rolls,
        )
        for model, decide, summary, gm_only, rolls in rows
    )
    return {spec.type: spec for spec in specs}


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


@dataclass(frozen=True)
class DemoScript:
    """A ready table for `fray demo`: player seats to create, then the GM's commands in order.

    In a command, "@Name" stands for the seat id of the player called Name.
    """

    name: str
    players: tuple[str, ...] = ()
    commands: tuple[dict[str, Any], ...] = ()


@dataclass
class SystemPart:
    """One layer of a campaign's rules. Built-in and outside systems plug in the same way."""

    key: str
    title: str
    summary: str = ""
    commands: Mapping[str, CommandSpec] = field(default_factory=dict)
    reducers: Mapping[str, Reducer] = field(default_factory=dict)
    describers: Mapping[str, Describer] = field(default_factory=dict)
    event_views: Mapping[str, EventView] = field(default_factory=dict)  # see `EventView`
    ext_model: type[BaseModel] | None = None  # the system's own state, for snapshots
    settings_model: type[BaseModel] | None = None  # rulings a GM may change, defaults as the catalogue says
    # An upcaster for recorded settings: what a setting meant in campaigns recorded before it existed (the
    # ruling then in force), so no stored table changes its rules under its players' feet.
    legacy_settings: Mapping[str, Any] = field(default_factory=dict)
    initial_ext: Callable[[dict[str, Any]], Any] | None = None  # from the campaign's settings
    parse_setup: Callable[[CampaignState, dict[str, Any]], dict[str, Any]] | None = None  # encounter set-up
    options: Callable[[CampaignState, Viewer], list[Option]] | None = None
    view: Callable[[CampaignState, Viewer], dict[str, Any]] | None = None
    owns_initiative: bool = False  # the system keeps the turn order: generic.initiative.* are not offered
    # Participants this viewer's characters cannot perceive right now (Triptycho's dark sections): the core
    # and generic views treat them as hidden for that viewer, so they leave no trace in its HTML or JSON.
    conceals: Callable[[CampaignState, Viewer], frozenset[str]] | None = None
    # A system with its own board in the map frame (Triptycho's sections, 5x5's tabletop): whether a viewer
    # may see a spot of it, so a ping there reaches only them; None from it when no board is on the table.
    board_spot: Callable[[CampaignState, Viewer, float, float], bool | None] | None = None
    docs: str = ""  # path of the GM's rules page, relative to docs/
    demo: DemoScript | None = None


# --- validation errors as sentences ----------------------------------------------------------

_MESSAGES = {
    "missing": "is required",
    "extra_forbidden": "is not something this command takes",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "float_type": "must be a number",
    "finite_number": "must be a finite number",
    "bool_parsing": "must be yes or no",
    "bool_type": "must be yes or no",
    "string_type": "must be text",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
}


def explain(error: ValidationError, prefix: str = "") -> str:
    """A pydantic error as one sentence a person can act on."""
    return explain_errors(error.errors(), prefix)


def explain_errors(errors: list[Any], prefix: str = "") -> str:
    parts = []
    for item in errors[:3]:
        where = ".".join(str(p) for p in item["loc"] if p not in ("body", "query", "path")) or "the input"
        kind = item["type"]
        ctx = item.get("ctx") or {}
        if kind in _MESSAGES:
            text = _MESSAGES[kind]
        elif kind in ("string_too_long", "too_long"):
            text = f"is too long (at most {ctx.get('max_length')})"
        elif kind in ("string_too_short", "too_short"):
            text = (
                "cannot be empty"
                if ctx.get("min_length") == 1
                else f"is too short (at least {ctx.get('min_length')})"
            )
        elif kind == "greater_than_equal":
            text = f"must be at least {ctx.get('ge')}"
        elif kind == "less_than_equal":
            text = f"must be at most {ctx.get('le')}"
        elif kind == "greater_than":
            text = f"must be more than {ctx.get('gt')}"
        elif kind == "literal_error":
            text = f"must be one of {ctx.get('expected')}"
        elif kind == "value_error":
            text = str(ctx.get("error") or item["msg"]).removeprefix("Value error, ")
        else:
            msg = str(item.get("msg") or "is not valid")
            text = msg[0].lower() + msg[1:]
        parts.append(text if kind == "value_error" and where == "the input" else f"{where} {text}")
    sentence = "; ".join(parts)
    return f"{prefix}{sentence[0].upper()}{sentence[1:]}." if sentence else f"{prefix}Invalid input."


MAX_DEPTH = 32  # nesting a command may have (set-ups are a few levels deep)
# Control characters other than line breaks and tabs: PostgreSQL cannot store a NUL, and none is text.
CONTROL = frozenset(chr(c) for c in (*range(0, 9), 11, 12, *range(14, 32), 127))


def check_json(value: Any, depth: int = 0) -> None:
    """Refuse what could be stored but not read back: text that is not Unicode, nesting past reason."""
    if depth > MAX_DEPTH:
        raise InputError(f"The command is nested more than {MAX_DEPTH} levels deep.")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError("The command holds text that is not valid Unicode (a lone surrogate).") from None
        if not CONTROL.isdisjoint(value):  # one pass in C, not a generator step per character
            raise InputError("The command holds a control character (such as NUL): take it out.")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            check_json(key, depth + 1)
            check_json(item, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            check_json(item, depth + 1)


def parse_command(spec: CommandSpec, payload: Mapping[str, Any]) -> Command:
    check_json(payload)
    try:
        return spec.model.model_validate(dict(payload))
    except ValidationError as error:
        raise InputError(explain(error, prefix=f"{spec.type}: ")) from None
