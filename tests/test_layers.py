"""The layers keep their jobs (ARCHITECTURE.md, "Layers"): app/web knows HTTP and calls services; it
never runs blocking code itself. Each service entry point app/web calls is async and owns its hop off the
loop (a worker thread, or the database's `run_read`) and its publish."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "app" / "web"
# What belongs to the services: the thread hop and the database's own helper for it.
BLOCKING_HELPERS = {"to_thread", "run_sync", "run_read", "run_in_executor", "run_in_threadpool"}


def _modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def blocking_calls(source: str) -> list[str]:
    """Imports of anyio, asyncio.to_thread or Starlette's thread pool, and calls of thread-hop helpers."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "anyio"]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] == "anyio" or node.module == "starlette.concurrency":
                found.append(node.module)
            found += [a.name for a in node.names if a.name in BLOCKING_HELPERS]
        elif isinstance(node, ast.Attribute) and node.attr in BLOCKING_HELPERS:
            found.append(node.attr)
    return found


def test_app_web_never_runs_blocking_code_itself():
    offenders = {
        str(path.relative_to(ROOT)): calls
        for path in _modules(WEB)
        if (calls := blocking_calls(path.read_text()))
    }
    assert offenders == {}, "call an async service entry point instead (app/services owns its threads)"


def test_the_check_finds_what_it_looks_for():
    assert blocking_calls("from anyio import to_thread") == ["anyio", "to_thread"]
    assert blocking_calls("import anyio.to_thread") == ["anyio.to_thread"]
    assert blocking_calls("async def f(fray):\n    await fray.db.run_read(g)") == ["run_read"]
    assert blocking_calls("import asyncio\nasync def f():\n    await asyncio.to_thread(g)") == ["to_thread"]
    assert blocking_calls("from starlette.concurrency import run_in_threadpool") == [
        "starlette.concurrency",
        "run_in_threadpool",
    ]
    assert blocking_calls("from app.services import reads\nreads.view_for_async") == []


# One router per resource (ARCHITECTURE.md, "Style"): each module of app/web/api serves the resources
# named here and no other; a route for a new resource gets its own module (or a line here saying why not).
# A route's resource is its first path segment after /api/campaigns/{campaign_id}, or after /api.
RESOURCES = {
    "campaigns": {"campaigns", "commands"},
    "seats": {"join", "watch", "seats", "invite"},
    "events": {"events", "encounters"},
    "systems": {"systems"},
    "maps": {"assets", "scenes", "signals"},
    "pictures": {"pictures", "tokens"},
    "backups": {"export", "import"},
}


def resource_of(path: str) -> str:
    rest = path.removeprefix("/api/campaigns/{campaign_id}")
    if rest == "":
        return "campaigns"
    if rest != path:
        return rest.split("/")[1]
    rest = path.removeprefix("/api/")
    return "import" if rest == "campaigns/import" else rest.split("/")[0]


def test_each_api_module_serves_one_resource_through_one_router(client):
    from fastapi.routing import APIRoute

    from app.web import api

    modules = {path.stem for path in (WEB / "api").glob("*.py")} - {"__init__", "common"}
    assert modules == set(RESOURCES), "a new module of app/web/api names its resources in RESOURCES"
    for name in modules:
        source = (WEB / "api" / f"{name}.py").read_text()
        assert source.count("router = api_router(") == 1, name
    served: dict[str, set[str]] = {}
    paths = set()
    for router in api.ROUTERS:
        for route in router.routes:
            assert isinstance(route, APIRoute)
            served.setdefault(route.endpoint.__module__.rsplit(".", 1)[1], set()).add(resource_of(route.path))
            paths.add(route.path)
    assert served == RESOURCES
    # Every JSON route the app serves comes from these routers.
    document = client.get("/openapi.json").json()
    assert {path for path in document["paths"] if path.startswith("/api/")} == paths


def test_a_route_is_known_by_its_resource():
    assert resource_of("/api/campaigns") == "campaigns"
    assert resource_of("/api/campaigns/{campaign_id}") == "campaigns"
    assert resource_of("/api/campaigns/{campaign_id}/seats/{seat_id}/revoke") == "seats"
    assert resource_of("/api/campaigns/import") == "import"
    assert resource_of("/api/systems") == "systems"
