"""The JSON API (stable; tests and bots use it). Every route: parse, call a service, reply.

A seat here is its bearer token, handed back in the reply: no route sets a cookie. The pages set theirs
on their own routes; a cookie kept by an API client would ask each of its later posts for an Origin.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from app.rules import registry
from app.services import campaigns, commands, reads
from app.web.deps import (
    FrayDep,
    GmDep,
    SeatDep,
    base_url,
    limit_address,
    limit_new_campaign,
    limit_seat,
)
from app.web.schemas import (
    SEATED,
    CampaignCreated,
    CommandReply,
    EventsPage,
    Joined,
    Links,
    Replay,
    Seats,
    SystemInfo,
    View,
    errors,
    operation_id,
)

MAX_SEQ = 2**53  # beyond any log; larger numbers would overflow the database's integers

router = APIRouter(prefix="/api", tags=["api"], generate_unique_id_function=operation_id)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


SYSTEM_KEYS: list[JsonValue] = list(registry.systems())


class CreateCampaign(Strict):
    name: str = Field(min_length=1, max_length=60, examples=["Friday Night Fights"])
    # Checked against the registry (its refusal names the choices); the schema lists them.
    system: str = Field(
        default="generic", max_length=32, examples=["generic"], json_schema_extra={"enum": SYSTEM_KEYS}
    )
    dice: Literal["server", "manual"] = "server"
    gm_name: str | None = Field(default=None, max_length=40)
    admin_password: str | None = Field(default=None, max_length=200)


class Join(Strict):
    invite: str = Field(min_length=1, max_length=100, description="The code that ends invite_url")
    name: str = Field(min_length=1, max_length=40)


class Watch(Strict):
    code: str = Field(min_length=1, max_length=100, description="The code that ends spectator_url")
    name: str | None = Field(default=None, max_length=40)


class Rotate(Strict):
    which: Literal["invite", "spectator"] = "invite"


def links(request: Request, fray, campaign_id: str, invite: str, spectator: str) -> dict[str, str]:
    base = base_url(request, fray)
    return {
        "invite_url": f"{base}/c/{campaign_id}/join/{invite}",
        "spectator_url": f"{base}/c/{campaign_id}/watch/{spectator}",
    }


@router.post(
    "/campaigns", status_code=201, response_model=CampaignCreated, responses=errors(403, 413, 422, 429, 503)
)
async def create_campaign(body: CreateCampaign, request: Request, fray: FrayDep):
    await limit_new_campaign(request, fray)
    new = await campaigns.create_async(
        fray, body.name, body.system, body.dice, body.gm_name, body.admin_password
    )
    return {
        "id": new.id,
        "seat_id": new.gm.seat_id,
        "gm_token": new.gm.token,
        "gm_url": f"{base_url(request, fray)}/c/{new.id}/gm",
        **links(request, fray, new.id, new.invite_code, new.spectator_code),
    }


@router.post(
    "/campaigns/{campaign_id}/join",
    status_code=201,
    response_model=Joined,
    responses=errors(403, 404, 409, 413, 422, 429, 503),
)
async def join(campaign_id: str, body: Join, request: Request, fray: FrayDep):
    await limit_address(request, fray, "join")
    seat = await campaigns.join_async(fray, campaign_id, body.invite, body.name)
    return {"seat_id": seat.seat_id, "token": seat.token, "role": seat.role}


@router.post(
    "/campaigns/{campaign_id}/watch",
    status_code=201,
    response_model=Joined,
    responses=errors(403, 404, 409, 413, 422, 429, 503),
)
async def watch(campaign_id: str, body: Watch, request: Request, fray: FrayDep):
    await limit_address(request, fray, "join")
    seat = await campaigns.join_async(fray, campaign_id, body.code, body.name, role="spectator")
    return {"seat_id": seat.seat_id, "token": seat.token, "role": seat.role}


@router.get(
    "/campaigns/{campaign_id}", response_model=View, response_model_exclude_unset=True, responses=SEATED
)
async def campaign_view(campaign_id: str, seat: SeatDep, fray: FrayDep, scene: str | None = None) -> Any:
    """The caller's view of the campaign: only what their seat may see.

    `scene` picks the map scene a GM looks at (players always get the one shown to them).
    """
    return await reads.view_for_async(fray, seat, scene)


@router.post(
    "/campaigns/{campaign_id}/commands",
    response_model=CommandReply,
    response_model_exclude_unset=True,
    responses=SEATED,
)
async def command(
    campaign_id: str,
    seat: SeatDep,
    fray: FrayDep,
    payload: Annotated[dict[str, Any], Body(examples=[{"type": "generic.roll", "expression": "2d6"}])],
):
    """Run a command: `{"command_id": "...", "type": "generic.roll", ...}`.

    A repeated command_id returns the first result instead of acting twice.
    """
    await limit_seat(fray, "commands", seat.seat_id)
    result = await commands.run(fray, seat, payload)
    return await reads.reply_for_async(fray, seat, result)


@router.get("/campaigns/{campaign_id}/events", response_model=EventsPage, responses=SEATED)
async def events(
    campaign_id: str,
    seat: SeatDep,
    fray: FrayDep,
    after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 500,
) -> Any:
    """Events after `after` that the caller may see (GM-only rolls and hidden characters are left out)."""
    return await reads.events_for_async(fray, seat, after, limit)


@router.get(
    "/campaigns/{campaign_id}/encounters/{encounter_id}/replay",
    response_model=Replay,
    response_model_exclude_unset=True,
    responses=SEATED,
)
async def replay(
    campaign_id: str,
    encounter_id: str,
    seat: SeatDep,
    fray: FrayDep,
    seq: Annotated[int | None, Query(ge=0)] = None,
) -> Any:
    """An encounter's log, and the table as it stood at `seq` (default: the encounter's last event)."""
    return await reads.replay_for_async(fray, seat, encounter_id, seq)


@router.get("/campaigns/{campaign_id}/seats", response_model=Seats, responses=SEATED)
async def seats(campaign_id: str, seat: GmDep, request: Request, fray: FrayDep) -> Any:
    invite, spectator = await campaigns.codes_async(fray, seat)
    view = await reads.view_for_async(fray, seat)
    return {"seats": view["seats"], **links(request, fray, campaign_id, invite, spectator)}


@router.post("/campaigns/{campaign_id}/seats/{seat_id}/revoke", status_code=204, responses=SEATED)
async def revoke(campaign_id: str, seat_id: str, seat: GmDep, fray: FrayDep) -> Response:
    await campaigns.revoke_async(fray, seat, seat_id)
    return Response(status_code=204)


@router.post("/campaigns/{campaign_id}/invite/rotate", response_model=Links, responses=SEATED)
async def rotate(
    campaign_id: str, seat: GmDep, request: Request, fray: FrayDep, body: Rotate | None = None
) -> Any:
    which = body.which if body else "invite"
    await campaigns.rotate_async(fray, seat, which)
    invite, spectator = await campaigns.codes_async(fray, seat)
    return links(request, fray, campaign_id, invite, spectator)


@router.get("/systems", response_model=list[SystemInfo])
async def systems() -> Any:
    """Every game system, its commands and their JSON schemas."""
    out = []
    for key, system in registry.systems().items():
        game = registry.game(key)
        settings = system.settings_model.model_json_schema() if system.settings_model else None
        out.append(
            {
                "key": key,
                "title": system.title,
                "summary": system.summary,
                "docs": system.docs,
                "settings": settings,
                "commands": [
                    {
                        "type": spec.type,
                        "summary": spec.summary,
                        "gm_only": spec.gm_only,
                        "rolls": spec.rolls,
                        "schema": spec.model.model_json_schema(),
                    }
                    for spec in game.commands.values()
                ],
            }
        )
    return out
