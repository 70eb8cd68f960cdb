"""`/api/campaigns`: create a campaign, the caller's view of it, and its commands."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Body, Request
from pydantic import Field, JsonValue

from app.rules import registry
from app.services import campaigns, commands, reads
from app.services.auth import SeatAuth
from app.services.context import Fray
from app.web.api.common import Strict, api_router, links
from app.web.deps import CommandSeatDep, FrayDep, SeatDep, base_url, limit_new_campaign, limit_seat
from app.web.replies import ReplyJSON
from app.web.schemas import SEATED, CampaignCreated, CommandReply, View, errors

router = api_router("api")

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
    seat: CommandSeatDep,
    fray: FrayDep,
    payload: Annotated[dict[str, Any], Body(examples=[{"type": "generic.roll", "expression": "2d6"}])],
):
    """Run a command: `{"command_id": "...", "type": "generic.roll", ...}`.

    A repeated command_id returns the first result instead of acting twice.
    """
    # A JSON object sent as JSON is answered before it gets here (app/web/quick_commands.py): this route
    # answers the rest, and is what the OpenAPI describes.
    return await command_reply(fray, seat, payload)


async def command_reply(fray: Fray, seat: SeatAuth, payload: dict[str, Any]) -> ReplyJSON:
    """A seat's command run, and its reply."""
    await limit_seat(fray, "commands", seat.seat_id)
    result = await commands.run(fray, seat, payload)
    # Written as it is built, not checked against `CommandReply` on the way out: a GM's reply holds the
    # whole view (a scene's 300 walls), and checking it cost more than the command (docs/performance.md).
    # The tests check every reply they get against the model (tests/helpers.py).
    return ReplyJSON(await reads.reply_for_async(fray, seat, result))
