"""What the JSON API sends back, as models: they type /openapi.json, and FastAPI checks each reply.

Replies are open where a game system adds its own part (the view's `system`, an event's `data`): the
common fields are typed, the rest is an object that a client reads by the system it chose. Declared
fields are the ones every reply carries; routes that may leave one out answer with `exclude_unset`, so
nothing is added to a reply that was not in it.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi.routing import APIRoute
from pydantic import Field, JsonValue

from app.rules.system import Option
from app.web.base_schemas import Closed, Open
from app.web.map_schemas import MapView

Role = Literal["gm", "player", "spectator"]


class ErrorReply(Closed):
    """Every refusal: one sentence a person can act on, and the rule it cites, if any."""

    detail: str = Field(description="One sentence saying what was wrong and what to do instead.")
    rule: str | None = Field(
        default=None,
        description="The ID of the game system's rule that refused it (the sentence ends with it).",
    )


_MEANINGS = {
    400: "A multipart body that cannot be read (no boundary, a broken part).",
    401: "No seat: no token, an unknown or revoked token, or a token for another campaign.",
    403: "Not allowed for this seat (a player doing the GM's part, a wrong invite code, a cross-site post).",
    404: "No such campaign, encounter, scene or image.",
    409: "The rules refuse it now, or it names something that is not there.",
    413: "The request body is too large.",
    422: "Malformed input: bad JSON, a missing or unknown field, a wrong type, bad dice.",
    429: "Over a rate limit; the Retry-After header says when to try again.",
    503: "The database or the table was too busy; nothing was changed, send it again.",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a route: each status it may refuse with, all as ErrorReply."""
    return {status: {"model": ErrorReply, "description": _MEANINGS[status]} for status in statuses}


# What a route needs a seat for may refuse: no seat, the wrong seat, nothing there, the rules, limits.
SEATED = errors(401, 403, 404, 409, 413, 422, 429, 503)
UPLOAD_SEATED = {**errors(400), **SEATED}  # multipart bodies: Starlette's parser refuses some with a 400


class CampaignCreated(Closed):
    id: str
    seat_id: str
    gm_token: str
    invite_url: str
    spectator_url: str
    gm_url: str


class Joined(Closed):
    seat_id: str
    token: str
    role: Role


class Links(Closed):
    invite_url: str
    spectator_url: str


class SeatInfo(Open):
    id: str
    name: str
    role: Role
    revoked: bool


class Seats(Closed):
    seats: list[SeatInfo]
    invite_url: str
    spectator_url: str


class EventOut(Closed):
    """One event of the log, as the caller may see it."""

    seq: int
    type: str
    data: dict[str, Any] = Field(description="The event's own fields; their shape depends on `type`.")
    actor: str | None
    encounter: str | None
    batch: int
    at: str | None


# The parts of a view. Each is a model with `extra="allow"` (Open): the fields are the ones the campaign
# core always writes, in the order it writes them (a reply keeps its keys' order), and anything a part adds
# later is passed on as it is. A field that only some seats get (the GM's, an owner's) defaults to None
# and is left out of a reply that did not carry it (the routes answer with `exclude_unset`).


class CampaignInfo(Open):
    id: str
    name: str
    system: str
    dice_mode: Literal["server", "manual"]
    settings: dict[str, Any] = Field(description="The campaign's rulings: their keys depend on the system.")
    seq: int
    system_title: str
    owns_initiative: bool


class Me(Open):
    seat_id: str | None
    role: Role
    name: str | None
    participants: list[str]


class ParticipantOut(Open):
    """A character (PC or NPC) as this seat may see it."""

    id: str
    name: str
    kind: str
    owner: str | None = Field(description="The seat that plays it; null: the GM's.")
    owner_name: str | None
    mine: bool
    hidden: bool | None = Field(default=None, description="The GM's only.")
    notes: str | None = Field(default=None, description="The GM's and the owner's only.")


class EncounterOut(Open):
    id: str
    name: str
    status: Literal["prepared", "active", "ended"]
    started_seq: int | None
    ended_seq: int | None
    participants: list[str] = Field(description="The names of its characters this seat may see.")
    participant_ids: list[str] | None = Field(default=None, description="The GM's only.")
    setup: dict[str, Any] | None = Field(
        default=None, description="The GM's only: the set-up for the encounter's system."
    )
    notes: str | None = Field(default=None, description="The GM's only.")


class ActiveEncounter(Open):
    id: str
    name: str


class PromptChoiceOut(Open):
    key: str
    label: str
    hint: str
    rolls: bool
    fields: dict[str, Any] = Field(description="Sent with the answer beside the prompt and the choice.")


class PromptOut(Open):
    """A choice the rules leave to someone: answer it with the `answer` command naming its id."""

    id: str
    to: str = Field(description='"gm", "players", or a participant id.')
    kind: str
    text: str
    answer: str
    choices: list[PromptChoiceOut]
    data: dict[str, Any] = Field(description="The prompt's own fields; their shape depends on `kind`.")
    outlives_encounter: bool
    blocking: bool
    drawn_by_system: bool


class UndoOut(Open):
    label: str


class PoolOut(Open):
    id: str
    name: str
    value: int
    min: int | None
    max: int | None
    owner: str | None = Field(description="The character it belongs to; null: the campaign's.")
    hidden: bool | None = Field(default=None, description="The GM's only.")
    gm_only: bool
    owner_name: str | None
    can_adjust: bool


class TrackOut(Open):
    id: str
    name: str
    filled: int
    total: int
    owner: str | None
    hidden: bool | None = Field(default=None, description="The GM's only.")
    owner_name: str | None
    can_adjust: bool
    boxes: list[bool]


class PresetOut(Open):
    id: str
    label: str
    expression: str
    target: int | None
    owner: str | None


class InitiativeEntryOut(Open):
    participant: str
    name: str
    value: int
    kind: str
    current: bool
    mine: bool


class Initiative(Open):
    round: int
    entries: list[InitiativeEntryOut]
    current: str | None
    current_name: str | None
    my_turn: bool


class Ruling(Open):
    """A house rule the GM may change: yes/no or one of its choices."""

    key: str
    text: str
    value: JsonValue
    choices: list[JsonValue]


class View(Open):
    """The caller's view of the campaign: only what their seat may see.

    `system` is the game system's own part (absent for the generic tabletop); `rulings` (the GM's only)
    lists the system's settings a GM may change.
    """

    campaign: CampaignInfo
    me: Me
    seats: list[SeatInfo]
    participants: list[ParticipantOut]
    encounters: list[EncounterOut]
    encounter: ActiveEncounter | None
    prompts: list[PromptOut]
    undo: UndoOut | None
    map: MapView
    pools: list[PoolOut]
    tracks: list[TrackOut]
    presets: list[PresetOut]
    initiative: Initiative
    # Open by design: each game system writes its own part, typed by that system, not here.
    system: dict[str, Any] | None = Field(default=None, description="The game system's own part of the view.")
    options: list[Option]
    rulings: list[Ruling] | None = Field(default=None, description="The GM's only: rulings to change.")


class CommandReply(Closed):
    seq: int
    events: list[EventOut]
    view: View


class EventsPage(Closed):
    seq: int = Field(description="Ask again with after=seq for what comes next.")
    events: list[EventOut]


class EncounterRef(Closed):
    id: str
    name: str
    status: str


class ReplayStep(Closed):
    seq: int
    text: str
    type: str


class LogEntry(Open):
    """A line of the dice log, newest first."""

    seq: int
    type: str
    text: str
    by: str | None = Field(description="The name of the seat that did it.")
    at: str | None = Field(description="When it was written (ISO 8601).")
    undone: bool
    secret: bool
    rolls: list[dict[str, Any]] = Field(description="The dice it shows: each roll's expression and terms.")


class Replay(Closed):
    encounter: EncounterRef
    seq: int
    steps: list[int]
    events: list[ReplayStep]
    view: View
    log: list[LogEntry]


class CommandInfo(Closed):
    type: str
    summary: str
    gm_only: bool
    rolls: bool
    schema_: dict[str, Any] = Field(alias="schema", description="The command's JSON schema.")


class SystemInfo(Closed):
    key: str
    title: str
    summary: str
    docs: str
    settings: dict[str, Any] | None = Field(description="JSON schema of the rulings a GM may change.")
    commands: list[CommandInfo]


class Signal(Open):
    """What was relayed, as the others receive it."""


def operation_id(route: APIRoute) -> str:
    """Each operation is named after its function (`command`, `events`): what a generated client calls."""
    return route.name
