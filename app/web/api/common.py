"""What the JSON API's resource modules share: strict request bodies, the seat's links, the router."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from app.services.context import Fray
from app.web.deps import base_url
from app.web.schemas import operation_id


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def api_router(tag: str) -> APIRouter:
    """A resource's router. Tags group operations in /docs and name a generated client's modules, so the
    routes that were one `api` router keep its tag."""
    return APIRouter(prefix="/api", tags=[tag], generate_unique_id_function=operation_id)


def links(request: Request, fray: Fray, campaign_id: str, invite: str, spectator: str) -> dict[str, str]:
    base = base_url(request, fray)
    return {
        "invite_url": f"{base}/c/{campaign_id}/join/{invite}",
        "spectator_url": f"{base}/c/{campaign_id}/watch/{spectator}",
    }
