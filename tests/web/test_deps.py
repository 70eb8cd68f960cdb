"""Every route's dependencies and endpoint are coroutines: FastAPI runs a plain `def` in a worker
thread, a hop that cost each request more CPU than the work it did (app/web/deps.py)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute

from app.main import create_app
from app.settings import Settings


def calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        yield from calls(sub)
    if dependant.call is not None:
        yield dependant.call


def routes(items: list[Any]) -> Iterator[APIRoute | APIWebSocketRoute]:
    for route in items:
        if isinstance(route, APIRoute | APIWebSocketRoute):
            yield route
        included = getattr(route, "original_router", None)  # FastAPI keeps an included router whole
        if included is not None:
            yield from routes(included.routes)


def test_no_route_runs_a_dependency_or_endpoint_in_a_worker_thread(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/fray.db"))
    found = list(routes(app.routes))
    assert {"/api/campaigns/{campaign_id}/commands", "/healthz"} <= {r.path for r in found}
    threaded = [
        f"{route.path}: {call.__qualname__}"
        for route in found
        for call in calls(route.dependant)
        if not inspect.iscoroutinefunction(call)
    ]
    assert threaded == []


def test_the_command_route_solves_one_level_of_dependencies(tmp_path: Path) -> None:
    """FastAPI solves each level of a dependency tree per request: the seat is one dependency."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/fray.db"))
    route = next(r for r in routes(app.routes) if r.path == "/api/campaigns/{campaign_id}/commands")
    assert route.dependant.dependencies
    assert all(not sub.dependencies for sub in route.dependant.dependencies)
