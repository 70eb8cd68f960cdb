"""`/api/campaigns/{id}/...` seats and invites: join or watch with a code, the GM's list of seats,
revoking a seat, rotating the invite (or spectator) link."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import Request, Response
from pydantic import Field

from app.services import campaigns, reads
from app.web.api.common import Strict, api_router, links
from app.web.deps import FrayDep, GmDep, limit_address
from app.web.schemas import SEATED, Joined, Links, Seats, errors

router = api_router("api")


class Join(Strict):
    invite: str = Field(min_length=1, max_length=100, description="The code that ends invite_url")
    name: str = Field(min_length=1, max_length=40)


class Watch(Strict):
    code: str = Field(min_length=1, max_length=100, description="The code that ends spectator_url")
    name: str | None = Field(default=None, max_length=40)


class Rotate(Strict):
    which: Literal["invite", "spectator"] = "invite"


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
