"""The JSON command route's quick way in (app/web/quick_commands.py): every request answered as the
route itself answers it, and the JSON objects it takes answered without the route."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.web import quick_commands
from app.web.quick_commands import QuickCommands, campaign_of
from tests.helpers import replies_as_declared


@pytest.fixture
def both(settings: Settings) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on one database: as served, and with the route alone."""
    quick = create_app(settings)
    plain = create_app(settings)
    plain.user_middleware = [m for m in plain.user_middleware if m.cls is not QuickCommands]
    assert len(plain.user_middleware) == len(quick.user_middleware) - 1
    with TestClient(quick) as a, TestClient(plain) as b:
        for c in (a, b):
            c.event_hooks["response"].append(replies_as_declared)
        yield a, b


def _answer(client: TestClient, url: str, case: dict[str, Any]) -> tuple[int, Any, dict[str, str | None]]:
    r = client.request(case.get("method", "POST"), case.get("url", url), **case.get("send", {}))
    try:
        body = r.json()
    except ValueError:
        body = r.text
    if r.status_code == 200 and isinstance(body, dict) and "events" in body:
        body = [e["type"] for e in body["events"]]  # each app's command is its own event
    names = ("content-type", "retry-after", "x-frame-options", "content-security-policy")
    return r.status_code, body, {h: r.headers.get(h) for h in names}


def _cases(gm: dict[str, str], cid: str) -> dict[str, dict[str, Any]]:
    roll = {"type": "generic.roll", "expression": "2d6"}
    as_json = {"content-type": "application/json"}
    return {
        "a roll": {"send": {"json": roll, "headers": gm}},
        "JSON with a charset": {
            "send": {
                "content": b'{"type": "generic.roll", "expression": "2d6"}',
                "headers": {**gm, "content-type": "Application/JSON; charset=utf-8"},
            }
        },
        "refused by the rules": {
            "send": {"json": {"type": "generic.pool.adjust", "pool": "Nope", "delta": 1}, "headers": gm}
        },
        "an unknown command": {"send": {"json": {"type": "nope"}, "headers": gm}},
        "a field of the wrong kind": {
            "send": {"json": {"type": "generic.roll", "expression": 3}, "headers": gm}
        },
        "no seat": {"send": {"json": roll}},
        "a seat of another table": {
            "send": {"json": roll, "headers": gm},
            "url": "/api/campaigns/nope/commands",
        },
        "a token nobody holds": {"send": {"json": roll, "headers": {"Authorization": "Bearer x" * 3}}},
        "not JSON": {"send": {"content": b"{nope", "headers": {**gm, **as_json}}},
        "not JSON and no seat": {"send": {"content": b"{nope", "headers": as_json}},
        "not UTF-8": {"send": {"content": '{"type": "é"}'.encode("latin-1"), "headers": {**gm, **as_json}}},
        "a list": {"send": {"json": [1, 2], "headers": gm}},
        "a list and no seat": {"send": {"json": [1, 2]}},
        "null": {"send": {"json": None, "headers": gm}},
        "nothing": {"send": {"content": b"", "headers": {**gm, **as_json}}},
        "JSON as text": {
            "send": {"content": b'{"type": "generic.roll"}', "headers": {**gm, "content-type": "text/plain"}}
        },
        "JSON without a content type": {"send": {"content": b'{"type": "generic.roll"}', "headers": gm}},
        "a form": {"send": {"data": {"type": "generic.roll"}, "headers": gm}},
        "too large": {"send": {"json": {"type": "generic.roll", "label": "x" * 200_000}, "headers": gm}},
        "a cookie from another site": {
            "send": {
                "json": roll,
                "headers": {
                    "origin": "http://elsewhere.test",
                    "cookie": f"fray_{cid}={gm['Authorization'][7:]}",
                },
            }
        },
        "a GET": {"method": "GET", "send": {"headers": gm}},
        "a trailing slash": {
            "send": {"json": roll, "headers": gm, "follow_redirects": False},
            "url": f"/api/campaigns/{cid}/commands/",
        },
    }


def test_every_request_is_answered_as_the_route_alone_answers_it(both, monkeypatch):
    quick, plain = both
    taken: list[str] = []
    reply = quick_commands.command_reply

    async def counted(*args: Any) -> Any:
        taken.append(args[2]["type"])
        return await reply(*args)

    monkeypatch.setattr(quick_commands, "command_reply", counted)
    made = quick.post("/api/campaigns", json={"name": "Quick", "system": "generic"}).json()
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    url = f"/api/campaigns/{made['id']}/commands"
    for name, case in _cases(gm, made["id"]).items():
        assert _answer(quick, url, case) == _answer(plain, url, case), name
    # The JSON objects with a seat were the quick way's: answered, refused, or found to be no seat's.
    assert taken == ["generic.roll", "generic.roll", "generic.pool.adjust", "nope", "generic.roll"]


def test_the_quick_way_takes_only_the_command_path():
    assert campaign_of("/api/campaigns/abc/commands") == "abc"
    for path in (
        "/api/campaigns//commands",
        "/api/campaigns/abc/commands/",
        "/api/campaigns/abc",
        "/c/abc/commands",
        "/api/campaigns/abc/commands/x",
        "/api/seats/abc/commands",
    ):
        assert campaign_of(path) is None, path
