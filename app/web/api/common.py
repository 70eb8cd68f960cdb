"""What the JSON API's resource modules share: strict request bodies, the seat's links, the router."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict
from starlette.routing import Match
from starlette.types import Scope

from app.services.context import Fray
from app.web.deps import base_url
from app.web.schemas import operation_id


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class PrefixRouter(APIRouter):
    """A router whose every route starts with its prefix, so a request for another path is told at once
    that none matches. The framework tries a request against each route of each router in turn (twice:
    to choose and to run it), some microseconds a route (10 under cProfile): a page's form, its table's
    command, walked all 24 of the API's first, a few tenths of a millisecond a tap (docs/performance.md)."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        # The path holds the route's path (after any root path), so no prefix in it, no route of ours.
        if self.prefix not in scope.get("path", ""):
            return Match.NONE, {}
        return super().matches(scope)


def api_router(tag: str) -> APIRouter:
    """A resource's router. Tags group operations in /docs and name a generated client's modules, so the
    routes that were one `api` router keep its tag."""
    return PrefixRouter(prefix="/api", tags=[tag], generate_unique_id_function=operation_id)


def links(request: Request, fray: Fray, campaign_id: str, invite: str, spectator: str) -> dict[str, str]:
    base = base_url(request, fray)
    return {
        "invite_url": f"{base}/c/{campaign_id}/join/{invite}",
        "spectator_url": f"{base}/c/{campaign_id}/watch/{spectator}",
    }
