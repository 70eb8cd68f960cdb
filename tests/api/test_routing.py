"""The API's routers tell a request for another path at once that none of their routes matches."""

from __future__ import annotations

from typing import Any

from starlette.routing import Match
from starlette.types import Scope

from app.web.api import ROUTERS
from app.web.api.common import PrefixRouter


def test_every_api_route_starts_with_its_routers_prefix():
    # What the quick refusal relies on: a path without the prefix matches no route of the router.
    for router in ROUTERS:
        assert isinstance(router, PrefixRouter)
        assert router.routes
        assert all(route.path.startswith(router.prefix + "/") for route in router.routes)  # type: ignore[attr-defined]


def test_a_page_is_not_tried_against_the_api_routes_and_an_api_call_still_is(client, monkeypatch):
    tried: list[str] = []
    for router in ROUTERS:
        for route in router.routes:

            def spy(scope: Scope, route: Any = route, matches: Any = route.matches) -> Any:
                tried.append(route.path)
                return matches(scope)

            monkeypatch.setattr(route, "matches", spy)
    made = client.post("/api/campaigns", json={"name": "Routes", "system": "generic"})
    assert made.status_code == 201 and "/api/campaigns" in tried
    tried.clear()
    page = client.get(f"/c/{made.json()['id']}/join/{made.json()['invite_url'].rsplit('/', 1)[1]}")
    assert page.status_code == 200
    assert tried == []
    scope = {"type": "http", "method": "POST", "path": "/c/abc/commands", "root_path": "", "headers": []}
    assert all(router.matches(scope) == (Match.NONE, {}) for router in ROUTERS)
