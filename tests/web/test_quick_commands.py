"""The command routes' quick way in (app/web/quick_commands.py): every request answered as the routes
themselves answer it, and the JSON objects and forms it takes answered without the routes."""

from __future__ import annotations

import re
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
    if isinstance(body, str):
        body = re.sub(r"\d+", "#", body)  # each app's roll is its own dice; a pool moves on from the other's
    names = (
        "content-type",
        "location",
        "retry-after",
        "x-frame-options",
        "content-security-policy",
        "content-encoding",
        "vary",
    )
    return r.status_code, body, {h: r.headers.get(h) for h in names}


def _cases(gm: dict[str, str], cid: str) -> dict[str, dict[str, Any]]:
    roll = {"type": "generic.roll", "expression": "2d6"}
    as_json = {"content-type": "application/json"}
    return {
        "a roll": {"send": {"json": roll, "headers": gm}},
        "a roll, not compressed": {"send": {"json": roll, "headers": {**gm, "accept-encoding": "identity"}}},
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


def _page_cases(gm: dict[str, str], cid: str) -> dict[str, dict[str, Any]]:
    cookie = {"cookie": f"fray_{cid}={gm['Authorization'][7:]}"}
    page = {**cookie, "origin": "http://testserver", "hx-request": "true"}
    roll = {"type": "generic.roll", "expression": "2d6"}
    return {
        "a roll": {"send": {"data": roll, "headers": page}},
        "a pool's step": {
            "send": {"data": {"type": "generic.pool.adjust", "pool": "Gold", "delta": "1"}, "headers": page}
        },
        "a roll without HTMX, back to its page": {
            "send": {
                "data": roll,
                "headers": {
                    **cookie,
                    "origin": "http://testserver",
                    "referer": f"http://testserver/c/{cid}/gm?x=1",
                },
                "follow_redirects": False,
            }
        },
        "a roll without HTMX from elsewhere": {
            "send": {
                "data": roll,
                "headers": {
                    **cookie,
                    "sec-fetch-site": "same-origin",
                    "referer": "http://elsewhere.test/c/x/",
                },
                "follow_redirects": False,
            }
        },
        "a list field": {
            "send": {
                "data": {"type": "generic.roll", "expression": "2d6", "tags[]": ["a", "b"]},
                "headers": page,
            }
        },
        "a field that is not JSON": {
            "send": {"data": {"type": "generic.roll", "fields:json": "{nope"}, "headers": page}
        },
        "an unknown command": {"send": {"data": {"type": "nope"}, "headers": page}},
        "nothing": {"send": {"headers": {**page, "content-type": "application/x-www-form-urlencoded"}}},
        "a bearer token": {"send": {"data": roll, "headers": {**gm, "hx-request": "true"}}},
        "no seat": {"send": {"data": roll, "headers": {"origin": "http://testserver", "hx-request": "true"}}},
        "a seat of another table": {"send": {"data": roll, "headers": page}, "url": "/c/nope/commands"},
        "a cookie with no origin": {"send": {"data": roll, "headers": cookie}},
        "a cookie from another site": {
            "send": {"data": roll, "headers": {**page, "origin": "http://elsewhere.test"}}
        },
        "a multipart form": {"send": {"data": roll, "files": {"f": ("a.txt", b"x")}, "headers": page}},
        "JSON": {"send": {"json": roll, "headers": page}},
        "too large": {"send": {"data": {**roll, "label": "x" * 200_000}, "headers": page}},
    }


def _made(quick: TestClient) -> tuple[str, dict[str, str]]:
    made = quick.post("/api/campaigns", json={"name": "Quick", "system": "generic"}).json()
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    pool = quick.post(
        f"/api/campaigns/{made['id']}/commands",
        headers=gm,
        json={"type": "generic.pool.create", "name": "Gold"},
    )
    assert pool.status_code == 200
    return made["id"], gm


def _counted(monkeypatch, name: str, taken: list[str], kind_of) -> None:
    answer = getattr(quick_commands, name)

    async def counted(*args: Any) -> Any:
        taken.append(await kind_of(*args))
        return await answer(*args)

    monkeypatch.setattr(quick_commands, name, counted)


def test_every_command_is_answered_as_the_json_route_alone_answers_it(both, monkeypatch):
    quick, plain = both
    taken: list[str] = []

    async def kind(fray: Any, seat: Any, payload: dict[str, Any]) -> str:
        return str(payload["type"])

    cid, gm = _made(quick)
    _counted(monkeypatch, "command_reply", taken, kind)
    url = f"/api/campaigns/{cid}/commands"
    for name, case in _cases(gm, cid).items():
        assert _answer(quick, url, case) == _answer(plain, url, case), name
    # The JSON objects with a seat were the quick way's: answered, refused, or found to be no seat's.
    assert taken == [
        "generic.roll",
        "generic.roll",
        "generic.roll",
        "generic.pool.adjust",
        "nope",
        "generic.roll",
    ]
    # Its replies are compressed as the app's gzip layer compresses the routes' (the quick way is outside
    # it): a command's reply is over the 500 bytes it starts at.
    r = quick.post(url, json={"type": "generic.roll", "expression": "2d6"}, headers=gm)
    assert (r.headers["content-encoding"], r.headers["vary"]) == ("gzip", "Accept-Encoding")
    assert int(r.headers["content-length"]) < len(r.content)


def test_every_form_is_answered_as_the_page_route_alone_answers_it(both, monkeypatch):
    quick, plain = both
    taken: list[str] = []

    async def kind(request: Any, campaign_id: str, seat: Any, fray: Any) -> str:
        return str((await request.form()).get("type"))

    cid, gm = _made(quick)
    _counted(monkeypatch, "form_command", taken, kind)
    url = f"/c/{cid}/commands"
    for name, case in _page_cases(gm, cid).items():
        assert _answer(quick, url, case) == _answer(plain, url, case), name
    # The urlencoded forms with a seat were the quick way's (a multipart form or JSON is the route's).
    roll = "generic.roll"
    assert taken == [roll, "generic.pool.adjust", roll, roll, roll, roll, "nope", "None", roll]


def test_the_quick_way_takes_only_the_command_paths():
    assert campaign_of("/api/campaigns/abc/commands") == ("api", "abc")
    assert campaign_of("/c/abc/commands") == ("page", "abc")
    for path in (
        "/api/campaigns//commands",
        "/c//commands",
        "/c/abc/commands/",
        "/x/c/abc/commands",
        "/api/c/abc/commands",
        "/api/campaigns/abc/commands/",
        "/api/campaigns/abc",
        "/api/campaigns/abc/commands/x",
        "/api/seats/abc/commands",
    ):
        assert campaign_of(path) is None, path
