"""What the JSON API sends back, as models: they type /openapi.json, and FastAPI checks each reply.

Replies are open where a game system adds its own part (the view's `system`, an event's `data`): the
common fields are typed, the rest is an object that a client reads by the system it chose. Declared
fields are the ones every reply carries; routes that may leave one out answer with `exclude_unset`, so
nothing is added to a reply that was not in it.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field

from app.rules.system import Option

Role = Literal["gm", "player", "spectator"]


class Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Open(BaseModel):
    """Typed where every system agrees; whatever else a system sends is kept as it is."""

    model_config = ConfigDict(extra="allow")


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


class CampaignInfo(Open):
    id: str
    name: str
    system: str
    dice_mode: Literal["server", "manual"]
    settings: dict[str, Any]
    seq: int
    system_title: str
    owns_initiative: bool


class Me(Open):
    seat_id: str | None
    role: Role
    name: str | None
    participants: list[str]


class MapView(Open):
    scene: str | None = Field(description="The id of the scene this viewer looks at; its fields follow.")
    shown: str | None
    scenes: list[dict[str, Any]] | None = Field(default=None, description="The GM's only: every scene.")
    assets: list[dict[str, Any]] | None = Field(
        default=None, description="The GM's only: every uploaded image."
    )


class Initiative(Open):
    round: int
    entries: list[dict[str, Any]]
    current: str | None
    current_name: str | None
    my_turn: bool


class View(Open):
    """The caller's view of the campaign: only what their seat may see.

    `system` is the game system's own part (absent for the generic tabletop); `rulings` (the GM's only)
    lists the system's settings a GM may change.
    """

    campaign: CampaignInfo
    me: Me
    seats: list[dict[str, Any]]
    participants: list[dict[str, Any]]
    encounters: list[dict[str, Any]]
    encounter: dict[str, Any] | None
    prompts: list[dict[str, Any]]
    undo: dict[str, Any] | None
    map: MapView
    pools: list[dict[str, Any]]
    tracks: list[dict[str, Any]]
    presets: list[dict[str, Any]]
    initiative: Initiative
    system: dict[str, Any] | None = Field(default=None, description="The game system's own part of the view.")
    options: list[Option]
    rulings: list[dict[str, Any]] | None = Field(
        default=None, description="The GM's only: rulings to change."
    )


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


class Replay(Closed):
    encounter: EncounterRef
    seq: int
    steps: list[int]
    events: list[ReplayStep]
    view: View
    log: list[dict[str, Any]]


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
